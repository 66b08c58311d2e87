// SPDX-License-Identifier: GPL-2.0
/*
 * declare_trace_plain: DECLARE_TRACE(x, ...) declares the tracepoint x
 * itself (trace_x()).  Up to Linux 6.15; since 6.16 it declares x_tp
 * (declare_trace_tp.c).  Alternative: declare_trace_tp.c (one of the two
 * must compile).  Used by: logdev_compat.h LD_DECLARE_TRACE_TP()
 * (test/logdev_test_probe.c, test/logdev_tpmod.c).
 */
#include <linux/tracepoint.h>

DECLARE_TRACE(ldc_dt, TP_PROTO(unsigned long i), TP_ARGS(i));

void ldc_declare_trace_plain(unsigned long i);
void ldc_declare_trace_plain(unsigned long i)
{
	trace_ldc_dt(i);
}
