/* SPDX-License-Identifier: GPL-2.0 */
/*
 * logdev_shim.h - the few primitives the portable ring core needs, for the
 * kernel and for the userspace test harness.
 *
 * ld_local_t:  a counter changed only by the writers of one CPU (which nest
 *              like a stack there); kernel local_t.  In userspace several
 *              threads may share a simulated CPU, so it is a real atomic.
 * ld_atomic_t: a counter shared between a CPU's writers and the reader on
 *              another CPU; kernel atomic64_t.
 * ld_clock_now(): the trace clock in ns, provided by the user of the core
 *              (kernel: a static call set by logdev_clock.c; userspace: the
 *              harness's function).
 * LD_SHIM_SINGLE_WRITER (userspace only, bench/host's one-writer row):
 *              ld_local_t as the kernel's local_t on x86, one writer per
 *              buffer; see below.
 *
 * What each primitive orders, in the kernel (Documentation/atomic_t.txt,
 * Documentation/memory-barriers.txt); the ring core relies on nothing more:
 *
 *   ld_local_*()            atomic against interrupts and NMIs on the owning
 *                           CPU only, and NOT a memory barrier: on x86 they
 *                           are instructions without a LOCK prefix.  Only the
 *                           owning CPU's writers change them; another CPU may
 *                           only read them (ld_local_read_remote()), and must
 *                           order what it reads after them itself.
 *   ld_atomic_read/set()    relaxed (READ_ONCE/WRITE_ONCE of the counter).
 *   ld_atomic_read_acquire() ACQUIRE: later loads and stores stay after it.
 *   ld_atomic_add()         relaxed (a void RMW orders nothing).
 *   ld_atomic_xchg()        fully ordered, as if smp_mb() on each side.
 *   ld_atomic_cmpxchg()     fully ordered when it succeeds; a FAILED cmpxchg
 *                           orders nothing (it is then only a load), so a
 *                           caller that acts on a failure adds ld_smp_mb().
 *   ld_smp_wmb/rmb/mb()     smp_wmb(), smp_rmb(), smp_mb().
 *
 * The userspace half maps every one of these to something at least as
 * strong (C11/GCC atomics), so the stress test cannot see a missing kernel
 * barrier as a failure: the pairs are argued in docs/RING.md ("Barriers and
 * their pairs") and in the comments at each access in logdev_ring.c.
 */
#ifndef _LOGDEV_SHIM_H
#define _LOGDEV_SHIM_H

#ifdef __KERNEL__

#include <linux/types.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <linux/compiler.h>
#include <linux/atomic.h>
#include <linux/static_call.h>
#include <linux/trace_clock.h>
#include <asm/local.h>
#include <asm/barrier.h>

typedef local_t ld_local_t;
typedef atomic64_t ld_atomic_t;

#define ld_local_read(l)		((u64)local_read(l))
#define ld_local_set(l, v)		local_set(l, v)
#define ld_local_add(l, v)		local_add(v, l)
#define ld_local_add_return(l, v)	((u64)local_add_return(v, l))
#define ld_local_inc(l)			local_inc(l)
#define ld_local_cmpxchg(l, o, n)	((u64)local_cmpxchg(l, o, n))
#define ld_local_xchg(l, v)		((u64)local_xchg(l, v))
/*
 * A remote (reader-side) read of a writer's local counter: a plain aligned
 * load of a long (local_read() is READ_ONCE()), never torn; its ordering is
 * the reader's business (ld_smp_rmb() in ld_consume()).
 */
#define ld_local_read_remote(l)		((u64)local_read(l))

#define ld_atomic_read(a)		((u64)atomic64_read(a))
#define ld_atomic_read_acquire(a)	((u64)atomic64_read_acquire(a))
#define ld_atomic_set(a, v)		atomic64_set(a, v)
#define ld_atomic_add(a, v)		atomic64_add(v, a)
#define ld_atomic_cmpxchg(a, o, n)	((u64)atomic64_cmpxchg(a, o, n))
#define ld_atomic_xchg(a, v)		((u64)atomic64_xchg(a, v))

#define ld_smp_wmb()			smp_wmb()
#define ld_smp_rmb()			smp_rmb()
#define ld_smp_mb()			smp_mb()

/* Writer nesting depth lives in the per-CPU buffer: one CPU, one stack. */
#define LD_NESTING(cb)			((cb)->nesting)

/* Test hook points; nothing in the kernel. */
#define LD_TEST_HOOK(where)		do { } while (0)

/*
 * The trace clock: a static call, patched by ld_clock_select()
 * (logdev_clock.c) to the clock chosen while recording is off, so a writer
 * calls sched_clock() (trace_clock_local()'s clock, without its preemption
 * toggle: logdev_clock.c) or the other clock directly, with no switch.
 */
DECLARE_STATIC_CALL(ld_clock, trace_clock_local);

static __always_inline u64 ld_clock_now(void)
{
	return static_call(ld_clock)();
}

#else /* userspace test harness */

#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <errno.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int64_t s64;

typedef struct { u64 v; } ld_local_t;
typedef struct { u64 v; } ld_atomic_t;

/* the kernel's compile-time check, for the ring's layout assertions */
#define BUILD_BUG_ON(cond)	_Static_assert(!(cond), "BUILD_BUG_ON(" #cond ")")

/* cmpxchg returning the value found, as the kernel's does */
static inline u64 ld_u64_cmpxchg(u64 *p, u64 o, u64 n)
{
	__atomic_compare_exchange_n(p, &o, n, false, __ATOMIC_SEQ_CST,
				    __ATOMIC_SEQ_CST);
	return o;
}

#ifdef LD_SHIM_SINGLE_WRITER
/*
 * One writer per buffer, as in the kernel (bench/host's "one writer" row):
 * ld_local_t is the kernel's local_t on x86 -- single instructions without
 * the LOCK prefix (add, inc, xadd, cmpxchg), atomic against a signal on the
 * same thread only, and not a barrier ("memory" clobbers as the kernel's
 * asm/local.h).  Never for tests/ring, whose threads share a buffer.
 */
#if defined(__x86_64__)
static inline void ld_sw_add(u64 *p, u64 x)
{
	asm volatile("addq %1, %0" : "+m" (*p) : "er" (x) : "memory");
}

static inline u64 ld_sw_add_return(u64 *p, u64 x)
{
	u64 o = x;

	asm volatile("xaddq %0, %1" : "+r" (o), "+m" (*p) : : "memory");
	return o + x;
}

static inline u64 ld_sw_cmpxchg(u64 *p, u64 o, u64 n)
{
	asm volatile("cmpxchgq %2, %1" : "+a" (o), "+m" (*p) : "r" (n) : "memory");
	return o;
}
#else	/* plain C: one thread, no signal nesting in the bench */
static inline void ld_sw_add(u64 *p, u64 x)
{
	*(volatile u64 *)p += x;
}

static inline u64 ld_sw_add_return(u64 *p, u64 x)
{
	return *(volatile u64 *)p += x;
}

static inline u64 ld_sw_cmpxchg(u64 *p, u64 o, u64 n)
{
	u64 v = *(volatile u64 *)p;

	if (v == o)
		*(volatile u64 *)p = n;
	return v;
}
#endif
#define ld_local_read(l)		(*(volatile u64 *)&(l)->v)
#define ld_local_set(l, x)		((void)(*(volatile u64 *)&(l)->v = (x)))
#define ld_local_add(l, x)		ld_sw_add(&(l)->v, (x))
#define ld_local_inc(l)			ld_local_add(l, 1)
#define ld_local_add_return(l, x)	ld_sw_add_return(&(l)->v, (x))
#define ld_local_cmpxchg(l, o, n)	ld_sw_cmpxchg(&(l)->v, o, n)
/* xchg with memory is locked on x86 whatever the prefix, as local_xchg() */
#define ld_local_xchg(l, x)		__atomic_exchange_n(&(l)->v, (x), __ATOMIC_SEQ_CST)
#define ld_local_read_remote(l)		__atomic_load_n(&(l)->v, __ATOMIC_RELAXED)
#else
/*
 * Orders are stronger than the kernel's local_t needs: threads sharing a
 * simulated CPU really are concurrent, and acquire/release on the counters
 * lets ThreadSanitizer see the same happens-before the fences give (TSan
 * does not model __atomic_thread_fence(), hence -Wno-tsan in tests/ring).
 */
#define ld_local_read(l)		__atomic_load_n(&(l)->v, __ATOMIC_ACQUIRE)
#define ld_local_set(l, x)		__atomic_store_n(&(l)->v, (x), __ATOMIC_RELEASE)
#define ld_local_add(l, x)		((void)__atomic_fetch_add(&(l)->v, (x), __ATOMIC_ACQ_REL))
#define ld_local_inc(l)			ld_local_add(l, 1)
#define ld_local_add_return(l, x)	__atomic_add_fetch(&(l)->v, (x), __ATOMIC_ACQ_REL)
#define ld_local_cmpxchg(l, o, n)	ld_u64_cmpxchg(&(l)->v, o, n)
#define ld_local_xchg(l, x)		__atomic_exchange_n(&(l)->v, (x), __ATOMIC_SEQ_CST)
#define ld_local_read_remote(l)		__atomic_load_n(&(l)->v, __ATOMIC_ACQUIRE)
#endif /* LD_SHIM_SINGLE_WRITER */

#define ld_atomic_read(a)		__atomic_load_n(&(a)->v, __ATOMIC_SEQ_CST)
#define ld_atomic_read_acquire(a)	__atomic_load_n(&(a)->v, __ATOMIC_ACQUIRE)
#define ld_atomic_set(a, x)		__atomic_store_n(&(a)->v, (x), __ATOMIC_SEQ_CST)
#define ld_atomic_add(a, x)		((void)__atomic_fetch_add(&(a)->v, (x), __ATOMIC_SEQ_CST))
#define ld_atomic_cmpxchg(a, o, n)	ld_u64_cmpxchg(&(a)->v, o, n)
#define ld_atomic_xchg(a, x)		__atomic_exchange_n(&(a)->v, (x), __ATOMIC_SEQ_CST)

#define ld_smp_wmb()			__atomic_thread_fence(__ATOMIC_RELEASE)
#define ld_smp_rmb()			__atomic_thread_fence(__ATOMIC_ACQUIRE)
#define ld_smp_mb()			__atomic_thread_fence(__ATOMIC_SEQ_CST)

#ifndef __always_inline
#define __always_inline			inline __attribute__((__always_inline__))
#endif
#ifndef READ_ONCE
#define READ_ONCE(x)			__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define WRITE_ONCE(x, v)		__atomic_store_n(&(x), (v), __ATOMIC_RELAXED)
#endif
#ifndef likely
#define likely(x)			__builtin_expect(!!(x), 1)
#define unlikely(x)			__builtin_expect(!!(x), 0)
#endif

#ifdef LD_SHIM_SINGLE_WRITER
/* one writer per buffer: depth and hooks as in the kernel */
#define LD_NESTING(cb)			((cb)->nesting)
#define LD_TEST_HOOK(where)		do { } while (0)
#else
/*
 * Writer nesting depth: in the harness several threads share one simulated
 * CPU, and a signal handler nests on its own thread, so depth is per thread.
 */
extern __thread int ld_thread_nesting;
#define LD_NESTING(cb)			(ld_thread_nesting)

/*
 * Test hook: the harness may raise a signal here so that a nested writer
 * runs in the middle of a reservation.  Points: 0 = inside the reserve loop
 * before the cmpxchg, 1 = between reserve and commit.
 */
void ld_test_hook(int where);
#define LD_TEST_HOOK(where)		ld_test_hook(where)
#endif

u64 ld_clock_now(void);

#endif /* __KERNEL__ */
#endif /* _LOGDEV_SHIM_H */
