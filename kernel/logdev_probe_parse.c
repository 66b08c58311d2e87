// SPDX-License-Identifier: GPL-2.0
/*
 * logdev_probe_parse.c - the grammar of the debugfs "probes" file: one
 * command's words into a probe spec (struct ld_probe: kind, target, fetch
 * arguments), nothing registered (modelled on ftrace's kprobe_events;
 * docs/DEBUGFS.md describes it).
 *
 * One command per write, in ftrace's kprobe_events syntax
 * (Documentation/trace/kprobetrace.rst):
 *   p[:[GRP/]NAME] SYM[+OFF]|MOD:SYM|0xADDR [FETCHARGS]   kprobe
 *   r[MAXACTIVE][:[GRP/]NAME] SYM [FETCHARGS]            kretprobe
 *   -:[GRP/]NAME                                         remove one probe
 * FETCHARGS: [NAME=]FETCHARG[:TYPE], FETCHARG $argN $retval $comm $stack
 * $stackN %REG @SYM[+-OFF] @0xADDR +-OFF(FETCHARG), TYPE u8..u64 s8..s64
 * x8..x64 string symbol (struct ld_fetch); or in logdev's short forms:
 *   [p:][NAME=]WHERE[+OFFSET] [ARG]...  kprobe at WHERE (+OFFSET bytes)
 *   r:[NAME=]WHERE [ARG]...             kretprobe; its entry handler records
 *                                       the entry too, so the reader can pair
 *                                       them into a duration
 *   t:[NAME=]SYSTEM:EVENT [ARG]...      tracepoint EVENT of vmlinux or of a
 *                                       loaded module (SYSTEM is not
 *                                       checked: struct tracepoint has no
 *                                       system name)
 *   -NAME                               remove one probe
 *   (open with O_TRUNC: "echo > probes") remove every probe; a blank or
 *   '#' comment write does nothing
 * WHERE is FUNC (a name defined exactly once in vmlinux and the loaded
 * modules, else -EADDRNOTAVAIL, as ftrace's kprobe_events), MOD:FUNC (the
 * one FUNC of module MOD) or 0xADDR (a kernel text address, as in
 * /proc/kallsyms).  NAME and ANAME are identifiers, [A-Za-z_][A-Za-z0-9_]*
 * (ASCII only).  A refused command leaves the reason, the command and the
 * position of the fault in the debugfs "error_log" (last LD_ERRLOG_MAX).
 * ARG is [ANAME=]$argN (N 1..6, the function argument by position; for a
 * tracepoint N 1..5, the probe's arguments after its data, x86-64 only, and
 * at most the tracepoint's count where its raw map entry gives it) or
 * [ANAME=]$retval (return probes).  ANAMEs (given or default: argN,
 * retval) are unique within a probe, as kprobe_events wants them.  In a
 * t: probe a bare identifier names an argument of the tracepoint's
 * TP_PROTO (ld_tp_named(): position and type from the kernel's BTF, read
 * by logdev_btf.c).
 *
 * WHERE may also be a glob (p:vfs_*): one probe per matching text function,
 * at most LD_GLOB_ATTACH_MAX.  "probe_functions" lists the probe-able
 * functions matching a glob.
 *
 * Removals (-NAME, -:[GRP/]NAME) and the one-line rules of a write are
 * the file's (logdev_probes.c); this file parses the rest.  Each fetch
 * becomes a conversion of its record's format (ld_fmt_make()).
 *
 * Layer: probes (logdev_probes.h).  What only the running kernel knows is
 * asked through ld_fetch_reg(), ld_sym_value(), ld_tp_lookup(),
 * ld_tp_nargs() and ld_tp_named(); refusals go through ld_fail()
 * (logdev_probe_log.c).  Portable: built in userspace, with
 * logdev_probe_log.c only, by tests/fuzz/fuzz_probespec.c, which answers
 * those questions (tests/fuzz/kshim/ldk_probe.h: the kernel's string
 * helpers).
 */
#ifdef __KERNEL__
#include <linux/kernel.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/string.h>
#include <linux/ctype.h>
#include <linux/slab.h>
#include "logdev_core.h"	/* LOGDEV_MAX_PAYLOAD */
#endif
#include "logdev_probes.h"

const char ld_probe_kind_char[] = { 'p', 'r', 't' };

/* ASCII only: the kernel's isalnum() also takes Latin-1 letters (0xc0..) */
static bool ld_ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

/* An identifier: [A-Za-z_][A-Za-z0-9_]*, shorter than LD_PROBE_NAME_LEN. */
bool ld_good_name(const char *s)
{
	if (!*s || strlen(s) >= LD_PROBE_NAME_LEN || (*s >= '0' && *s <= '9'))
		return false;
	for (; *s; s++)
		if (!ld_ident_char(*s))
			return false;
	return true;
}

/* The first byte of @s that is not an identifier byte (for the log). */
const char *ld_bad_byte(const char *s)
{
	if (*s >= '0' && *s <= '9')
		return s;
	while (*s && ld_ident_char(*s))
		s++;
	return s;
}

/*
 * A default name from the target: anything but [A-Za-z0-9_] becomes '_';
 * an address target gives "p_0x..." ("r_0x..." for r:), as ftrace does.
 */
void ld_make_name(struct ld_probe *p)
{
	char *c, base[KSYM_NAME_LEN + 4];

	if (p->ftrace && !p->addr) {
		/* ftrace's kprobe_events: p_SYM_OFF, r_SYM_0 */
		scnprintf(p->name, LD_PROBE_NAME_LEN, "%c_%s_%lu",
			 ld_probe_kind_char[p->kind], p->sym, p->offset);
		goto sanitize;
	}
	if (p->addr)
		scnprintf(base, sizeof(base), "%c_%s", ld_probe_kind_char[p->kind], p->sym);
	else
		strscpy(base, p->sym, sizeof(base));
	if (p->offset)
		scnprintf(p->name, LD_PROBE_NAME_LEN, "%s_%lu", base, p->offset);
	else
		strscpy(p->name, base, LD_PROBE_NAME_LEN);
sanitize:
	for (c = p->name; *c; c++)
		if (!ld_ident_char(*c))
			*c = '_';
}

/* Is @name the name of another argument of @p (entry or return)? */
static bool ld_aname_used(const struct ld_probe *p, const char *name)
{
	u32 i;

	for (i = 0; i < p->nr_entry; i++)
		if (!strcmp(p->entry[i].name, name))
			return true;
	for (i = 0; i < p->nr_ret; i++)
		if (!strcmp(p->ret[i].name, name))
			return true;
	return false;
}

static const char * const ld_fmt_conv[] = {
	[LD_FT_LEGACY] = "0x%llx", [LD_FT_U] = "%llu", [LD_FT_S] = "%lld",
	[LD_FT_X] = "0x%llx", [LD_FT_STRING] = "\"%s\"",
	[LD_FT_SYMBOL] = "%pS",
};

/*
 * The format of a record of the @n fetches @f ("NAME=CONV[%s] ..."), in a
 * buffer of its own size (kfree() it), or NULL without memory.  Every
 * fetch has its conversion, whatever the names' lengths: a format cut
 * short would render the payload's values under the wrong names.
 */
char *ld_fmt_make(const struct ld_fetch *f, u32 n)
{
	size_t len = 1, pos = 0;
	char *fmt;
	u32 i;

	for (i = 0; i < n; i++)
		len += (i ? 1 : 0) + strlen(f[i].name) + 1 +
		       strlen(ld_fmt_conv[f[i].type]) + (f[i].fault ? 2 : 0);
	fmt = kmalloc(len, GFP_KERNEL);
	if (!fmt)
		return NULL;
	for (i = 0; i < n; i++)
		pos += scnprintf(fmt + pos, len - pos, "%s%s=%s%s", i ? " " : "",
				 f[i].name, ld_fmt_conv[f[i].type],
				 f[i].fault ? "%s" : "");
	fmt[pos] = '\0';
	return fmt;
}

/* Worst-case bytes ld_fetch_store() adds (3 of alignment included). */
static u32 ld_fetch_bytes(const struct ld_fetch *f)
{
	u32 n = f->type == LD_FT_STRING ? LD_PROBE_STR_MAX : 3 + 8;

	return n + (f->fault ? sizeof(LD_FAULT_MARK) : 0);
}

static int ld_parse_fetch(struct ld_pctx *c, struct ld_probe *p,
			  struct ld_fetch *f, char *s);

/* +|-OFF(FETCHARG): the fetch inside, then one more dereference. */
static int ld_parse_deref(struct ld_pctx *c, struct ld_probe *p,
			  struct ld_fetch *f, char *s)
{
	char *open, *close;
	long off;
	int ret;

	open = strchr(s, '(');
	close = s + strlen(s) - 1;
	if (!open)
		return ld_fail(c, s, -EINVAL, "dereference needs a brace: +OFF(FETCHARG)");
	if (*close != ')')
		return ld_fail(c, close + 1, -EINVAL, "dereference brace is not closed");
	*open = '\0';
	*close = '\0';
	if (s[1] == 'u')
		return ld_fail(c, s + 1, -EINVAL,
			       "user-space dereference (+u) is not supported");
	/* the signed word, as ftrace: one sign, LONG_MIN..LONG_MAX */
	if (s[1] == '+' || s[1] == '-' || kstrtol(s, 0, &off))
		return ld_fail(c, s + 1, -EINVAL,
			       "invalid dereference offset (one sign, then a number that fits a long)");
	ret = ld_parse_fetch(c, p, f, open + 1);
	if (ret)
		return ret;
	if (f->base == LD_FB_COMM)
		return ld_fail(c, open + 1, -EINVAL, "$comm can not be dereferenced");
	if (f->ndrf >= LD_FETCH_DEPTH)
		return ld_fail(c, s, -EINVAL, "dereference is nested more than %d deep",
			       LD_FETCH_DEPTH);
	f->off[f->ndrf++] = off;
	return 0;
}

/*
 * FETCHARG (ftrace's kprobe_events): $argN, $retval, $comm, $stack,
 * $stackN, %REG, @SYM[+|-OFF], @0xADDR, +|-OFF(FETCHARG).  @s is cut in
 * place; errors point into it.
 */
static int ld_parse_fetch(struct ld_pctx *c, struct ld_probe *p,
			  struct ld_fetch *f, char *s)
{
	bool tp = p->kind == LD_PROBE_TRACEPOINT;
	unsigned int n;
	char *sign;
	long off;
	int ret, nargs;

	if (!*s)
		return ld_fail(c, s, -EINVAL, "no argument expression");
	if (*s == '+' || *s == '-')
		return ld_parse_deref(c, p, f, s);
	if (*s == '@') {
		f->base = LD_FB_IMM;
		sign = strpbrk(s + 1, "+-");
		off = 0;
		if (sign) {
			if (sign[1] == '+' || sign[1] == '-' || kstrtol(sign, 0, &off))
				return ld_fail(c, sign + 1, -EINVAL,
					       "invalid offset after @SYM (one sign, then a number that fits a long)");
			*sign = '\0';
		}
		if (s[1] == '0' && (s[2] == 'x' || s[2] == 'X')) {
			if (kstrtoul(s + 3, 16, &f->val) || !f->val)
				return ld_fail(c, s + 1, -EINVAL, "invalid memory address");
		} else {
			if (!s[1])
				return ld_fail(c, s + 1, -EINVAL, "no symbol after @");
			ret = ld_sym_value(c, s + 1, &f->val);
			if (ret)
				return ret;
		}
		f->off[f->ndrf++] = off;
		return 0;
	}
	if (*s == '%') {
		if (tp && LD_PROBE_REGS)
			return ld_fail(c, s, -EINVAL, "%%REG is not available on a tracepoint");
		ret = ld_fetch_reg(s + 1);
		if (ret >= 0) {
			f->base = LD_FB_REG;
			f->val = ret;
			return 0;
		}
		return ld_fail(c, s + 1, -EINVAL,
			       "invalid register name (x86-64: ax bx cx dx si di bp sp r8..r15 ip flags)");
	}
	if (!strcmp(s, "$retval")) {
		if (p->kind != LD_PROBE_KRETPROBE)
			return ld_fail(c, s, -EINVAL, "$retval needs a return probe (r:)");
		f->base = LD_FB_RETVAL;
		return 0;
	}
	if (!strcmp(s, "$comm") || !strcmp(s, "$COMM")) {
		f->base = LD_FB_COMM;
		return 0;
	}
	if (!strcmp(s, "$stack") || !strncmp(s, "$stack", 6)) {
		if (tp)
			return ld_fail(c, s, -EINVAL, "$stack is not available on a tracepoint");
		if (!s[6]) {
			f->base = LD_FB_STACK;
			return 0;
		}
		if (kstrtouint(s + 6, 10, &n) || n > 1024)
			return ld_fail(c, s + 6, -EINVAL, "invalid stack number (0..1024)");
		f->base = LD_FB_STACKN;
		f->val = n;
		return 0;
	}
	if (!strncmp(s, "$arg", 4)) {
		if (kstrtouint(s + 4, 10, &n) || !n)
			return ld_fail(c, s + 4, -EINVAL, "invalid argument number");
		if (n > (tp ? LD_TP_MAX_ARGS : 6))
			return ld_fail(c, s, -EINVAL, "$arg%u: at most $arg%d here", n,
				       tp ? LD_TP_MAX_ARGS : 6);
		/* past the tracepoint's own: a register with anything in it */
		nargs = tp ? ld_tp_nargs(c, p) : -1;
		if (nargs >= 0 && n > (unsigned int)nargs)
			return ld_fail(c, s, -EINVAL, "$arg%u: %s has %d argument%s",
				       n, p->sym, nargs, nargs == 1 ? "" : "s");
		f->base = LD_FB_ARG;
		f->val = n;
		return 0;
	}
	if (*s == '$')
		return ld_fail(c, s, -EINVAL,
			       "invalid $-variable (argument is not $argN, $retval, $comm, $stack or $stackN)");
	if (tp && ld_good_name(s))
		return ld_tp_named(c, p, f, s);	/* an argument of TP_PROTO by name */
	return ld_fail(c, s, -EINVAL,
		       "invalid fetch argument ($argN $retval $comm $stackN %%REG @SYM +OFF(...))");
}

/* TYPE of FETCHARG:TYPE: u8..u64, s8..s64, x8..x64, string, symbol. */
static int ld_parse_type(struct ld_pctx *c, struct ld_fetch *f, char *t)
{
	unsigned int bits;

	if (!strcmp(t, "string")) {
		f->type = LD_FT_STRING;
		f->size = 8;
		return 0;
	}
	if (!strcmp(t, "symbol")) {
		f->type = LD_FT_SYMBOL;
		f->size = 8;
		return 0;
	}
	if ((*t == 'u' || *t == 's' || *t == 'x') && !kstrtouint(t + 1, 10, &bits) &&
	    (bits == 8 || bits == 16 || bits == 32 || bits == 64)) {
		f->type = *t == 'u' ? LD_FT_U : *t == 's' ? LD_FT_S : LD_FT_X;
		f->size = bits / 8;
		return 0;
	}
	return ld_fail(c, t, -EINVAL,
		       "unknown type (u8..u64, s8..s64, x8..x64, string, symbol)");
}

/*
 * One argument, "[ANAME=]FETCHARG[:TYPE]": adds the fetch to @p (the entry
 * record, or the return record for $retval).  ANAME (given or default:
 * argN for $argN, retval, comm, stackN, the register's name, else argK by
 * position) must not name another argument of the probe, entry or return:
 * ftrace's kprobe_events refuses that too ("This argument name is already
 * used", -EINVAL).
 */
static int ld_parse_arg(struct ld_pctx *c, struct ld_probe *p, char *tok)
{
	char *eq = strchr(tok, '='), *src = tok, *colon;
	struct ld_fetch f = { .size = 8 };
	int ret;

	if (eq && (eq == tok || strchr("+-@$%", *tok)))
		eq = NULL;	/* "=" inside an expression is not a name */
	if (eq) {
		*eq = '\0';
		src = eq + 1;
		if (!ld_good_name(tok) || strlen(tok) >= sizeof(f.name))
			return ld_fail(c, ld_bad_byte(tok), -EINVAL,
				       "argument name is not an identifier of at most %zu bytes",
				       sizeof(f.name) - 1);
		strscpy(f.name, tok, sizeof(f.name));
	}
	c->named = NULL;
	if (p->nr_entry + p->nr_ret >= LD_PROBE_MAX_ARGS)
		return ld_fail(c, tok, -E2BIG, "more than %d arguments",
			       LD_PROBE_MAX_ARGS);
	/* the type follows the last ':' after any brace */
	colon = strrchr(src, ':');
	if (colon && strchr(colon, ')'))
		colon = NULL;
	if (colon) {
		*colon = '\0';
		ret = ld_parse_type(c, &f, colon + 1);
		if (ret)
			return ret;
	}
	ret = ld_parse_fetch(c, p, &f, src);
	if (ret)
		return ret;
	/* a tracepoint's argument by name, as it is: its type in the BTF */
	if (c->named && !colon && !f.ndrf) {
		f.type = c->named->kind == LD_BTF_PTR ? LD_FT_X :
			 c->named->is_signed ? LD_FT_S : LD_FT_U;
		f.size = c->named->size;
	}
	/*
	 * ftrace's default type is x64 ("0x%Lx", trace_probe.c); logdev's
	 * short forms print the same way, only their listing stays untyped
	 */
	if (!colon && p->ftrace && f.type == LD_FT_LEGACY)
		f.type = LD_FT_X;
	if (f.base == LD_FB_COMM) {
		if (colon && f.type != LD_FT_STRING)
			return ld_fail(c, colon + 1, -EINVAL, "$comm is a string");
		f.type = LD_FT_STRING;
	}
	/* as ftrace: a string is read at an address, "+0($arg1):string" */
	if (f.type == LD_FT_STRING && f.base != LD_FB_COMM && !f.ndrf)
		return ld_fail(c, colon + 1, -EINVAL,
			       "string accepts only memory arguments: +0(%s):string reads the string %s points at",
			       src, src);
	f.fault = f.ndrf || (f.type == LD_FT_STRING);
	if (!eq) {
		switch (f.base) {
		case LD_FB_ARG:
			if (c->named)
				strscpy(f.name, c->named->name, sizeof(f.name));
			else
				snprintf(f.name, sizeof(f.name), "arg%lu", f.val);
			break;
		case LD_FB_RETVAL:
			strscpy(f.name, "retval", sizeof(f.name));
			break;
		case LD_FB_COMM:
			strscpy(f.name, "comm", sizeof(f.name));
			break;
		case LD_FB_STACKN:
			snprintf(f.name, sizeof(f.name), "stack%lu", f.val);
			break;
		default:
			if (f.base == LD_FB_REG && !f.ndrf)
				strscpy(f.name, src + 1, sizeof(f.name));
			else
				snprintf(f.name, sizeof(f.name), "arg%u",
					 p->nr_entry + p->nr_ret + 1);
			break;
		}
		if (f.ndrf && f.base != LD_FB_IMM)
			snprintf(f.name, sizeof(f.name), "arg%u",
				 p->nr_entry + p->nr_ret + 1);
	}
	if (ld_aname_used(p, f.name))
		return ld_fail(c, tok, -EINVAL, "argument name is already used");
	if (p->kind != LD_PROBE_KRETPROBE || f.base != LD_FB_RETVAL)
		p->entry[p->nr_entry++] = f;
	else
		p->ret[p->nr_ret++] = f;
	return 0;
}

/* FUNC, MOD:FUNC or 0xADDR, without the +OFFSET (see the file comment). */
static int ld_parse_where(struct ld_pctx *c, struct ld_probe *p, char *tgt)
{
	char *colon = strchr(tgt, ':'), *s;

	if (strlen(tgt) >= sizeof(p->sym))
		return ld_fail(c, tgt, -EINVAL, "target longer than %d bytes",
			       KSYM_NAME_LEN - 1);
	if (tgt[0] == '0' && (tgt[1] == 'x' || tgt[1] == 'X')) {
		if (kstrtoul(tgt + 2, 16, &p->addr) || !p->addr)
			return ld_fail(c, tgt, -EINVAL, "bad address (0x and hex digits)");
		if (p->offset)
			return ld_fail(c, tgt + strlen(tgt), -EINVAL,
				       "an address takes no +OFFSET");
		strscpy(p->sym, tgt, sizeof(p->sym));
		return 0;
	}
	if (colon) {
		if (colon == tgt || colon - tgt >= MODULE_NAME_LEN)
			return ld_fail(c, tgt, -EINVAL, "bad module name in MOD:FUNC");
		for (s = tgt; s < colon; s++)
			if (!ld_ident_char(*s))
				return ld_fail(c, s, -EINVAL,
					       "module name is not an identifier");
		s = colon + 1;
	} else {
		s = tgt;
	}
	if (!*s)
		return ld_fail(c, s, -EINVAL, "no function name");
	for (; *s; s++)
		if (!ld_ident_char(*s) && *s != '.' && !(!colon && strchr("*?[]!-", *s)))
			return ld_fail(c, s, -EINVAL,
				       "function name has a byte other than [A-Za-z0-9_.] (or a glob's *?[]!-)");
	strscpy(p->sym, tgt, sizeof(p->sym));
	return 0;
}

/*
 * The target: WHERE[+OFFSET] or SYSTEM:EVENT, with the optional NAME=.
 * Not inlined: its symbol buffers and ld_parse()'s formats would make one
 * frame over 1 KB (CONFIG_FRAME_WARN of a small built-in kernel).
 */
static noinline_for_stack int ld_parse_target(struct ld_pctx *c, struct ld_probe *p, char *spec)
{
	char *eq = strchr(spec, '='), *tgt = spec, *plus, *ev;
	int ret;

	if (eq) {
		*eq = '\0';
		tgt = eq + 1;
		if (!ld_good_name(spec))
			return ld_fail(c, ld_bad_byte(spec), -EINVAL,
				       "probe name is not an identifier ([A-Za-z_][A-Za-z0-9_]*, < %d bytes)",
				       LD_PROBE_NAME_LEN);
		strscpy(p->name, spec, sizeof(p->name));
	}
	p->named = *p->name;
	p->target_off = tgt - c->buf;
	if (!*tgt)
		return ld_fail(c, tgt, -EINVAL, "no target");
	if (p->kind == LD_PROBE_TRACEPOINT) {
		/* a small built-in kernel may have none (docs/BUILTIN.md) */
		if (!IS_ENABLED(CONFIG_TRACEPOINTS))
			return ld_fail(c, tgt, -EOPNOTSUPP,
				       "this kernel has no tracepoints (CONFIG_TRACEPOINTS)");
		ev = strchr(tgt, ':');
		if (!ev || ev == tgt || !ev[1] || strchr(ev + 1, ':'))
			return ld_fail(c, tgt, -EINVAL, "tracepoint is not SYSTEM:EVENT");
		*ev = '\0';
		if (strlen(tgt) >= sizeof(p->system) || strlen(ev + 1) >= sizeof(p->sym))
			return ld_fail(c, tgt, -EINVAL, "tracepoint name too long");
		strscpy(p->system, tgt, sizeof(p->system));
		strscpy(p->sym, ev + 1, sizeof(p->sym));
		p->tp = ld_tp_lookup(p->sym, p->mod);
		if (!p->tp)
			return ld_fail(c, ev + 1, -ENOENT,
				       "no tracepoint '%s' in vmlinux or a loaded module",
				       p->sym);
	} else {
		plus = strchr(tgt, '+');
		if (plus) {
			*plus = '\0';
			if (!plus[1] || !isdigit(plus[1]) || kstrtoul(plus + 1, 0, &p->offset))
				return ld_fail(c, plus + 1, -EINVAL, "bad +OFFSET");
			if (p->kind == LD_PROBE_KRETPROBE && p->offset)
				return ld_fail(c, plus, -EINVAL,
					       "a return probe takes no +OFFSET");
		}
		ret = ld_parse_where(c, p, tgt);
		if (ret)
			return ret;
	}
	if (!*p->name)
		ld_make_name(p);
	if (!ld_good_name(p->name))
		return ld_fail(c, tgt, -EINVAL,
			       "cannot make a probe name from the target: give NAME=");
	return 0;
}

/* Does @s look like a probe target (SYM, MOD:SYM, SYM+OFF, 0xADDR)? */
static bool ld_is_target(const char *s)
{
	return s && (ld_ident_char(*s)) && !strchr(s, '=');
}

/* The next word of @cmd, without taking it (strsep() takes it). */
static const char *ld_peek_word(const char *cmd, char *buf, size_t size)
{
	size_t n;

	if (!cmd)
		return NULL;
	cmd = skip_spaces(cmd);
	n = strcspn(cmd, " \t");
	if (!n || n >= size)
		return n ? cmd : NULL;
	memcpy(buf, cmd, n);
	buf[n] = '\0';
	return buf;
}

/*
 * ftrace's head word, "p[:[GRP/]NAME]" or "r[MAXACTIVE][:[GRP/]NAME]",
 * when a target word follows (or the head has no ':' at all): fills the
 * kind, MAXACTIVE, group and name of @p and returns 1; 0 when @spec is one
 * of logdev's short forms ("p:[NAME=]WHERE ..."); or an error.
 */
static int ld_parse_head(struct ld_pctx *c, struct ld_probe *p, char *spec,
			 const char *cmd)
{
	char peek[KSYM_NAME_LEN + 16], *s = spec + 1, *name, *slash;
	unsigned int maxact = 0;

	if (*spec != 'p' && *spec != 'r')
		return 0;
	while (*spec == 'r' && isdigit(*s))
		s++;
	if (*s && *s != ':')
		return 0;
	if (*s == ':' && (strchr(s, '=') ||
			  !ld_is_target(ld_peek_word(cmd, peek, sizeof(peek)))))
		return 0;
	/* ftrace's form from here on */
	p->kind = *spec == 'r' ? LD_PROBE_KRETPROBE : LD_PROBE_KPROBE;
	if (s > spec + 1) {
		char digits[12];

		if (s - spec - 1 >= sizeof(digits))
			return ld_fail(c, spec + 1, -EINVAL, "maxactive is too big (at most %d)",
				       LD_MAXACTIVE_MAX);
		memcpy(digits, spec + 1, s - spec - 1);
		digits[s - spec - 1] = '\0';
		if (kstrtouint(digits, 10, &maxact))
			return ld_fail(c, spec + 1, -EINVAL, "invalid maxactive number");
		if (maxact > LD_MAXACTIVE_MAX)
			return ld_fail(c, spec + 1, -EINVAL, "maxactive is too big (at most %d)",
				       LD_MAXACTIVE_MAX);
		p->maxactive = maxact;
	}
	if (*s == ':') {
		name = s + 1;
		slash = strchr(name, '/');
		if (slash) {
			*slash = '\0';
			if (!ld_good_name(name))
				return ld_fail(c, ld_bad_byte(name), -EINVAL,
					       "group name must follow the same rules as C identifiers");
			strscpy(p->group, name, sizeof(p->group));
			name = slash + 1;
		}
		/* as ftrace: "p: SYM" is refused, "p:GRP/ SYM" takes the default name */
		if (!*name && !slash)
			return ld_fail(c, name, -EINVAL,
				       "no probe name after ':': give one (%c:NAME SYM), or leave out the ':' (%c SYM) for the default name",
				       *spec, *spec);
		if (*name && !ld_good_name(name))
			return ld_fail(c, ld_bad_byte(name), -EINVAL,
				       "event name must follow the same rules as C identifiers (< %d bytes)",
				       LD_PROBE_NAME_LEN);
		strscpy(p->name, name, sizeof(p->name));
	}
	return 1;
}

/* SYSTEM:EVENT, two identifiers (a tracepoint target word)? */
static bool ld_is_tp_target(const char *w)
{
	char sys[LD_PROBE_NAME_LEN];
	const char *colon = w ? strchr(w, ':') : NULL;

	if (!colon || colon - w >= sizeof(sys))
		return false;
	memcpy(sys, w, colon - w);
	sys[colon - w] = '\0';
	return ld_good_name(sys) && ld_good_name(colon + 1);
}

/*
 * The listing's form of a t: probe, "t:NAME SYSTEM:EVENT ..." (what
 * ld_probes_show() prints, so a listing line can be written back): @spec
 * is the word after "t:", a NAME with no '=' or ':', and the next word of
 * @cmd is SYSTEM:EVENT.  Sets p->name and returns 1; 0 for the short form
 * ("t:[NAME=]SYSTEM:EVENT"); or an error.
 */
static noinline_for_stack int ld_parse_tp_head(struct ld_pctx *c, struct ld_probe *p,
					       char *spec, const char *cmd)
{
	char peek[KSYM_NAME_LEN + 16];

	if (strchr(spec, ':') || strchr(spec, '=') ||
	    !ld_is_tp_target(ld_peek_word(cmd, peek, sizeof(peek))))
		return 0;
	if (!ld_good_name(spec))
		return ld_fail(c, ld_bad_byte(spec), -EINVAL,
			       "probe name is not an identifier ([A-Za-z_][A-Za-z0-9_]*, < %d bytes)",
			       LD_PROBE_NAME_LEN);
	strscpy(p->name, spec, sizeof(p->name));
	return 1;
}

/**
 * ld_parse() - fill @p from a command (not a removal); nothing is registered
 * @c:   the context: @c->text and @c->buf hold the command, @cmd is in @c->buf
 * @p:   a zeroed probe
 * @cmd: the command, cut in place
 *
 * Return: 0, or the error of the first fault (its reason in @c, ld_fail()).
 */
int ld_parse(struct ld_pctx *c, struct ld_probe *p, char *cmd)
{
	char *tok, *spec, *pct;
	u32 i, bytes;
	int ret;

	spec = strsep(&cmd, " \t");
	ret = ld_parse_head(c, p, spec, cmd);
	if (ret < 0)
		return ret;
	if (ret) {
		p->ftrace = true;
		do {
			spec = strsep(&cmd, " \t");
		} while (spec && !*spec);
		if (!spec)
			return ld_fail(c, c->buf + strlen(c->text), -EINVAL,
				       "no probe point: p:NAME SYM[+OFF] (or MOD:SYM, 0xADDR)");
		pct = strstr(spec, "%return");
		if (pct && !pct[7] && p->kind == LD_PROBE_KPROBE) {
			*pct = '\0';
			p->kind = LD_PROBE_KRETPROBE;
		}
	} else if (!strncmp(spec, "r:", 2)) {
		p->kind = LD_PROBE_KRETPROBE;
		spec += 2;
	} else if (!strncmp(spec, "t:", 2)) {
		p->kind = LD_PROBE_TRACEPOINT;
		spec += 2;
		ret = ld_parse_tp_head(c, p, spec, cmd);
		if (ret < 0)
			return ret;
		if (ret) {
			do {
				spec = strsep(&cmd, " \t");
			} while (spec && !*spec);
		}
	} else {
		p->kind = LD_PROBE_KPROBE;
		if (!strncmp(spec, "p:", 2))
			spec += 2;
	}
	ret = ld_parse_target(c, p, spec);
	if (ret)
		return ret;
	while ((tok = strsep(&cmd, " \t"))) {
		if (!*tok)
			continue;
		if (strlen(p->args) + strlen(tok) + 2 > sizeof(p->args))
			return ld_fail(c, tok, -E2BIG, "arguments longer than %zu bytes",
				       sizeof(p->args) - 1);
		if (*p->args)
			strlcat(p->args, " ", sizeof(p->args));
		strlcat(p->args, tok, sizeof(p->args));
		ret = ld_parse_arg(c, p, tok);
		if (ret)
			return ret;
	}
	for (i = 0, bytes = 0; i < p->nr_entry; i++)
		bytes += ld_fetch_bytes(&p->entry[i]);
	p->payload_max = bytes;
	for (i = 0, bytes = 0; i < p->nr_ret; i++)
		bytes += ld_fetch_bytes(&p->ret[i]);
	p->payload_max = max(p->payload_max, bytes);
	if (p->payload_max > LOGDEV_MAX_PAYLOAD)
		return ld_fail(c, c->buf + p->target_off, -E2BIG,
			       "a record of these arguments may take %u bytes, more than %d (a string takes %d)",
			       p->payload_max, LOGDEV_MAX_PAYLOAD, LD_PROBE_STR_MAX);
	return 0;
}
