/* SPDX-License-Identifier: GPL-2.0 */
/* LTTng-UST tracepoints with the benchmark's three payloads. */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER logdev_bench

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "./lttng_tp.h"

#if !defined(LOGDEV_BENCH_LTTNG_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define LOGDEV_BENCH_LTTNG_TP_H

#include <lttng/tracepoint.h>

LTTNG_UST_TRACEPOINT_EVENT(logdev_bench, a0,
	LTTNG_UST_TP_ARGS(int, dummy),
	LTTNG_UST_TP_FIELDS()
)

LTTNG_UST_TRACEPOINT_EVENT(logdev_bench, a2,
	LTTNG_UST_TP_ARGS(int, a, int, b),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(int, a, a)
		lttng_ust_field_integer(int, b, b)
	)
)

LTTNG_UST_TRACEPOINT_EVENT(logdev_bench, a2s,
	LTTNG_UST_TP_ARGS(int, a, int, b, const char *, s),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(int, a, a)
		lttng_ust_field_integer(int, b, b)
		lttng_ust_field_string(s, s)
	)
)

#endif

#include <lttng/tracepoint-event.h>
