// SPDX-License-Identifier: GPL-2.0
/*
 * logdev_probes.c - run-time probe points, the debugfs "probes" file
 * (modelled on ftrace's kprobe_events; docs/DEBUGFS.md describes it).
 *
 * One command per write:
 *   [p:][NAME=]WHERE[+OFFSET] [ARG]...  kprobe at WHERE (+OFFSET bytes)
 *   r:[NAME=]WHERE [ARG]...             kretprobe; its entry handler records
 *                                       the entry too, so the reader can pair
 *                                       them into a duration
 *   t:[NAME=]SYSTEM:EVENT [ARG]...      built-in tracepoint EVENT (SYSTEM is
 *                                       not checked: struct tracepoint has
 *                                       no system name)
 *   -NAME                               remove one probe
 *   (empty write, or open with O_TRUNC) remove every probe
 * WHERE is FUNC (a name defined exactly once in vmlinux and the loaded
 * modules, else -EADDRNOTAVAIL, as ftrace's kprobe_events), MOD:FUNC (the
 * one FUNC of module MOD) or 0xADDR (a kernel text address, as in
 * /proc/kallsyms).  NAME and ANAME are identifiers, [A-Za-z_][A-Za-z0-9_]*
 * (ASCII only).  A refused command leaves the reason, the command and the
 * position of the fault in the debugfs "error_log" (last LD_ERRLOG_MAX).
 * ARG is [ANAME=]$argN (N 1..6, the function argument by position; for a
 * tracepoint N 1..5, the probe's arguments after its data, x86-64 only) or
 * [ANAME=]$retval (return probes).  ANAMEs (given or default: argN,
 * retval) are unique within a probe, as kprobe_events wants them.
 *
 * Every hit is a LOGDEV_REC_PRINT record of the probe's own call site: file
 * "probe", func NAME (NAME%return for the return of an r: probe), line
 * OFFSET; its format is "arg1=%llx ..." and its payload one u64 per
 * argument, as vbin_printf() stores %llx, so readers render it like any
 * edprint().  Handlers run in any context (kprobes: irqs off) and only call
 * the lock-free ld_write_print().
 *
 * Probes are kept on a list under ld_probes_mutex; a handler only touches
 * its own probe.  Removal unregisters (which waits for running handlers)
 * before freeing; the call sites go to the site table (ld_site_adopt()) so
 * "formats" still describes records already taken.
 *
 * Layer: feature (logdev_features.h); creates "probes" and "error_log"
 * itself and calls the recording core (ld_write_print(), the site table).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/tracepoint.h>
#include <linux/kallsyms.h>
#include <linux/ptrace.h>
#include <linux/seq_file.h>
#include <linux/debugfs.h>
#include <linux/uaccess.h>
#include <linux/string.h>
#include <linux/ctype.h>
#include <linux/slab.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/cpumask.h>
#include <linux/sched/clock.h>
#include "logdev_core.h"
#include "logdev_features.h"

#define LD_PROBE_NAME_LEN	64
#define LD_PROBE_MAX_ARGS	8
#define LD_PROBE_CMD_MAX	1024	/* bytes of one write */
#define LD_PROBE_ARG_RETVAL	0	/* ld_probe.*_idx: 0 $retval, N $argN */

#ifdef CONFIG_X86_64
#define LD_TP_MAX_ARGS		5	/* register arguments after __data */
#else
#define LD_TP_MAX_ARGS		0
#endif

enum ld_probe_kind {
	LD_PROBE_KPROBE,
	LD_PROBE_KRETPROBE,
	LD_PROBE_TRACEPOINT,
};

static const char ld_probe_kind_char[] = { 'p', 'r', 't' };

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
 * @entry_idx: argument fetched for each u64 of an entry/kprobe/tracepoint
 *             record (N: $argN)
 * @ret_idx:   the same for a return record ($retval only)
 * @nr_entry: entries used in @entry_idx
 * @nr_ret:   entries used in @ret_idx
 * @args:      the argument words as written, for the listing
 * @site:      call site of entry/kprobe/tracepoint records
 * @ret_site:  call site of return records (r: only)
 * @hits:      handler calls (entries for r:)
 * @rets:      return handler calls (r:)
 * @kp:       the kprobe (p:)
 * @rp:       the kretprobe (r:)
 * @tp:       the tracepoint (t:)
 */
struct ld_probe {
	struct list_head list;
	enum ld_probe_kind kind;
	char name[LD_PROBE_NAME_LEN];
	char sym[KSYM_NAME_LEN];
	char system[LD_PROBE_NAME_LEN];
	unsigned long addr;
	unsigned long offset;
	u32 target_off;
	u8 entry_idx[LD_PROBE_MAX_ARGS];
	u8 ret_idx[LD_PROBE_MAX_ARGS];
	u32 nr_entry, nr_ret;
	char args[256];
	struct logdev_site *site, *ret_site;
	atomic_long_t hits, rets;
	struct kprobe kp;
	struct kretprobe rp;
	struct tracepoint *tp;
};

static LIST_HEAD(ld_probes);
static DEFINE_MUTEX(ld_probes_mutex);

/* --------------------------------------------------------------- handlers */

static __always_inline void ld_probe_regs_record(struct logdev_site *site,
						 const u8 *idx, u32 n,
						 struct pt_regs *regs)
{
	u64 w[LD_PROBE_MAX_ARGS];
	u32 i;

	for (i = 0; i < n; i++)
		w[i] = idx[i] == LD_PROBE_ARG_RETVAL ?
			regs_return_value(regs) :
			regs_get_kernel_argument(regs, idx[i] - 1);
	ld_write_print(logdev_site_id(site), w, n * sizeof(u64));
}

static int ld_kp_handler(struct kprobe *kp, struct pt_regs *regs)
{
	struct ld_probe *p = container_of(kp, struct ld_probe, kp);

	atomic_long_inc(&p->hits);
	ld_probe_regs_record(p->site, p->entry_idx, p->nr_entry, regs);
	return 0;
}
NOKPROBE_SYMBOL(ld_kp_handler);

static int ld_rp_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct ld_probe *p = container_of(get_kretprobe(ri), struct ld_probe, rp);

	atomic_long_inc(&p->hits);
	ld_probe_regs_record(p->site, p->entry_idx, p->nr_entry, regs);
	return 0;
}
NOKPROBE_SYMBOL(ld_rp_entry);

static int ld_rp_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct ld_probe *p = container_of(get_kretprobe(ri), struct ld_probe, rp);

	atomic_long_inc(&p->rets);
	ld_probe_regs_record(p->ret_site, p->ret_idx, p->nr_ret, regs);
	return 0;
}
NOKPROBE_SYMBOL(ld_rp_return);

/*
 * The one probe function registered on every tracepoint, whatever its
 * prototype.  The tracepoint calls it as probe(__data, args...); on x86-64
 * the first five arguments after __data arrive in registers, so declaring
 * five unsigned longs reads registers only: an argument the tracepoint does
 * not have is a meaningless value, never a bad memory access (narrower
 * argument types leave the upper bits undefined).
 */
#if LD_TP_MAX_ARGS == 5
static void notrace ld_tp_probe(void *data, unsigned long a1, unsigned long a2,
				unsigned long a3, unsigned long a4,
				unsigned long a5)
{
	const unsigned long a[LD_TP_MAX_ARGS] = { a1, a2, a3, a4, a5 };
	struct ld_probe *p = data;
	u64 w[LD_PROBE_MAX_ARGS];
	u32 i;

	atomic_long_inc(&p->hits);
	for (i = 0; i < p->nr_entry; i++)
		w[i] = a[p->entry_idx[i] - 1];
	ld_write_print(logdev_site_id(p->site), w, p->nr_entry * sizeof(u64));
}
#else
static void notrace ld_tp_probe(void *data)
{
	struct ld_probe *p = data;

	atomic_long_inc(&p->hits);
	ld_write_print(logdev_site_id(p->site), NULL, 0);
}
#endif

/* ------------------------------------------------------------- error_log */

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
	char reason[128];
	char cmd[LD_ERRLOG_CMD];
	u32 pos;
};

/* a ring of the last LD_ERRLOG_MAX; under ld_probes_mutex */
static struct ld_err ld_errlog[LD_ERRLOG_MAX];
static u32 ld_errlog_next, ld_errlog_count;

/*
 * Parsing context of one command: the text as written (@text, for the log)
 * and the writable copy strsep() cuts (@buf, same offsets), and the first
 * error found.
 */
struct ld_pctx {
	const char *text;
	const char *buf;
	int err;
	const char *at;		/* in @buf */
	char reason[128];
};

static __printf(4, 5) int ld_fail(struct ld_pctx *c, const char *at, int err,
				  const char *fmt, ...)
{
	va_list ap;

	if (c->err)
		return c->err;
	c->err = err;
	c->at = at ? at : c->buf;
	va_start(ap, fmt);
	vscnprintf(c->reason, sizeof(c->reason), fmt, ap);
	va_end(ap);
	return err;
}

static void ld_errlog_add(const struct ld_pctx *c)
{
	struct ld_err *e = &ld_errlog[ld_errlog_next];

	lockdep_assert_held(&ld_probes_mutex);
	e->ts = local_clock();
	strscpy(e->reason, c->reason, sizeof(e->reason));
	strscpy(e->cmd, c->text, sizeof(e->cmd));
	e->pos = min_t(u32, c->at - c->buf, strlen(e->cmd));
	ld_errlog_next = (ld_errlog_next + 1) % LD_ERRLOG_MAX;
	if (ld_errlog_count < LD_ERRLOG_MAX)
		ld_errlog_count++;
}

/* ---------------------------------------------------------------- parsing */

/* ASCII only: the kernel's isalnum() also takes Latin-1 letters (0xc0..) */
static bool ld_ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

/* An identifier: [A-Za-z_][A-Za-z0-9_]*, shorter than LD_PROBE_NAME_LEN. */
static bool ld_good_name(const char *s)
{
	if (!*s || strlen(s) >= LD_PROBE_NAME_LEN || (*s >= '0' && *s <= '9'))
		return false;
	for (; *s; s++)
		if (!ld_ident_char(*s))
			return false;
	return true;
}

/* The first byte of @s that is not an identifier byte (for the log). */
static const char *ld_bad_byte(const char *s)
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
static void ld_make_name(struct ld_probe *p)
{
	char *c, base[KSYM_NAME_LEN + 4];

	if (p->addr)
		snprintf(base, sizeof(base), "%c_%s", ld_probe_kind_char[p->kind], p->sym);
	else
		strscpy(base, p->sym, sizeof(base));
	if (p->offset)
		snprintf(p->name, LD_PROBE_NAME_LEN, "%s_%lu", base, p->offset);
	else
		strscpy(p->name, base, LD_PROBE_NAME_LEN);
	for (c = p->name; *c; c++)
		if (!ld_ident_char(*c))
			*c = '_';
}

struct ld_tp_find {
	const char *name;
	struct tracepoint *tp;
};

static void ld_tp_match(struct tracepoint *tp, void *priv)
{
	struct ld_tp_find *f = priv;

	if (!f->tp && !strcmp(tp->name, f->name))
		f->tp = tp;
}

/* One u64 word of a record's format: "NAME=%llx" appended to @fmt. */
static void ld_fmt_add(char *fmt, size_t size, const char *aname)
{
	if (*fmt)
		strlcat(fmt, " ", size);
	strlcat(fmt, aname, size);
	strlcat(fmt, "=%llx", size);
}

/* Does the format @fmt (ld_fmt_add() words) have a word named @aname? */
static bool ld_fmt_has(const char *fmt, const char *aname)
{
	size_t n = strlen(aname);
	const char *w;

	for (w = fmt; (w = strstr(w, aname)); w++)
		if ((w == fmt || w[-1] == ' ') && !strncmp(w + n, "=%llx", 5))
			return true;
	return false;
}

/*
 * "[ANAME=]$argN" or "[ANAME=]$retval": adds the fetch to @p and its word
 * to the entry format @fmt or the return format @rfmt (@size bytes each).
 * ANAME (given or default) must not name another argument of the probe,
 * entry or return: ftrace's kprobe_events refuses that too ("This argument
 * name is already used", -EINVAL).
 */
static int ld_parse_arg(struct ld_pctx *c, struct ld_probe *p, char *tok,
			char *fmt, char *rfmt, size_t size)
{
	char *eq = strchr(tok, '='), *src = tok, aname[32];
	unsigned int n;

	if (eq) {
		*eq = '\0';
		src = eq + 1;
		if (!ld_good_name(tok) || strlen(tok) >= sizeof(aname))
			return ld_fail(c, ld_bad_byte(tok), -EINVAL,
				       "argument name is not an identifier of at most %zu bytes",
				       sizeof(aname) - 1);
		strscpy(aname, tok, sizeof(aname));
	}
	if (p->nr_entry + p->nr_ret >= LD_PROBE_MAX_ARGS)
		return ld_fail(c, tok, -E2BIG, "more than %d arguments",
			       LD_PROBE_MAX_ARGS);
	if (!strcmp(src, "$retval")) {
		if (p->kind != LD_PROBE_KRETPROBE)
			return ld_fail(c, src, -EINVAL, "$retval needs a return probe (r:)");
		if (!eq)
			strscpy(aname, "retval", sizeof(aname));
		if (ld_fmt_has(fmt, aname) || ld_fmt_has(rfmt, aname))
			return ld_fail(c, tok, -EINVAL, "argument name is already used");
		p->ret_idx[p->nr_ret++] = LD_PROBE_ARG_RETVAL;
		ld_fmt_add(rfmt, size, aname);
		return 0;
	}
	if (strncmp(src, "$arg", 4) || src[4] < '1' || src[4] > '9' || src[5])
		return ld_fail(c, src, -EINVAL, "argument is not $argN or $retval");
	n = src[4] - '0';
	if (n > (p->kind == LD_PROBE_TRACEPOINT ? LD_TP_MAX_ARGS : 6))
		return ld_fail(c, src, -EINVAL, "$arg%u: at most $arg%d here", n,
			       p->kind == LD_PROBE_TRACEPOINT ? LD_TP_MAX_ARGS : 6);
	if (!eq)
		snprintf(aname, sizeof(aname), "arg%u", n);
	if (ld_fmt_has(fmt, aname) || ld_fmt_has(rfmt, aname))
		return ld_fail(c, tok, -EINVAL, "argument name is already used");
	p->entry_idx[p->nr_entry++] = n;
	ld_fmt_add(fmt, size, aname);
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
		if (!ld_ident_char(*s) && *s != '.')
			return ld_fail(c, s, -EINVAL,
				       "function name has a byte other than [A-Za-z0-9_.]");
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
	struct ld_tp_find f = { };
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
		f.name = p->sym;
		for_each_kernel_tracepoint(ld_tp_match, &f);
		if (!f.tp)
			return ld_fail(c, ev + 1, -ENOENT, "no built-in tracepoint '%s'",
				       p->sym);
		p->tp = f.tp;
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
	if (!eq)
		ld_make_name(p);
	if (!ld_good_name(p->name))
		return ld_fail(c, tgt, -EINVAL,
			       "cannot make a probe name from the target: give NAME=");
	return 0;
}

static struct logdev_site *ld_site_new(const char *func, const char *fmt,
				       u32 line)
{
	struct logdev_site *s = kzalloc(sizeof(*s), GFP_KERNEL);

	if (!s)
		return NULL;
	s->file = kstrdup("probe", GFP_KERNEL);
	s->func = kstrdup(func, GFP_KERNEL);
	s->fmt = kstrdup(fmt, GFP_KERNEL);
	s->line = line;
	if (!s->file || !s->func || !s->fmt) {
		ld_site_adopt(s);	/* no id yet: frees it */
		return NULL;
	}
	return s;
}

/* Fill @p from a command (not a removal); nothing is registered yet. */
static int ld_parse(struct ld_pctx *c, struct ld_probe *p, char *cmd)
{
	char fmt[256] = "", rfmt[256] = "", func[LD_PROBE_NAME_LEN + 8];
	char *tok, *spec;
	int ret;

	spec = strsep(&cmd, " \t");
	if (!strncmp(spec, "r:", 2)) {
		p->kind = LD_PROBE_KRETPROBE;
		spec += 2;
	} else if (!strncmp(spec, "t:", 2)) {
		p->kind = LD_PROBE_TRACEPOINT;
		spec += 2;
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
		ret = ld_parse_arg(c, p, tok, fmt, rfmt, sizeof(fmt));
		if (ret)
			return ret;
	}

	p->site = ld_site_new(p->name, fmt, p->offset);
	if (!p->site)
		return ld_fail(c, NULL, -ENOMEM, "out of memory");
	if (p->kind == LD_PROBE_KRETPROBE) {
		snprintf(func, sizeof(func), "%s%%return", p->name);
		p->ret_site = ld_site_new(func, rfmt, 0);
		if (!p->ret_site)
			return ld_fail(c, NULL, -ENOMEM, "out of memory");
	}
	return 0;
}

/* ----------------------------------------------------- one place per probe */

/*
 * kallsyms_on_each_symbol() and module_kallsyms_on_each_symbol() are not
 * exported (since Linux 5.7 no kallsyms lookup is).  Their addresses come
 * from a kprobe registered disabled on each (KPROBE_FLAG_DISABLED: nothing
 * is patched), the kprobes core resolving the name for us.  Without them
 * the uniqueness check is skipped (and said so once in the kernel log).
 */
typedef int (*ld_ksym_fn)(void *data, const char *name, struct module *mod,
			  unsigned long addr);
typedef int (*ld_each_sym_t)(ld_ksym_fn fn, void *data);

static ld_each_sym_t ld_each_vmlinux_sym, ld_each_module_sym;
static bool ld_each_sym_looked_up;

static unsigned long ld_kprobe_lookup(const char *name)
{
	struct kprobe kp = { .symbol_name = name, .flags = KPROBE_FLAG_DISABLED };
	unsigned long addr;

	if (register_kprobe(&kp))
		return 0;
	addr = (unsigned long)kp.addr;
	unregister_kprobe(&kp);
	return addr;
}

static void ld_each_sym_lookup(void)
{
	lockdep_assert_held(&ld_probes_mutex);
	if (ld_each_sym_looked_up)
		return;
	ld_each_sym_looked_up = true;
	ld_each_vmlinux_sym = (ld_each_sym_t)ld_kprobe_lookup("kallsyms_on_each_symbol");
	ld_each_module_sym = (ld_each_sym_t)ld_kprobe_lookup("module_kallsyms_on_each_symbol");
	if (!ld_each_vmlinux_sym || !ld_each_module_sym)
		pr_warn("probes: kallsyms iteration not found: ambiguous names are not detected\n");
}

struct ld_sym_count {
	const char *name;
	const char *mod;	/* count only in this module, or NULL */
	size_t modlen;
	unsigned int n;
};

static int ld_count_vmlinux(void *data, const char *name, struct module *mod,
			    unsigned long addr)
{
	struct ld_sym_count *sc = data;

	if (!mod && !strcmp(name, sc->name))
		sc->n++;
	return 0;
}

static int ld_count_module(void *data, const char *name, struct module *mod,
			   unsigned long addr)
{
	struct ld_sym_count *sc = data;

	if (sc->mod && (strlen(mod->name) != sc->modlen ||
			strncmp(mod->name, sc->mod, sc->modlen)))
		return 0;
	if (!strcmp(name, sc->name))
		sc->n++;
	return 0;
}

/*
 * A kprobe target by name must name one place: FUNC defined once in
 * vmlinux and all modules, MOD:FUNC once in MOD (as ftrace's kprobe_events:
 * -EADDRNOTAVAIL for several, -ENOENT for none).
 */
static int ld_check_unique(struct ld_pctx *c, struct ld_probe *p)
{
	struct ld_sym_count sc = { .name = p->sym };
	const char *colon = strchr(p->sym, ':');
	const char *at = c->buf + p->target_off;

	if (p->kind == LD_PROBE_TRACEPOINT || p->addr)
		return 0;
	ld_each_sym_lookup();
	if (!ld_each_vmlinux_sym || !ld_each_module_sym)
		return 0;
	if (colon) {
		sc.mod = p->sym;
		sc.modlen = colon - p->sym;
		sc.name = colon + 1;
	} else {
		ld_each_vmlinux_sym(ld_count_vmlinux, &sc);
	}
	ld_each_module_sym(ld_count_module, &sc);
	if (sc.n > 1)
		return ld_fail(c, at, -EADDRNOTAVAIL,
			       "%s is defined %u times: use MOD:FUNC or 0xADDR (/proc/kallsyms)",
			       p->sym, sc.n);
	if (!sc.n)
		return ld_fail(c, at, -ENOENT, "no symbol %s", p->sym);
	return 0;
}

/* ------------------------------------------------------------- (un)arming */

static int ld_probe_arm(struct ld_probe *p)
{
	switch (p->kind) {
	case LD_PROBE_KPROBE:
		if (p->addr)
			p->kp.addr = (kprobe_opcode_t *)p->addr;
		else
			p->kp.symbol_name = p->sym;
		p->kp.offset = p->offset;
		p->kp.pre_handler = ld_kp_handler;
		return register_kprobe(&p->kp);
	case LD_PROBE_KRETPROBE:
		if (p->addr)
			p->rp.kp.addr = (kprobe_opcode_t *)p->addr;
		else
			p->rp.kp.symbol_name = p->sym;
		p->rp.handler = ld_rp_return;
		p->rp.entry_handler = ld_rp_entry;
		p->rp.maxactive = max_t(int, 64, 4 * num_possible_cpus());
		return register_kretprobe(&p->rp);
	default:
		if (!IS_ENABLED(CONFIG_TRACEPOINTS))
			return -EOPNOTSUPP;	/* refused by ld_parse_target() */
		return tracepoint_probe_register(p->tp, ld_tp_probe, p);
	}
}

/* Unregister; when this returns no handler of @p runs or will run. */
static void ld_probe_disarm(struct ld_probe *p)
{
	switch (p->kind) {
	case LD_PROBE_KPROBE:
		unregister_kprobe(&p->kp);
		break;
	case LD_PROBE_KRETPROBE:
		unregister_kretprobe(&p->rp);
		break;
	default:
		if (!IS_ENABLED(CONFIG_TRACEPOINTS))
			break;
		tracepoint_probe_unregister(p->tp, ld_tp_probe, p);
		tracepoint_synchronize_unregister();
		break;
	}
}

/* Free an unarmed probe; its sites go to the table (or are freed). */
static void ld_probe_free(struct ld_probe *p)
{
	if (p->site)
		ld_site_adopt(p->site);
	if (p->ret_site)
		ld_site_adopt(p->ret_site);
	kfree(p);
}

static struct ld_probe *ld_probe_find(const char *name)
{
	struct ld_probe *p;

	list_for_each_entry(p, &ld_probes, list)
		if (!strcmp(p->name, name))
			return p;
	return NULL;
}

static int ld_probe_add(struct ld_pctx *c, char *cmd)
{
	const char *at;
	struct ld_probe *p;
	int ret;

	lockdep_assert_held(&ld_probes_mutex);
	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return ld_fail(c, NULL, -ENOMEM, "out of memory");
	ret = ld_parse(c, p, cmd);
	if (ret)
		goto err_free;
	at = c->buf + p->target_off;
	if (ld_probe_find(p->name)) {
		ret = ld_fail(c, c->buf, -EEXIST, "a probe named %s exists", p->name);
		goto err_free;
	}
	ret = ld_check_unique(c, p);
	if (ret)
		goto err_free;
	ret = ld_probe_arm(p);
	if (ret) {
		ld_fail(c, at, ret, "cannot attach to %s%s%s%s (error %d%s)",
			p->system, *p->system ? ":" : "", p->sym,
			p->offset ? "+OFFSET" : "", ret,
			ret == -EINVAL ? ": blacklisted or not a probe point" :
			ret == -EILSEQ ? ": not an instruction boundary" :
			ret == -ENOENT ? ": no such symbol or address" : "");
		goto err_free;
	}
	list_add_tail(&p->list, &ld_probes);
	return 0;

err_free:
	ld_probe_free(p);
	return ret;
}

static void ld_probe_remove(struct ld_probe *p)
{
	lockdep_assert_held(&ld_probes_mutex);
	list_del(&p->list);
	ld_probe_disarm(p);
	ld_probe_free(p);
}

static void ld_probes_remove_all(void)
{
	struct ld_probe *p, *n;

	mutex_lock(&ld_probes_mutex);
	list_for_each_entry_safe(p, n, &ld_probes, list)
		ld_probe_remove(p);
	mutex_unlock(&ld_probes_mutex);
}

/**
 * ld_probes_exit() - remove every probe (module unload)
 *
 * Call before the buffers are freed: afterwards no handler runs.
 */
void ld_probes_exit(void)
{
	ld_probes_remove_all();
}

/* ------------------------------------------------------------------- file */

static int ld_probes_show(struct seq_file *m, void *v)
{
	struct ld_probe *p;

	mutex_lock(&ld_probes_mutex);
	list_for_each_entry(p, &ld_probes, list) {
		seq_printf(m, "%c:%s ", ld_probe_kind_char[p->kind], p->name);
		if (p->kind == LD_PROBE_TRACEPOINT)
			seq_printf(m, "%s:%s", p->system, p->sym);
		else if (p->offset)
			seq_printf(m, "%s+%lu", p->sym, p->offset);
		else
			seq_printf(m, "%s", p->sym);
		if (*p->args)
			seq_printf(m, " %s", p->args);
		seq_printf(m, " hits=%ld", atomic_long_read(&p->hits));
		if (p->kind == LD_PROBE_KRETPROBE)
			seq_printf(m, " returns=%ld missed=%d",
				   atomic_long_read(&p->rets), p->rp.nmissed);
		else if (p->kind == LD_PROBE_KPROBE)
			seq_printf(m, " missed=%lu", p->kp.nmissed);
		seq_putc(m, '\n');
	}
	mutex_unlock(&ld_probes_mutex);
	return 0;
}

static int ld_probes_open(struct inode *inode, struct file *f)
{
	if ((f->f_mode & FMODE_WRITE) && (f->f_flags & O_TRUNC))
		ld_probes_remove_all();
	return single_open(f, ld_probes_show, NULL);
}

static ssize_t ld_probes_write(struct file *f, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	struct ld_pctx c = { };
	struct ld_probe *p;
	char *buf, *text, *cmd;
	size_t len;
	int ret;

	if (count >= LD_PROBE_CMD_MAX)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, count);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	len = count;
	if (len && buf[len - 1] == '\n')
		buf[--len] = '\0';
	text = kstrdup(buf, GFP_KERNEL);	/* as written, for error_log */
	if (!text) {
		kfree(buf);
		return -ENOMEM;
	}
	c.text = text;
	c.buf = buf;

	mutex_lock(&ld_probes_mutex);
	if (strlen(buf) != len || strchr(buf, '\n')) {
		/* embedded NUL, or more than one line */
		ret = ld_fail(&c, buf + strcspn(buf, "\n"), -EINVAL,
			      "one command per write, no NUL or newline inside");
		goto out;
	}
	cmd = strim(buf);
	if (!*cmd) {
		mutex_unlock(&ld_probes_mutex);
		ld_probes_remove_all();
		ret = 0;
		goto out_unlocked;
	}
	if (*cmd == '-') {
		if (!ld_good_name(cmd + 1)) {
			ret = ld_fail(&c, ld_bad_byte(cmd + 1), -EINVAL,
				      "removal: probe name is not an identifier");
		} else if ((p = ld_probe_find(cmd + 1))) {
			ld_probe_remove(p);
			ret = 0;
		} else {
			ret = ld_fail(&c, cmd + 1, -ENOENT, "no probe %s to remove",
				      cmd + 1);
		}
	} else {
		ret = ld_probe_add(&c, cmd);
	}
out:
	if (ret)
		ld_errlog_add(&c);
	mutex_unlock(&ld_probes_mutex);
out_unlocked:
	kfree(text);
	kfree(buf);
	return ret ? ret : count;
}

static const struct file_operations ld_probes_fops = {
	.owner = THIS_MODULE,
	.open = ld_probes_open,
	.read = seq_read,
	.write = ld_probes_write,
	.llseek = seq_lseek,
	.release = single_release,
};

/* ------------------------------------------------------------- error_log */

/* @cmd with control bytes, '\\' and bytes above 0x7e as \xHH; *@caret: where
 * byte @pos of @cmd starts in the output */
static void ld_errlog_show_cmd(struct seq_file *m, const char *cmd, u32 pos,
			       u32 *caret)
{
	u32 i, col = 0;

	for (i = 0; cmd[i]; i++) {
		unsigned char ch = cmd[i];

		if (i == pos)
			*caret = col;
		if (ch < 0x20 || ch > 0x7e || ch == '\\') {
			seq_printf(m, "\\x%02x", ch);
			col += 4;
		} else {
			seq_putc(m, ch);
			col++;
		}
	}
	if (i <= pos)
		*caret = col;
}

static int ld_errlog_show(struct seq_file *m, void *v)
{
	u32 i, caret = 0;

	mutex_lock(&ld_probes_mutex);
	for (i = 0; i < ld_errlog_count; i++) {
		const struct ld_err *e = &ld_errlog[(ld_errlog_next + LD_ERRLOG_MAX -
						      ld_errlog_count + i) % LD_ERRLOG_MAX];
		u64 sec = e->ts;
		u32 ns = do_div(sec, NSEC_PER_SEC);

		seq_printf(m, "[%5llu.%06u] logdev: error: %s\n  Command: ",
			   sec, ns / 1000, e->reason);
		ld_errlog_show_cmd(m, e->cmd, e->pos, &caret);
		seq_printf(m, "\n%*s^\n", (int)(caret + 11), "");
	}
	mutex_unlock(&ld_probes_mutex);
	return 0;
}

static int ld_errlog_open(struct inode *inode, struct file *f)
{
	if ((f->f_mode & FMODE_WRITE) && (f->f_flags & O_TRUNC)) {
		mutex_lock(&ld_probes_mutex);
		ld_errlog_count = 0;
		ld_errlog_next = 0;
		mutex_unlock(&ld_probes_mutex);
	}
	return single_open(f, ld_errlog_show, NULL);
}

/* Writes are accepted and ignored: clearing is the O_TRUNC of the open. */
static ssize_t ld_errlog_write(struct file *f, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	return count;
}

static const struct file_operations ld_errlog_fops = {
	.owner = THIS_MODULE,
	.open = ld_errlog_open,
	.read = seq_read,
	.write = ld_errlog_write,
	.llseek = seq_lseek,
	.release = single_release,
};

/* ------------------------------------------------------------------- init */

/**
 * ld_probes_init() - create the "probes" and "error_log" files
 * @dir: the logdev debugfs directory
 *
 * Module init; no probe exists until one is written to "probes".
 */
void ld_probes_init(struct dentry *dir)
{
	debugfs_create_file("probes", 0644, dir, NULL, &ld_probes_fops);
	debugfs_create_file("error_log", 0644, dir, NULL, &ld_errlog_fops);
}
