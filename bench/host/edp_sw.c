// SPDX-License-Identifier: GPL-2.0
/*
 * edp_sw.c - hostbench's "one writer" row: kernel/logdev_ring.c compiled
 * with LD_SHIM_SINGLE_WRITER (ld_local_t as x86's local_t: no LOCK prefix,
 * nesting depth in the buffer, no test hooks) and its names renamed
 * (ring_sw.h), plus the EDP() loops that write through it.
 */
#define LD_SHIM_SINGLE_WRITER 1
#include "ring_sw.h"
#include "../../kernel/logdev_ring.c"
#include "../../kernel/logdev_ring_read.c"
#include "edp.h"

#define SW_LOOP(body)						\
	do {							\
		for (u64 i = 0; i < n; i++) {			\
			int a = (int)i, b = (int)(i ^ 0x55);	\
			(void)a; (void)b;			\
			body;					\
		}						\
	} while (0)

/* the same loops as hostbench.c's run_edp() */
void run_edp_sw(struct ld_cpu_buf *cb, int p, unsigned long long n, const char *s)
{
	switch (p) {
	case 0:
		SW_LOOP(EDP(cb, "bench"));
		break;
	case 1:
		SW_LOOP(EDP(cb, "bench %d %d", a, b));
		break;
	default:
		SW_LOOP(EDP(cb, "bench %d %d %s", a, b, s));
		break;
	}
}

void edp_sw_verify_fill(struct ld_cpu_buf *cb, unsigned int n, const char *s)
{
	for (u32 i = 0; i < n; i++) {
		if (i & 1)
			EDP(cb, "v %d %d %s", (int)i, -(int)i, s);
		else
			EDP(cb, "v %d %lld", (int)i, (long long)i << 33);
	}
}
