/* SPDX-License-Identifier: GPL-2.0 */
/*
 * logdev_compat.h - the one place where logdev meets the differences
 * between kernel versions: wrappers with one name and one behaviour on
 * every kernel, chosen by the answers of the feature tests
 * (kernel/compat/NAME.c, compiled against the target kernel's headers by
 * compat/conftest.sh into logdev_compat_config.h, LD_HAVE_NAME).  Never a
 * kernel version number: distributions backport (Debian's 6.1 has
 * timer_delete_sync(), a 6.2 function).
 *
 * Layer: none (a header of definitions only).  Included by the kernel
 * files of logdev.ko that use one of these APIs and by the modules of
 * kernel/test/ (as "../logdev_compat.h"); never by the portable files
 * built in userspace too (logdev_ring.c, logdev_btf.c, logdev_parse.c).
 * Each including directory's Kbuild generates its own config header
 * (compat/Makefile.conftest).
 *
 * A new API difference: a test compat/NAME.c (compat/README), then its
 * wrapper here; where the kernel has two known answers, a test for each,
 * naming the other as its "Alternative:", and an #error if neither is set.
 * A behaviour that changed behind an unchanged prototype cannot be
 * compiled for; logdev measures it where it uses it, once, at init: the
 * layout of %hh and %h in the kernel's vbin_printf()/bstr_printf()
 * (logdev_dump.c ld_dump_narrow_probe(): ints since 7.x).  logdev's own
 * records never take the kernel's layout (ld_vbin_pack()).
 */
#ifndef _LOGDEV_COMPAT_H
#define _LOGDEV_COMPAT_H

/* -I$(obj): this directory's build, not another's (compat/Makefile.conftest) */
#include <logdev_compat_config.h>
#include <linux/types.h>
#include <linux/module.h>
#include <linux/timer.h>
#include <linux/hrtimer.h>
#include <linux/tracepoint.h>
#include <linux/ring_buffer.h>

/* ---- get_unaligned(), put_unaligned() (linux_unaligned_h.c, 6.12) ---- */
#if defined(LD_HAVE_LINUX_UNALIGNED_H)
#include <linux/unaligned.h>
#elif defined(LD_HAVE_ASM_UNALIGNED_H)
#include <asm/unaligned.h>
#else
#error "logdev_compat: neither <linux/unaligned.h> nor <asm/unaligned.h> (compat/*unaligned_h.c)"
#endif

/* ---- the sysrq handler's key (sysrq_handler_u8.c, 6.6) ---- */
#if defined(LD_HAVE_SYSRQ_HANDLER_U8)
/* the type of struct sysrq_key_op's handler's argument */
typedef u8 ld_sysrq_key_t;
#elif defined(LD_HAVE_SYSRQ_HANDLER_INT)
typedef int ld_sysrq_key_t;
#else
#error "logdev_compat: sysrq handler takes neither u8 nor int (compat/sysrq_handler_*.c)"
#endif

/* ---- timers (timer_delete_sync.c 6.2, del_timer_sync() gone in 6.15) ---- */
/*
 * ld_timer_delete_sync() - deactivate @t and wait for its handler to end
 * Returns 1 if it was pending, 0 if not (timer_delete_sync()).  Process
 * context; not from @t's handler.
 */
static inline int ld_timer_delete_sync(struct timer_list *t)
{
#if defined(LD_HAVE_TIMER_DELETE_SYNC)
	return timer_delete_sync(t);
#elif defined(LD_HAVE_DEL_TIMER_SYNC)
	return del_timer_sync(t);
#else
#error "logdev_compat: neither timer_delete_sync() nor del_timer_sync() (compat/*timer*_sync.c)"
#endif
}

/* ---- the kernel's ring_buffer (ring_buffer_unlock_commit*.c, 6.2) ---- */
/*
 * ld_ring_buffer_unlock_commit() - commit @e, reserved on @b by
 * ring_buffer_lock_reserve() (6.2 dropped the event argument).  Returns 0.
 * Used by the benchmark's raw ring_buffer baseline, not by logdev.ko.
 */
static inline int ld_ring_buffer_unlock_commit(struct trace_buffer *b,
					       struct ring_buffer_event *e)
{
#if defined(LD_HAVE_RING_BUFFER_UNLOCK_COMMIT)
	return ring_buffer_unlock_commit(b);
#elif defined(LD_HAVE_RING_BUFFER_UNLOCK_COMMIT_EVENT)
	return ring_buffer_unlock_commit(b, e);
#else
#error "logdev_compat: ring_buffer_unlock_commit() takes neither (b) nor (b, e) (compat/ring_buffer_unlock_commit*.c)"
#endif
}

/* ---- hrtimers (hrtimer_setup.c 6.13, hrtimer_init() gone in 6.15) ---- */
/*
 * ld_hrtimer_setup() - initialise @t on @clock in @mode with handler @fn
 * (hrtimer_setup(); before 6.13 hrtimer_init() then ->function).
 */
static inline void ld_hrtimer_setup(struct hrtimer *t,
				    enum hrtimer_restart (*fn)(struct hrtimer *),
				    clockid_t clock, enum hrtimer_mode mode)
{
#if defined(LD_HAVE_HRTIMER_SETUP)
	hrtimer_setup(t, fn, clock, mode);
#elif defined(LD_HAVE_HRTIMER_INIT)
	hrtimer_init(t, clock, mode);
	t->function = fn;
#else
#error "logdev_compat: neither hrtimer_setup() nor hrtimer_init() (compat/hrtimer_*.c)"
#endif
}

/* ---- bare tracepoints (declare_trace_tp.c, 6.16) ---- */
/*
 * LD_DECLARE_TRACE_TP(base, proto, args) declares the tracepoint named
 * base_tp (trace_base_tp(), register_trace_base_tp(); the name in
 * tracefs and in logdev's "t:" probes) on every kernel: since 6.16
 * DECLARE_TRACE(x) adds the _tp itself.  Define it with
 * DEFINE_TRACE(base_tp, proto, args).
 */
#if defined(LD_HAVE_DECLARE_TRACE_TP)
#define LD_DECLARE_TRACE_TP(base, proto, args) \
	DECLARE_TRACE(base, PARAMS(proto), PARAMS(args))
#elif defined(LD_HAVE_DECLARE_TRACE_PLAIN)
#define LD_DECLARE_TRACE_TP(base, proto, args) \
	DECLARE_TRACE(base##_tp, PARAMS(proto), PARAMS(args))
#else
#error "logdev_compat: DECLARE_TRACE() declares neither x nor x_tp (compat/declare_trace_*.c)"
#endif

/* ---- a module's memory (module_mem.c 6.4, module_layout.c before) ---- */
/* the regions of a module's memory, as 6.4's enum mod_mem_type has them */
enum ld_mod_mem {
	LD_MOD_TEXT,
	LD_MOD_RODATA,
	LD_MOD_RO_AFTER_INIT,
	LD_MOD_DATA,
	LD_MOD_INIT_TEXT,
	LD_MOD_INIT_RODATA,
	LD_MOD_INIT_DATA,
	LD_MOD_MEM_NR
};

#if !defined(LD_HAVE_MODULE_MEM) && !defined(LD_HAVE_MODULE_LAYOUT)
#error "logdev_compat: struct module has neither mem[] nor core_layout (compat/module_*.c)"
#endif

/**
 * ld_mod_mem() - where one region of a module's memory is
 * @mod: the module (its memory does not change while it is COMING, LIVE or
 *	 GOING, under module_mutex or in a module notifier; the init regions
 *	 are empty once its init memory is freed)
 * @t: the region
 * @base: its first byte's address (0 if it has none)
 * @size: its length in bytes, page padding included (0 if it has none)
 *
 * Since 6.4 each region is its own allocation (mod->mem[]); before, the
 * core and init regions were each one allocation, split at text_size,
 * ro_size, ro_after_init_size and size (rodata and data in data_layout,
 * the same as core_layout but where the architecture keeps module data
 * apart, CONFIG_ARCH_WANTS_MODULES_DATA_IN_VMALLOC).
 */
static inline void ld_mod_mem(const struct module *mod, enum ld_mod_mem t,
			      unsigned long *base, unsigned long *size)
{
#if defined(LD_HAVE_MODULE_MEM)
	static const enum mod_mem_type type[LD_MOD_MEM_NR] = {
		[LD_MOD_TEXT] = MOD_TEXT,
		[LD_MOD_RODATA] = MOD_RODATA,
		[LD_MOD_RO_AFTER_INIT] = MOD_RO_AFTER_INIT,
		[LD_MOD_DATA] = MOD_DATA,
		[LD_MOD_INIT_TEXT] = MOD_INIT_TEXT,
		[LD_MOD_INIT_RODATA] = MOD_INIT_RODATA,
		[LD_MOD_INIT_DATA] = MOD_INIT_DATA,
	};
	const struct module_memory *m;

	*base = 0;
	*size = 0;
	if ((unsigned int)t >= LD_MOD_MEM_NR)
		return;
	m = &mod->mem[type[t]];
	if (m->base && m->size) {
		*base = (unsigned long)m->base;
		*size = m->size;
	}
#else
	const struct module_layout *l;
	unsigned int lo, hi;

	switch (t) {
	case LD_MOD_TEXT:
		l = &mod->core_layout;
		lo = 0;
		hi = l->text_size;
		break;
#ifdef CONFIG_ARCH_WANTS_MODULES_DATA_IN_VMALLOC
#define LD_MOD_DATA_LAYOUT data_layout
#else
#define LD_MOD_DATA_LAYOUT core_layout
#endif
	case LD_MOD_RODATA:
		l = &mod->LD_MOD_DATA_LAYOUT;
		lo = l->text_size;
		hi = l->ro_size;
		break;
	case LD_MOD_RO_AFTER_INIT:
		l = &mod->LD_MOD_DATA_LAYOUT;
		lo = l->ro_size;
		hi = l->ro_after_init_size;
		break;
	case LD_MOD_DATA:
		l = &mod->LD_MOD_DATA_LAYOUT;
		lo = l->ro_after_init_size;
		hi = l->size;
		break;
#undef LD_MOD_DATA_LAYOUT
	case LD_MOD_INIT_TEXT:
		l = &mod->init_layout;
		lo = 0;
		hi = l->text_size;
		break;
	case LD_MOD_INIT_RODATA:
		l = &mod->init_layout;
		lo = l->text_size;
		hi = l->ro_size;
		break;
	case LD_MOD_INIT_DATA:	/* init has no ro_after_init: it equals ro_size */
		l = &mod->init_layout;
		lo = l->ro_after_init_size;
		hi = l->size;
		break;
	default:
		*base = 0;
		*size = 0;
		return;
	}
	if (!l->base || hi <= lo) {
		*base = 0;
		*size = 0;
		return;
	}
	*base = (unsigned long)l->base + lo;
	*size = hi - lo;
#endif
}

/* ---- walking kallsyms (kallsyms_on_each_symbol_*.c 6.3; ---- */
/* ---- module_kallsyms_on_each_symbol_*.c 6.2, 6.3) ---- */
/*
 * The kernel's symbol iterators, kallsyms_on_each_symbol() (vmlinux) and
 * module_kallsyms_on_each_symbol() (the modules), take a callback whose
 * prototype changed: logdev defines its callbacks in one shape,
 *	int body(void *data, const char *name, struct module *mod,
 *		 unsigned long addr)
 * (@mod NULL where the kernel does not say it), and these wrap one in the
 * prototype the target declares.  None of it is defined where the target
 * answers in a way logdev does not know (no test compiled): logdev then
 * does not call the iterator (logdev_ksyms.c reads /proc/kallsyms).
 *
 * LD_KALLSYMS_ITER               1 if kallsyms_on_each_symbol() is known
 * LD_KALLSYMS_FN(fn, body)       defines static int fn(...) of the
 *                                callback prototype it takes, calling body
 * LD_MODULE_KALLSYMS_ITER        1 if module_kallsyms_on_each_symbol() is known
 * LD_MODULE_KALLSYMS_GIVES_MOD   1 if its callback is told the module
 *                                (to 6.2); 0: not (6.3+)
 * LD_MODULE_KALLSYMS_FN(fn, body) as LD_KALLSYMS_FN(), for it
 * ld_module_kallsyms_on_each(iter, modname, fn, data)
 *                                calls iter (the function, or a pointer of
 *                                its type) on the module named modname, or
 *                                on every module if NULL; before 6.2 on
 *                                every module whatever modname: the body,
 *                                told the module, picks
 */
#if defined(LD_HAVE_KALLSYMS_ON_EACH_SYMBOL_NOMOD)
#define LD_KALLSYMS_ITER	1
#define LD_KALLSYMS_FN(fn, body)					\
	static int fn(void *data, const char *name, unsigned long addr)	\
	{								\
		return body(data, name, NULL, addr);			\
	}
#elif defined(LD_HAVE_KALLSYMS_ON_EACH_SYMBOL_MOD)
#define LD_KALLSYMS_ITER	1
#define LD_KALLSYMS_FN(fn, body)					\
	static int fn(void *data, const char *name, struct module *mod,	\
		      unsigned long addr)				\
	{								\
		return body(data, name, mod, addr);			\
	}
#else
#define LD_KALLSYMS_ITER	0
#endif

#if defined(LD_HAVE_MODULE_KALLSYMS_ON_EACH_SYMBOL_MODNAME)
#define LD_MODULE_KALLSYMS_ITER		1
#define LD_MODULE_KALLSYMS_GIVES_MOD	0
#define LD_MODULE_KALLSYMS_FN(fn, body)					\
	static int fn(void *data, const char *name, unsigned long addr)	\
	{								\
		return body(data, name, NULL, addr);			\
	}
#define ld_module_kallsyms_on_each(iter, modname, fn, data)		\
	((iter)(modname, fn, data))
#elif defined(LD_HAVE_MODULE_KALLSYMS_ON_EACH_SYMBOL_MODNAME_MOD) ||	\
	defined(LD_HAVE_MODULE_KALLSYMS_ON_EACH_SYMBOL_MOD)
#define LD_MODULE_KALLSYMS_ITER		1
#define LD_MODULE_KALLSYMS_GIVES_MOD	1
#define LD_MODULE_KALLSYMS_FN(fn, body)					\
	static int fn(void *data, const char *name, struct module *mod,	\
		      unsigned long addr)				\
	{								\
		return body(data, name, mod, addr);			\
	}
#if defined(LD_HAVE_MODULE_KALLSYMS_ON_EACH_SYMBOL_MODNAME_MOD)
#define ld_module_kallsyms_on_each(iter, modname, fn, data)		\
	((iter)(modname, fn, data))
#else
#define ld_module_kallsyms_on_each(iter, modname, fn, data)		\
	((iter)(fn, data))
#endif
#else
#define LD_MODULE_KALLSYMS_ITER		0
#define LD_MODULE_KALLSYMS_GIVES_MOD	0
#endif

/* ---- paddr_vmcoreinfo_note() (vmcoreinfo_vmcore_info_h.c, 6.9) ---- */
#if defined(LD_HAVE_VMCOREINFO_VMCORE_INFO_H)
#include <linux/vmcore_info.h>
#elif defined(LD_HAVE_VMCOREINFO_CRASH_CORE_H)
#include <linux/crash_core.h>
#else
#error "logdev_compat: paddr_vmcoreinfo_note() in neither <linux/vmcore_info.h> nor <linux/crash_core.h> (compat/vmcoreinfo_*.c)"
#endif

/*
 * ---- reserve_mem_find_by_name() (reserve_mem_find_by_name.c, 6.11) ----
 * ld_reserve_mem_find() - where reserve_mem=SIZE:ALIGN:@name put its memory:
 * 1 and *@start, *@size if found; 0 if not; -EOPNOTSUPP on a kernel without
 * reserve_mem= (6.1).
 */
#if defined(LD_HAVE_RESERVE_MEM_FIND_BY_NAME)
#include <linux/mm.h>
static inline int ld_reserve_mem_find(const char *name, phys_addr_t *start,
				      phys_addr_t *size)
{
	return reserve_mem_find_by_name(name, start, size);
}
#else
static inline int ld_reserve_mem_find(const char *name, phys_addr_t *start,
				      phys_addr_t *size)
{
	return -EOPNOTSUPP;
}
#endif

#endif /* _LOGDEV_COMPAT_H */
