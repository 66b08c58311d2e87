// SPDX-License-Identifier: GPL-2.0
/*
 * logdev-report.c: "logdev report [--raw] [FILE]": every record, merged
 * across CPUs by time, one a line:
 *
 *   [   789.171773] cpu:0 pid:1234 kfree_skbmem:291 in  +0.101 us
 *
 * "[ " + seconds with 6 decimals right-aligned in 12 chars + "]"; context
 * after the pid unless task ("pid:0 nmi"); "+D us" is the time since the
 * previous record of the same stream (3 decimals): by default the same CPU
 * and context level, so a task record's delta skips the interrupt records
 * between (--by cpu: the previous record on the CPU, whatever its context;
 * --by task: of the same task, across CPUs; streams.c), left out for a
 * stream's first record and after a gap of its CPU; a step back prints
 * "-D us (clock went back, not in deltas)", one over 2^62 ns "+D us (step
 * over 2^62 ns, not in deltas)"
 * (lgd_ts_step(), the rule of deltas).  Gaps print in place:
 *
 *   [   789.171900] cpu:0 *** LOST 123 events (overrun) ***
 *   (dropped, nesting_lost, too_big; lost for a version 1 capture);
 *   "LOST n sub-buffers (overrun)" for a seq jump without a
 *   count; "LOST n bytes (corrupt sub-buffer)" for skipped corrupt data.
 *
 * --raw: tab-separated lines for programs:
 *   ts_ns cpu pid ctx site_id func line message   (ctx: task softirq ...;
 *   message with \\ \t \n and NUL (\0) escaped; func "?" and line 0 for
 *   unknown sites)
 *   LOST cpu n kind                                (kind: overrun dropped
 *   nesting_lost too_big lost subbufs corrupt)
 * Return-probe records (logdev probes "r:", sites NAME and NAME%return of
 * file "probe") paired with their entry (same task and context; durations.c)
 * get " duration=D us" (3 decimals, signed) appended to their message, in both
 * forms; a negative one (the return's CPU clock behind the entry's) is
 * marked " (negative: entry on cpu N, clocks disagree)".  The pairs are
 * found in a first pass (such a return comes before its entry in time
 * order).  When the capture has return probes, stderr gets (after the
 * records; stdout holds records only, in both forms)
 *   logdev: durations: P paired (N negative), E entries without return, R returns without entry
 * The text form starts with a header line naming the trace clock of the
 * records and ftrace's clock of the same time base (cli_clock_header()):
 *   # clock: local (ftrace clock local)
 * --raw has none (records only; the clock is in export's rows).
 * Options: -r/--raw, -b/--by, -f/--follow, --window, the filters, -h/--help;
 * "--" ends them (report -- FILE).  --raw also shows task names (comm
 * records) as rows: func "<comm>", site and line 0, the name as message.
 * The lines come from the library's renderer (render.c, lgd_render_item()).
 * Records whose payload lacks an argument their format needs (not cut:
 * "[missing]") are counted by the renderer; report then warns once on
 * stderr with the count (text and --raw).
 * Exit: 0 all decoded, 3 decoded with warnings (on stderr: truncation,
 * corruption, absurd timestamps, damaged records), 1 unusable or I/O
 * error, 2 usage (cli_exit_status()).
 */
#define _GNU_SOURCE	/* fwrite_unlocked() */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "cli-breakdown.h"

const struct cli_cmd cli_cmd_report = {
	"report", cmd_report,
	"report [--raw] [--by cpu|task|context] [FILTERS] [FILE | --follow [--window MS]]",
	"  -r, --raw            tab-separated lines for programs: ts_ns cpu pid ctx\n"
	"                       site_id func line message; LOST cpu n kind; task\n"
	"                       names (comm records) as rows of func <comm>, site\n"
	"                       and line 0, the name as message\n"
	"  -b, --by STREAM      +D us since the previous record of: the same CPU and\n"
	"                       context level (context, default), CPU (cpu), task (task)\n"
	"  -f, --follow         live: print records as they arrive, merged by time,\n"
	"                       until Ctrl-C (SIGINT) or SIGTERM; then the records\n"
	"                       held and the lost events per CPU (stderr)\n"
	"      --window MS      --follow's reorder window, 1 to 60000 ms (default 100):\n"
	"                       a record waits until it is MS older than the newest\n"
	"                       record (trace clock) or waited MS (wall time); one\n"
	"                       that comes later prints marked (late)\n"
	CLI_FILTER_HELP,
};

/* ---- --follow: the live buffers as they fill (cli-follow.c) ------------- */

struct follow_out {
	struct lgd_render rd;
	struct lgd_streams st;	/* the "+D us" pairs (streams.c, the rule of deltas) */
	int raw;
	unsigned int prev_flags;
};

/*
 * One item of the live merge: its line; a late record (older than one
 * printed) gets "  (late)" in text, a "LATE" line before it in --raw; the
 * first of a run of records printed before their window (reorder buffer
 * full) a mark line.
 */
static int follow_item(void *arg, const struct lgd_item *it, unsigned int flags)
{
	struct follow_out *o = arg;
	struct lgd_stream_step sp = { 0 };
	const char *line;
	/* a breakdown marker: shown, never paired (as lgd_records does it) */
	int mk = cli_bd_is_marker(o->rd.r, it);
	long len = !mk && lgd_streams_add(&o->st, it, &sp) ? -ENOMEM :
		   lgd_render_item(&o->rd, it, &sp, NULL, &line);

	if (len < 0)
		return fprintf(stderr, "logdev: out of memory\n"), 1;
	if (!len)
		return 0;	/* an item the filter left out */
	if ((flags & LGD_LIVE_EARLY) && !(o->prev_flags & LGD_LIVE_EARLY)) {
		if (o->raw)
			printf("EARLY\t%u\t%" PRIu64 "\n", it->cpu, it->ts);
		else
			printf("*** reorder buffer full (%u bytes): records printed before their "
			       "window, later ones may come late ***\n", CLI_FOLLOW_MAX_BYTES);
	}
	o->prev_flags = flags;
	if ((flags & LGD_LIVE_LATE) && o->raw)
		printf("LATE\t%u\t%" PRIu64 "\n", it->cpu, it->ts);
	if ((flags & LGD_LIVE_LATE) && !o->raw && len > 0 && line[len - 1] == '\n') {
		fwrite(line, 1, (size_t)len - 1, stdout);
		fputs("  (late: older than a record printed before it)\n", stdout);
	} else {
		fwrite(line, 1, (size_t)len, stdout);
	}
	return ferror(stdout) ? (perror("logdev: stdout"), 1) : 0;	/* flushed each round */
}

static int report_follow(int raw, int by, uint64_t window_ns)
{
	static struct follow_out o;
	struct cli_follow f;
	int failed;

	/* as report: --raw shows comm records; the renderer pairs on every record */
	if (cli_follow_open(&f, window_ns,
			    (raw ? LGD_ITEMS_COMM : 0) | LGD_ITEMS_ABSURD | LGD_ITEMS_FILTERED))
		return 1;
	o.raw = raw;
	if (lgd_render_init(&o.rd, &f.r, raw ? LGD_RENDER_RAW : LGD_RENDER_TEXT)) {
		fprintf(stderr, "logdev: out of memory\n");
		cli_follow_close(&f);
		return 1;
	}
	lgd_streams_init(&o.st, by);
	if (!raw)
		cli_clock_header(stdout, &f.r);
	failed = cli_follow_run(&f, follow_item, NULL, 0, &o);
	if (o.rd.missing)
		cli_nwarn++, fprintf(stderr, "logdev: warning: %" PRIu64 " record%s lack%s arguments "
			"their format needs (payload too short, not cut; shown as [missing])\n",
			o.rd.missing, o.rd.missing == 1 ? "" : "s", o.rd.missing == 1 ? "s" : "");
	cli_follow_summary(&f);
	lgd_streams_free(&o.st);
	lgd_render_free(&o.rd);
	cli_follow_close(&f);
	return cli_exit_status(failed);
}

/* report of capture @file (NULL: a snapshot of the live buffers) */
static int report_file(const char *file, int raw, int by)
{
	/*
	 * returns paired first: one can come before its entry in time order.
	 * --raw shows comm records (func <comm>); absurd timestamps shown,
	 * marked, out of the deltas (render.c); the renderer pairs on every
	 * record (streams.c)
	 */
	const struct lgd_records_opts o = {
		.items = (raw ? LGD_ITEMS_COMM : 0) | LGD_ITEMS_ABSURD | LGD_ITEMS_FILTERED,
		.durations = 1, .steps = 1, .by = by,
	};
	static struct lgd_render rd;
	struct lgd_records rs;
	struct lgd_record x;
	struct lgd_reader r;
	int ret, rd_ok = 0;

	if (cli_open_input(file, &r))
		return 1;
	ret = lgd_records_open(&rs, &r, &o);
	if (!ret) {
		ret = lgd_render_init(&rd, &r, raw ? LGD_RENDER_RAW : LGD_RENDER_TEXT) ? -ENOMEM : 0;
		rd_ok = !ret;
	}
	if (ret) {
		fprintf(stderr, "logdev: out of memory\n");
		goto out;
	}
	cli_out_buffer(stdout);
	if (!raw)
		cli_clock_header(stdout, &r);
	while ((ret = lgd_records_next(&rs, &x)) > 0) {
		const char *line;
		long len = lgd_render_item(&rd, &x.it, &x.step, x.dur, &line);
		size_t n;

		if (len < 0) {
			fprintf(stderr, "logdev: out of memory\n");
			ret = (int)len;
			break;
		}
		/* lines in batches of 64 KiB; NULs included (%c of 0 prints one) */
		n = lgd_render_keep(&rd, 1u << 16, &line);
		if (n && cli_out_batch(stdout, line, n))
			goto err_out;
	}
	if (rd_ok) {	/* the last batch, also after an error */
		const char *line;
		size_t n = lgd_render_keep(&rd, 0, &line);

		if (cli_out_batch(stdout, line, n))
			goto err_out;
	}
	if (ret >= 0 && rs.has_dur) {	/* stderr: stdout holds records only */
		char sum[256];

		lgd_fmt_dur_summary(sum, sizeof(sum), &rs.du.stats);
		fprintf(stderr, "logdev: %s", sum);
		cli_dur_huge(rs.du.stats.huge);
	}
	cli_probe_misses(&r);
	if (rd.missing)		/* once per capture, text and raw (lgd_render.missing) */
		cli_nwarn++, fprintf(stderr, "logdev: warning: %" PRIu64 " record%s lack%s arguments their "
			"format needs (payload too short, not cut; shown as [missing])\n",
			rd.missing, rd.missing == 1 ? "" : "s", rd.missing == 1 ? "s" : "");
	if (ret >= 0)
		cli_filter_notes(&r, &rs.m.counts, NULL);
	if (ret >= 0 && !raw)	/* the +D us marked "not in deltas", counted once */
		cli_left_out_note("logdev", NULL, rs.st.left_back, rs.st.left_huge);
out:
	if (rd_ok)
		lgd_render_free(&rd);
	lgd_records_close(&rs);
	lgd_reader_close(&r);
	if (ret < 0 && !rd_ok)
		return 1;
	if (cli_stdout_done())
		return 1;
	return cli_exit_status(ret < 0);
err_out:
	perror("logdev: stdout");
	lgd_render_free(&rd);
	lgd_records_close(&rs);
	lgd_reader_close(&r);
	return 1;
}

int cmd_report(int argc, char **argv)
{
	const char *file = NULL;
	int raw = 0, by = LGD_BY_CONTEXT, follow = 0, window_set = 0;
	uint64_t window_ns = CLI_FOLLOW_WINDOW_MS * 1000000ull;

	static const struct option lo[] = {
		{ "raw", no_argument, NULL, 'r' },
		{ "by", required_argument, NULL, 'b' },
		{ "follow", no_argument, NULL, 'f' },
		{ "window", required_argument, NULL, 'W' },
		{ "help", no_argument, NULL, 'h' },
		CLI_FILTER_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct cli_getopt g = { &cli_cmd_report, ":rb:fh", lo, &by, 0 };
	int c;

	while ((c = cli_getopt(&g, argc, argv)) > 0) {
		switch (c) {
		case 'r':
			raw = 1;
			break;
		case 'f':
			follow = 1;
			break;
		case 'W':
			if (cli_window_arg("report", optarg, &window_ns))
				return 2;
			window_set = 1;
			break;
		}
	}
	if (!c)
		return g.status;
	if (cli_file_arg("report", argc, argv, optind, &file))
		return 2;
	if ((follow && file) || (window_set && !follow)) {
		fprintf(stderr, "logdev report: %s\n", follow ? "--follow reads the live buffers, "
			"not a FILE" : "--window goes with --follow");
		return cli_verb_usage_error(&cli_cmd_report);
	}
	if (follow)
		return report_follow(raw, by, window_ns);
	return report_file(file, raw, by);
}
