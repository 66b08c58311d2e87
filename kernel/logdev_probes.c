// SPDX-License-Identifier: GPL-2.0
/*
 * logdev_probes.c - run-time probe points, the debugfs "probes" file
 * (modelled on ftrace's kprobe_events; docs/DEBUGFS.md describes it).
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
 * Every hit is a LOGDEV_REC_PRINT record of the probe's own call site: file
 * "probe", func NAME (NAME%return for the return of an r: probe), line
 * OFFSET; its format carries each argument's type ("n=%lld s=\"%s\"%s ...",
 * ld_fmt_make()) and its payload is what vbin_printf() stores for that
 * format (u64 values, NUL-terminated strings), so readers render it like
 * any edprint().  Handlers run in any context (kprobes: irqs off) and only call
 * the lock-free ld_write_print().
 *
 * Probes are kept on a list under ld_probes_mutex; a handler only touches
 * its own probe.  Removal unregisters (which waits for running handlers)
 * before freeing; the call sites go to the site table (ld_site_adopt()) so
 * "formats" still describes records already taken.  A probe in a module is
 * disarmed when the module goes and armed again when it comes back; MOD:FUNC
 * of a module not loaded waits for it (ld_probes_module_cb(): the listing's
 * state=gone and state=pending).
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
#include <linux/sort.h>
#include <linux/glob.h>
#include <linux/vmalloc.h>
#include "logdev_compat.h"	/* ld_mod_mem() */
#include "logdev_core.h"
#include "logdev_features.h"
#include "logdev_btf.h"
#include "logdev_ksyms.h"

#define LD_PROBE_NAME_LEN	64
#define LD_PROBE_MAX_ARGS	8
#define LD_PROBE_CMD_MAX	1024	/* bytes of one write */

#ifdef CONFIG_X86_64
#define LD_TP_MAX_ARGS		5	/* register arguments after __data */
#else
#define LD_TP_MAX_ARGS		0
#endif

#define LD_PROBE_STR_MAX	48	/* bytes of a :string value, NUL included */
#define LD_FETCH_DEPTH		4	/* nested +OFF(...) dereferences */
#define LD_ANAME_LEN		32
#define LD_MAXACTIVE_MAX	4096	/* as ftrace's KRETPROBE_MAXACTIVE_MAX */

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
	LD_FT_LEGACY,	/* no :TYPE: u64, "%llx" (logdev's short forms) */
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
 * module notifier); @tp is NULL while the module is away.
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
	struct ld_fetch entry[LD_PROBE_MAX_ARGS];
	struct ld_fetch ret[LD_PROBE_MAX_ARGS];
	u32 nr_entry, nr_ret;
	u32 payload_max;
	int maxactive;
	bool ftrace, named;
	char group[LD_PROBE_NAME_LEN];
	char args[256];
	struct logdev_site *site, *ret_site;
	atomic_long_t hits, rets;
	struct kprobe kp;
	struct kretprobe rp;
	struct tracepoint *tp;
	char mod[MODULE_NAME_LEN];
	char ksym[MODULE_NAME_LEN + KSYM_NAME_LEN];
	bool armed, was_armed;
	int arm_err;
	unsigned long missed_before, missed_inst_before;
};

static LIST_HEAD(ld_probes);
static DEFINE_MUTEX(ld_probes_mutex);

/* --------------------------------------------------------------- handlers */

static const char ld_fault_mark[] = "(fault)";
static const char ld_cut_mark[] = "[cut]";

/* The base value of @f: from @regs (kprobes) or @tpa (tracepoint args). */
static __always_inline unsigned long ld_fetch_base(const struct ld_fetch *f,
						   struct pt_regs *regs,
						   const unsigned long *tpa)
{
	switch (f->base) {
	case LD_FB_ARG:
		return tpa ? tpa[f->val - 1] :
			regs_get_kernel_argument(regs, f->val - 1);
	case LD_FB_RETVAL:
		return regs_return_value(regs);
	case LD_FB_REG:
		return *(unsigned long *)((char *)regs + f->val);
	case LD_FB_IMM:
		return f->val;
	case LD_FB_STACKN:
		return regs_get_kernel_stack_nth(regs, f->val);
	case LD_FB_STACK:
		return kernel_stack_pointer(regs);
	default:
		return (unsigned long)current->comm;
	}
}

/*
 * Copy the NUL-terminated string at @src to @dst, at most @max bytes, NUL
 * included; never faults (strncpy_from_kernel_nofault() is not exported to
 * modules).  Reads aligned 8-byte words with copy_from_kernel_nofault(),
 * which never cross a page, so a string that ends just before an unmapped
 * page is read whole.  Returns the bytes stored (NUL included; @max and no
 * NUL in @src's first @max - 1 bytes: cut, the last byte stored a NUL), or
 * -EFAULT (nothing usable stored).
 */
static long ld_str_nofault(char *dst, unsigned long src, u32 max)
{
	unsigned long a = ALIGN_DOWN(src, sizeof(u64));
	u32 skip = src - a, n = 0, i;
	u64 w;

	while (n < max) {
		if (copy_from_kernel_nofault(&w, (void *)a, sizeof(w)))
			return -EFAULT;
		for (i = skip; i < sizeof(w) && n < max; i++) {
			char ch = ((char *)&w)[i];

			if (n == max - 1)
				ch = '\0';
			dst[n++] = ch;
			if (!ch)
				return n;
		}
		skip = 0;
		a += sizeof(w);
	}
	return n;
}

/* Append the text @s (NUL included) at @buf + @pos; the new position. */
static __always_inline u32 ld_put_str(u8 *buf, u32 pos, const char *s, u32 n)
{
	memcpy(buf + pos, s, n);
	return pos + n;
}

/*
 * Store the value of @f at @buf + @pos as vbin_printf() would for its
 * format (8-byte values 4-byte aligned, strings NUL-terminated), then the
 * fault mark string if @f->fault.  Never faults: memory is read with the
 * _nofault helpers.  Returns the new position (at most @pos +
 * ld_fetch_bytes(@f)).
 */
static u32 ld_fetch_store(const struct ld_fetch *f, struct pt_regs *regs,
			  const unsigned long *tpa, u8 *buf, u32 pos)
{
	unsigned long v = ld_fetch_base(f, regs, tpa), addr;
	const char *mark = "";
	u64 w = 0;
	long n;
	u32 i, last = f->ndrf;

	if (f->type == LD_FT_STRING && f->ndrf)
		last = f->ndrf - 1;	/* the string is at the last address */
	for (i = 0; i < last; i++) {
		u32 sz = (i + 1 == f->ndrf) ? f->size : sizeof(v);

		addr = v + f->off[i];
		v = 0;
		if (copy_from_kernel_nofault(&v, (void *)addr, sz)) {
			mark = ld_fault_mark;
			v = 0;
			break;
		}
	}
	if (f->type == LD_FT_STRING) {
		addr = f->ndrf ? v + f->off[f->ndrf - 1] : v;
		n = *mark ? -EFAULT : ld_str_nofault((char *)buf + pos, addr,
						     LD_PROBE_STR_MAX);
		if (n < 0) {
			buf[pos++] = '\0';
			mark = ld_fault_mark;
		} else {
			char more = 0;

			pos += n;
			if (n == LD_PROBE_STR_MAX &&
			    !copy_from_kernel_nofault(&more, (void *)(addr + n - 1), 1) &&
			    more)
				mark = ld_cut_mark;
		}
	} else {
		w = v;
		if (f->size < 8) {
			w &= (1ULL << (f->size * 8)) - 1;
			if (f->type == LD_FT_S && (w >> (f->size * 8 - 1)))
				w |= ~0ULL << (f->size * 8);
		}
		pos = ALIGN(pos, 4);
		memcpy(buf + pos, &w, sizeof(w));
		pos += sizeof(w);
	}
	if (f->fault)
		pos = ld_put_str(buf, pos, mark, strlen(mark) + 1);
	return pos;
}

/* Worst-case bytes ld_fetch_store() adds (3 of alignment included). */
static u32 ld_fetch_bytes(const struct ld_fetch *f)
{
	u32 n = f->type == LD_FT_STRING ? LD_PROBE_STR_MAX : 3 + 8;

	return n + (f->fault ? sizeof(ld_fault_mark) : 0);
}

static __always_inline void ld_probe_record(struct logdev_site *site,
					    const struct ld_fetch *f, u32 n,
					    struct pt_regs *regs,
					    const unsigned long *tpa)
{
	u8 buf[LOGDEV_MAX_PAYLOAD] __aligned(8);
	u32 i, pos = 0;

	for (i = 0; i < n; i++)
		pos = ld_fetch_store(&f[i], regs, tpa, buf, pos);
	ld_write_print(logdev_site_id(site), buf, pos);
}

static int ld_kp_handler(struct kprobe *kp, struct pt_regs *regs)
{
	struct ld_probe *p = container_of(kp, struct ld_probe, kp);

	atomic_long_inc(&p->hits);
	ld_probe_record(p->site, p->entry, p->nr_entry, regs, NULL);
	return 0;
}
NOKPROBE_SYMBOL(ld_kp_handler);

static int ld_rp_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct ld_probe *p = container_of(get_kretprobe(ri), struct ld_probe, rp);

	atomic_long_inc(&p->hits);
	ld_probe_record(p->site, p->entry, p->nr_entry, regs, NULL);
	return 0;
}
NOKPROBE_SYMBOL(ld_rp_entry);

static int ld_rp_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct ld_probe *p = container_of(get_kretprobe(ri), struct ld_probe, rp);

	atomic_long_inc(&p->rets);
	ld_probe_record(p->ret_site, p->ret, p->nr_ret, regs, NULL);
	return 0;
}
NOKPROBE_SYMBOL(ld_rp_return);

/*
 * The one probe function registered on every tracepoint, whatever its
 * prototype.  The tracepoint calls it as probe(__data, args...); on x86-64
 * the first five arguments after __data arrive in registers, so declaring
 * five unsigned longs reads registers only: an argument the tracepoint does
 * not have is a meaningless value, never a bad memory access (narrower
 * argument types leave the upper bits undefined).  Only $argN, $comm and
 * @SYM fetches are allowed here (no pt_regs).
 */
#if LD_TP_MAX_ARGS == 5
static void notrace ld_tp_probe(void *data, unsigned long a1, unsigned long a2,
				unsigned long a3, unsigned long a4,
				unsigned long a5)
{
	const unsigned long a[LD_TP_MAX_ARGS] = { a1, a2, a3, a4, a5 };
	struct ld_probe *p = data;

	atomic_long_inc(&p->hits);
	ld_probe_record(p->site, p->entry, p->nr_entry, NULL, a);
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
	char reason[256];
	char cmd[LD_ERRLOG_CMD];
	u32 pos;
};

/* a ring of the last LD_ERRLOG_MAX; under ld_probes_mutex */
static struct ld_err ld_errlog[LD_ERRLOG_MAX];
static u32 ld_errlog_next, ld_errlog_count;

#define LD_TP_PARAMS_MAX	17	/* __data and 16 arguments read from the BTF */

/**
 * struct ld_tp_params - a tracepoint's TP_PROTO arguments, from the BTF of
 * its class function __bpf_trace_<class>(void *__data, TP_PROTO...)
 * @err:  0, or why they could not be read (said once in error_log)
 * @n:    parameters of the class function, __data included
 * @p:    the first LD_TP_PARAMS_MAX: @p[0] is __data, @p[N] is $argN
 * @cls:  the class function's name (from the raw tracepoint map)
 */
struct ld_tp_params {
	int err;
	u32 n;
	struct ld_btf_param p[LD_TP_PARAMS_MAX];
	char cls[KSYM_SYMBOL_LEN];
};

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

#if defined(CONFIG_MODULES) && defined(CONFIG_TRACEPOINTS)
/*
 * The loaded modules that have tracepoints, as the tracepoint module
 * notifier reports them (ld_tp_module_cb(): added at MODULE_STATE_COMING,
 * removed at MODULE_STATE_GOING, before the module's memory is freed).
 * Under ld_probes_mutex.  for_each_kernel_tracepoint() lists vmlinux's
 * tracepoints only, and the kernel's list of modules is not exported.
 */
struct ld_tp_mod {
	struct list_head list;
	struct module *mod;
};
static LIST_HEAD(ld_tp_mods);

/* Tracepoint @name of @mod, or NULL. */
static struct tracepoint *ld_tp_of_mod(struct module *mod, const char *name)
{
	unsigned int i;

	for (i = 0; i < mod->num_tracepoints; i++) {
		struct tracepoint *tp = tracepoint_ptr_deref(&mod->tracepoints_ptrs[i]);

		if (!strcmp(tp->name, name))
			return tp;
	}
	return NULL;
}

/*
 * Tracepoint @name in the first loaded module that has one (in load
 * order), its module's name copied to @modname (MODULE_NAME_LEN bytes);
 * NULL if none has.
 */
static struct tracepoint *ld_tp_in_modules(const char *name, char *modname)
{
	struct ld_tp_mod *m;
	struct tracepoint *tp;

	lockdep_assert_held(&ld_probes_mutex);
	list_for_each_entry(m, &ld_tp_mods, list) {
		tp = ld_tp_of_mod(m->mod, name);
		if (tp) {
			strscpy(modname, m->mod->name, MODULE_NAME_LEN);
			return tp;
		}
	}
	return NULL;
}
#else
static struct tracepoint *ld_tp_in_modules(const char *name, char *modname)
{
	return NULL;
}
#endif

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
	[LD_FT_LEGACY] = "%llx", [LD_FT_U] = "%llu", [LD_FT_S] = "%lld",
	[LD_FT_X] = "0x%llx", [LD_FT_STRING] = "\"%s\"",
	[LD_FT_SYMBOL] = "%pS",
};

/*
 * The format of a record of the @n fetches @f ("NAME=CONV[%s] ..."), in a
 * buffer of its own size (kfree() it), or NULL without memory.  Every
 * fetch has its conversion, whatever the names' lengths: a format cut
 * short would render the payload's values under the wrong names.
 */
static char *ld_fmt_make(const struct ld_fetch *f, u32 n)
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

static int ld_ksyms_fail(struct ld_pctx *c, const char *at, int err, const char *what);
static int ld_tp_nargs(struct ld_pctx *c, struct ld_probe *p);
static noinline_for_stack int ld_tp_named(struct ld_pctx *c, struct ld_probe *p,
					  struct ld_fetch *f, char *s);

#ifdef CONFIG_X86_64
#define LD_REG(r) { #r, offsetof(struct pt_regs, r) }
static const struct { const char *name; u16 off; } ld_regs[] = {
	LD_REG(r15), LD_REG(r14), LD_REG(r13), LD_REG(r12), LD_REG(bp),
	LD_REG(bx), LD_REG(r11), LD_REG(r10), LD_REG(r9), LD_REG(r8),
	LD_REG(ax), LD_REG(cx), LD_REG(dx), LD_REG(si), LD_REG(di),
	LD_REG(orig_ax), LD_REG(ip), LD_REG(cs), LD_REG(flags), LD_REG(sp),
	LD_REG(ss),
};
#undef LD_REG
#endif

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
	char *open, *close, *sign;
	long off;
	int ret, nargs;

	if (!*s)
		return ld_fail(c, s, -EINVAL, "no argument expression");
	if (*s == '+' || *s == '-') {
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
			unsigned int cnt = 0;
			int ret;

			if (!s[1])
				return ld_fail(c, s + 1, -EINVAL, "no symbol after @");
			ret = ld_ksym_addr(s + 1, &f->val, &cnt);
			if (ret)
				return ld_ksyms_fail(c, s + 1, ret, "@SYM (use @0xADDR from /proc/kallsyms)");
			if (cnt > 1)
				return ld_fail(c, s + 1, -EADDRNOTAVAIL,
					       "@%s is defined %u times: use @0xADDR (/proc/kallsyms)",
					       s + 1, cnt);
			if (!f->val)
				return ld_fail(c, s + 1, -ENOENT, "no symbol %s", s + 1);
		}
		f->off[f->ndrf++] = off;
		return 0;
	}
	if (*s == '%') {
#ifdef CONFIG_X86_64
		u32 i;

		if (tp)
			return ld_fail(c, s, -EINVAL, "%%REG is not available on a tracepoint");
		for (i = 0; i < ARRAY_SIZE(ld_regs); i++)
			if (!strcmp(s + 1, ld_regs[i].name)) {
				f->base = LD_FB_REG;
				f->val = ld_regs[i].off;
				return 0;
			}
#endif
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
	/* ftrace's default type is x64 ("0x..."); logdev's short forms: "%llx" */
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
		f.name = p->sym;
		for_each_kernel_tracepoint(ld_tp_match, &f);
		if (!f.tp)
			f.tp = ld_tp_in_modules(p->sym, p->mod);
		if (!f.tp)
			return ld_fail(c, ev + 1, -ENOENT,
				       "no tracepoint '%s' in vmlinux or a loaded module",
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
	if (!*p->name)
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

/* Fill @p from a command (not a removal); nothing is registered yet. */
static int ld_parse(struct ld_pctx *c, struct ld_probe *p, char *cmd)
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

/* The call sites of @p's records (formats from its fetches). */
static int ld_probe_sites(struct ld_pctx *c, struct ld_probe *p)
{
	char func[LD_PROBE_NAME_LEN + 8], *fmt;

	fmt = ld_fmt_make(p->entry, p->nr_entry);
	if (!fmt)
		return ld_fail(c, NULL, -ENOMEM, "out of memory");
	p->site = ld_site_new(p->name, fmt, p->offset);
	kfree(fmt);
	if (!p->site)
		return ld_fail(c, NULL, -ENOMEM, "out of memory");
	if (p->kind == LD_PROBE_KRETPROBE) {
		fmt = ld_fmt_make(p->ret, p->nr_ret);
		if (!fmt)
			return ld_fail(c, NULL, -ENOMEM, "out of memory");
		snprintf(func, sizeof(func), "%s%%return", p->name);
		p->ret_site = ld_site_new(func, fmt, 0);
		kfree(fmt);
		if (!p->ret_site)
			return ld_fail(c, NULL, -ENOMEM, "out of memory");
	}
	return 0;
}

/* ----------------------------------------------------- one place per probe */

/*
 * A question to the kernel's symbols (logdev_ksyms.h) failed with @err:
 * refuse the command saying what @what needed and why it cannot be had
 * (-EOPNOTSUPP: no source on this kernel, ld_ksyms_why() says why).
 */
static int ld_ksyms_fail(struct ld_pctx *c, const char *at, int err, const char *what)
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

/* ------------------------------------------ tracepoint arguments by name */

/*
 * Section bounds in vmlinux, found once through kallsyms (they are data
 * symbols: CONFIG_KALLSYMS_ALL) under ld_probes_mutex: the BTF and the raw
 * tracepoint map (struct bpf_raw_event_map of each built-in tracepoint
 * with a trace event, CONFIG_BPF_EVENTS).  0 where not found.
 */
enum { LD_SEC_BTF, LD_SEC_BTF_END, LD_SEC_RAW_TP, LD_SEC_RAW_TP_END, LD_NR_SECS };
static unsigned long ld_secs[LD_NR_SECS];

/*
 * Walk kallsyms for the sections unless ld_secs[@first..@last], the ones
 * the caller needs, are known: the raw map's user (every t: probe with a
 * $argN) does not walk again on a kernel without BTF.  0, or -errno of
 * ld_ksyms_find().
 */
static int ld_secs_find(int first, int last)
{
	static const char * const names[LD_NR_SECS] = {
		"__start_BTF", "__stop_BTF", "__start__bpf_raw_tp", "__stop__bpf_raw_tp",
	};
	int i;

	lockdep_assert_held(&ld_probes_mutex);
	for (i = first; i <= last; i++)
		if (!ld_secs[i])
			return ld_ksyms_find(names, ld_secs, LD_NR_SECS);
	return 0;
}

/*
 * vmlinux's raw tracepoint map, [@b, @e), if kallsyms has it and its size
 * is whole entries; false (and @b, @e untouched) if not.
 */
static bool ld_vmlinux_raw_map(const struct bpf_raw_event_map **b,
			       const struct bpf_raw_event_map **e)
{
	unsigned long a, z;

	if (ld_secs_find(LD_SEC_RAW_TP, LD_SEC_RAW_TP_END))
		return false;
	a = ld_secs[LD_SEC_RAW_TP];
	z = ld_secs[LD_SEC_RAW_TP_END];
	if (!a || z < a || (z - a) % sizeof(**b))
		return false;
	*b = (const struct bpf_raw_event_map *)a;
	*e = (const struct bpf_raw_event_map *)z;
	return true;
}

/*
 * The raw tracepoint map entry of @p's tracepoint, or NULL: vmlinux's map
 * for a built-in one, its module's (mod->bpf_raw_events) for a module's.
 * A tracepoint without a trace event (a bare DECLARE_TRACE) has none.
 */
static const struct bpf_raw_event_map *ld_tp_raw_entry(struct ld_probe *p)
{
	const struct bpf_raw_event_map *e = NULL, *end = NULL;

	if (*p->mod) {
#if defined(CONFIG_MODULES) && defined(CONFIG_TRACEPOINTS) && defined(CONFIG_BPF_EVENTS)
		struct ld_tp_mod *m;

		list_for_each_entry(m, &ld_tp_mods, list)
			if (!strcmp(m->mod->name, p->mod)) {
				e = m->mod->bpf_raw_events;
				end = e + m->mod->num_bpf_raw_events;
				break;
			}
#endif
	} else {
		ld_vmlinux_raw_map(&e, &end);
	}
	for (; e && e < end; e++)
		if (e->tp == p->tp)
			return e;
	return NULL;
}

/*
 * How many arguments @p's tracepoint passes (its raw map entry's num_args),
 * or -1 where no map says (then $argN is not checked against it).
 */
static int ld_tp_nargs(struct ld_pctx *c, struct ld_probe *p)
{
	const struct bpf_raw_event_map *e;

	if (!c->tp_nargs) {
		e = ld_tp_raw_entry(p);
		c->tp_nargs = e ? (int)e->num_args + 1 : -1;
	}
	return c->tp_nargs < 0 ? -1 : c->tp_nargs - 1;
}

/*
 * The TP_PROTO arguments of @p's tracepoint into @t: the event's entry in
 * the raw tracepoint map (__start__bpf_raw_tp..__stop__bpf_raw_tp, the
 * struct bpf_raw_event_map of each built-in tracepoint: its class function
 * __bpf_trace_<class> and its number of arguments), then that function's
 * parameters in vmlinux's BTF (__start_BTF..__stop_BTF, the bytes of
 * /sys/kernel/btf/vmlinux) through our reader (logdev_btf.c).  Section
 * symbols are data: found by walking kallsyms (CONFIG_KALLSYMS_ALL).
 * A module's tracepoint is refused here (-EOPNOTSUPP): its class function
 * and split BTF are the module's, which this does not read.
 * Returns 0 or the error, with the reason at @at (-EOPNOTSUPP: no BTF, no
 * map; $argN still works).
 */
static noinline_for_stack int ld_tp_params_load(struct ld_pctx *c, struct ld_probe *p,
						const char *at, struct ld_tp_params *t)
{
	const unsigned long *a = ld_secs;	/* vmlinux's sections never move */
	const struct bpf_raw_event_map *e, *end;
	struct ld_btf btf;
	int ret;

	lockdep_assert_held(&ld_probes_mutex);
	if (*p->mod)
		return ld_fail(c, at, -EOPNOTSUPP,
			       "%s is a tracepoint of module %s: arguments by name are known for vmlinux's tracepoints only; $argN works",
			       p->sym, p->mod);
	if (!IS_ENABLED(CONFIG_DEBUG_INFO_BTF))
		return ld_fail(c, at, -EOPNOTSUPP,
			       "this kernel has no BTF (CONFIG_DEBUG_INFO_BTF): arguments by name are not known; $argN works");
	ret = ld_secs_find(LD_SEC_BTF, LD_SEC_RAW_TP_END);
	if (ret)
		return ld_ksyms_fail(c, at, ret, "the BTF's location ($argN works)");
	if (!a[0] || a[1] <= a[0])
		return ld_fail(c, at, -EOPNOTSUPP,
			       "no BTF in kallsyms (__start_BTF; CONFIG_DEBUG_INFO_BTF, CONFIG_KALLSYMS_ALL): $argN works");
	if (!ld_vmlinux_raw_map(&e, &end))
		return ld_fail(c, at, -EOPNOTSUPP,
			       "no raw tracepoint map in kallsyms (__start__bpf_raw_tp; CONFIG_BPF_EVENTS): $argN works");
	e = ld_tp_raw_entry(p);
	if (!e)
		return ld_fail(c, at, -EOPNOTSUPP,
			       "%s is not in the raw tracepoint map: its arguments by name are not known; $argN works",
			       p->sym);
	sprint_symbol_no_offset(t->cls, (unsigned long)e->bpf_func);
	if (strncmp(t->cls, "__bpf_trace_", 12))
		return ld_fail(c, at, -EOPNOTSUPP,
			       "the class function of %s is %s, not __bpf_trace_*: $argN works",
			       p->sym, t->cls);
	ret = ld_btf_open(&btf, (const void *)a[0], a[1] - a[0], NULL);
	if (ret)
		return ld_fail(c, at, ret,
			       "the kernel's BTF cannot be read (error %d): $argN works", ret);
	ret = ld_btf_func_params(&btf, t->cls, t->p, LD_TP_PARAMS_MAX, &t->n);
	ld_btf_close(&btf);
	if (ret == -ENOENT)
		return ld_fail(c, at, -EOPNOTSUPP,
			       "no BTF for %s (the class function of %s): $argN works",
			       t->cls, p->sym);
	if (ret)
		return ld_fail(c, at, ret, "the BTF of %s cannot be read (error %d): $argN works",
			       t->cls, ret);
	if (!t->n || t->p[0].kind != LD_BTF_PTR || t->n - 1 != e->num_args)
		return ld_fail(c, at, -EOPNOTSUPP,
			       "%s(%u parameters) is not (void *__data, the %u arguments of %s): $argN works",
			       t->cls, t->n, e->num_args, p->sym);
	return 0;
}

/* The arguments' names, "a b c", into @out (@size bytes). */
static void ld_tp_arg_names(const struct ld_tp_params *t, char *out, size_t size)
{
	u32 i;

	*out = '\0';
	for (i = 1; i < min_t(u32, t->n, LD_TP_PARAMS_MAX); i++) {
		if (i > 1)
			strlcat(out, " ", size);
		strlcat(out, *t->p[i].name ? t->p[i].name : "?", size);
	}
	if (t->n > LD_TP_PARAMS_MAX)
		strlcat(out, " ...", size);
}

/* Can the value of @prm be read from one register? */
static bool ld_tp_reg_sized(const struct ld_btf_param *prm)
{
	return (prm->kind == LD_BTF_INT || prm->kind == LD_BTF_PTR) &&
	       (prm->size == 1 || prm->size == 2 || prm->size == 4 || prm->size == 8);
}

/*
 * A bare identifier @s in a t: probe's fetch (not inlined: ld_parse_fetch()
 * recurses, and @list would be in each of its frames): the TP_PROTO argument of
 * that name, as $argN of its position (@f), its type for ld_parse_arg()
 * in c->named.  Refused with the reason: no BTF (-EOPNOTSUPP), a name that
 * is not an argument (-ENOENT, listing them), an argument past the
 * registers ld_tp_probe() reads (-EINVAL, as $arg6), one logdev cannot
 * record (a struct, union or float by value: -EOPNOTSUPP), or one after
 * such an argument (its register is not known: -EOPNOTSUPP).
 */
static noinline_for_stack int ld_tp_named(struct ld_pctx *c, struct ld_probe *p,
					  struct ld_fetch *f, char *s)
{
	const struct ld_btf_param *prm;
	struct ld_tp_params *t = c->tpp;
	char list[160];
	u32 i, k;

	if (!t) {
		t = kzalloc(sizeof(*t), GFP_KERNEL);
		if (!t)
			return ld_fail(c, s, -ENOMEM, "out of memory");
		c->tpp = t;
		t->err = ld_tp_params_load(c, p, s, t);
	}
	if (t->err)
		return t->err;
	for (i = 1; i < min_t(u32, t->n, LD_TP_PARAMS_MAX); i++)
		if (!strcmp(t->p[i].name, s) ||
		    (t->p[i].name_long && !strncmp(t->p[i].name, s, LD_BTF_NAME_LEN - 1)))
			break;
	if (i >= min_t(u32, t->n, LD_TP_PARAMS_MAX)) {
		ld_tp_arg_names(t, list, sizeof(list));
		return ld_fail(c, s, -ENOENT, "%s has no argument '%s'; its arguments: %s",
			       p->sym, s, *list ? list : "none");
	}
	prm = &t->p[i];
	for (k = 1; k < i; k++)
		if (!ld_tp_reg_sized(&t->p[k]))
			return ld_fail(c, s, -EOPNOTSUPP,
				       "'%s' comes after '%s', a %s%s by value (not one register): where '%s' is passed is not known",
				       s, t->p[k].name,
				       t->p[k].kind == LD_BTF_AGGR ? "struct or union " :
				       t->p[k].kind == LD_BTF_FLOAT ? "float " : "",
				       *t->p[k].type_name ? t->p[k].type_name : "?", s);
	if (i > LD_TP_MAX_ARGS)
		return ld_fail(c, s, -EINVAL,
			       "'%s' is argument %u of %s: logdev reads the first %d (registers), as $arg1..$arg%d",
			       s, i, p->sym, LD_TP_MAX_ARGS, LD_TP_MAX_ARGS);
	if (prm->kind == LD_BTF_AGGR)
		return ld_fail(c, s, -EOPNOTSUPP,
			       "'%s' is a struct or union passed by value (%s): only integers, enums and pointers are recorded",
			       s, prm->type_name);
	if (prm->kind == LD_BTF_FLOAT)
		return ld_fail(c, s, -EOPNOTSUPP,
			       "'%s' is a floating-point value (%s): only integers, enums and pointers are recorded",
			       s, prm->type_name);
	if (!ld_tp_reg_sized(prm))
		return ld_fail(c, s, -EOPNOTSUPP,
			       "'%s' has a type logdev cannot record (%s, %u bytes)",
			       s, *prm->type_name ? prm->type_name : "?", prm->size);
	f->base = LD_FB_ARG;
	f->val = i;
	c->named = prm;
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
static int ld_check_unique(struct ld_pctx *c, struct ld_probe *p)
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

/* ------------------------------------------------------ globs and listing */

#define LD_GLOB_ATTACH_MAX	64	/* probes one glob spec may attach */
#define LD_LIST_MAX		2000	/* functions probe_functions lists */

static bool ld_is_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

/* The suffix gcc gives a function it changed (.isra.0, .constprop.0, .part.0, .cold), or NULL. */
static const char *ld_renamed(const char *name)
{
	static const char * const sfx[] = { ".isra.", ".constprop.", ".part.", ".cold", ".llvm." };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sfx); i++)
		if (strstr(name, sfx[i]))
			return sfx[i];
	return NULL;
}

/* ------------------------------------------------------ probe_functions */

static char ld_list_pat[KSYM_NAME_LEN] = "";	/* under ld_probes_mutex */

/*
 * Reading: the text functions matching the glob last written, one per
 * line, sorted, without the kprobe blacklist (each is tried as a disabled
 * kprobe, which patches nothing), renamed ones marked; a first line says
 * how many matched and how many were left out.
 */
static int ld_list_show(struct seq_file *m, void *v)
{
	struct ld_ksym_glob g;
	struct kprobe *kps, **kpp;
	unsigned int i, dups = 0, nbl = 0, nk = 0;
	int ret;

	mutex_lock(&ld_probes_mutex);
	if (!*ld_list_pat) {
		seq_puts(m, "# write a glob first: echo 'vfs_*' > probe_functions\n");
		goto out;
	}
	ret = ld_ksyms_glob(&g, ld_list_pat, LD_LIST_MAX, &dups);
	if (ret) {
		char why[256];

		if (ret == -EOPNOTSUPP)
			ld_ksyms_why(why, sizeof(why));
		else
			snprintf(why, sizeof(why), "error %d%s", ret,
				 ret == -EAGAIN ? ": modules loaded or unloaded meanwhile, read it again" : "");
		seq_printf(m, "# cannot list %s: %s\n", ld_list_pat, why);
		goto out_free;
	}
	if (g.n > g.max) {
		seq_printf(m, "# %s matches %u functions, more than %d: narrow the glob\n",
			   ld_list_pat, g.n, LD_LIST_MAX);
		goto out_free;
	}
	kps = kvcalloc(g.n ?: 1, sizeof(*kps), GFP_KERNEL);
	kpp = kvcalloc(g.n ?: 1, sizeof(*kpp), GFP_KERNEL);
	if (!kps || !kpp) {
		seq_puts(m, "# out of memory\n");
		goto out_kps;
	}
	for (i = 0; i < g.n; i++) {
		if (g.copies[i] > 1)
			continue;	/* listed, marked: a probe by name refuses it */
		kps[i].symbol_name = g.names[i];
		kps[i].flags = KPROBE_FLAG_DISABLED;
		if (register_kprobe(&kps[i])) {
			nbl++;
			kps[i].symbol_name = NULL;
		} else {
			kpp[nk++] = &kps[i];
		}
	}
	seq_printf(m, "# %u functions match %s; %u not probe-able (kprobe blacklist, or not a probe point) left out; %u names defined more than once (probe them as 0xADDR)\n",
		   g.n + dups, ld_list_pat, nbl, dups);
	for (i = 0; i < g.n; i++) {
		const char *r;

		if (!kps[i].symbol_name && g.copies[i] <= 1)
			continue;
		r = ld_renamed(g.names[i]);
		if (g.copies[i] > 1)
			seq_printf(m, "%s\t(defined %u times: refused by name, probe one as 0xADDR)\n",
				   g.names[i], g.copies[i]);
		else if (r)
			seq_printf(m, "%s\t(renamed by the compiler: %s)\n", g.names[i], r);
		else
			seq_printf(m, "%s\n", g.names[i]);
	}
	if (nk)
		unregister_kprobes(kpp, nk);
out_kps:
	kvfree(kps);
	kvfree(kpp);
out_free:
	ld_ksyms_glob_free(&g);
out:
	mutex_unlock(&ld_probes_mutex);
	return 0;
}

static int ld_list_open(struct inode *inode, struct file *f)
{
	return single_open(f, ld_list_show, NULL);
}

/*
 * One glob, [A-Za-z0-9_.*?[]!-], at most KSYM_NAME_LEN - 1 bytes, and one
 * trailing newline, as every control file (docs/DEBUGFS.md): spaces around
 * it, a second newline or a NUL are -EINVAL, and the old glob is kept.
 */
static ssize_t ld_list_write(struct file *f, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	size_t len = count;
	ssize_t ret = count;
	char *buf;

	if (count > KSYM_NAME_LEN)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, count);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	if (len && buf[len - 1] == '\n')
		buf[--len] = '\0';
	if (!len || len >= KSYM_NAME_LEN ||
	    strspn(buf, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.*?[]!-") != len) {
		ret = -EINVAL;
	} else {
		mutex_lock(&ld_probes_mutex);
		strscpy(ld_list_pat, buf, sizeof(ld_list_pat));
		mutex_unlock(&ld_probes_mutex);
	}
	kfree(buf);
	return ret;
}

static const struct file_operations ld_list_fops = {
	.owner = THIS_MODULE,
	.open = ld_list_open,
	.read = seq_read,
	.write = ld_list_write,
	.llseek = seq_lseek,
	.release = single_release,
};

/* ------------------------------------------------------------- (un)arming */

/* Register @p's kprobe, kretprobe or tracepoint probe; 0 or -errno. */
static int ld_probe_register(struct ld_probe *p)
{
	switch (p->kind) {
	case LD_PROBE_KPROBE:
		if (p->addr)
			p->kp.addr = (kprobe_opcode_t *)p->addr;
		else
			p->kp.symbol_name = p->ksym;
		p->kp.offset = p->offset;
		p->kp.pre_handler = ld_kp_handler;
		return register_kprobe(&p->kp);
	case LD_PROBE_KRETPROBE:
		if (p->addr)
			p->rp.kp.addr = (kprobe_opcode_t *)p->addr;
		else
			p->rp.kp.symbol_name = p->ksym;
		p->rp.handler = ld_rp_return;
		p->rp.entry_handler = ld_rp_entry;
		p->rp.maxactive = p->maxactive ?:
			max_t(int, 64, 4 * num_possible_cpus());
		return register_kretprobe(&p->rp);
	default:
		if (!IS_ENABLED(CONFIG_TRACEPOINTS))
			return -EOPNOTSUPP;	/* refused by ld_parse_target() */
		return tracepoint_probe_register(p->tp, ld_tp_probe, p);
	}
}

/* The kprobe of a kprobe or kretprobe, else NULL. */
static struct kprobe *ld_probe_kp(struct ld_probe *p)
{
	return p->kind == LD_PROBE_KPROBE ? &p->kp :
	       p->kind == LD_PROBE_KRETPROBE ? &p->rp.kp : NULL;
}

/*
 * Of a return probe's current arming (0 unarmed): the kretprobe's own
 * nmissed, the entries whose return it could not catch because no
 * instance was free (maxactive: kprobes' pre_handler_kretprobe()).
 */
static unsigned long ld_probe_nmissed_inst(struct ld_probe *p)
{
	return p->armed && p->kind == LD_PROBE_KRETPROBE ? (unsigned long)p->rp.nmissed : 0;
}

/*
 * The kprobes core's nmissed of the current arming (0 unarmed): hits
 * skipped because a kprobe handler was already running on that CPU (the
 * kprobe's own count; a return probe's kprobe is rp.kp), and of a return
 * probe also ld_probe_nmissed_inst().
 */
static unsigned long ld_probe_nmissed(struct ld_probe *p)
{
	if (!p->armed)
		return 0;
	return p->kind == LD_PROBE_KPROBE ? p->kp.nmissed :
	       p->kind == LD_PROBE_KRETPROBE ? p->rp.kp.nmissed + ld_probe_nmissed_inst(p) : 0;
}

/*
 * Is @p armed on text that was freed (its module went, or its __init code
 * after the module's init: the kprobes core's "gone" flag)?
 */
static bool ld_probe_gone(struct ld_probe *p)
{
	struct kprobe *kp = ld_probe_kp(p);

	return p->armed && kp && kprobe_gone(kp);
}

/*
 * The trace clocks ld_clock_select() can choose: a writer calls one between
 * its load of write_off and its cmpxchg, so a probe in one would write its
 * record inside every reservation and make it retry, every time
 * (ld_reserve_slow() gives up after LD_RESERVE_TRIES; found by a fresh
 * user with a probe on trace_clock_local, which hung the CPU then).  Their
 * callees (sched_clock(), native_sched_clock(), ...) are noinstr, which
 * kprobes refuses itself.
 */
static const char * const ld_clock_funcs[] = {
	"trace_clock_local", "trace_clock_global", "ktime_get_mono_fast_ns",
};

static void ld_probe_unregister(struct ld_probe *p);

/* @kp resolved to an address in one of ld_clock_funcs[]: true */
static bool ld_kp_in_clock(const struct kprobe *kp)
{
	char name[64];	/* longer names cannot equal one of the clocks' */
	int i;

	snprintf(name, sizeof(name), "%ps", kp->addr);
	for (i = 0; i < ARRAY_SIZE(ld_clock_funcs); i++)
		if (!strcmp(name, ld_clock_funcs[i]))
			return true;
	return false;
}

/*
 * Arm @p: a fresh kprobe (a kprobe that was registered once keeps the
 * address it resolved, which kprobes refuses beside a symbol name); a
 * kprobe by name in a module is given as MOD:FUNC.  Learns the module the
 * target is in.  0 or -errno (unarmed): -EDEADLK if it resolved into a
 * trace clock (ld_clock_funcs[]: unregistered again), else the error of
 * ld_probe_register().
 */
static int ld_probe_arm(struct ld_probe *p)
{
	struct kprobe *kp = ld_probe_kp(p);
	int ret;

	lockdep_assert_held(&ld_probes_mutex);
	if (kp) {
		memset(&p->kp, 0, sizeof(p->kp));
		memset(&p->rp, 0, sizeof(p->rp));
		if (*p->mod && !strchr(p->sym, ':'))
			snprintf(p->ksym, sizeof(p->ksym), "%s:%s", p->mod, p->sym);
		else
			strscpy(p->ksym, p->sym, sizeof(p->ksym));
	}
	ret = ld_probe_register(p);
	if (ret)
		return ret;
	if (kp && ld_kp_in_clock(kp)) {
		ld_probe_unregister(p);
		return -EDEADLK;
	}
	p->armed = true;
	p->was_armed = true;
	p->arm_err = 0;
	if (kp && !*p->mod)
		ld_ksym_addr_module((unsigned long)kp->addr, p->mod);
	return 0;
}

/* Unregister; when this returns no handler of @p runs or will run. */
static void ld_probe_unregister(struct ld_probe *p)
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

/* Disarm @p if armed, keeping its miss count. */
static void ld_probe_disarm(struct ld_probe *p)
{
	if (!p->armed)
		return;
	p->missed_before += ld_probe_nmissed(p);
	p->missed_inst_before += ld_probe_nmissed_inst(p);
	ld_probe_unregister(p);
	p->armed = false;
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

/*
 * A glob target ("p:vfs_*"): one probe per matching text function, at most
 * LD_GLOB_ATTACH_MAX (more: -E2BIG, saying how many match).  Each is named
 * as a probe on that function alone would be (with NAME given: NAME_FUNC);
 * names defined more than once, blacklisted functions and names already
 * taken are skipped; none attached: -ENOENT.  Any other error detaches
 * those of this command.  Consumes @p.
 */
static noinline_for_stack int ld_probe_add_glob(struct ld_pctx *c, struct ld_probe *p)
{
	const char *at = c->buf + p->target_off;
	char prefix[LD_PROBE_NAME_LEN];
	unsigned int i, dups = 0, skipped = 0, defs[LD_GLOB_ATTACH_MAX];
	struct ld_ksym_glob g;
	struct ld_probe *q, *n;
	LIST_HEAD(added);
	int ret;

	strscpy(prefix, p->named ? p->name : "", sizeof(prefix));
	ret = ld_ksyms_glob(&g, p->sym, LD_GLOB_ATTACH_MAX, &dups);
	if (!ret && g.n > g.max)
		ret = ld_fail(c, at, -E2BIG,
			      "%s matches %u functions, more than %d a glob may attach: narrow it (probe_functions lists them)",
			      p->sym, g.n, LD_GLOB_ATTACH_MAX);
	else if (!ret)	/* one walk for all: ld_check_unique() of each */
		ret = ld_ksyms_count_each((const char * const *)g.names, defs, g.n);
	if (ret) {
		if (!c->err)
			ret = ld_ksyms_fail(c, at, ret, p->sym);
		goto out_free;
	}
	for (i = 0; i < g.n; i++) {
		const char *colon = strchr(g.names[i], ':');

		q = kmemdup(p, sizeof(*p), GFP_KERNEL);
		if (!q) {
			ret = ld_fail(c, NULL, -ENOMEM, "out of memory");
			goto err_undo;
		}
		INIT_LIST_HEAD(&q->list);
		strscpy(q->sym, g.names[i], sizeof(q->sym));
		*q->name = '\0';
		ld_make_name(q);
		if (*prefix) {
			char nm[LD_PROBE_NAME_LEN];

			scnprintf(nm, sizeof(nm), "%s_%s", prefix, q->name);
			strscpy(q->name, nm, sizeof(q->name));
		}
		if (ld_probe_find(q->name) || defs[i] != 1) {
			skipped++;
			kfree(q);
			continue;
		}
		/* as ld_check_unique(): the module of MOD:NAME */
		if (colon)
			strscpy(q->mod, g.names[i], min_t(size_t, sizeof(q->mod),
							  colon - g.names[i] + 1));
		ret = ld_probe_sites(c, q);
		if (ret) {
			ld_probe_free(q);
			goto err_undo;
		}
		ret = ld_probe_arm(q);
		if (ret == -EINVAL || ret == -EILSEQ || ret == -ENOENT || ret == -EDEADLK) {
			skipped++;
			ld_probe_free(q);
			continue;
		}
		if (ret) {
			ld_fail(c, at, ret, "cannot attach to %s (error %d)", q->sym, ret);
			ld_probe_free(q);
			goto err_undo;
		}
		list_add_tail(&q->list, &added);
	}
	if (list_empty(&added)) {
		ret = ld_fail(c, at, -ENOENT,
			      "%s: no probe-able function among %u matches (%u blacklisted, taken or ambiguous)",
			      p->sym, g.n + dups, skipped + dups);
		goto out_free;
	}
	list_splice_tail(&added, &ld_probes);
	ret = 0;
	goto out_free;

err_undo:
	list_for_each_entry_safe(q, n, &added, list) {
		list_del(&q->list);
		ld_probe_disarm(q);
		ld_probe_free(q);
	}
out_free:
	ld_ksyms_glob_free(&g);
	ld_probe_free(p);
	return ret;
}

static int ld_probe_add(struct ld_pctx *c, char *cmd)
{
	const char *at;
	struct ld_probe *p, *old;
	int ret;

	lockdep_assert_held(&ld_probes_mutex);
	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return ld_fail(c, NULL, -ENOMEM, "out of memory");
	ret = ld_parse(c, p, cmd);
	if (ret)
		goto err_free;
	if (p->kind != LD_PROBE_TRACEPOINT && !p->addr && ld_is_glob(p->sym))
		return ld_probe_add_glob(c, p);
	ret = ld_probe_sites(c, p);
	if (ret)
		goto err_free;
	at = c->buf + p->target_off;
	old = ld_probe_find(p->name);
	if (old) {
		if (old->kind != p->kind && !strcmp(old->sym, p->sym))
			ret = ld_fail(c, c->buf, -EEXIST,
				      "a probe named %s exists (%c: on the same function; a name is one probe's records): name this one, e.g. %c:%s_%s %s",
				      p->name, ld_probe_kind_char[old->kind],
				      ld_probe_kind_char[p->kind], p->name,
				      p->kind == LD_PROBE_KRETPROBE ? "ret" : "entry",
				      p->sym);
		else
			ret = ld_fail(c, c->buf, -EEXIST,
				      "a probe named %s exists (%c:%s %s): remove it (-:%s) or give another name",
				      p->name, ld_probe_kind_char[old->kind], old->name,
				      old->sym, old->name);
		goto err_free;
	}
	/* not known (no source: < 0): as if loaded, the command then fails at once */
	if (p->kind != LD_PROBE_TRACEPOINT && !p->addr && strchr(p->sym, ':') &&
	    !ld_ksym_module_loaded(p->sym, strchr(p->sym, ':') - p->sym)) {
		/* MOD:FUNC of a module not loaded: armed when it loads */
		strscpy(p->mod, p->sym, min_t(size_t, sizeof(p->mod),
					      strchr(p->sym, ':') - p->sym + 1));
		list_add_tail(&p->list, &ld_probes);
		return 0;
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
			ret == -EDEADLK ? ": a trace clock, which logdev reads inside every record's reservation (a probe there would nest a record in each)" :
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

/* --------------------------------------------------- module load, unload */

/*
 * Arming @p on the load of its module (p->mod) failed with @ret, whose
 * reason ld_fail() left in @c: kept as the listing's "error=", and in
 * error_log and the kernel log as "probe NAME not armed on the load of
 * MOD: REASON".
 */
static void ld_rearm_failed(struct ld_probe *p, struct ld_pctx *c, int ret)
{
	char *why;

	p->arm_err = ret;
	why = kasprintf(GFP_KERNEL, "probe %s not armed on the load of %s: %s",
			p->name, p->mod, c->reason);
	if (why)
		strscpy(c->reason, why, sizeof(c->reason));
	ld_errlog_add(c);
	pr_warn("%s\n", c->reason);
	kfree(why);
}

/*
 * Arm @p again on the load of its module (MODULE_STATE_COMING: the module's
 * text, __init code included, is in place and its symbols are listed, its
 * init has not run).  FUNC must still be there once; a failure is left in
 * error_log and the listing ("error=").
 */
static noinline_for_stack void ld_probe_rearm(struct ld_probe *p)
{
	struct ld_pctx c = { .rearm = true };
	char *line;
	int ret;

	line = kasprintf(GFP_KERNEL, "%c:%s %s", ld_probe_kind_char[p->kind],
			 p->name, p->sym);
	if (!line) {
		p->arm_err = -ENOMEM;
		pr_warn("probe %s not armed on the load of %s: out of memory\n",
			p->name, p->mod);
		return;
	}
	c.text = line;
	c.buf = line;
	/* what ld_check_unique() points at: the target */
	p->target_off = strlen(line) - strlen(p->sym);
	ret = ld_check_unique(&c, p);
	if (!ret) {
		ret = ld_probe_arm(p);
		if (ret)
			ld_fail(&c, line + p->target_off, ret,
				"cannot attach to it (error %d)", ret);
	}
	if (ret)
		ld_rearm_failed(p, &c, ret);
	kfree(line);
}

/*
 * The module notifier (as ftrace's trace_kprobe_module_callback()): on
 * MODULE_STATE_COMING the probes on that module's functions (by name) are
 * armed, those written before it was loaded and those disarmed when a
 * module of that name went; on MODULE_STATE_LIVE probes whose text the
 * kprobes core marked gone (__init code, freed now) are disarmed; on
 * MODULE_STATE_GOING every probe in the module is disarmed.  A disarmed
 * probe keeps its counts and call sites.  Runs in the loading or unloading
 * task, after the kprobes core's own notifier (same priority, registered
 * later); takes ld_probes_mutex, as the probes file's writers, which may
 * read the module list (module_mutex) and register kprobes but never wait
 * for a module load.
 */
static int ld_probes_module_cb(struct notifier_block *nb, unsigned long action,
			       void *data)
{
	struct module *mod = data;
	struct ld_probe *p;

	if (action != MODULE_STATE_COMING && action != MODULE_STATE_LIVE &&
	    action != MODULE_STATE_GOING)
		return NOTIFY_DONE;
	mutex_lock(&ld_probes_mutex);
	list_for_each_entry(p, &ld_probes, list) {
		if (p->kind == LD_PROBE_TRACEPOINT || strcmp(p->mod, mod->name))
			continue;
		if (action == MODULE_STATE_GOING ||
		    (action == MODULE_STATE_LIVE && ld_probe_gone(p))) {
			ld_probe_disarm(p);
		} else if (action == MODULE_STATE_COMING && !p->addr &&
			   (!p->armed || ld_probe_gone(p))) {
			ld_probe_disarm(p);	/* a gone one the GOING missed */
			ld_probe_rearm(p);
		}
	}
	mutex_unlock(&ld_probes_mutex);
	return NOTIFY_DONE;
}

static struct notifier_block ld_probes_module_nb = {
	.notifier_call = ld_probes_module_cb,
	.priority = 0,	/* after the kprobes core's (0, registered first) */
};

#if defined(CONFIG_MODULES) && defined(CONFIG_TRACEPOINTS)
/*
 * Arm @p, a probe on a tracepoint of @mod (coming), again; a failure is
 * left in error_log and the listing ("error="), as ld_probe_rearm().
 */
static void ld_tp_rearm(struct ld_probe *p, struct module *mod)
{
	struct ld_pctx c = { .rearm = true };
	int ret = -ENOENT;
	char *line;

	p->tp = ld_tp_of_mod(mod, p->sym);
	if (p->tp)
		ret = ld_probe_arm(p);
	if (!ret)
		return;
	line = kasprintf(GFP_KERNEL, "t:%s %s:%s", p->name, p->system, p->sym);
	c.text = line ?: p->sym;
	c.buf = c.text;
	if (ret == -ENOENT)
		ld_fail(&c, NULL, ret, "no tracepoint %s in it", p->sym);
	else
		ld_fail(&c, NULL, ret, "cannot attach to tracepoint %s (error %d)",
			p->sym, ret);
	ld_rearm_failed(p, &c, ret);	/* p->mod is mod->name */
	kfree(line);
}

/*
 * The tracepoint module notifier (register_tracepoint_module_notifier(), as
 * LTTng's): called with the tracepoint core's module list locked, for each
 * module with tracepoints at MODULE_STATE_COMING (once its jump labels are
 * in place, before its init) and MODULE_STATE_GOING (after its exit, before
 * the tracepoint core checks that no probe is left on them and frees it);
 * at registration, COMING for every module already loaded.  Keeps
 * ld_tp_mods; disarms the probes on a going module's tracepoints (keeping
 * their counts: "state=gone") and arms those again when a module of that
 * name comes.  Lock order: the tracepoint core's module list mutex, then
 * ld_probes_mutex, then (registering) its tracepoints_mutex; nothing here
 * takes them the other way round.
 */
static int ld_tp_module_cb(struct notifier_block *nb, unsigned long action, void *data)
{
	struct module *mod = ((struct tp_module *)data)->mod;
	struct ld_tp_mod *m, *n;
	struct ld_probe *p;

	if (action != MODULE_STATE_COMING && action != MODULE_STATE_GOING)
		return NOTIFY_DONE;
	mutex_lock(&ld_probes_mutex);
	if (action == MODULE_STATE_COMING) {
		m = kmalloc(sizeof(*m), GFP_KERNEL);
		if (m) {
			m->mod = mod;
			list_add_tail(&m->list, &ld_tp_mods);
		} else {
			pr_warn("out of memory: t: will not find the tracepoints of %s\n",
				mod->name);
		}
	} else {
		list_for_each_entry_safe(m, n, &ld_tp_mods, list) {
			if (m->mod == mod) {
				list_del(&m->list);
				kfree(m);
			}
		}
	}
	list_for_each_entry(p, &ld_probes, list) {
		if (p->kind != LD_PROBE_TRACEPOINT || strcmp(p->mod, mod->name))
			continue;
		if (action == MODULE_STATE_GOING) {
			ld_probe_disarm(p);
			p->tp = NULL;
		} else if (!p->armed) {
			ld_tp_rearm(p, mod);
		}
	}
	mutex_unlock(&ld_probes_mutex);
	return NOTIFY_OK;
}

static struct notifier_block ld_tp_module_nb = {
	.notifier_call = ld_tp_module_cb,
};

static int ld_tp_notifier_register(void)
{
	return register_tracepoint_module_notifier(&ld_tp_module_nb);
}

/*
 * The unregistration calls ld_tp_module_cb() with MODULE_STATE_GOING for
 * every module still loaded with tracepoints: that empties ld_tp_mods and
 * disarms the probes on them.
 */
static void ld_tp_notifier_unregister(void)
{
	unregister_tracepoint_module_notifier(&ld_tp_module_nb);
}
#else
static int ld_tp_notifier_register(void)
{
	return 0;
}

static void ld_tp_notifier_unregister(void)
{
}
#endif

/**
 * ld_probes_exit() - remove every probe (module unload)
 *
 * Call before the buffers are freed: afterwards no handler runs.  The
 * module notifiers go first (a running callback is waited for; the
 * tracepoint one's unregistration disarms the probes on modules'
 * tracepoints), so no probe is armed after this.
 */
void ld_probes_exit(void)
{
	unregister_module_notifier(&ld_probes_module_nb);
	ld_tp_notifier_unregister();
	ld_probes_remove_all();
}

/* ------------------------------------------------------------------- file */

static int ld_probes_show(struct seq_file *m, void *v)
{
	struct ld_probe *p;

	mutex_lock(&ld_probes_mutex);
	list_for_each_entry(p, &ld_probes, list) {
		seq_putc(m, ld_probe_kind_char[p->kind]);
		if (p->maxactive)
			seq_printf(m, "%d", p->maxactive);
		seq_printf(m, ":%s%s%s ", p->group, *p->group ? "/" : "", p->name);
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
			seq_printf(m, " returns=%ld", atomic_long_read(&p->rets));
		if (p->kind != LD_PROBE_TRACEPOINT)
			seq_printf(m, " missed=%lu", p->missed_before + ld_probe_nmissed(p));
		if (p->kind == LD_PROBE_KRETPROBE)
			seq_printf(m, " missed_maxactive=%lu",
				   p->missed_inst_before + ld_probe_nmissed_inst(p));
		if (!p->armed || ld_probe_gone(p))
			seq_printf(m, " state=%s", p->was_armed ? "gone" : "pending");
		if (p->arm_err)
			seq_printf(m, " error=%d", p->arm_err);
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
	bool too_long = count >= LD_PROBE_CMD_MAX;
	struct ld_probe *p;
	char *buf, *text, *cmd;
	size_t len;
	int ret;

	/* too long: its head is kept, for error_log */
	len = too_long ? LD_PROBE_CMD_MAX - 1 : count;
	buf = memdup_user_nul(ubuf, len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	if (len && buf[len - 1] == '\n' && !too_long)
		buf[--len] = '\0';
	text = kstrdup(buf, GFP_KERNEL);	/* as written, for error_log */
	if (!text) {
		kfree(buf);
		return -ENOMEM;
	}
	c.text = text;
	c.buf = buf;

	mutex_lock(&ld_probes_mutex);
	if (too_long) {
		ret = ld_fail(&c, buf + len, -EINVAL,
			      "a write of %zu bytes: one command is at most %d bytes",
			      count, LD_PROBE_CMD_MAX - 1);
		goto out;
	}
	if (strlen(buf) != len || strchr(buf, '\n')) {
		/* embedded NUL, or more than one line */
		ret = ld_fail(&c, buf + strcspn(buf, "\n"), -EINVAL,
			      "one command per write, no NUL or newline inside");
		goto out;
	}
	cmd = strim(buf);
	if (!*cmd || *cmd == '#') {
		/*
		 * A blank line or a comment does nothing, as in ftrace's
		 * kprobe_events: removing every probe is the O_TRUNC of the
		 * open ("echo > probes"), never a write, so the tail of a
		 * command a tool wrote in two pieces cannot clear the list.
		 */
		ret = 0;
		goto out;
	}
	if (*cmd == '-') {
		/* -NAME, or ftrace's -:[GRP/]NAME */
		char *name = cmd + 1, *grp = NULL, *slash;

		if (*name == ':') {
			name++;
			slash = strchr(name, '/');
			if (slash) {
				*slash = '\0';
				grp = name;
				name = slash + 1;
			}
		}
		if (grp && !ld_good_name(grp)) {
			ret = ld_fail(&c, ld_bad_byte(grp), -EINVAL,
				      "removal: group name is not an identifier");
		} else if (!ld_good_name(name)) {
			ret = ld_fail(&c, ld_bad_byte(name), -EINVAL,
				      "removal: probe name is not an identifier");
		} else if ((p = ld_probe_find(name)) &&
			   (!grp || !strcmp(grp, *p->group ? p->group : "kprobes"))) {
			ld_probe_remove(p);
			ret = 0;
		} else if (p) {
			ret = ld_fail(&c, grp, -ENOENT, "probe %s is not in group %s (it is in %s)",
				      name, grp, *p->group ? p->group : "kprobes");
		} else {
			ret = ld_fail(&c, name, -ENOENT, "no probe %s to remove",
				      name);
		}
	} else {
		ret = ld_probe_add(&c, cmd);
	}
out:
	if (ret)
		ld_errlog_add(&c);
	mutex_unlock(&ld_probes_mutex);
	kfree(c.tpp);
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
 * ld_probes_init() - create the "probes", "error_log", "probe_functions"
 * and "ksyms" files, and the module notifiers that re-arm probes on module loads (one
 * for functions, one for tracepoints)
 * @dir: the logdev debugfs directory
 *
 * Module init; no probe exists until one is written to "probes".
 * Return: 0, or the error of register_module_notifier() or
 * register_tracepoint_module_notifier().
 */
int ld_probes_init(struct dentry *dir)
{
	int ret = register_module_notifier(&ld_probes_module_nb);

	if (ret)
		return ret;
	ret = ld_tp_notifier_register();
	if (ret)
		goto err_module_nb;
	debugfs_create_file("probes", 0600, dir, NULL, &ld_probes_fops);
	debugfs_create_file("error_log", 0600, dir, NULL, &ld_errlog_fops);
	debugfs_create_file("probe_functions", 0600, dir, NULL, &ld_list_fops);
	ld_ksyms_init(dir);
	return 0;

err_module_nb:
	unregister_module_notifier(&ld_probes_module_nb);
	return ret;
}
