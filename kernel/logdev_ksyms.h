/* SPDX-License-Identifier: GPL-2.0 */
/*
 * logdev_ksyms.h - the kernel's symbols (vmlinux and the loaded modules),
 * walked through interfaces the kernel supports (logdev_ksyms.c), one
 * callback shape on every kernel, and the questions the probes feature asks
 * of them (logdev_ksyms_query.c: how many definitions a name has, which
 * names contain it, which text symbols match a glob).
 *
 * Two sources, chosen by the "ksyms" debugfs file and parameter
 * (docs/DEBUGFS.md): "iter", the kernel's iterators
 * kallsyms_on_each_symbol() and module_kallsyms_on_each_symbol() (not
 * exported: found through a disabled kprobe, called through their declared
 * prototypes from the target's headers, only at a function's entry and
 * only where IBT allows it), and "procfs", /proc/kallsyms read through the
 * kernel's file API; "auto" takes iter where it can be called, else procfs.
 * Without either a question returns -EOPNOTSUPP and ld_ksyms_why() says why.
 *
 * Layer: probes (used by logdev_probe_syms.c and logdev_probe_tp.c, the
 * "ksyms" file by logdev_probes.c and logdev_main.c);
 * logdev_ksyms_query.c calls logdev_ksyms.c, which calls nothing of logdev
 * but the control files' parsers.  Every function here sleeps (process context)
 * and serialises on its own mutex; callbacks run under it (and, with the
 * iter source, under the kernel's module_mutex): they must not call back
 * into this file.
 */
#ifndef _LOGDEV_KSYMS_H
#define _LOGDEV_KSYMS_H

#include <linux/types.h>
#include <linux/module.h>

struct dentry;

/**
 * struct ld_ksym - one kernel symbol, as a walk hands it to its callback
 * @name: its name, NUL-terminated, shorter than KSYM_NAME_LEN (valid
 *        during the call only)
 * @mod:  the module that defines it (NUL-terminated, shorter than
 *        MODULE_NAME_LEN; valid during the call only), NULL for vmlinux
 * @addr: its address
 * @text: it is core text: vmlinux's [_stext, _etext) (no __init code, no
 *        data), a module's text region (see ld_ksyms_walk())
 */
struct ld_ksym {
	const char *name;
	const char *mod;
	unsigned long addr;
	bool text;
};

/* A walk's callback: 0 to go on, anything else stops the walk. */
typedef int (*ld_ksym_fn)(void *data, const struct ld_ksym *s);

/* what ld_ksyms_walk() visits */
#define LD_KSYMS_VMLINUX	1
#define LD_KSYMS_MODULES	2

/* the "ksyms" setting: which source */
enum ld_ksyms_mode {
	LD_KSYMS_AUTO,
	LD_KSYMS_ITER,
	LD_KSYMS_PROCFS,
	LD_KSYMS_NR_MODES
};
extern const char * const ld_ksyms_mode_names[LD_KSYMS_NR_MODES];

int ld_ksyms_set_mode(enum ld_ksyms_mode mode);
enum ld_ksyms_mode ld_ksyms_get_mode(void);
void ld_ksyms_init(struct dentry *dir);

int ld_ksyms_walk(unsigned int which, const char *modname, ld_ksym_fn fn,
		  void *data);
void ld_ksyms_why(char *buf, size_t size);

/*
 * The probes feature's questions (logdev_ksyms_query.c).  Each returns 0 or
 * the -errno of ld_ksyms_walk() (-EOPNOTSUPP: no source, ld_ksyms_why()).
 */
#define LD_KSYMS_CANDIDATES	6	/* names ld_ksym_similar() writes at most */

int ld_ksym_addr(const char *name, unsigned long *addr, unsigned int *count);
int ld_ksyms_find(const char * const *names, unsigned long *addrs, u32 n);
int ld_ksym_count(const char *name, const char *mod, size_t modlen,
		  unsigned int *count, char *found);
int ld_ksyms_count_each(const char * const *names, unsigned int *counts,
			unsigned int n);
int ld_ksym_similar(const char *sym, char *out, size_t size,
		    unsigned int *count);
int ld_ksym_module_loaded(const char *name, size_t len);
void ld_ksym_addr_module(unsigned long addr, char *out);

/**
 * struct ld_ksym_glob - text symbols matching a glob (ld_ksyms_glob())
 * @names:  "NAME" (vmlinux) or "MOD:NAME", sorted, each once
 * @copies: per name, how many text symbols have it (> 1: a static
 *          function defined more than once, which a probe by name refuses)
 * @n:      how many matched (more than @max: only @max were kept, unsorted)
 * @max:    entries of @names and @copies
 */
struct ld_ksym_glob {
	char **names;
	u16 *copies;
	unsigned int n, max;
};

int ld_ksyms_glob(struct ld_ksym_glob *g, const char *pat, unsigned int max,
		  unsigned int *dups);
void ld_ksyms_glob_free(struct ld_ksym_glob *g);

#endif /* _LOGDEV_KSYMS_H */
