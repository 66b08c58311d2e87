// SPDX-License-Identifier: GPL-2.0
/*
 * logdev_probe_fetch.c - what a probe does when it is hit: its fetch
 * arguments read (registers, the stack, memory through the _nofault
 * helpers) and one record written.  The hot path of the run-time probes.
 *
 * Every hit is a LOGDEV_REC_PRINT record of the probe's own call site: file
 * "probe", func NAME (NAME%return for the return of an r: probe), line
 * OFFSET; its format carries each argument's type ("n=%lld s=\"%s\"%s ...",
 * ld_fmt_make()) and its payload is what vbin_printf() stores for that
 * format (u64 values, NUL-terminated strings), so readers render it like
 * any edprint().  Handlers run in any context (kprobes: irqs off) and only call
 * the lock-free ld_write_print(); a handler only touches its own probe.
 *
 * Layer: probes (logdev_probes.h); calls the recording core only.
 */
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#ifdef CONFIG_X86
#include <asm/text-patching.h>	/* INT3_INSN_OPCODE, as logdev_calib.c reads it */
#endif
#include "logdev_core.h"
#include "logdev_probes.h"

static const char ld_fault_mark[] = LD_FAULT_MARK;
static const char ld_cut_mark[] = LD_CUT_MARK;

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


/*
 * Did this hit of @kp come through the breakpoint?  A kprobe's pre-handler
 * runs from one of three places (x86; 6.1, 6.12, 7.3 alike):
 *  - kprobe_ftrace_handler(), for a kprobe on an ftrace location (the
 *    kprobes core set KPROBE_FLAG_FTRACE on this very kprobe when it was
 *    registered, check_ftrace_location()): a plain call from the function's
 *    fentry, in the probed code's context;
 *  - optimized_callback(), from an optimised kprobe's jump and detour
 *    buffer: a plain call, same context;
 *  - kprobe_int3_handler(), from exc_int3() under irqentry_nmi_enter():
 *    preempt_count has one NMI and one hardirq level more.
 * Nothing of kprobes' own state says which (current_kprobe, get_kprobe(),
 * the aggregate's KPROBE_FLAG_OPTIMIZED are not exported, and that flag is
 * set before the jump is written and cleared before it is removed), so:
 * not an ftrace kprobe, in_nmi() (the breakpoint path always is), and the
 * breakpoint byte still at the probed address.  The byte is sound because
 * it is what the CPU executed: a kprobe armed by int3 keeps 0xcc there
 * until it is disarmed (arch_arm_kprobe(): text_poke(), no text_poke_bp()),
 * an optimised one has its jump (0xe9) there, and the optimiser's
 * text_poke_bp() sends a hit during the rewrite through its own int3
 * emulation (poke_int3_handler(), before irqentry_nmi_enter()) to the
 * detour, i.e. optimized_callback() in the real context.  Race windows left:
 * a hit in a real NMI while this address is being rewritten by the
 * optimiser or unoptimiser (byte 0xcc but the jump taken: recorded as the
 * context under the NMI), and a breakpoint hit whose kprobe is disarmed
 * (byte restored) before the handler reads it (recorded as nmi, as before
 * this check).  Both need a probe being optimised, unoptimised or removed
 * at that instant.  docs/DEBUGFS.md, "The context of a probe hit".
 */
static __always_inline bool ld_probe_by_int3(struct kprobe *kp)
{
#ifdef CONFIG_X86
	if (kprobe_ftrace(kp) || !in_nmi())
		return false;
	return READ_ONCE(*(const u8 *)kp->addr) == INT3_INSN_OPCODE;
#else
	return false;	/* no other architecture's entry is worked out here */
#endif
}

static __always_inline void ld_probe_record(struct logdev_site *site,
					    const struct ld_fetch *f, u32 n,
					    struct pt_regs *regs,
					    const unsigned long *tpa, bool int3)
{
	u8 buf[LOGDEV_MAX_PAYLOAD] __aligned(8);
	u32 i, pos = 0;

	for (i = 0; i < n; i++)
		pos = ld_fetch_store(&f[i], regs, tpa, buf, pos);
	ld_write_print(logdev_site_id(site), buf, pos, int3);
}

int ld_kp_handler(struct kprobe *kp, struct pt_regs *regs)
{
	struct ld_probe *p = container_of(kp, struct ld_probe, kp);

	atomic_long_inc(&p->hits);
	ld_probe_record(p->site, p->entry, p->nr_entry, regs, NULL,
			ld_probe_by_int3(kp));
	return 0;
}
NOKPROBE_SYMBOL(ld_kp_handler);

int ld_rp_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct kretprobe *rp = get_kretprobe(ri);
	struct ld_probe *p = container_of(rp, struct ld_probe, rp);

	atomic_long_inc(&p->hits);
	ld_probe_record(p->site, p->entry, p->nr_entry, regs, NULL,
			ld_probe_by_int3(&rp->kp));
	return 0;
}
NOKPROBE_SYMBOL(ld_rp_entry);

/* From the return trampoline (rethook on x86): a plain call, real context. */
int ld_rp_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct ld_probe *p = container_of(get_kretprobe(ri), struct ld_probe, rp);

	atomic_long_inc(&p->rets);
	ld_probe_record(p->ret_site, p->ret, p->nr_ret, regs, NULL, false);
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
void notrace ld_tp_probe(void *data, unsigned long a1, unsigned long a2,
			 unsigned long a3, unsigned long a4,
			 unsigned long a5)
{
	const unsigned long a[LD_TP_MAX_ARGS] = { a1, a2, a3, a4, a5 };
	struct ld_probe *p = data;

	atomic_long_inc(&p->hits);
	ld_probe_record(p->site, p->entry, p->nr_entry, NULL, a, false);
}
#else
void notrace ld_tp_probe(void *data)
{
	struct ld_probe *p = data;

	atomic_long_inc(&p->hits);
	ld_write_print(logdev_site_id(p->site), NULL, 0, false);
}
#endif

/* ------------------------------------------------- registers by name */

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

/**
 * ld_fetch_reg() - where register @name is kept in struct pt_regs
 * @name: its name without the '%' (x86-64: ax bx ... r15 ip flags sp ...)
 *
 * Return: its byte offset in struct pt_regs, or -ENOENT (not a register,
 * or an architecture without a table here).
 */
int ld_fetch_reg(const char *name)
{
#ifdef CONFIG_X86_64
	u32 i;

	for (i = 0; i < ARRAY_SIZE(ld_regs); i++)
		if (!strcmp(name, ld_regs[i].name))
			return ld_regs[i].off;
#endif
	return -ENOENT;
}
