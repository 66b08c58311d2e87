/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lgd_convert.h: capture to trace.dat (convert.c; its writer, tracedat.c,
 * is library-private: tracedat.h).
 * Part of liblogdev (layer: library; liblogdev.h includes every area).
 */
#ifndef LIBLOGDEV_CONVERT_H
#define LIBLOGDEV_CONVERT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <uapi/linux/logdev.h>
#include "lgd_render.h"

/*
 * Bytes of one CPU's data a trace.dat may hold by default: trace-cmd 3.1.6
 * and 3.3.1 read a CPU's data of 2^31 bytes or more cut short, at about
 * 65,400 pages, and exit 0 (issue 24; its page_map_size is an int: past
 * 2^31 it maps one page at a time until vm.max_map_count), so the writer
 * refuses to pass 2 GiB less one page.  docs/TRACE-CMD.md has the
 * measurements.
 */
#define LGD_TDW_CPU_MAX		((1ull << 31) - 4096)

/* ---- capture -> trace.dat: convert.c ---------------------------------- */

/**
 * struct lgd_convert_stats - what lgd_convert_tracedat() wrote
 * @records: events written (one per record)
 * @gaps:    lost-events gaps marked on pages (@gaps_unknown of them without
 *           a count: sub-buffers lost, or corrupt data skipped)
 * @sites:   events defined (call sites, and unknown sites seen)
 * @too_big: records left out because they do not fit a page (never with
 *           records of at most LOGDEV_MAX_PAYLOAD bytes of arguments)
 * @dur_huge: return-probe pairs without a duration (lgd_dur_stats.huge)
 * @full_cpu: after -EOVERFLOW, the CPU whose data reached the limit
 * @cpu_max:  the limit that applied (bytes of one CPU's data)
 */
struct lgd_convert_stats {
	uint64_t records, gaps, gaps_unknown, too_big;
	uint64_t dur_huge;	/* return-probe pairs over 2^62 ns apart: no duration */
	uint32_t sites;
	uint32_t full_cpu;
	uint64_t cpu_max;
};

/**
 * lgd_convert_tracedat() - write capture @r as a trace.dat v6 file to @out,
 * one event per call site in system "logdev", laid out as the file comment
 * of convert.c says (fields site, file, line, ctx, delta_ns, msg, arg0...;
 * the message rendered by lgd_render_msg() with return-probe durations, as
 * logdev report prints it).  Lost events mark the next page of their CPU;
 * the clock, per-CPU stats and kallsyms of the capture go into the file.
 * @cpu_max: bytes of one CPU's data the file may hold (0: LGD_TDW_CPU_MAX,
 * what trace-cmd reads whole; UINT64_MAX: no limit).
 * Return: 0, -ENOMEM, -EOVERFLOW (a CPU's data would pass @cpu_max:
 * @st->full_cpu; nothing is written to @out), a write's -errno (-ENOSPC,
 * -EFBIG, -EIO...), or a read error of lgd_merge_next(); @st filled;
 * *@counts (if not NULL; lgd_merge_counts_free()): the merge's counts.
 */
int lgd_convert_tracedat(struct lgd_reader *r, FILE *out, uint64_t cpu_max,
			 struct lgd_convert_stats *st, struct lgd_merge_counts *counts);

#endif /* LIBLOGDEV_CONVERT_H */
