/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ring_sw.h - the ring core built a second time into hostbench the way the
 * kernel uses it: one writer per buffer, ld_local_t without the LOCK prefix
 * (LD_SHIM_SINGLE_WRITER in kernel/logdev_shim.h).  edp_sw.c compiles
 * kernel/logdev_ring.c and logdev_ring_read.c with that switch and every global name renamed
 * ld_sw_*, so both builds link into one program and run side by side.
 * Both use the same struct ld_cpu_buf (ld_local_t is a u64 either way).
 */
#ifndef RING_SW_H
#define RING_SW_H

#ifdef LD_SHIM_SINGLE_WRITER	/* only in edp_sw.c, before the ring */
#define ld_subbuf_records	ld_sw_subbuf_records
#define ld_cpu_buf_init		ld_sw_cpu_buf_init
#define ld_cpu_buf_reset	ld_sw_cpu_buf_reset
#define ld_lost_nesting		ld_sw_lost_nesting
#define ld_reserve		ld_sw_reserve
#define ld_reserve_slow		ld_sw_reserve_slow
#define ld_commit		ld_sw_commit
#define ld_write		ld_sw_write
#define ld_flush		ld_sw_flush
#define ld_readable		ld_sw_readable
#define ld_consume		ld_sw_consume
#define ld_peek_range		ld_sw_peek_range
#define ld_peek_subbuf		ld_sw_peek_subbuf
#define ld_get_stats		ld_sw_get_stats
#endif

struct ld_cpu_buf;

/*
 * run_edp_sw() - @n edprint-equivalents (EDP(), edp.h) into @cb through the
 * one-writer build; @p: 0 "bench", 1 "bench %d %d", 2 "bench %d %d %s" with @s
 */
void run_edp_sw(struct ld_cpu_buf *cb, int p, unsigned long long n, const char *s);

/* edp_sw_verify_fill() - the records hostbench --verify reads back, @n of them */
void edp_sw_verify_fill(struct ld_cpu_buf *cb, unsigned int n, const char *s);

#endif /* RING_SW_H */
