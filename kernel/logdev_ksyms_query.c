// SPDX-License-Identifier: GPL-2.0
/*
 * logdev_ksyms_query.c - the questions the probes feature asks of the
 * kernel's symbols, each one walk of ld_ksyms_walk() (logdev_ksyms.c,
 * whichever source it uses): a name's address and number of definitions
 * (@SYM, the uniqueness of a probe's FUNC), the names containing a missing
 * one ("did you mean"), vmlinux section bounds (the BTF), whether a module
 * is loaded, the text symbols matching a glob (probe_functions, p:GLOB).
 * The module of an address is asked of kallsyms directly (sprint_symbol()).
 *
 * Names come from the walk NUL-terminated and shorter than KSYM_NAME_LEN
 * (modules': MODULE_NAME_LEN); every copy here is bounded all the same
 * (scnprintf() precisions, strscpy()): a wrong name is cut, never read or
 * written past its buffer (fortify made the unbounded strlcat() of a bad
 * name a kernel BUG).
 *
 * Layer: probes (logdev_ksyms.h); calls logdev_ksyms.c only.
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/kallsyms.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/string.h>
#include <linux/sort.h>
#include <linux/glob.h>
#include "logdev_ksyms.h"

/* ------------------------------------------------------- one name */

struct ld_sym_find {
	const char *name;
	unsigned long addr;
	unsigned int n;
	char found[MODULE_NAME_LEN];	/* module of the last match, "" vmlinux */
};

static int ld_find_sym(void *data, const struct ld_ksym *s)
{
	struct ld_sym_find *sf = data;

	if (strcmp(s->name, sf->name))
		return 0;
	sf->addr = s->addr;
	sf->n++;
	strscpy(sf->found, s->mod ? s->mod : "", sizeof(sf->found));
	return 0;
}

/**
 * ld_ksym_addr() - where @name is defined, in vmlinux and the modules
 * @name:  a symbol's name
 * @addr:  the address of its last definition (0 if none)
 * @count: how many definitions it has
 *
 * Return: 0, or -errno of ld_ksyms_walk().
 */
int ld_ksym_addr(const char *name, unsigned long *addr, unsigned int *count)
{
	struct ld_sym_find sf = { .name = name };
	int ret;

	ret = ld_ksyms_walk(LD_KSYMS_VMLINUX | LD_KSYMS_MODULES, NULL,
			    ld_find_sym, &sf);
	if (ret < 0)
		return ret;
	*addr = sf.addr;
	*count = sf.n;
	return 0;
}

/**
 * ld_ksym_count() - how many definitions @name has, and where
 * @name:   a symbol's name
 * @mod:    count only in the module of this name (@modlen bytes, not
 *          NUL-terminated: MOD of "MOD:FUNC"), or NULL for vmlinux and
 *          every module
 * @modlen: length of @mod
 * @count:  the number of definitions
 * @found:  MODULE_NAME_LEN bytes, or NULL: the module of the last one ("" if
 *          vmlinux or none)
 *
 * A module name of MODULE_NAME_LEN bytes or more names no module: 0.
 *
 * Return: 0, or -errno of ld_ksyms_walk().
 */
int ld_ksym_count(const char *name, const char *mod, size_t modlen,
		  unsigned int *count, char *found)
{
	struct ld_sym_find sf = { .name = name };
	char mname[MODULE_NAME_LEN];
	int ret;

	*count = 0;
	if (found)
		*found = '\0';
	if (mod) {
		if (!modlen || modlen >= sizeof(mname))
			return 0;
		memcpy(mname, mod, modlen);
		mname[modlen] = '\0';
	}
	ret = ld_ksyms_walk(mod ? LD_KSYMS_MODULES : LD_KSYMS_VMLINUX | LD_KSYMS_MODULES,
			    mod ? mname : NULL, ld_find_sym, &sf);
	if (ret < 0)
		return ret;
	*count = sf.n;
	if (found)
		strscpy(found, sf.found, MODULE_NAME_LEN);
	return 0;
}

struct ld_syms_find {
	const char * const *names;
	unsigned long *addrs;
	u32 n, left;
};

static int ld_find_syms(void *data, const struct ld_ksym *s)
{
	struct ld_syms_find *sf = data;
	u32 i;

	for (i = 0; i < sf->n; i++)
		if (!sf->addrs[i] && !strcmp(s->name, sf->names[i])) {
			sf->addrs[i] = s->addr;
			sf->left--;
		}
	return !sf->left;
}

/**
 * ld_ksyms_find() - the addresses of several vmlinux symbols
 * @names: @n names
 * @addrs: @n addresses: each non-zero one is kept, each 0 gets its
 *         name's first definition in vmlinux (0 if none)
 * @n:     entries
 *
 * Return: 0, or -errno of ld_ksyms_walk().
 */
int ld_ksyms_find(const char * const *names, unsigned long *addrs, u32 n)
{
	struct ld_syms_find sf = { .names = names, .addrs = addrs, .n = n };
	u32 i;
	int ret;

	for (i = 0; i < n; i++)
		sf.left += !addrs[i];
	if (!sf.left)
		return 0;
	ret = ld_ksyms_walk(LD_KSYMS_VMLINUX, NULL, ld_find_syms, &sf);
	return ret < 0 ? ret : 0;
}

struct ld_syms_count {
	const char * const *names;	/* "NAME" or "MOD:NAME" */
	unsigned int *counts;
	unsigned int n;
};

static int ld_count_syms(void *data, const struct ld_ksym *s)
{
	struct ld_syms_count *sc = data;
	const char *name, *colon;
	unsigned int i;

	for (i = 0; i < sc->n; i++) {
		name = sc->names[i];
		colon = strchr(name, ':');
		if (colon) {
			if (!s->mod || strncmp(s->mod, name, colon - name) ||
			    s->mod[colon - name])
				continue;
			name = colon + 1;
		}
		if (*name == *s->name && !strcmp(name, s->name))
			sc->counts[i]++;
	}
	return 0;
}

/**
 * ld_ksyms_count_each() - ld_ksym_count() of several names in one walk
 * @names:  @n names, each "NAME" (counted in vmlinux and every module) or
 *          "MOD:NAME" (counted in module MOD only), as ld_ksyms_glob()
 *          gives them
 * @counts: @n counts, set
 * @n:      entries (a few dozen: each symbol is compared with each)
 *
 * Return: 0, or -errno of ld_ksyms_walk().
 */
int ld_ksyms_count_each(const char * const *names, unsigned int *counts,
			unsigned int n)
{
	struct ld_syms_count sc = { .names = names, .counts = counts, .n = n };
	int ret;

	memset(counts, 0, n * sizeof(*counts));
	ret = ld_ksyms_walk(LD_KSYMS_VMLINUX | LD_KSYMS_MODULES, NULL,
			    ld_count_syms, &sc);
	return ret < 0 ? ret : 0;
}

/* ----------------------------------------------------- did you mean */

struct ld_sym_similar {
	const char *core;	/* the name without leading '_' and .suffix */
	char *out;		/* "a, mod:b, c" */
	size_t size;
	unsigned int n;		/* names found */
};

/* the compiler's and the kernel's helper symbols, not functions to probe */
static bool ld_helper_sym(const char *name)
{
	static const char * const pfx[] = {
		"__pfx_", "__cfi_", "__ksymtab", "__kstrtab", "__SCK__", "__SCT__",
		"__tracepoint", "__traceiter", "__bpf_trace", "trace_event_",
		"perf_trace_", "__probestub",
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(pfx); i++)
		if (!strncmp(name, pfx[i], strlen(pfx[i])))
			return true;
	return false;
}

static int ld_similar_sym(void *data, const struct ld_ksym *s)
{
	struct ld_sym_similar *ss = data;
	size_t len;

	if (!strstr(s->name, ss->core) || ld_helper_sym(s->name))
		return 0;
	if (ss->n < LD_KSYMS_CANDIDATES) {
		len = strnlen(ss->out, ss->size);
		scnprintf(ss->out + len, ss->size - len, "%s%.*s%s%.*s",
			  ss->n ? ", " : "", s->mod ? (int)MODULE_NAME_LEN : 0,
			  s->mod ? s->mod : "", s->mod ? ":" : "",
			  KSYM_NAME_LEN, s->name);
	}
	ss->n++;
	return 0;
}

/**
 * ld_ksym_similar() - the names that contain @sym's core
 * @sym:   a missing name; its core is it without leading underscores and
 *         without a ".suffix": "do_munmap" finds "__do_munmap"'s
 *         relatives, "foo" finds "foo.isra.0"
 * @out:   gets at most LD_KSYMS_CANDIDATES of them, "a, MOD:b, c", cut to
 *         @size ("" if none, or if the core is shorter than 3 bytes)
 * @size:  bytes of @out (at least 1)
 * @count: how many there are, in vmlinux and the modules, helper symbols
 *         (__pfx_, __ksymtab, tracepoint glue...) left out
 *
 * Return: 0, or -errno of ld_ksyms_walk().
 */
int ld_ksym_similar(const char *sym, char *out, size_t size,
		    unsigned int *count)
{
	char core[KSYM_NAME_LEN];
	struct ld_sym_similar ss = { .core = core, .out = out, .size = size };
	int ret;

	*out = '\0';
	*count = 0;
	strscpy(core, sym + strspn(sym, "_"), sizeof(core));
	core[strcspn(core, ".")] = '\0';
	if (strlen(core) < 3)
		return 0;
	ret = ld_ksyms_walk(LD_KSYMS_VMLINUX | LD_KSYMS_MODULES, NULL,
			    ld_similar_sym, &ss);
	if (ret < 0)
		return ret;
	*count = ss.n;
	return 0;
}

/* ---------------------------------------------------------- modules */

static int ld_any_sym(void *data, const struct ld_ksym *s)
{
	return 1;
}

/**
 * ld_ksym_module_loaded() - is a module named @name loaded?
 * @name: the name, @len bytes (not NUL-terminated: MOD of "MOD:FUNC")
 * @len:  its length
 *
 * Loaded: formed, and with a symbol in kallsyms (coming, live or going).
 *
 * Return: 1 yes, 0 no, or -errno of ld_ksyms_walk().
 */
int ld_ksym_module_loaded(const char *name, size_t len)
{
	char mname[MODULE_NAME_LEN];
	int ret;

	if (!len || len >= sizeof(mname))
		return 0;
	memcpy(mname, name, len);
	mname[len] = '\0';
	ret = ld_ksyms_walk(LD_KSYMS_MODULES, mname, ld_any_sym, NULL);
	return ret < 0 ? ret : ret > 0;
}

/**
 * ld_ksym_addr_module() - the module that holds @addr
 * @addr: a kernel address
 * @out:  MODULE_NAME_LEN bytes: the module's name, or "" (vmlinux, or no
 *        module's memory: bpf programs and ftrace trampolines are none)
 *
 * Asks kallsyms (sprint_symbol(): "name+0xOFF/0xSIZE [MOD]"), no walk.
 */
void ld_ksym_addr_module(unsigned long addr, char *out)
{
	char buf[KSYM_SYMBOL_LEN];
	const char *b, *e;

	*out = '\0';
	sprint_symbol(buf, addr);
	b = strrchr(buf, '[');
	e = b ? strchr(b, ']') : NULL;
	if (!e || e[1] || e - b - 1 <= 0 || e - b - 1 >= MODULE_NAME_LEN)
		return;
	b++;
	if ((e - b == 3 && !strncmp(b, "bpf", 3)) || !strncmp(b, "__builtin__", 11))
		return;
	memcpy(out, b, e - b);
	out[e - b] = '\0';
}

/* ------------------------------------------------------------- globs */

struct ld_glob_walk {
	const char *pat;
	struct ld_ksym_glob *g;
};

static int ld_glob_sym(void *data, const struct ld_ksym *s)
{
	struct ld_glob_walk *w = data;
	struct ld_ksym_glob *g = w->g;

	/* __pfx_ and __cfi_ label the padding before a function, not one */
	if (!s->text || !strncmp(s->name, "__pfx_", 6) ||
	    !strncmp(s->name, "__cfi_", 6) || !glob_match(w->pat, s->name))
		return 0;
	if (g->n < g->max)
		g->names[g->n] = s->mod ?
			kasprintf(GFP_KERNEL, "%.*s:%.*s", (int)MODULE_NAME_LEN, s->mod,
				  KSYM_NAME_LEN, s->name) :
			kasprintf(GFP_KERNEL, "%.*s", KSYM_NAME_LEN, s->name);
	g->n++;
	return 0;
}

static int ld_cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char * const *)a, *(const char * const *)b);
}

/** ld_ksyms_glob_free() - free what ld_ksyms_glob() filled in @g */
void ld_ksyms_glob_free(struct ld_ksym_glob *g)
{
	unsigned int i;

	if (g->names)
		for (i = 0; i < min(g->n, g->max); i++)
			kfree(g->names[i]);
	kvfree(g->names);
	g->names = NULL;
	kvfree(g->copies);
	g->copies = NULL;
}

/**
 * ld_ksyms_glob() - the text symbols whose names match a glob
 * @g:    filled (free it with ld_ksyms_glob_free(), also after an error)
 * @pat:  the glob (glob_match(): * ? [...])
 * @max:  names kept at most
 * @dups: names defined more than once (static functions of one name),
 *        each kept once (when all fit), its count in @g->copies
 *
 * Text: vmlinux's core text (no __init code, no data) and each module's;
 * no __pfx_ or __cfi_ padding label.  When more than @max match, @g->n
 * says how many and the names are neither sorted nor unique.
 *
 * Return: 0, -ENOMEM, or -errno of ld_ksyms_walk().
 */
int ld_ksyms_glob(struct ld_ksym_glob *g, const char *pat, unsigned int max,
		  unsigned int *dups)
{
	struct ld_glob_walk w = { .pat = pat, .g = g };
	unsigned int i, j;
	int ret;

	memset(g, 0, sizeof(*g));
	*dups = 0;
	g->max = max;
	g->names = kvcalloc(max ?: 1, sizeof(*g->names), GFP_KERNEL);
	g->copies = kvcalloc(max ?: 1, sizeof(*g->copies), GFP_KERNEL);
	if (!g->names || !g->copies)
		return -ENOMEM;
	ret = ld_ksyms_walk(LD_KSYMS_VMLINUX | LD_KSYMS_MODULES, NULL, ld_glob_sym, &w);
	if (ret < 0)
		return ret;
	for (i = 0; i < min(g->n, g->max); i++)
		if (!g->names[i])
			return -ENOMEM;
	if (g->n > g->max)
		return 0;
	sort(g->names, g->n, sizeof(*g->names), ld_cmp_str, NULL);
	for (i = 0, j = 0; i < g->n; i++) {
		if (j && !strcmp(g->names[j - 1], g->names[i])) {
			kfree(g->names[i]);
			(*dups)++;
			if (g->copies[j - 1] < U16_MAX)
				g->copies[j - 1]++;
			continue;
		}
		g->copies[j] = 1;
		g->names[j++] = g->names[i];
	}
	g->n = j;
	return 0;
}
