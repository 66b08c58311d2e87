/* SPDX-License-Identifier: GPL-2.0 */
/*
 * logdev_probes.h - what the files of the run-time probes share: the probe
 * spec a command is parsed into (struct ld_probe, its fetches), the
 * parsing context and the error log, and each file's entry points.
 *
 * Layer: probes (kernel/Makefile.objs), below the features (logdev_probes.c
 * creates the debugfs files) and above the recording core.  Its files,
 * top down (each calls only the ones below it):
 *   logdev_probe_arm.c    register, re-arm, the module and tracepoint notifiers
 *   logdev_probe_parse.c  grammar -> spec (portable: tests/fuzz builds it)
 *   logdev_probe_syms.c   symbol lookup, uniqueness, "did you mean", globs
 *   logdev_probe_tp.c     tracepoints, arguments by BTF
 *   logdev_probe_fetch.c  hit-time handlers and fetch (the hot path)
 *   logdev_probe_log.c    ld_fail() and the error_log ring (portable)
 * Portable parts (parse, log) see only the members outside __KERNEL__;
 * in userspace the includer provides the kernel's types and string helpers
 * first (tests/fuzz/kshim/ldk_probe.h).
 */
#ifndef _LOGDEV_PROBES_H
#define _LOGDEV_PROBES_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/list.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/kallsyms.h>
#include <linux/mutex.h>
#endif
#include "logdev_btf.h"

#define LD_PROBE_NAME_LEN	64
#define LD_PROBE_MAX_ARGS	8
#define LD_PROBE_CMD_MAX	1024	/* bytes of one write */

#ifdef CONFIG_X86_64
#define LD_TP_MAX_ARGS		5	/* register arguments after __data */
#define LD_PROBE_REGS		1	/* %REG: ld_fetch_reg() knows pt_regs */
#else
#define LD_TP_MAX_ARGS		0
#define LD_PROBE_REGS		0
#endif

#define LD_PROBE_STR_MAX	48	/* bytes of a :string value, NUL included */
#define LD_FETCH_DEPTH		4	/* nested +OFF(...) dereferences */
#define LD_ANAME_LEN		32
#define LD_MAXACTIVE_MAX	4096	/* as ftrace's KRETPROBE_MAXACTIVE_MAX */
#define LD_FAULT_MARK		"(fault)"	/* a value that faulted */
#define LD_CUT_MARK		"[cut]"		/* a string longer than kept */

#define LD_GLOB_ATTACH_MAX	64	/* probes one glob spec may attach */
#define LD_LIST_MAX		2000	/* functions probe_functions lists */

/* Where a fetch argument's value starts (ftrace's kprobe_events FETCHARG). */
enum ld_fetch_base {
	LD_FB_ARG,	/* $argN: @val = N */
	LD_FB_RETVAL,	/* $retval */
	LD_FB_REG,	/* %REG: @val = offset in struct pt_regs */
	LD_FB_IMM,	/* @SYM, @ADDR: @val = the address (then one deref) */
	LD_FB_STACKN,	/* $stackN: @val = N */
	LD_FB_STACK,	/* $stack: the stack pointer */
	LD_FB_COMM,	/* $comm: current->comm, a string */
};

/* How it is recorded, and printed (the site's format says which). */
enum ld_fetch_type {
	LD_FT_LEGACY,	/* no :TYPE: u64, "0x%llx" as ftrace's x64 (short forms) */
	LD_FT_U,	/* uN: "%llu" */
	LD_FT_S,	/* sN: "%lld", sign-extended from N bits */
	LD_FT_X,	/* xN: "0x%llx" */
	LD_FT_STRING,	/* string: "\"%s\"", at most LD_PROBE_STR_MAX bytes */
	LD_FT_SYMBOL,	/* symbol: "%pS" */
};

/**
 * struct ld_fetch - one fetch argument: a base value, dereferences, a type
 * @base:  enum ld_fetch_base
 * @type:  enum ld_fetch_type
 * @size:  bytes of the value (1, 2, 4, 8); the last dereference reads that many
 * @ndrf:  dereferences in @off, innermost first
 * @fault: the value may fault: the format has a "%s" after it that holds
 *         "" or "(fault)" (and "[cut]" for a string longer than we keep)
 * @val:   see enum ld_fetch_base
 * @off:   each dereference reads at (value + @off[i])
 * @name:  the argument's name in the format
 */
struct ld_fetch {
	u8 base, type, size, ndrf;
	bool fault;
	unsigned long val;
	long off[LD_FETCH_DEPTH];
	char name[LD_ANAME_LEN];
};

enum ld_probe_kind {
	LD_PROBE_KPROBE,
	LD_PROBE_KRETPROBE,
	LD_PROBE_TRACEPOINT,
};

/* 'p', 'r', 't' by enum ld_probe_kind (logdev_probe_parse.c) */
extern const char ld_probe_kind_char[];

struct logdev_site;
struct tracepoint;

/**
 * struct ld_probe - one attached probe
 * @list:      on ld_probes
 * @kind:      enum ld_probe_kind
 * @name:      unique name, the func of its call sites
 * @sym:       kprobes: the target as written (FUNC, MOD:FUNC, 0xADDR);
 *             tracepoints: the event name
 * @addr:      kprobes on 0xADDR: the address (else 0: by name)
 * @target_off: offset of the target in the command (for error_log)
 * @system:    tracepoints: the system as written
 * @offset:    kprobes: bytes from @sym
 * @entry:     the fetches of an entry/kprobe/tracepoint record, in order
 * @ret:       the fetches of a return record (those of $retval)
 * @nr_entry: entries used in @entry
 * @nr_ret:   entries used in @ret
 * @payload_max: bytes the largest record of this probe can take
 * @maxactive: r: MAXACTIVE as written (0: logdev's default)
 * @named:     the command gave NAME
 * @ftrace:    written in ftrace's form (p:NAME SYM): ftrace's default name
 * @group:     GRP of p:GRP/NAME as written ("" if none), for the listing
 * @args:      the argument words as written, for the listing
 * @site:      call site of entry/kprobe/tracepoint records
 * @ret_site:  call site of return records (r: only)
 * @hits:      handler calls (entries for r:)
 * @rets:      return handler calls (r:)
 * @kp:       the kprobe (p:)
 * @rp:       the kretprobe (r:)
 * @tp:       the tracepoint (t:)
 * @mod:      kprobes: the module that holds the target ("" vmlinux): MOD of
 *            MOD:FUNC, or the module FUNC or 0xADDR was found in;
 *            tracepoints: the module EVENT was found in ("" vmlinux)
 * @ksym:     kprobes by name: the name given to kprobes (MOD:FUNC once the
 *            module is known, so a reload finds the same function)
 * @armed:    registered with kprobes / the tracepoint
 * @was_armed: armed once: not armed now means gone (its module unloaded,
 *            or its __init code freed), else pending (module not loaded yet)
 * @arm_err:  the error of the last arming on a module load (0: none)
 * @missed_before: nmissed of the armings before this one (a return probe's:
 *            its kprobe's and its own)
 * @missed_inst_before: of a return probe, its own nmissed of the armings
 *            before this one: returns not caught for want of a free
 *            instance (maxactive)
 *
 * A probe on a module's function is disarmed when the module goes and
 * armed again when a module of that name comes (ld_probes_module_cb(), as
 * ftrace's trace_kprobe_module_callback()), keeping its counts; one on
 * 0xADDR stays gone (the address means nothing in the next load).  A probe
 * on a module's tracepoint likewise (ld_tp_module_cb(), the tracepoint
 * module notifier); @tp is NULL while the module is away.  The parser
 * (portable) fills the members outside __KERNEL__ only.
 */
struct ld_probe {
#ifdef __KERNEL__
	struct list_head list;
#endif
	enum ld_probe_kind kind;
	char name[LD_PROBE_NAME_LEN];
	char sym[KSYM_NAME_LEN];
	char system[LD_PROBE_NAME_LEN];
	unsigned long addr;
	unsigned long offset;
	u32 target_off;
	struct ld_fetch entry[LD_PROBE_MAX_ARGS];
	struct ld_fetch ret[LD_PROBE_MAX_ARGS];
	u32 nr_entry, nr_ret;
	u32 payload_max;
	int maxactive;
	bool ftrace, named;
	char group[LD_PROBE_NAME_LEN];
	char args[256];
	struct logdev_site *site, *ret_site;
#ifdef __KERNEL__
	atomic_long_t hits, rets;
	struct kprobe kp;
	struct kretprobe rp;
#endif
	struct tracepoint *tp;
	char mod[MODULE_NAME_LEN];
#ifdef __KERNEL__
	char ksym[MODULE_NAME_LEN + KSYM_NAME_LEN];
	bool armed, was_armed;
	int arm_err;
	unsigned long missed_before, missed_inst_before;
#endif
};

struct ld_tp_params;
struct ld_btf_param;

/*
 * Parsing context of one command: the text as written (@text, for the log)
 * and the writable copy strsep() cuts (@buf, same offsets), and the first
 * error found; a tracepoint's arguments by name once one is asked for
 * (@tpp, freed with the command), and the one the argument being parsed
 * names (@named).
 */
struct ld_pctx {
	const char *text;
	const char *buf;
	int err;
	const char *at;		/* in @buf */
	bool rearm;		/* arming on a module load, not a write */
	char reason[256];
	struct ld_tp_params *tpp;
	const struct ld_btf_param *named;
	int tp_nargs;		/* ld_tp_nargs(): 0 not looked up, -1 unknown, else N + 1 */
};

/* ---- logdev_probe_log.c: why a command was refused (error_log) */

#define LD_ERRLOG_MAX		8	/* entries kept, as ftrace's error_log */
#define LD_ERRLOG_CMD		256	/* bytes of a command kept */

/**
 * struct ld_err - one refused command, for the debugfs "error_log"
 * @ts:     local_clock() ns when it was refused
 * @reason: why
 * @cmd:    the command as written (cut at LD_ERRLOG_CMD - 1 bytes)
 * @pos:    byte offset in @cmd of the fault
 */
struct ld_err {
	u64 ts;
	char reason[256];
	char cmd[LD_ERRLOG_CMD];
	u32 pos;
};

/* a ring of the last LD_ERRLOG_MAX; under ld_probes_mutex */
extern struct ld_err ld_errlog[LD_ERRLOG_MAX];
extern u32 ld_errlog_next, ld_errlog_count;
#ifdef __KERNEL__
/* the probes list, the error log and every probe's state */
extern struct mutex ld_probes_mutex;
#endif

__printf(4, 5) int ld_fail(struct ld_pctx *c, const char *at, int err,
			   const char *fmt, ...);
void ld_errlog_add(const struct ld_pctx *c);

/* ---- logdev_probe_parse.c: a command's words -> struct ld_probe */

int ld_parse(struct ld_pctx *c, struct ld_probe *p, char *cmd);
bool ld_good_name(const char *s);
const char *ld_bad_byte(const char *s);
void ld_make_name(struct ld_probe *p);
char *ld_fmt_make(const struct ld_fetch *f, u32 n);

/*
 * What the parser asks of the running kernel (each refuses through
 * ld_fail() with the reason); in userspace the fuzzer answers them.
 */
/* logdev_probe_fetch.c: offset in struct pt_regs of register @name, or -ENOENT */
int ld_fetch_reg(const char *name);
/* logdev_probe_syms.c: the address of symbol @name (@SYM) */
int ld_sym_value(struct ld_pctx *c, const char *name, unsigned long *val);
/* logdev_probe_tp.c: tracepoint @name (vmlinux, then the loaded modules) */
struct tracepoint *ld_tp_lookup(const char *name, char *modname);
int ld_tp_nargs(struct ld_pctx *c, struct ld_probe *p);
int ld_tp_named(struct ld_pctx *c, struct ld_probe *p, struct ld_fetch *f,
		char *s);

#ifdef __KERNEL__
/* ---- logdev_probe_syms.c */
int ld_ksyms_fail(struct ld_pctx *c, const char *at, int err, const char *what);
int ld_check_unique(struct ld_pctx *c, struct ld_probe *p);
/* logdev_probe_syms.c: a kprobe's FUNC+OFF inside FUNC; 0 or -ERANGE (said) */
int ld_check_offset(struct ld_pctx *c, struct ld_probe *p);
bool ld_is_glob(const char *s);
const char *ld_renamed(const char *name);

/* ---- logdev_probe_tp.c: the loaded modules' tracepoints */
struct tracepoint *ld_tp_of_mod(struct module *mod, const char *name);
void ld_tp_mod_add(struct module *mod);
void ld_tp_mod_del(struct module *mod);

/* ---- logdev_probe_fetch.c: the handlers registered by ld_probe_register() */
int ld_kp_handler(struct kprobe *kp, struct pt_regs *regs);
int ld_rp_entry(struct kretprobe_instance *ri, struct pt_regs *regs);
int ld_rp_return(struct kretprobe_instance *ri, struct pt_regs *regs);
#if LD_TP_MAX_ARGS == 5
void ld_tp_probe(void *data, unsigned long a1, unsigned long a2,
		 unsigned long a3, unsigned long a4, unsigned long a5);
#else
void ld_tp_probe(void *data);
#endif

/* ---- logdev_probe_arm.c: the probes list, arming, the notifiers */
extern struct list_head ld_probes;
int ld_probe_add(struct ld_pctx *c, char *cmd);
struct ld_probe *ld_probe_find(const char *name);
void ld_probe_remove(struct ld_probe *p);
void ld_probes_remove_all(void);
unsigned long ld_probe_nmissed(struct ld_probe *p);
unsigned long ld_probe_nmissed_inst(struct ld_probe *p);
bool ld_probe_gone(struct ld_probe *p);
int ld_probe_notifiers_register(void);
void ld_probe_notifiers_unregister(void);
#endif /* __KERNEL__ */

#endif /* _LOGDEV_PROBES_H */
