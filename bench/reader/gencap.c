// SPDX-License-Identifier: GPL-2.0
/*
 * gencap - synthesize a logdev capture of N records for reader benchmarks.
 *
 *   gencap -o OUT --records N [--cpus C]
 *
 * The records are made by the portable ring core itself (kernel/
 * logdev_ring.c, one ring per simulated CPU, discard mode, consumed as
 * sub-buffers fill) and written with liblogdev's capture writer: the header
 * text as the module's debugfs "header" prints it, a formats table of four
 * call sites, CPU_DATA sections of 64 sub-buffers, stats, END.  Records are
 * LOGDEV_REC_PRINT with the vbin_printf() payload of "bench %d %d" (two
 * u32), the call sites cycling 1, 2, 3, 4 on each CPU so that `logdev
 * deltas` has pairs to count; timestamps 50..249 ns apart, interleaved across
 * CPUs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "logdev_ring_write.h"
#include "capture.h"

#define SUBBUF		4096u
#define NR_SB		64u
#define MAX_CPUS	8

__thread int ld_thread_nesting;
static u64 fake_clock;

u64 ld_clock_now(void)
{
	return fake_clock;
}

void ld_test_hook(int where)
{
	(void)where;
}

static struct lgd_cap_writer w;
static char *batch[MAX_CPUS];
static u32 batch_n[MAX_CPUS];

static void die(const char *what, int err)
{
	fprintf(stderr, "gencap: %s: %s\n", what, strerror(err < 0 ? -err : err));
	exit(1);
}

static void flush_batch(u32 cpu)
{
	int ret;

	if (!batch_n[cpu])
		return;
	ret = lgd_cap_write_section(&w, LGD_SECT_CPU_DATA, cpu, batch[cpu],
				   (u64)batch_n[cpu] * SUBBUF);
	if (ret)
		die("write", ret);
	batch_n[cpu] = 0;
}

static void drain(struct ld_cpu_buf *cb, u32 cpu)
{
	while (ld_consume(cb, batch[cpu] + (size_t)batch_n[cpu] * SUBBUF) == 1)
		if (++batch_n[cpu] == NR_SB)
			flush_batch(cpu);
}

static int header_text(char *b, size_t n)
{
#define F(s, m) "field: " #s "." #m " offset:%zu size:%zu\n"
#define SB(m) offsetof(struct logdev_subbuf_hdr, m), sizeof(((struct logdev_subbuf_hdr *)0)->m)
#define RC(m) offsetof(struct logdev_rec_hdr, m), sizeof(((struct logdev_rec_hdr *)0)->m)
	return snprintf(b, n,
		"version: %d\nendian: little\nsubbuf_size: %u\nnr_subbufs: %u\n"
		"subbuf_hdr_size: %d\nrec_hdr_size: %d\nclock: mono\nmode: discard\n"
		F(subbuf, magic) F(subbuf, version) F(subbuf, cpu) F(subbuf, seq)
		F(subbuf, first_ts) F(subbuf, data_bytes) F(subbuf, flags)
		F(subbuf, dropped_before) F(subbuf, overrun_before)
		F(subbuf, nesting_lost_before) F(subbuf, too_big_before)
		F(rec, ts) F(rec, site) F(rec, len) F(rec, type) F(rec, ctx) F(rec, pid)
		F(rec, arg_bytes),
		LOGDEV_FORMAT_VERSION, SUBBUF, NR_SB, LOGDEV_SUBBUF_HDR_SIZE, LOGDEV_REC_HDR_SIZE,
		SB(magic), SB(version), SB(cpu), SB(seq), SB(first_ts), SB(data_bytes),
		SB(flags), SB(dropped_before), SB(overrun_before),
		SB(nesting_lost_before), SB(too_big_before),
		RC(ts), RC(site), RC(len), RC(type), RC(ctx), RC(pid), RC(arg_bytes));
}

static const char formats[] =
	"# id\tfile\tline\tfunc\tformat\n"
	"1\tbench/reader/gencap.c\t10\tbench_enter\tbench %d %d\n"
	"2\tbench/reader/gencap.c\t11\tbench_step\tbench step %d %d\n"
	"3\tbench/reader/gencap.c\t12\tbench_more\tbench more %d %d\n"
	"4\tbench/reader/gencap.c\t13\tbench_exit\tbench exit %d %d\n";

int main(int argc, char **argv)
{
	const char *out = NULL;
	unsigned long long n = 0;
	u32 cpus = 2;
	static struct ld_cpu_buf cb[MAX_CPUS];
	char hdr[2048], stats[MAX_CPUS * 160];
	size_t sl = 0;
	int fd, ret;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-o") && i + 1 < argc)
			out = argv[++i];
		else if (!strcmp(argv[i], "--records") && i + 1 < argc)
			n = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--cpus") && i + 1 < argc)
			cpus = (u32)atoi(argv[++i]);
		else
			out = NULL, i = argc;
	}
	if (!out || !n || cpus < 1 || cpus > MAX_CPUS) {
		fprintf(stderr, "usage: gencap -o OUT --records N [--cpus C<=%d]\n", MAX_CPUS);
		return 2;
	}
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		die(out, errno);
	if ((ret = lgd_cap_writer_start(&w, fd)) ||
	    (ret = lgd_cap_write_section(&w, LGD_SECT_HEADER, LGD_CAP_NO_CPU, hdr,
					(u64)header_text(hdr, sizeof(hdr)))) ||
	    (ret = lgd_cap_write_section(&w, LGD_SECT_FORMATS, LGD_CAP_NO_CPU, formats,
					sizeof(formats) - 1)))
		die("write", ret);
	for (u32 c = 0; c < cpus; c++) {
		void *mem = aligned_alloc(4096, (size_t)SUBBUF * NR_SB);
		ld_local_t *commit = calloc(NR_SB, sizeof(*commit));

		batch[c] = malloc((size_t)SUBBUF * NR_SB);
		if (!mem || !commit || !batch[c] ||
		    ld_cpu_buf_init(&cb[c], mem, commit, c, SUBBUF, NR_SB, LD_MODE_DISCARD))
			die("setup", ENOMEM);
	}
	fake_clock = 1000000000ULL;
	for (unsigned long long i = 0; i < n; i++) {
		u32 c = (u32)(i % cpus), k = (u32)(i / cpus);
		u32 args[2] = { k, k ^ 0x55 };

		fake_clock += 50 + (u64)((i * 2654435761ULL) >> 13) % 200;
		if (ld_write(&cb[c], 1 + k % 4, LOGDEV_REC_PRINT, 0, 1000 + c, args, sizeof(args)) < 0)
			die("ring full", ENOSPC);
		if (ld_readable(&cb[c]))
			drain(&cb[c], c);
	}
	for (u32 c = 0; c < cpus; c++) {
		struct ld_stats st;

		ld_flush(&cb[c]);
		drain(&cb[c], c);
		flush_batch(c);
		ld_get_stats(&cb[c], &st);
		sl += (size_t)snprintf(stats + sl, sizeof(stats) - sl,
			"cpu=%u written=%llu read=%llu overrun=%llu dropped=%llu nesting_lost=%llu too_big=%llu bytes=%llu\n",
			c, (unsigned long long)st.written, (unsigned long long)st.read,
			(unsigned long long)st.overrun, (unsigned long long)st.dropped,
			(unsigned long long)st.nesting_lost, (unsigned long long)st.too_big,
			(unsigned long long)st.bytes);
	}
	if ((ret = lgd_cap_write_section(&w, LGD_SECT_STATS, LGD_CAP_NO_CPU, stats, sl)) ||
	    (ret = lgd_cap_write_end(&w)))
		die("write", ret);
	if (close(fd))
		die("close", errno);
	return 0;
}
