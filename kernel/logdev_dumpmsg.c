// SPDX-License-Identifier: GPL-2.0
/*
 * logdev_dumpmsg.c - the lines of a crash dump (logdev_dump.c): a
 * record's line in `logdev report`'s text form (time, cpu, task, context,
 * call site, message, delta; LOST lines before it), its message (the call
 * site's format rendered by the kernel's own bstr_printf() from the
 * record's arguments, laid out first as this kernel's vbin_printf() would
 * have laid them out), and the console output (printk, or deferred in the
 * panic notifier).
 *
 * Layer: features (logdev_features.h), the dump's own (logdev_dump.h:
 * called by logdev_dump.c only); reads the call-site table of the core
 * and the dump's cursor (logdev_dumpwalk.c).
 * Any context (oops, panic, NMI, sysrq): no lock, no allocation; called
 * by one CPU at a time (the dump's ld_dump_running).
 */
/* fixed, not KBUILD_MODNAME: parsers look for it, module or built in */
#define pr_fmt(fmt) "logdev: " fmt

#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/ctype.h>
#include <linux/errno.h>
#include <linux/printk.h>
#include <linux/nmi.h>
#include <linux/edprint_fmt.h>
#include "logdev_core.h"
#include "logdev_dump.h"

/*
 * bstr_printf() trusts the format: it reads an argument per conversion
 * whatever the payload holds.  So the payload is copied into a zeroed
 * buffer large enough for every conversion of the format to read inside it
 * (at most 8 bytes and 3 of alignment each, strings end at a zero).
 */
#define LD_DUMP_ARGS		4096	/* bytes */
#define LD_DUMP_LINE		768	/* bytes of one printed line */

char ld_dump_msg[LD_DUMP_MSG];
static u32 ld_dump_args[LD_DUMP_ARGS / sizeof(u32)];
static char ld_dump_fmt[2 * LD_DUMP_ARGS];
static char ld_dump_line[LD_DUMP_LINE];

/* bytes a string of the format reads at most: its conversions' arguments */
static bool ld_dump_fmt_fits(const char *fmt, u32 arg_bytes)
{
	size_t n = strnlen(fmt, LD_DUMP_ARGS);

	/* every '%' may take an 8-byte argument and 3 bytes of alignment */
	return n < LD_DUMP_ARGS && arg_bytes + (n / 2 + 1) * 11 <= LD_DUMP_ARGS;
}

/*
 * @fmt with every plain %p and %pK made %px, in ld_dump_fmt: a
 * LOGDEV_REC_PRINT record holds what the kernel's "%p" printed for those
 * (logdev_record.c ld_hash_ptr()), which bstr_printf() must not hash again.
 * Called with @fmt shorter than LD_DUMP_ARGS (ld_dump_fmt_fits()).
 */
static const char *ld_dump_hashed_fmt(const char *fmt)
{
	struct edp_piece pc;
	char *o = ld_dump_fmt;
	const char *from;

	while (edp_fmt_next(&fmt, &pc) != EDP_END) {
		from = pc.start;
		if (pc.kind == EDP_PTR && (!isalnum(pc.ext) || pc.ext == 'K')) {
			/* up to the 'p', an 'x', then what follows a 'K' */
			memcpy(o, from, pc.cv + 1 - from);
			o += pc.cv + 1 - from;
			*o++ = 'x';
			from = pc.ext == 'K' ? pc.cv + 2 : pc.cv + 1;
		}
		memcpy(o, from, pc.end - from);
		o += pc.end - from;
	}
	*o = '\0';
	return ld_dump_fmt;
}

/*
 * How the kernel's vbin_printf() lays out %hh and %h numbers, which its
 * bstr_printf() reads back: 1 and 2 bytes up to Linux 6.x (the layout of
 * logdev's LOGDEV_REC_PRINT records), a 4-byte int in Linux 7.x (measured
 * on 7.3.4).  A behaviour with an unchanged prototype, which no compile
 * test can see: measured once at init (ld_dump_narrow_probe()).
 * 0: 1 and 2 bytes; 1: ints; -EINVAL: neither, the dump then prints a
 * record with %hh or %h as [missing] from there.
 */
static int ld_dump_narrow_int = -EINVAL;

static __printf(3, 4) int ld_dump_bprintf(u32 *bin, size_t words, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vbin_printf(bin, words, fmt, ap);
	va_end(ap);
	return n;
}

static int ld_dump_narrow_probe(void)
{
	u32 w[4] = {};
	u8 *b = (u8 *)w;
	int n;

	n = ld_dump_bprintf(w, ARRAY_SIZE(w), "%hhd%hd%hhd", (signed char)1,
			    (short)0x202, (signed char)3);
	if (n == 2 && b[0] == 1 && b[2] == 2 && b[3] == 2 && b[4] == 3)
		return 0;
	if (n == 3 && w[0] == 1 && w[1] == 0x202 && w[2] == 3)
		return 1;
	return -EINVAL;
}

/* a 4-byte int (slot or '*' argument) to a 4-byte aligned int of the output */
static bool ld_dump_int(const u8 *in, u32 in_bytes, u32 *i, u8 *out, u32 *o)
{
	*i = ALIGN(*i, 4);
	*o = ALIGN(*o, 4);
	if (*i + 4 > in_bytes || *o + 4 > LD_DUMP_ARGS)
		return false;
	memcpy(out + *o, in + *i, 4);
	*i += 4;
	*o += 4;
	return true;
}

/*
 * A string or pointer text at @in + *@i (NUL-terminated; in a slots payload
 * padded to 4: @slots) to @out + *@o, unpadded; "[cut]" before its NUL if
 * @cut_mark and it has EDP_STR_MAX characters (a slots string cut there).
 */
static bool ld_dump_text(const u8 *in, u32 in_bytes, u32 *i, u8 *out, u32 *o,
			 bool slots, bool cut_mark)
{
	u32 n;

	if (*i >= in_bytes)
		return false;
	n = strnlen((const char *)in + *i, in_bytes - *i);
	if (*i + n >= in_bytes)		/* no NUL inside */
		return false;
	if (*o + n + sizeof("[cut]") > LD_DUMP_ARGS)
		return false;
	memcpy(out + *o, in + *i, n);
	*o += n;
	if (cut_mark && n == EDP_STR_MAX) {
		memcpy(out + *o, "[cut]", 5);
		*o += 5;
	}
	out[(*o)++] = '\0';
	*i += slots ? (n + 4) & ~3u : n + 1;
	return true;
}

/*
 * Lay a record's arguments out for the kernel's bstr_printf() into @out
 * (zeroed, LD_DUMP_ARGS bytes), walking @fmt as bstr_printf() reads it.
 * @in is a LOGDEV_REC_PRINT_SLOTS payload (@slots; edp_fmt_slots_ok(),
 * edprint_fmt.h: '*' and plain/%c/%h/%hh arguments take a 4-byte slot,
 * l/ll/L/z/t ones 8 bytes at 4-byte alignment, a %s its NUL-terminated
 * string padded to 4) or a LOGDEV_REC_PRINT payload (ld_vbin_pack(),
 * logdev_record.c: a number aligned to its size (at most 4) takes its size,
 * %c and %hh 1 byte, %h 2; plain %p, %pS, %ps, %px, %pK, %pe 8 bytes at
 * 4-byte alignment; strings and other pointer extensions' texts
 * NUL-terminated, not aligned).  The output is the kernel's vbin_printf()
 * layout: LOGDEV_REC_PRINT's, but %hh and %h take a 4-byte int where the
 * kernel's do (ld_dump_narrow_int).
 * @cut: the slots record is flagged LOGDEV_REC_F_CUT: a string of
 * EDP_STR_MAX characters was cut there, and "[cut]" follows it.
 * Return: true if the payload held every argument.
 */
static bool ld_dump_layout(const char *fmt, const u8 *in, u32 in_bytes, u8 *out,
			   bool slots, bool cut)
{
	u32 i = 0, o = 0, size, osize;
	struct edp_piece pc;
	bool text;

	while (edp_fmt_next(&fmt, &pc) != EDP_END) {
		if (pc.kind == EDP_TEXT)
			continue;
		/* width, then precision argument: ints */
		if (pc.sp.wstar && !ld_dump_int(in, in_bytes, &i, out, &o))
			return false;
		if (pc.sp.pstar && !ld_dump_int(in, in_bytes, &i, out, &o))
			return false;
		size = pc.size;
		text = pc.kind == EDP_STR || pc.kind == EDP_PTR_TEXT;
		switch (pc.kind) {
		case EDP_PCT:
			continue;
		case EDP_PTR:
		case EDP_PTR_TEXT:	/* edprint never stores slots for these */
			if (slots)
				return false;
			break;
		case EDP_STR:
		case EDP_INT:
			break;
		default:	/* bstr_printf() stops here; never in slots */
			return !slots;
		}
		if (text) {
			if (!ld_dump_text(in, in_bytes, &i, out, &o, slots,
					  slots && cut && pc.kind == EDP_STR))
				return false;
			continue;
		}
		osize = size;
		if (pc.conv != 'c' && size < 4) {
			if (ld_dump_narrow_int < 0)
				return false;
			if (ld_dump_narrow_int)
				osize = 4;
		}
		if (slots)
			i = ALIGN(i, 4);
		else
			i = ALIGN(i, min_t(u32, size, 4));
		if (i + (slots && size < 4 ? 4 : size) > in_bytes)
			return false;
		o = ALIGN(o, min_t(u32, osize, 4));
		if (o + osize > LD_DUMP_ARGS)
			return false;
		memcpy(out + o, in + i, size);	/* little-endian: the low bytes */
		i += slots && size < 4 ? 4 : size;
		o += osize;
	}
	return true;
}

/*
 * ld_dump_message() - the message of record @r (not a comm record) into
 * ld_dump_msg, one line
 * @r: the record, whole in its sub-buffer
 *
 * The site table is read without ld_sites_mutex: an entry is only
 * repointed (to a copy, when its module goes away) and a module's memory is
 * freed only after synchronize_rcu(), which waits for the dump's
 * rcu_read_lock().
 */
void ld_dump_message(const struct logdev_rec_hdr *r)
{
	const u8 *payload = (const u8 *)(r + 1);
	struct logdev_site *s = ld_site_get(r->site);
	const char *fmt = s ? READ_ONCE(s->fmt) : NULL;
	char *m = ld_dump_msg;
	bool whole = true;
	int n, i;

	if (r->type == LOGDEV_REC_PRINT || r->type == LOGDEV_REC_PRINT_SLOTS) {
		if (!fmt) {
			scnprintf(m, LD_DUMP_MSG, "<unknown site %u: %u arg bytes>",
				  r->site, r->arg_bytes);
			return;
		}
		if (!ld_dump_fmt_fits(fmt, r->arg_bytes)) {
			scnprintf(m, LD_DUMP_MSG, "<format too long for the dump: %u arg bytes>",
				  r->arg_bytes);
			return;
		}
		memset(ld_dump_args, 0, sizeof(ld_dump_args));
		whole = ld_dump_layout(fmt, payload, r->arg_bytes, (u8 *)ld_dump_args,
				       r->type == LOGDEV_REC_PRINT_SLOTS,
				       r->ctx & LOGDEV_REC_F_CUT);
		if (r->type == LOGDEV_REC_PRINT)
			fmt = ld_dump_hashed_fmt(fmt);
		n = bstr_printf(m, LD_DUMP_MSG, fmt, ld_dump_args);
		n = min(n, LD_DUMP_MSG - 1);
		while (n > 0 && m[n - 1] == '\n')
			m[--n] = '\0';
		if (r->type == LOGDEV_REC_PRINT && (r->ctx & LOGDEV_REC_F_CUT))
			scnprintf(m + n, LD_DUMP_MSG - n, "[cut]");
		else if (!whole)
			scnprintf(m + n, LD_DUMP_MSG - n, " [missing]");
		/* one console line per record */
		for (i = 0; m[i]; i++)
			if (m[i] == '\n' || m[i] == '\r')
				m[i] = ' ';
		return;
	}
	n = scnprintf(m, LD_DUMP_MSG, "<%s %u bytes:",
		      r->type == LOGDEV_REC_RAW ? "raw" : "type?", r->arg_bytes);
	for (i = 0; i < r->arg_bytes && i < 32; i++)
		n += scnprintf(m + n, LD_DUMP_MSG - n, " %02x", payload[i]);
	scnprintf(m + n, LD_DUMP_MSG - n, "%s>", r->arg_bytes > 32 ? " ..." : "");
}

static const char * const ld_dump_lost_names[LD_NR_REFUSALS] = {
	[LD_DROPPED] = "dropped",
	[LD_NESTING_LOST] = "nesting_lost",
	[LD_TOO_BIG] = "too_big",
};

static const char *ld_dump_ctx(u8 ctx)
{
	switch (ctx & LOGDEV_CTX_MASK) {
	case LOGDEV_CTX_SOFTIRQ:
		return " softirq";
	case LOGDEV_CTX_HARDIRQ:
		return " hardirq";
	case LOGDEV_CTX_NMI:
		return " nmi";
	}
	return "";
}

/*
 * In the panic notifier the other CPUs are stopped, maybe inside the
 * console's or printk's own locks: on PREEMPT_RT those are sleeping locks,
 * and a console print there waits for ever (6.1-rt wedged 2 of 7 panic
 * dumps in rtlock_slowlock_locked(), the other CPU in stop_this_cpu()).
 * So the panic dump only stores its lines (printk_deferred()); panic()
 * prints them with console_flush_on_panic(), after the notifiers.
 */
bool ld_dump_deferred;

/*
 * printk(), or its deferred form once ld_dump_deferred is set: the
 * exported vprintk_emit() with LOGLEVEL_SCHED, what printk_deferred() does
 * (_printk_deferred() itself is not exported to modules); the level comes
 * from @fmt's KERN_ prefix.
 */
__printf(1, 2) void ld_dump_emit(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (ld_dump_deferred)
		vprintk_emit(0, LOGLEVEL_SCHED, NULL, fmt, ap);
	else
		vprintk(fmt, ap);
	va_end(ap);
}

/* printk one line of the dump; the console may be slow: pet the watchdog */
__printf(1, 2) void ld_dump_print(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vscnprintf(ld_dump_line, sizeof(ld_dump_line), fmt, ap);
	va_end(ap);
	ld_dump_emit(KERN_EMERG pr_fmt("%s\n"), ld_dump_line);
	touch_nmi_watchdog();
}

/*
 * `logdev report`'s text line of c->rec (userspace/lib/render.c, render_text()).
 * Return: false if c->rec's sub-buffer was overwritten while it was read
 * (a line says so instead, and the cursor moves to the next sub-buffer).
 */
bool ld_dump_record(int cpu, struct ld_dump_cur *c)
{
	const struct logdev_rec_hdr *r = c->rec;
	struct logdev_site *s = ld_site_get(r->site);
	char who[LOGDEV_COMM_LEN + 16], where[96], delta[64] = "";
	u64 ts = r->ts, d;
	unsigned int lev = r->ctx & LOGDEV_CTX_MASK;
	int i;

	for (i = 0; i < LD_NR_REFUSALS; i++) {
		if (!c->lost[i])
			continue;
		ld_dump_print("[ %5llu.%06llu] cpu:%d *** LOST %llu events (%s) ***",
			      ts / NSEC_PER_SEC, ts % NSEC_PER_SEC / 1000, cpu,
			      c->lost[i], ld_dump_lost_names[i]);
		c->lost[i] = 0;
		c->have_prev = 0;
	}
	if (!r->pid) {
		/* every CPU's idle task (swapper/N): ftrace's name, as the reader's */
		scnprintf(who, sizeof(who), "<idle>-0");
	} else if (c->comm_pid == r->pid && c->comm[0]) {
		for (i = 0; c->comm[i]; i++)
			if (c->comm[i] < ' ' || c->comm[i] == 0x7f)
				c->comm[i] = '?';
		scnprintf(who, sizeof(who), "%s-%u", c->comm, r->pid);
	} else {
		scnprintf(who, sizeof(who), "pid:%u", r->pid);
	}
	if (s)
		scnprintf(where, sizeof(where), "%s:%u", READ_ONCE(s->func), s->line);
	else
		scnprintf(where, sizeof(where), "site#%u:?", r->site);
	if (c->have_prev & BIT(lev)) {
		if (ts >= c->prev_ts[lev]) {
			d = ts - c->prev_ts[lev];
			scnprintf(delta, sizeof(delta), "  +%llu.%03llu us", d / 1000, d % 1000);
		} else {
			d = c->prev_ts[lev] - ts;
			scnprintf(delta, sizeof(delta),
				  "  -%llu.%03llu us (clock went back, not in deltas)",
				  d / 1000, d % 1000);
		}
	}
	ld_dump_message(r);
	if (!ld_dump_intact(c)) {
		ld_dump_print("dump cpu:%d sub-buffer %llu consumed or overwritten while the dump read it: its records from here on are not shown",
			      cpu, c->sb);
		ld_dump_overwritten(c);
		c->have_prev = 0;
		return false;
	}
	ld_dump_print("[ %5llu.%06llu] cpu:%d %s%s %s %s%s",
		      ts / NSEC_PER_SEC, ts % NSEC_PER_SEC / 1000, cpu, who,
		      ld_dump_ctx(r->ctx), where, ld_dump_msg, delta);
	c->prev_ts[lev] = ts;
	c->have_prev |= BIT(lev);
	return true;
}

/**
 * ld_dump_msg_init() - measure the kernel's vbin_printf() layout of %hh
 * and %h (ld_dump_narrow_int); module init, before the dump is hooked
 */
void ld_dump_msg_init(void)
{
	ld_dump_narrow_int = ld_dump_narrow_probe();
	if (ld_dump_narrow_int < 0)
		pr_warn("the kernel's vbin_printf() stores %%hh and %%h numbers neither as 1 and 2 bytes nor as ints: the dump shows records with them as [missing]\n");
}
