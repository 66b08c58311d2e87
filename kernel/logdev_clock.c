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
#include "logdev_clock.h"

/* ld_clock_now() calls this (logdev_shim.h); trace_clock_local() by default */
DEFINE_STATIC_CALL(ld_clock, trace_clock_local);

const char * const ld_clock_names[LD_NR_CLOCKS] = {
	[LD_CLOCK_LOCAL] = "local",
	[LD_CLOCK_GLOBAL] = "global",
	[LD_CLOCK_MONO] = "mono",
};

/**
 * ld_clock_select() - make @clock the one ld_clock_now() reads
 * @clock: the clock: trace_clock_local(), trace_clock_global() or
 *         ktime_get_mono_fast_ns()
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
		static_call_update(ld_clock, trace_clock_local);
		break;
	}
}
