// SPDX-License-Identifier: GPL-2.0
/*
 * ring_buffer_unlock_commit_event: int ring_buffer_unlock_commit(struct
 * trace_buffer *, struct ring_buffer_event *).  Every kernel up to Linux
 * 6.1; 6.2 dropped the unused event argument ("trace/ring_buffer: remove
 * unused arguments", Song Chen).
 * Alternative: ring_buffer_unlock_commit.c (one of the two must compile).
 * Used by: logdev_compat.h ld_ring_buffer_unlock_commit() (the raw
 * ring_buffer baseline of bench/kernel/logdev_bench.c).
 */
#include <linux/ring_buffer.h>

int ldc_ring_buffer_unlock_commit_event(struct trace_buffer *b,
					struct ring_buffer_event *e);
int ldc_ring_buffer_unlock_commit_event(struct trace_buffer *b,
					struct ring_buffer_event *e)
{
	return ring_buffer_unlock_commit(b, e);
}
