/* SPDX-License-Identifier: GPL-2.0 */
/*
 * liblogdev: read logdev captures and render records.
 *
 * Shapes:
 *   lgd_reader       an open capture file: metadata (header, call sites,
 *                   kallsyms, stats) loaded at open; CPU data read lazily.
 *   lgd_merge        streaming k-way merge of every CPU of a reader by
 *                   timestamp; yields struct lgd_item one at a time.  Memory:
 *                   a read-ahead of whole sub-buffers per CPU (up to
 *                   LGD_READ_AHEAD_CPU, LGD_READ_AHEAD_ALL in all, at least one
 *                   sub-buffer), independent of the capture size.
 *   lgd_filter       which records the analyses see (--cpu --pid --comm --site
 *                   --context --from --to; the recorder's own records): one
 *                   parser and one predicate (filter.c), applied by the merge.
 *   lgd_streams      which record pairs with which: the previous record of
 *                   the same CPU and context level (or CPU, or task).
 *   lgd_deltas       per (from site, to site) statistics of the time between
 *                   a record and the previous one of its stream, in a
 *                   log-linear histogram per pair (lgd_hist: memory bounded
 *                   per pair, independent of the number of records).
 *
 *   lgd_render       an item to text: site label, message by record type,
 *                   duration marks, +delta; report lines (render.c).
 *
 * Layers, bottom up (docs/DEVELOPING.md): capture.c (file sections),
 * subbuf.c (sub-buffer and record bytes: subbuf.h, the only place that
 * knows their layout), meta.c (header, formats), ksyms.c and modlog.c
 * (symbols), reader.c (per-CPU streams and merge), streams.c (which
 * records pair), bprintf.c and render.c (text), deltas.c, durations.c,
 * diff.c (analyses).
 *
 * Nothing here prints or exits.  Errors are negative errno values; problems
 * in the data (corruption, truncation) are reported to an optional warning
 * callback as struct lgd_diag and decoding goes on.
 *
 * Units: timestamps and deltas in ns; sizes and offsets in bytes.
 *
 * This header only includes the area headers, one per area (each names its
 * files): lgd_meta.h (header, call sites, kallsyms), lgd_bprintf.h,
 * lgd_read.h (filters, reader, task names), lgd_merge.h (items, merge),
 * lgd_live.h, lgd_streams.h, lgd_hist.h, lgd_deltas.h (deltas, diff),
 * lgd_durations.h, lgd_render.h, lgd_convert.h, lgd_records.h (the pipeline
 * every verb reads through), lgd_recorder.h, lgd_probectl.h, lgd_sitefind.h,
 * lgd_area.h (a flight-recorder area, validated and converted).  Structs
 * only the library uses are in its .c files or its private headers
 * (comm.h, tracedat.h, meta.h); subbuf.h is the sub-buffer decoder's own
 * header.
 */
#ifndef LIBLOGDEV_H
#define LIBLOGDEV_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <uapi/linux/logdev.h>
#include "capture.h"
#include "lgd_meta.h"
#include "lgd_bprintf.h"
#include "lgd_read.h"
#include "lgd_callees.h"
#include "lgd_merge.h"
#include "lgd_live.h"
#include "lgd_streams.h"
#include "lgd_hist.h"
#include "lgd_breakdown.h"
#include "lgd_deltas.h"
#include "lgd_durations.h"
#include "lgd_cost.h"
#include "lgd_render.h"
#include "lgd_convert.h"
#include "lgd_records.h"
#include "lgd_recorder.h"
#include "lgd_probectl.h"
#include "lgd_sitefind.h"
#include "lgd_area.h"

#endif /* LIBLOGDEV_H */
