// SPDX-License-Identifier: GPL-2.0
/*
 * logdev-hist.c: "logdev hist [--by cpu|task|context] [--durations]
 * [--svg OUT.svg] (FROM TO | --pair N) [FILE]": the distribution of one
 * pair of logdev deltas (the time between a record of site FROM and the
 * next record of its stream at site TO; with --durations the return-probe
 * durations FROM -> FROM%return, or an edprint in/out pair) as a log2
 * histogram in the terminal, in the manner of bpftrace's hist():
 *
 *   demo_skb:117 -> demo_skb:119 (demo.cap, by context): 200 deltas
 *   ns            count
 *   [4K, 8K)        170 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|
 *   [8K, 16K)        19 |@@@@                                    |
 *   count 200, min 5.268 us, median 6.730 us, max 210.583 us, total 1656.675 us
 *
 * Buckets are powers of two of ns ([low, high); K = 2^10, M = 2^20,
 * G = 2^30), counts exact (lgd_hist_log2()); negative durations (clocks
 * of two CPUs disagreeing) get buckets of their own, above [0].  Sites are
 * named by their label as deltas prints it (func:line) or by probe name.
 * --pair N takes the Nth row of "logdev deltas" (its default sort, by
 * total; with --durations of "logdev deltas --durations --raw": hist shows
 * durations as measured, and taking the probes' cost out can reorder the
 * rows).  --svg OUT
 * also writes the chart as a self-contained SVG (hist.c).  The row's marks
 * and footnotes are those of deltas: '!' pairs from FROM were cut by lost
 * events (count may be short), '?' entries without return, '~' median
 * from the histogram.
 * "logdev diff --svg OUT FROM TO A B" (logdev-diff.c) uses the loader
 * here for each capture and draws both on one chart.
 * Exit: 0, 3 decoded with warnings, 1 unusable capture / no such pair /
 * write error, 2 usage.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cli.h"
#include "cli-breakdown.h"

const struct cli_cmd cli_cmd_hist = {
	"hist", cmd_hist,
	"hist [--by cpu|task|context] [--durations] [--breakdown] [--svg OUT.svg] [FILTERS] (FROM TO | --pair N) [FILE]",
	"  -b, --by STREAM      which records pair (as deltas): context (default), cpu, task\n"
	"      --durations      return-probe durations (FROM vfs_read TO vfs_read%return),\n"
	"                       or an edprint in/out pair FROM TO (as deltas --pair)\n"
	"  -p, --pair N         the Nth row of logdev deltas (its default sort, by total;\n"
	"                       with --durations, totals as measured: probe cost left in)\n"
	"      --svg OUT        also write the histogram as an SVG picture to OUT\n"
	"      --breakdown      where the pair's time went (deltas --breakdown); with\n"
	"                       --svg each bar stacked by own, hardirq, softirq, NMI,\n"
	"                       preempted and blocked time\n"
	CLI_FILTER_HELP
	"  FROM, TO: site labels as deltas prints them (func:line) or probe names.\n"
	"  Buckets: powers of two of ns, [low, high), K = 2^10, M = 2^20, G = 2^30;\n"
	"  counts exact.  min, median, max, total in us (median as in deltas).\n"
	"  Marks: ! pairs cut by lost events, ? entries without return, ~ histogram\n"
	"  median.\n"
};

int cli_hist_load(const char *file, struct lgd_reader *r, struct lgd_deltas *ds,
		  const char *verb, const char *from, const char *to,
		  const struct lgd_site *const like[2], uint64_t nth,
		  int durations, int by, uint32_t user_pair[1][2], const struct lgd_pair **pp,
		  struct lgd_bd **bd, unsigned int *have)
{
	int64_t f = -1, t = -1;
	struct lgd_deltas_opts o = { .by = by };

	*pp = NULL;
	if (cli_open_input(file, r))
		return 1;
	if (from && like) {	/* the places of another capture's sites */
		f = lgd_site_match(&r->sites, like[0]);
		t = lgd_site_match(&r->sites, like[1]);
		if (f < 0 || t < 0) {
			char *e = lgd_escape_alloc(f < 0 ? from : to);

			fprintf(stderr, "logdev %s: %s: %s: %s (sites match by file, function "
				"and line, then by file name)\n", verb, file ? file : "live",
				e ? e : "?", (f < 0 ? f : t) == -2 ?
				"several sites of the capture could be that one" :
				"no site of the capture at that place");
			free(e);
			lgd_reader_close(r);
			return 2;
		}
	} else if (from) {
		f = cli_site_by_label(r, from);
		t = cli_site_by_label(r, to);
		if (f < 0 || t < 0) {
			char *e = lgd_escape_alloc(f < 0 ? from : to);

			fprintf(stderr, "logdev %s: %s: %s: no site of the capture has that label "
				"(func:line, as deltas prints) or probe name\n", verb,
				file ? file : "live", e ? e : "?");
			cli_site_unknown(r, f < 0 ? from : to);
			free(e);
			lgd_reader_close(r);
			return 2;
		}
		if (durations && f == t) {
			fprintf(stderr, "logdev %s: %s: FROM and TO are one site: durations "
				"need an entry site and a return site\n", verb, file ? file : "live");
			lgd_reader_close(r);
			return 2;
		}
		/* an edprint in/out pair as durations (a probe pairs by itself) */
		if (durations && strcmp(r->sites.by_id[f]->file, "probe")) {
			user_pair[0][0] = (uint32_t)f;
			user_pair[0][1] = (uint32_t)t;
			o.user_pairs = (const uint32_t (*)[2])user_pair;
			o.nr_user_pairs = 1;
		}
	}
	if (bd) {
		int ret = cli_bd_open(verb, r, bd, have);

		if (ret) {
			lgd_reader_close(r);
			return ret;
		}
		o.bd = *bd;
	}
	lgd_deltas_init(ds, &o);
	if (cli_collect(r, ds, durations, NULL, strcmp(verb, "diff") ? NULL : file) ||
	    (bd && cli_bd_none(*bd))) {
		int none = bd && lgd_bd_markers(*bd, NULL) == 0;

		lgd_deltas_free(ds);
		lgd_reader_close(r);
		if (bd) {
			lgd_bd_close(*bd);
			*bd = NULL;
		}
		return none ? 2 : 1;
	}
	if (!durations)		/* deltas' note (lgd_ts_step()): a pair left out */
		cli_left_out_note(strcmp(verb, "diff") ? "logdev" : "logdev diff",
				  strcmp(verb, "diff") ? NULL : file, ds->left_back, ds->left_huge);
	lgd_deltas_finish(ds, LGD_SORT_TOTAL);	/* deltas' default order: --pair N */
	for (size_t i = 0; i < ds->nr; i++) {
		const struct lgd_pair *p = &ds->pairs[i];

		if (from ? p->from == (uint64_t)f && p->to == (uint64_t)t : i + 1 == nth) {
			*pp = p;
			return 0;
		}
	}
	if (from) {
		char *ef = lgd_escape_alloc(from), *et = lgd_escape_alloc(to);

		fprintf(stderr, "logdev %s: %s: no %s from %s to %s (%" PRIu64 " records)\n",
			verb, file ? file : "live", durations ? "durations" : "deltas",
			ef ? ef : "?", et ? et : "?", ds->records);
		free(ef);
		free(et);
	} else {
		fprintf(stderr, "logdev %s: %s: --pair %" PRIu64 ": the deltas table has %zu "
			"row%s\n", verb, file ? file : "live", nth, ds->nr, ds->nr == 1 ? "" : "s");
	}
	lgd_deltas_free(ds);
	lgd_reader_close(r);
	if (bd) {
		lgd_bd_close(*bd);
		*bd = NULL;
	}
	return 2;	/* a pair the capture does not have: usage, as a bad site */
}

char *cli_hist_title(const struct lgd_reader *r, const struct lgd_pair *p, const char *file,
		     int durations, int by)
{
	char *f = lgd_site_label_alloc(&r->sites, p->from);
	char *t = lgd_site_label_alloc(&r->sites, p->to);
	char *s = NULL;
	size_t n;

	if (f && t) {
		n = strlen(f) + strlen(t) + strlen(file ? file : "live") + 64;
		s = malloc(n);
		if (s && durations)
			snprintf(s, n, "%s -> %s (%s, durations)", f, t, file ? file : "live");
		else if (s)
			snprintf(s, n, "%s -> %s (%s, by %s)", f, t, file ? file : "live",
				 lgd_by_name(by));
	}
	free(f);
	free(t);
	return s;
}

/* one bucket line: "[4K, 8K)   170 |@@@@   |" with a bar of 40 columns */
static void bucket_line(unsigned int k, int neg, uint64_t c, uint64_t maxc)
{
	char lab[48], bar[41];
	int w = maxc ? (int)((c * 40 + maxc - 1) / maxc) : 0;

	lgd_log2_label(lab, sizeof(lab), k, neg);
	memset(bar, ' ', 40);
	memset(bar, '@', (size_t)w);
	bar[40] = 0;
	printf("%-12s %10" PRIu64 " |%s|\n", lab, c, bar);
}

static int cli_hist_print(const struct lgd_reader *r, const struct lgd_deltas *ds,
			  const struct lgd_pair *p, const char *title, int durations)
{
	uint64_t pos[LGD_HIST_LOG2_N], neg[LGD_HIST_LOG2_N], maxc = 0;
	int lo = -1, hi = -1;
	unsigned int mk = cli_pair_marks(ds, p);
	char m[8], a[4][32];
	char *et = lgd_escape_alloc(title);

	lgd_hist_log2(&p->h, pos, neg);
	for (int k = 0; k < LGD_HIST_LOG2_N; k++) {
		maxc = pos[k] > maxc ? pos[k] : maxc;
		maxc = neg[k] > maxc ? neg[k] : maxc;
	}
	cli_marks(m, mk);
	printf("%s: %" PRIu64 " %s%s%s\n", et ? et : "?", p->count,
	       durations ? "durations" : "deltas", m[0] ? " " : "", m);
	free(et);
	cli_clock_header(stdout, r);	/* as report, deltas, diff and export */
	printf("%-12s %10s\n", "ns", "count");
	/* negative durations, most negative first, then [0] and up */
	for (int k = LGD_HIST_LOG2_N - 1; k >= 1; k--)
		if (neg[k] && lo < 0)
			lo = k;
	for (int k = lo; k >= 1; k--)
		bucket_line((unsigned int)k, 1, neg[k], maxc);
	lo = hi = -1;
	for (int k = 0; k < LGD_HIST_LOG2_N; k++)
		if (pos[k]) {
			lo = lo < 0 ? k : lo;
			hi = k;
		}
	for (int k = lo; k >= 0 && k <= hi; k++)
		bucket_line((unsigned int)k, 0, pos[k], maxc);
	lgd_fmt_us(a[0], 32, p->min);
	lgd_fmt_us(a[1], 32, p->median);
	lgd_fmt_us(a[2], 32, p->max);
	lgd_fmt_us(a[3], 32, p->total);
	printf("count %" PRIu64 ", min %s us, median %s us, max %s us, total %s us\n",
	       p->count, a[0], a[1], a[2], a[3]);
	cli_deltas_notes(stdout, "", ds, mk);
	return 0;
}

int cli_hist_svg_write(const char *out, const char *const *inputs, int ninputs,
		       const char *title, const struct lgd_svg_series *s, int n, const char *verb)
{
	struct cli_out o;
	int ret = cli_out_open(&o, out, verb, inputs, ninputs);

	if (ret)
		return ret;
	if (lgd_svg_hist(o.f, title, s, n)) {
		fprintf(stderr, "logdev %s: %s: write error\n", verb, out);
		cli_out_abort(&o);
		return 1;
	}
	return cli_out_commit(&o);
}

/* marks' short text for an SVG legend */
void cli_hist_marks_text(char *b, size_t n, unsigned int mk)
{
	snprintf(b, n, "%s%s%s%s", mk & CLI_MARK_CUT ? "(! pairs cut by lost events: count may "
		 "be short) " : "", mk & CLI_MARK_UNMATCHED ? "(? entries without return) " : "",
		 mk & CLI_MARK_APPROX ? "(~ median from the histogram, within 0.39 %) " : "",
		 mk & CLI_MARK_SAT ? "(> total saturated at 2^63-1 ns)" : "");
}

/* --svg @svg: the chart of pair @p of @ds (stacked by bucket with --breakdown) */
static int hist_svg(const char *svg, const char *file, const char *title,
		    const struct lgd_deltas *ds, const struct lgd_pair *p)
{
	uint64_t pos[LGD_HIST_LOG2_N], neg[LGD_HIST_LOG2_N];
	static const char *names[LGD_BD_NR];
	char marks[160];
	struct lgd_svg_series s = {
		.name = file ? file : "live", .pos = pos, .neg = neg, .count = p->count,
		.min = p->min, .median = p->median, .max = p->max, .marks = marks,
	};

	for (unsigned int k = 0; k < LGD_BD_NR; k++)
		names[k] = lgd_bd_bucket_name(k);
	if (p->bd) {	/* --breakdown: the bars stacked by bucket */
		s.stack = &p->bd->log2[0][0];
		s.nstack = LGD_BD_NR;
		s.stack_names = names;
	}
	lgd_hist_log2(&p->h, pos, neg);
	cli_hist_marks_text(marks, sizeof(marks), cli_pair_marks(ds, p));
	return cli_hist_svg_write(svg, &file, 1, title, &s, 1, "hist");
}

int cmd_hist(int argc, char **argv)
{
	struct lgd_reader r;
	struct lgd_deltas ds = { 0 };
	const struct lgd_pair *p;
	const char *file = NULL, *svg = NULL, *from = NULL, *to = NULL;
	int durations = 0, by = LGD_BY_CONTEXT, ret, nops, breakdown = 0;
	struct lgd_bd *bd = NULL;
	unsigned int have = 0;
	uint64_t nth = 0;
	uint32_t up[1][2];
	char *title;
	struct stat st;

	static const struct option lo[] = {
		{ "durations", no_argument, NULL, 'D' },
		{ "by", required_argument, NULL, 'b' },
		{ "pair", required_argument, NULL, 'p' },
		{ "svg", required_argument, NULL, 'S' },
		{ "breakdown", no_argument, NULL, 'B' },
		{ "help", no_argument, NULL, 'h' },
		CLI_FILTER_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct cli_getopt g = { &cli_cmd_hist, ":b:p:h", lo, &by, 0 };
	int c;

	while ((c = cli_getopt(&g, argc, argv)) > 0) {
		switch (c) {
		case 'D':
			durations = 1;
			break;
		case 'p':
			if (nth) {	/* one histogram: a second --pair did not win silently */
				fprintf(stderr, "logdev hist: --pair given twice: one pair a histogram\n");
				return 2;
			}
			if (cli_parse_uint("hist", "--pair", optarg, 1, UINT32_MAX, &nth))
				return 2;
			break;
		case 'S':
			svg = optarg;
			break;
		case 'B':
			breakdown = 1;
			break;
		}
	}
	if (!c)
		return g.status;
	nops = argc - optind;
	if (nth) {
		if (nops > 1) {	/* FROM TO as well: not "one FILE only" */
			fprintf(stderr, "logdev hist: --pair N or FROM TO, not both\n");
			return cli_verb_usage_error(&cli_cmd_hist);
		}
		if (cli_file_arg("hist", argc, argv, optind, &file))
			return 2;
	} else {
		if (nops < 2 || nops > 3) {
			fprintf(stderr, "logdev hist: FROM and TO (site labels), or --pair N\n");
			return cli_verb_usage_error(&cli_cmd_hist);
		}
		from = argv[optind];
		to = argv[optind + 1];
		file = nops == 3 ? argv[optind + 2] : NULL;
		/* "hist FROM FILE": TO forgotten; reading the live buffers
		 * for a site named like the capture would only mislead */
		if (nops == 2 && !stat(to, &st) && S_ISREG(st.st_mode)) {
			char *e = lgd_escape_alloc(to);

			fprintf(stderr, "logdev hist: '%s' is a file, not the site TO: "
				"hist FROM TO [FILE]\n", e ? e : "?");
			free(e);
			return cli_verb_usage_error(&cli_cmd_hist);
		}
	}
	/* `hist --svg run.cap FROM TO`: FILE forgotten, the live buffers read */
	if (svg && cli_is_capture(svg)) {
		fprintf(stderr, "logdev hist: --svg %s is a capture: hist --svg OUT.svg FROM TO [FILE]\n",
			svg);
		return 2;
	}
	ret = cli_hist_load(file, &r, &ds, "hist", from, to, NULL, nth, durations, by, up, &p,
			    breakdown ? &bd : NULL, &have);
	if (ret)
		return ret;
	title = cli_hist_title(&r, p, file, durations, by);
	if (!title) {
		fprintf(stderr, "logdev: out of memory\n");
		ret = 1;
	}
	/* the picture first: if it cannot be written, nothing is printed */
	if (title && svg)
		ret = hist_svg(svg, file, title, &ds, p);
	if (title && !ret) {
		cli_hist_print(&r, &ds, p, title, durations);
		if (durations)
			cli_cost_raw_note(stdout, "", &r, "hist");
		if (bd)
			cli_bd_print_one(&r, p, have);
	}
	lgd_bd_close(bd);
	free(title);	/* the notes came with the table (cli_collect()) */
	lgd_deltas_free(&ds);
	lgd_reader_close(&r);
	if (cli_stdout_done())
		return 1;
	return cli_exit_status(ret);
}
