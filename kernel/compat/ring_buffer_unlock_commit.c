// SPDX-License-Identifier: GPL-2.0
/*
 * ring_buffer_unlock_commit: int ring_buffer_unlock_commit(struct
 * trace_buffer *).  Linux 6.2 and later (the event argument was unused
 * and dropped).
 * Alternative: ring_buffer_unlock_commit_event.c (one of the two must
 * compile).  Used by: logdev_compat.h ld_ring_buffer_unlock_commit() (the
 * raw ring_buffer baseline of bench/kernel/logdev_bench.c).
 */
#include <linux/ring_buffer.h>

int ldc_ring_buffer_unlock_commit(struct trace_buffer *b);
int ldc_ring_buffer_unlock_commit(struct trace_buffer *b)
{
	return ring_buffer_unlock_commit(b);
}
