// SPDX-License-Identifier: GPL-2.0
/*
 * logdev-report.c: "logdev report [--raw] [FILE]": every record, merged
 * across CPUs by time, one a line:
 *
 *   [   789.171773] cpu:0 pid:1234 kfree_skbmem:291 in  +0.101 us
 *
 * "[ " + seconds with 6 decimals right-aligned in 12 chars + "]"; context
 * after the pid unless task ("pid:0 nmi"); "+D us" is the time since the
 * previous record on the same CPU (3 decimals), left out for a CPU's first
 * record and after a gap.  Gaps print in place:
 *
 *   [   789.171900] cpu:0 *** LOST 123 events (overwritten) ***
 *   (dropped); "LOST n sub-buffers (overwritten)" for a seq jump without a
 *   count; "LOST n bytes (corrupt sub-buffer)" for skipped corrupt data.
 *
 * --raw: tab-separated lines for programs:
 *   ts_ns cpu pid ctx site_id func line message   (ctx: task softirq ...;
 *   message with \\ \t \n and NUL (\0) escaped; func "?" and line 0 for
 *   unknown sites)
 *   LOST cpu n kind                                (kind: dropped
 *   overwritten subbufs corrupt)
 * Return-probe records (logdev probes "r:", sites NAME and NAME%return of
 * file "probe") paired with their entry (same task and context; durations.c)
 * get " duration=D us" (3 decimals, signed) appended to their message, in both
 * forms; a negative one (the return's CPU clock behind the entry's) is
 * marked " (negative: entry on cpu N, clocks disagree)".  The pairs are
 * found in a first pass (such a return comes before its entry in time
 * order).  Text form, when the capture has return probes, ends with
 *   durations: P paired (N negative), E entries without return, R returns without entry
 * "--" ends the options (report -- FILE).
 * Exit: 0 if the capture opened (warnings on stderr), 1 if unusable.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

static void fmt_ts(char *b, size_t n, uint64_t ts)
{
	char t[24];

	snprintf(t, sizeof(t), "%" PRIu64 ".%06" PRIu64, ts / 1000000000u,
		 ts % 1000000000u / 1000u);
	snprintf(b, n, "%12s", t);
}

static void raw_escape(FILE *f, const char *s, size_t n)
{
	for (const char *e = s + n; s < e; s++) {
		if (*s == '\0')
			fputs("\\0", f);
		else if (*s == '\\')
			fputs("\\\\", f);
		else if (*s == '\t')
			fputs("\\t", f);
		else if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
}

/* a return-probe record paired with its entry */
struct dur_mark {
	uint64_t off;		/* file offset of the return record */
	int64_t ns;
	uint32_t entry_cpu, ret_cpu;
};

static int mark_cmp(const void *a, const void *b)
{
	const struct dur_mark *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

/*
 * First pass over the capture: pair every return with its entry.  A return
 * on a CPU whose clock is behind comes before its entry in merge order, so
 * its duration is known only later: printing needs them all first.
 * Warnings are left to the printing pass.  Return: 0 or -ENOMEM.
 */
static int collect_durations(struct ld_reader *r, struct ld_durations *du,
			     struct dur_mark **marks, size_t *nr)
{
	ld_warn_fn warn = r->warn;
	struct ld_dur_pair dp;
	struct ld_merge m;
	struct ld_item it;
	size_t cap = 0;
	int ret;

	*marks = NULL;
	*nr = 0;
	if (ld_merge_init(&m, r))
		return -ENOMEM;
	r->warn = NULL;
	while ((ret = ld_merge_next(&m, &it)) > 0) {
		ret = ld_dur_add(du, &it, &dp);
		if (ret < 0)
			break;
		if (!ret)
			continue;
		if (*nr == cap) {
			size_t nc = cap ? cap * 2 : 256;
			struct dur_mark *nm = realloc(*marks, nc * sizeof(*nm));

			if (!nm) {
				ret = -ENOMEM;
				break;
			}
			*marks = nm;
			cap = nc;
		}
		(*marks)[(*nr)++] = (struct dur_mark){ dp.ret_off, dp.ns, dp.entry_cpu,
						       dp.ret_cpu };
	}
	r->warn = warn;
	ld_merge_free(&m);
	ld_dur_finish(du);
	if (*nr)
		qsort(*marks, *nr, sizeof(**marks), mark_cmp);
	return ret < 0 ? ret : 0;
}

/* snprintf() at @n of @msg; Return: the new length, cut to fit */
static size_t msg_add(char *msg, size_t size, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static size_t msg_add(char *msg, size_t size, size_t n, const char *fmt, ...)
{
	va_list ap;
	int o;

	if (n >= size)
		return n;
	va_start(ap, fmt);
	o = vsnprintf(msg + n, size - n, fmt, ap);
	va_end(ap);
	return o < 0 ? n : n + (size_t)o < size ? n + (size_t)o : size - 1;
}

/*
 * Return-probe record paired with its entry: " duration=D us" (3 decimals),
 * signed, after the @n bytes of @msg; a negative one is marked with why.
 * Return: the new length.
 */
static size_t add_duration(char *msg, size_t size, size_t n, const struct dur_mark *dm)
{
	char d[40];

	cli_us(d, sizeof(d), dm->ns);
	n = msg_add(msg, size, n, "%sduration=%s us", n ? " " : "", d);
	if (dm->ns < 0 && dm->entry_cpu != dm->ret_cpu)
		n = msg_add(msg, size, n, " (negative: entry on cpu %u, clocks disagree)",
			    dm->entry_cpu);
	else if (dm->ns < 0)
		n = msg_add(msg, size, n, " (negative: clock went back on cpu %u)",
			    dm->ret_cpu);
	return n;
}

/* message text of @n bytes, NULs included (%c of 0 prints one, as in the kernel) */
static void put_msg(const char *s, size_t n)
{
	fwrite(s, 1, n, stdout);
}

int cmd_report(int argc, char **argv)
{
	struct ld_reader r;
	struct ld_merge m;
	struct ld_item it;
	const char *file = NULL;
	int raw = 0, ret;
	uint64_t *prev = NULL;
	uint8_t *valid = NULL;
	size_t ncpu = 0;		/* entries of prev/valid: max CPU + 1 */
	int opts = 1;
	struct ld_durations du;
	struct dur_mark *marks = NULL;
	size_t nmarks = 0;
	int has_dur;
	static char msg[8192];
	char *sbuf = NULL;
	size_t scap = 0;

	for (int i = 1; i < argc; i++) {
		if (opts && !strcmp(argv[i], "--"))
			opts = 0;
		else if (opts && !strcmp(argv[i], "--raw"))
			raw = 1;
		else if (opts && argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "logdev report: unknown option %s\n", argv[i]);
			return 2;
		} else if (file) {
			fprintf(stderr, "logdev report: one FILE only\n");
			return 2;
		} else
			file = argv[i];
	}
	if (cli_open_input(file, &r))
		return 1;
	if (ld_dur_init(&du, &r.sites)) {
		fprintf(stderr, "logdev: out of memory\n");
		ld_reader_close(&r);
		return 1;
	}
	has_dur = ld_dur_has_returns(&du);
	if ((has_dur && collect_durations(&r, &du, &marks, &nmarks)) ||
	    ld_merge_init(&m, &r)) {
		fprintf(stderr, "logdev: out of memory\n");
		free(marks);
		ld_dur_free(&du);
		ld_reader_close(&r);
		return 1;
	}
	/* CPU numbers are bounded by the reader (< 4096); size_t: no wrap */
	for (uint32_t i = 0; i < r.nr_cpus; i++)
		if ((size_t)r.cpus[i] + 1 > ncpu)
			ncpu = (size_t)r.cpus[i] + 1;
	prev = calloc(ncpu ? ncpu : 1, sizeof(*prev));
	valid = calloc(ncpu ? ncpu : 1, 1);
	if (!prev || !valid) {
		fprintf(stderr, "logdev: out of memory\n");
		free(prev);
		free(valid);
		free(marks);
		ld_dur_free(&du);
		ld_merge_free(&m);
		ld_reader_close(&r);
		return 1;
	}
	while ((ret = ld_merge_next(&m, &it)) > 0) {
		char ts[64];
		const struct dur_mark *paired = NULL;

		if (nmarks && it.kind == LD_ITEM_REC) {
			struct dur_mark key = { .off = it.file_off };

			paired = bsearch(&key, marks, nmarks, sizeof(*marks), mark_cmp);
		}
		if (raw) {
			if (it.kind == LD_ITEM_GAP) {
				printf("LOST\t%u\t%" PRIu64 "\t%s\n", it.cpu, it.gap_count,
				       ld_gap_kind_name(it.gap_kind));
				continue;
			}
			const struct ld_site *s = ld_sites_get(&r.sites, it.rec.site);

			size_t len = cli_render(&r, &it, msg, sizeof(msg));

			if (paired)
				len = add_duration(msg, sizeof(msg), len, paired);
			printf("%" PRIu64 "\t%u\t%u\t%s\t%u\t%s\t%u\t", it.ts, it.cpu,
			       it.rec.pid, ld_ctx_name(it.rec.ctx), it.rec.site,
			       s ? s->func : "?", s ? s->line : 0);
			raw_escape(stdout, msg, len);
			putchar('\n');
			continue;
		}
		fmt_ts(ts, sizeof(ts), it.ts);
		if (it.kind == LD_ITEM_GAP) {
			if (it.cpu < ncpu)
				valid[it.cpu] = 0;
			switch (it.gap_kind) {
			case LD_GAP_SUBBUFS:
				printf("[ %s] cpu:%u *** LOST %" PRIu64 " sub-buffers (overwritten) ***\n",
				       ts, it.cpu, it.gap_count);
				break;
			case LD_GAP_CORRUPT:
				printf("[ %s] cpu:%u *** LOST %" PRIu64 " bytes (corrupt sub-buffer) ***\n",
				       ts, it.cpu, it.gap_count);
				break;
			default:
				printf("[ %s] cpu:%u *** LOST %" PRIu64 " events (%s) ***\n",
				       ts, it.cpu, it.gap_count, ld_gap_kind_name(it.gap_kind));
			}
			continue;
		}
		const char *site = cli_site_label(&r, it.rec.site, &sbuf, &scap);

		size_t len = cli_render(&r, &it, msg, sizeof(msg));

		if (paired)
			len = add_duration(msg, sizeof(msg), len, paired);
		printf("[ %s] cpu:%u pid:%u%s%s %s ", ts, it.cpu, it.rec.pid,
		       it.rec.ctx ? " " : "", it.rec.ctx ? ld_ctx_name(it.rec.ctx) : "",
		       site);
		put_msg(msg, len);
		if (it.cpu < ncpu && valid[it.cpu] && it.ts >= prev[it.cpu]) {
			uint64_t d = it.ts - prev[it.cpu];

			printf("  +%" PRIu64 ".%03" PRIu64 " us", d / 1000, d % 1000);
		}
		putchar('\n');
		if (it.cpu < ncpu) {
			valid[it.cpu] = 1;
			prev[it.cpu] = it.ts;
		}
	}
	if (ret >= 0 && has_dur && !raw)
		cli_dur_summary(stdout, &du.stats);
	free(marks);
	free(sbuf);
	free(prev);
	free(valid);
	ld_dur_free(&du);
	ld_merge_free(&m);
	ld_reader_close(&r);
	if (fflush(stdout)) {
		perror("logdev: stdout");
		return 1;
	}
	return ret < 0 ? 1 : 0;
}
