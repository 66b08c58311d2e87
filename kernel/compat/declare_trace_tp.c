// SPDX-License-Identifier: GPL-2.0
/*
 * declare_trace_tp: DECLARE_TRACE(x, ...) declares the tracepoint x_tp
 * (trace_x_tp(), register_trace_x_tp()), a bare tracepoint kept apart from
 * trace events by its name.  Linux 6.16; before, it declared x itself (declare_trace_plain.c).  Alternative:
 * declare_trace_plain.c (one of the two must compile).  Used by:
 * logdev_compat.h LD_DECLARE_TRACE_TP() (test/logdev_test_probe.c,
 * test/logdev_tpmod.c).
 */
#include <linux/tracepoint.h>

DECLARE_TRACE(ldc_dt, TP_PROTO(unsigned long i), TP_ARGS(i));

void ldc_declare_trace_tp(unsigned long i);
void ldc_declare_trace_tp(unsigned long i)
{
	trace_ldc_dt_tp(i);
}
