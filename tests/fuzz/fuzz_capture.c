// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_capture.c - libFuzzer target: a whole capture file through liblogdev,
 * as `logdev report` reads it: lgd_reader_open_fd() on a memfd holding the
 * input bytes, the return-probe pairing pass (lgd_dur_collect()), the k-way
 * merge, and every item rendered in the text and the raw style.
 *
 * Then, where the capture has the breakdown's context markers, every pair
 * split (lgd_deltas_collect() with a breakdown, deltas and durations) and
 * the timelines walked (lgd_bd_walk()), as deltas and export --breakdown.
 *
 * Input: the capture's bytes, as is (seeds: tests/golden/cap).  The last
 * byte, if the input is longer than a file header, also picks the pairing
 * rule of the renderer's "+D us" (context, cpu, task).
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/mman.h>
#include "liblogdev.h"

static void warn_sink(void *arg, const struct lgd_diag *d)
{
	(void)arg;
	(void)d;
}

static void render_all(struct lgd_reader *r, int style, int by,
		       const struct lgd_dur_marks *marks)
{
	static struct lgd_render rd;	/* 8 KiB message buffer: not on the stack */
	struct lgd_streams st;
	struct lgd_stream_step sp;
	struct lgd_merge m;
	struct lgd_item it;
	const char *line;

	if (lgd_merge_open(&m, r, (style == LGD_RENDER_RAW ? LGD_ITEMS_COMM : 0) | LGD_ITEMS_ABSURD))
		return;
	if (lgd_render_init(&rd, r, style)) {
		lgd_merge_free(&m);
		return;
	}
	lgd_streams_init(&st, by);
	while (lgd_merge_next(&m, &it) > 0) {
		const struct lgd_dur_mark *dm = NULL;

		if (it.kind == LGD_ITEM_REC)
			dm = lgd_dur_mark_find(marks, it.file_off);
		if (lgd_streams_add(&st, &it, &sp) || lgd_render_item(&rd, &it, &sp, dm, &line) < 0)
			break;
	}
	lgd_streams_free(&st);
	lgd_render_free(&rd);
	lgd_merge_free(&m);
}

static int walk_sink(void *arg, const struct lgd_bd_slice *s)
{
	(void)arg;
	return s->end < s->start;	/* a slice never ends before it starts */
}

/* every pair split with the markers, if the capture has them */
static void breakdown_all(struct lgd_reader *r, int by, int durations)
{
	struct lgd_deltas ds;
	struct lgd_bd *bd;
	unsigned int have;

	if (lgd_bd_open(&bd, &r->sites, r->probes, &have))
		return;
	lgd_deltas_init(&ds, &(struct lgd_deltas_opts){ .by = by, .bd = bd });
	lgd_deltas_collect(r, &ds, durations, NULL, NULL);
	if (lgd_bd_walk(bd, walk_sink, NULL) == 1)
		abort();
	lgd_deltas_free(&ds);
	lgd_bd_close(bd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int bys[] = { LGD_BY_CONTEXT, LGD_BY_CPU, LGD_BY_TASK };
	struct lgd_reader r;
	struct lgd_diag d;
	struct lgd_durations du;
	struct lgd_dur_marks marks = { 0 };
	int fd, by = LGD_BY_CONTEXT;

	fd = memfd_create("fuzz-capture", 0);
	if (fd < 0)
		abort();
	if (size && write(fd, data, size) != (ssize_t)size)
		abort();
	if (size > 64)
		by = bys[data[size - 1] % 3];
	if (lgd_reader_open_fd(&r, fd, warn_sink, NULL, &d))
		return 0;	/* fd closed by the reader */
	if (!lgd_dur_init(&du, &r.sites)) {
		if (!lgd_dur_has_returns(&du) || !lgd_dur_collect(&r, &du, &marks)) {
			render_all(&r, LGD_RENDER_TEXT, by, &marks);
			render_all(&r, LGD_RENDER_RAW, by, &marks);
			breakdown_all(&r, by, 0);
			breakdown_all(&r, by, 1);
		}
		lgd_dur_marks_free(&marks);
		lgd_dur_free(&du);
	}
	lgd_reader_close(&r);
	return 0;
}
