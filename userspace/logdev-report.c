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
 * get " duration=D us" (3 decimals) appended to their message, in both
 * forms.
 * "--" ends the options (report -- FILE).
 * Exit: 0 if the capture opened (warnings on stderr), 1 if unusable.
 */
#include <inttypes.h>
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

/*
 * Return-probe record paired with its entry: " duration=D us" (3 decimals)
 * after the @n bytes of @msg.  Return: the new length.
 */
static size_t add_duration(char *msg, size_t size, size_t n, uint64_t ns)
{
	int o = snprintf(msg + n, size - n, "%sduration=%" PRIu64 ".%03" PRIu64 " us",
			 n ? " " : "", ns / 1000, ns % 1000);

	return o < 0 ? n : n + (size_t)o < size ? n + (size_t)o : size - 1;
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
	uint64_t dur;
	static char msg[8192];

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
	if (ld_merge_init(&m, &r)) {
		fprintf(stderr, "logdev: out of memory\n");
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
		ld_dur_free(&du);
		ld_merge_free(&m);
		ld_reader_close(&r);
		return 1;
	}
	while ((ret = ld_merge_next(&m, &it)) > 0) {
		char ts[64];
		int paired = ld_dur_add(&du, &it, &dur, NULL);

		if (paired < 0) {
			fprintf(stderr, "logdev: out of memory\n");
			ret = -1;
			break;
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
				len = add_duration(msg, sizeof(msg), len, dur);
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
		char site[300];

		cli_site_name(&r, it.rec.site, site, sizeof(site));
		size_t len = cli_render(&r, &it, msg, sizeof(msg));

		if (paired)
			len = add_duration(msg, sizeof(msg), len, dur);
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
