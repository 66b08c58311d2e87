// SPDX-License-Identifier: GPL-2.0
/*
 * logdev_probe_syms.c - the probes' questions about kernel symbols, and
 * the reasons they are refused with: an @SYM's address, whether a kprobe
 * target names one place (else "defined N times", or "did you mean" the
 * symbols containing it), globs and the compiler's renamed functions.
 * The walks themselves are logdev_ksyms_query.c's.
 *
 * Layer: probes (logdev_probes.h); calls the error log and the kernel's
 * symbols (logdev_ksyms.h).  Under ld_probes_mutex.
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/kallsyms.h>
#include <linux/string.h>
#include "logdev_probes.h"
#include "logdev_ksyms.h"

/*
 * A question to the kernel's symbols (logdev_ksyms.h) failed with @err:
 * refuse the command saying what @what needed and why it cannot be had
 * (-EOPNOTSUPP: no source on this kernel, ld_ksyms_why() says why).
 */
int ld_ksyms_fail(struct ld_pctx *c, const char *at, int err, const char *what)
{
	char why[256];

	if (err == -EOPNOTSUPP) {
		ld_ksyms_why(why, sizeof(why));
		return ld_fail(c, at, -EOPNOTSUPP, "%s needs the kernel's symbols: %s",
			       what, why);
	}
	if (err == -EAGAIN)
		return ld_fail(c, at, err,
			       "%s: kernel modules were loaded or unloaded while their symbols were read: write it again",
			       what);
	return ld_fail(c, at, err, "%s: cannot read the kernel's symbols (error %d)", what, err);
}

/*
 * The address of symbol @name of an @SYM fetch argument into @val: @name
 * must be defined once (else -EADDRNOTAVAIL, or -ENOENT for none); the
 * reason through ld_fail() at @name.
 */
int ld_sym_value(struct ld_pctx *c, const char *name, unsigned long *val)
{
	unsigned int cnt = 0;
	int ret;

	ret = ld_ksym_addr(name, val, &cnt);
	if (ret)
		return ld_ksyms_fail(c, name, ret, "@SYM (use @0xADDR from /proc/kallsyms)");
	if (cnt > 1)
		return ld_fail(c, name, -EADDRNOTAVAIL,
			       "@%s is defined %u times: use @0xADDR (/proc/kallsyms)",
			       name, cnt);
	if (!*val)
		return ld_fail(c, name, -ENOENT, "no symbol %s", name);
	return 0;
}

/*
 * A kprobe target by name must name one place: FUNC defined once in
 * vmlinux and all modules, MOD:FUNC once in MOD (as ftrace's kprobe_events:
 * -EADDRNOTAVAIL for several, -ENOENT for none).  The module of the one
 * definition goes to @p->mod.  Where this kernel's symbols cannot be read
 * (ld_ksyms_why(), said once in the kernel log) the check is left to
 * kprobes, which resolves the name itself.
 */
int ld_check_unique(struct ld_pctx *c, struct ld_probe *p)
{
	const char *colon = strchr(p->sym, ':');
	const char *at = c->buf + p->target_off;
	const char *name = colon ? colon + 1 : p->sym;
	char found[MODULE_NAME_LEN];
	unsigned int n = 0;
	int ret;

	if (p->kind == LD_PROBE_TRACEPOINT || p->addr)
		return 0;
	if (colon)
		ret = ld_ksym_count(name, p->sym, colon - p->sym, &n, found);
	else if (c->rearm && *p->mod)	/* FUNC found in p->mod when written: armed as MOD:FUNC */
		ret = ld_ksym_count(name, p->mod, strlen(p->mod), &n, found);
	else
		ret = ld_ksym_count(name, NULL, 0, &n, found);
	if (ret == -EOPNOTSUPP)
		return 0;
	if (ret)
		return ld_ksyms_fail(c, at, ret, p->sym);
	if (n > 1)
		return ld_fail(c, at, -EADDRNOTAVAIL,
			       "%s is defined %u times: use MOD:FUNC or 0xADDR (/proc/kallsyms)",
			       p->sym, n);
	if (!n && c->rearm)
		return ld_fail(c, at, -ENOENT, "no symbol %s in it", name);
	if (!n && colon)
		return ld_fail(c, at, -ENOENT,
			       "no symbol %s in %.*s; if it is __init code (freed after the module's init), an __init function of %.*s is probed by writing the probe before the module loads",
			       name, (int)(colon - p->sym), p->sym, (int)(colon - p->sym), p->sym);
	if (!n) {
		char cand[160];

		ret = ld_ksym_similar(p->sym, cand, sizeof(cand), &n);
		if (ret || !n)
			return ld_fail(c, at, -ENOENT,
				       "no symbol %s (inlined, or renamed: see probe_functions)",
				       p->sym);
		return ld_fail(c, at, -ENOENT, "no symbol %s; symbols containing it (%u): %s%s",
			       p->sym, n, cand, n > LD_KSYMS_CANDIDATES ? ", ..." : "");
	}
	if (*found)
		strscpy(p->mod, found, sizeof(p->mod));
	return 0;
}

/*
 * A kprobe at FUNC+OFF must stay inside FUNC: kprobes itself takes any
 * address it can decode, so FUNC+SIZE (one past the end) attached to the
 * next function's first instruction (a fresh user's p:show_smap+448, a
 * 448-byte function).  The probed address is named by kallsyms
 * (sprint_symbol(): "name+0xOFF/0xSIZE [mod]"); another name than FUNC's
 * is -ERANGE, saying FUNC's size.  Where the symbols cannot be read the
 * check is left to kprobes.
 */
int ld_check_offset(struct ld_pctx *c, struct ld_probe *p)
{
	const char *colon = strchr(p->sym, ':');
	const char *name = colon ? colon + 1 : p->sym;
	char buf[KSYM_SYMBOL_LEN], *slash;
	unsigned long addr, size;
	unsigned int n = 0;
	size_t len = strlen(name);

	if (p->kind != LD_PROBE_KPROBE || p->addr || !p->offset ||
	    ld_ksym_addr(name, &addr, &n) || n != 1)
		return 0;
	sprint_symbol(buf, addr + p->offset);
	if (!strncmp(buf, name, len) && buf[len] == '+')
		return 0;
	sprint_symbol(buf, addr);
	slash = strchr(buf, '/');
	if (!slash || kstrtoul(strsep(&slash, " ") + 1, 16, &size))
		size = 0;
	return ld_fail(c, c->buf + p->target_off, -ERANGE,
		       "%s+%lu is past the end of %s (%lu bytes, /proc/kallsyms): an offset is inside the function",
		       name, p->offset, name, size);
}

/* ------------------------------------------------------------------ globs */

/* Is @s a glob (one probe per matching function)? */
bool ld_is_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

/* The suffix gcc gives a function it changed (.isra.0, .constprop.0, .part.0, .cold), or NULL. */
const char *ld_renamed(const char *name)
{
	static const char * const sfx[] = { ".isra.", ".constprop.", ".part.", ".cold", ".llvm." };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sfx); i++)
		if (strstr(name, sfx[i]))
			return sfx[i];
	return NULL;
}
