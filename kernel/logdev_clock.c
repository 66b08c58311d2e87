// SPDX-License-Identifier: GPL-2.0
/*
 * logdev_clock.c - the trace clock that stamps every record, sub-buffer
 * header and module log entry, selected by the debugfs "clock" file.
 *
 * Layer: bottom (logdev_clock.h): called by the ring core and the layers
 * above, calls nothing of logdev.
 */
#include <linux/kernel.h>
#include <linux/compiler.h>
#include <linux/ktime.h>
#include <linux/trace_clock.h>
#include <linux/timekeeping.h>
#include <linux/sched/clock.h>
#include "logdev_clock.h"

/*
 * ld_clock_now() calls this (logdev_shim.h).  The "local" clock is ftrace's
 * trace_clock_local(), which is sched_clock() between
 * preempt_disable_notrace() and preempt_enable_notrace() (generic code,
 * kernel/trace/trace_clock.c, the same on every kernel supported).  Every
 * caller of ld_clock_now() either has preemption disabled (the writers) or
 * does not care which CPU it reads on, and sched_clock() is safe with
 * preemption enabled (x86: native_sched_clock() disables it around its
 * per-CPU read; from 6.5 sched_clock() itself does), so the static call
 * goes to sched_clock() directly: the same value, one call level and two
 * preempt_count updates fewer per record (docs/PERFORMANCE.md, "The kernel
 * fast path per kernel").
 */
DEFINE_STATIC_CALL(ld_clock, sched_clock);

const char * const ld_clock_names[LD_NR_CLOCKS] = {
	[LD_CLOCK_LOCAL] = "local",
	[LD_CLOCK_GLOBAL] = "global",
	[LD_CLOCK_MONO] = "mono",
};

/**
 * ld_clock_select() - make @clock the one ld_clock_now() reads
 * @clock: the clock: trace_clock_local() (called as sched_clock(), see
 *         above), trace_clock_global() or ktime_get_mono_fast_ns()
 *
 * Only while recording is off (ld_set_clock()): the buffers are emptied
 * after the switch so that no sub-buffer mixes two clocks.  Patches the
 * static call (text patching; may sleep): process context, no writer
 * running (recording off and synchronize_rcu() done by the caller).
 */
void ld_clock_select(enum ld_clock_id clock)
{
	switch (clock) {
	case LD_CLOCK_GLOBAL:
		static_call_update(ld_clock, trace_clock_global);
		break;
	case LD_CLOCK_MONO:
		static_call_update(ld_clock, ktime_get_mono_fast_ns);
		break;
	default:
		static_call_update(ld_clock, sched_clock);
		break;
	}
}
