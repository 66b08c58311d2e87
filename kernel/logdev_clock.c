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

static int ld_clock_sel;	/* enum ld_clock_id, read by ld_clock_now() */

const char * const ld_clock_names[LD_NR_CLOCKS] = {
	[LD_CLOCK_LOCAL] = "local",
	[LD_CLOCK_GLOBAL] = "global",
	[LD_CLOCK_MONO] = "mono",
};

/**
 * ld_clock_now() - the selected trace clock, for the ring core
 *
 * Return: nanoseconds of trace_clock_local(), trace_clock_global() or
 * ktime_get_mono_fast_ns(), as selected by the debugfs "clock" file.
 */
u64 notrace ld_clock_now(void)
{
	switch (READ_ONCE(ld_clock_sel)) {
	case LD_CLOCK_GLOBAL:
		return trace_clock_global();
	case LD_CLOCK_MONO:
		return ktime_get_mono_fast_ns();
	default:
		return trace_clock_local();
	}
}

/**
 * ld_clock_select() - make @clock the one ld_clock_now() reads
 * @clock: the clock
 *
 * Only while recording is off (ld_set_clock()): the buffers are emptied
 * after the switch so that no sub-buffer mixes two clocks.
 */
void ld_clock_select(enum ld_clock_id clock)
{
	WRITE_ONCE(ld_clock_sel, clock);
}
