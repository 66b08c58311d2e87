// SPDX-License-Identifier: GPL-2.0
/*
 * logdev-diff.c: "logdev diff [--durations] [--format text|csv|json] [--min-count N]
 * A.cap B.cap": the delta tables of two captures side by side, pairs
 * matched by their call sites' file, func and line, and format where a
 * capture has several sites at one place (lgd_diff_build(); rows that cannot
 * be matched one to one, and pairs a capture left out, are warned about on
 * stderr): count,
 * median and p99 on each side, the ratio B/A of the medians and the change in percent
 * ((B - A) / A * 100: 1 us -> 484 us is 484.00x, +48300.0%).  Pairs of both
 * captures first, largest median increase first; then pairs found in only
 * one capture ("only in A" / "only in B").  --min-count N leaves out pairs
 * with fewer than N deltas on a side where they are present (rare pairs
 * are noise at the top of a median ordering).  --durations: compare the
 * return-probe durations instead (logdev deltas --durations).
 *
 * text (times in us, 3 decimals; site columns as wide as the longest name):
 *   from  to  count_A  median_A  p99_A  count_B  median_B  p99_B  ratio  change
 * csv: a header line, then one line per pair; times in ns; fields of an
 *   absent side empty; status both|only_a|only_b; ratio and change_pct
 *   with 4 decimals or "inf".
 * The text header ends "# clock: local (ftrace clock local)", "# clock: A
 * local, B global" when they differ (then also a warning on stderr: their
 * timestamps do not compare); csv rows end with clock_a,clock_b.
 * json: {"a": FILE, "b": FILE, "clock_a", "clock_b", "pairs": [{"from", "to", "status",
 *   "a": {"count", "median_ns", "p99_ns"} or null, "b": ..., "ratio",
 *   "change_pct"}]}, ratio/change_pct null when not both or infinite.
 * Marks after a text row, per side ("A:!~ B:~"): '!' pairs from its first
 * site were cut by lost events, '?' entries without return (--durations),
 * '~' median and p99 from the histogram; their footnotes follow the table
 * (cli_deltas_notes(); on stderr for csv and json, which carry no marks).
 * Both machine formats are valid for strict parsers whatever bytes a name
 * holds: strings through cli_json_str() / cli_csv_field() (UTF-8, invalid
 * bytes as U+FFFD, RFC 4180 quoting; cli.h).
 * Exit: 0, 3 with warnings (a capture's, pairs left out, rows not matched one
 * to one), 1 if a capture is unusable, 2 usage.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "cli-breakdown.h"

const struct cli_cmd cli_cmd_diff = {
	"diff", cmd_diff,
	"diff [--by cpu|task|context] [--durations] [--breakdown] [--format text|csv|json] "
	"[--min-count N] [FILTERS] "
	"[--svg OUT.svg (FROM TO | --pair N)] A.cap B.cap",
	"  -b, --by STREAM      which records pair (as deltas): context (default), cpu, task\n"
	"      --durations      compare return-probe durations\n"
	"      --format FMT     text (default), csv or json\n"
	"  -m, --min-count N    leave out pairs with fewer than N deltas on a side\n"
	"      --breakdown      text: also each pair's mean time per pair by bucket (own,\n"
	"                       hardirq, softirq, NMI, preempted, blocked) in A and B\n"
	"  text: times in us; csv, json: in ns.  median, p99 as in deltas (exact up to\n"
	"  1024 deltas, else within 2^-8 (0.39 %)).  Marks after a text row, per side\n"
	"  (A:, B:): ! pairs cut by lost events, ? entries without return, ~ histogram\n"
	"  percentiles; footnotes below the table (on stderr for csv and json).\n"
	"      --svg OUT        draw one pair's histograms of A and B on one chart (as\n"
	"                       logdev hist): sites FROM TO, or --pair N\n"
	"  -p, --pair FROM,TO   also edprint pairs as durations (as deltas --pair: FROM's\n"
	"                       records entries, TO's their returns; implies --durations);\n"
	"                       with --svg, N: the Nth row of logdev deltas A\n"
	"  Rows: pairs in both captures first, by how much B's median exceeds A's (the\n"
	"  largest increase first), then pairs only in A, then only in B.\n"
	CLI_FILTER_HELP
	"  (the filters apply to both captures; relative times from each one's first record)\n"
};

enum fmt { F_TEXT, F_CSV, F_JSON };

/* Open @file and fill @ds (finished).  Prints errors.  0, 1, or 2 (no such --pair site). */
static int load(const char *file, struct lgd_reader *r, struct lgd_deltas *ds,
		int durations, int by, const char *const *pairs, int npairs,
		uint32_t (*ids)[2], int breakdown)
{
	struct lgd_bd *bd = NULL;
	unsigned int have = 0;
	int ret;

	if (cli_open_input(file, r))
		return 1;
	/* --pair FROM,TO: labels, resolved in each capture (ids differ) */
	for (int i = 0; i < npairs; i++) {
		char *from = strdup(pairs[i]), *to = from ? strchr(from, ',') : NULL;
		int64_t f = -1, t = -1;

		if (to) {
			*to++ = 0;
			f = cli_site_by_label(r, from);
			t = cli_site_by_label(r, to);
		}
		if (f < 0 || t < 0 || f == t) {
			fprintf(stderr, "logdev diff: %s: --pair %s: %s\n", file, pairs[i],
				!from ? "out of memory" : f == t && f >= 0 ? "the same site twice" :
				"no site of the capture has that label (func:line, as deltas prints)");
			if (to && (f < 0 || t < 0))
				cli_site_unknown(r, f < 0 ? from : to);
			free(from);
			lgd_reader_close(r);
			return from ? 2 : 1;	/* no such site: a usage error */
		}
		free(from);
		ids[i][0] = (uint32_t)f;
		ids[i][1] = (uint32_t)t;
	}
	if (breakdown && (ret = cli_bd_open("diff", r, &bd, &have))) {
		lgd_reader_close(r);
		return ret;
	}
	lgd_deltas_init(ds, &(struct lgd_deltas_opts){ .by = by,
		.user_pairs = npairs ? (const uint32_t (*)[2])ids : NULL,
		.nr_user_pairs = (size_t)npairs, .bd = bd });
	ret = cli_collect(r, ds, durations, NULL, file) ? 1 : bd && cli_bd_none(bd) ? 2 : 0;
	lgd_bd_close(bd);	/* the rows hold their sums */
	ds->bd = NULL;
	if (ret) {
		lgd_deltas_free(ds);
		lgd_reader_close(r);
		return ret;
	}
	lgd_deltas_finish(ds, LGD_SORT_TOTAL);
	if (!durations)		/* as deltas says it (lgd_ts_step()) */
		cli_left_out_note("logdev diff", file, ds->left_back, ds->left_huge);
	return 0;
}

/* one warning per kind of row that could not be matched one to one */
static void warn_rows(const struct lgd_diff *df)
{
	static const char *const why[2] = {	/* LGD_DIFF_W_MERGED, LGD_DIFF_W_AMBIGUOUS */
		"involve sites that share file, function, line and format in one capture (merged)",
		"stay unmatched: a site matched only by its file name, or without a file, "
		"could be any of several",
	};

	for (int k = 0; k < 2; k++) {
		const struct lgd_diff_row *ex = NULL;
		size_t n = 0;

		for (size_t i = 0; i < df->nr; i++)
			if (df->rows[i].warn & (1u << k)) {
				ex = ex ? ex : &df->rows[i];
				n++;
			}
		if (n) {
			char *f = lgd_escape_alloc(ex->from), *t = lgd_escape_alloc(ex->to);

			cli_nwarn++;
			fprintf(stderr, "logdev diff: warning: %zu row%s %s (cannot be matched "
				"one to one), e.g. %s -> %s\n", n, n == 1 ? "" : "s", why[k],
				f ? f : "?", t ? t : "?");
			free(f);
			free(t);
		}
	}
}

/*
 * Nothing matched: with rows on both sides but none in both, the table is
 * two lists; say so, with a row of each, and make the exit status 3.
 */
static void warn_no_match(const struct lgd_diff *df)
{
	const struct lgd_diff_row *ra = NULL, *rb = NULL;
	char *af, *at, *bf, *bt;

	for (size_t i = 0; i < df->nr; i++) {
		const struct lgd_diff_row *r = &df->rows[i];

		if (r->present == LGD_DIFF_BOTH)
			return;
		if (r->present == LGD_DIFF_IN_A && !ra)
			ra = r;
		if (r->present == LGD_DIFF_IN_B && !rb)
			rb = r;
	}
	if (!ra || !rb)
		return;
	af = lgd_escape_alloc(ra->from);
	at = lgd_escape_alloc(ra->to);
	bf = lgd_escape_alloc(rb->from);
	bt = lgd_escape_alloc(rb->to);

	cli_nwarn++;
	fprintf(stderr, "logdev diff: warning: no pair of A matches a pair of B (e.g. A: %s -> %s; "
		"B: %s -> %s); pairs match by their sites' function, line and file (path, "
		"else file name): are A and B recordings of the same code?\n",
		af ? af : "?", at ? at : "?", bf ? bf : "?", bt ? bt : "?");
	free(af);
	free(at);
	free(bf);
	free(bt);
}

/* marks of a side (CLI_MARK_*) */
static unsigned int side_marks(const struct lgd_diff_side *sd)
{
	return (sd->cut ? CLI_MARK_CUT : 0) | (sd->unmatched ? CLI_MARK_UNMATCHED : 0) |
	       (sd->approx ? CLI_MARK_APPROX : 0);
}

/* the text table: labels terminal-safe (lgd_escape()); 0, or 1 out of memory */
static int print_text(const struct lgd_diff *df, unsigned int used[2], const char *clock)
{
	int wf = 24, wt = 24;
	char **tl = calloc(df->nr * 2 + 1, sizeof(*tl));

	for (size_t i = 0; tl && i < df->nr; i++) {
		tl[2 * i] = lgd_escape_alloc(df->rows[i].from);
		tl[2 * i + 1] = lgd_escape_alloc(df->rows[i].to);
		if (!tl[2 * i] || !tl[2 * i + 1]) {
			for (size_t j = 0; j <= 2 * i + 1; j++)
				free(tl[j]);
			free(tl);
			tl = NULL;
		}
	}
	if (!tl) {
		fprintf(stderr, "logdev: out of memory\n");
		return 1;
	}
	for (size_t i = 0; i < df->nr; i++) {
		if ((int)strlen(tl[2 * i]) > wf)
			wf = (int)strlen(tl[2 * i]);
		if ((int)strlen(tl[2 * i + 1]) > wt)
			wt = (int)strlen(tl[2 * i + 1]);
	}
	printf("%-*s %-*s %9s %12s %11s %9s %12s %11s %10s %11s  # clock: %s\n", wf, "from", wt,
	       "to", "count_A", "median_A(us)", "p99_A(us)", "count_B", "median_B(us)", "p99_B(us)",
	       "ratio", "change", clock);
	for (size_t i = 0; i < df->nr; i++) {
		const struct lgd_diff_row *r = &df->rows[i];
		char c[2][24], m[2][32], p[2][32], ra[32], ch[32];
		const struct lgd_diff_side *sd[2] = { &r->a, &r->b };

		for (int k = 0; k < 2; k++) {
			if (r->present & (1 << k)) {
				snprintf(c[k], sizeof(c[k]), "%" PRIu64, sd[k]->count);
				lgd_fmt_us(m[k], sizeof(m[k]), sd[k]->median);
				lgd_fmt_us(p[k], sizeof(p[k]), sd[k]->p99);
			} else {
				strcpy(c[k], "-");
				strcpy(m[k], "-");
				strcpy(p[k], "-");
			}
		}
		if (r->present != LGD_DIFF_BOTH) {
			strcpy(ra, "-");
			strcpy(ch, r->present == LGD_DIFF_IN_A ? "only in A" : "only in B");
		} else if (isinf(r->ratio)) {
			strcpy(ra, "inf");
			strcpy(ch, "+inf%");
		} else {
			snprintf(ra, sizeof(ra), "%.2fx", r->ratio);
			snprintf(ch, sizeof(ch), "%+.1f%%", r->change_pct);
		}
		printf("%-*s %-*s %9s %12s %11s %9s %12s %11s %10s %11s", wf, tl[2 * i],
		       wt, tl[2 * i + 1], c[0], m[0], p[0], c[1], m[1], p[1], ra, ch);
		for (int k = 0; k < 2; k++) {
			unsigned int mk = r->present & (1 << k) ? side_marks(sd[k]) : 0;
			char mt[8];

			cli_marks(mt, mk);
			used[k] |= mk;
			if (mk)
				printf(" %c:%s", k ? 'B' : 'A', mt);
		}
		putchar('\n');
	}
	for (size_t i = 0; i < 2 * df->nr; i++)
		free(tl[i]);
	free(tl);
	return 0;
}

static void csv_num(double v)
{
	if (isinf(v))
		fputs("inf", stdout);
	else
		printf("%.4f", v);
}

static void print_csv(const struct lgd_diff *df, const char *const ck[2])
{
	puts("from,to,status,count_a,median_a_ns,p99_a_ns,count_b,median_b_ns,p99_b_ns,ratio,change_pct,"
	     "clock_a,clock_b");
	for (size_t i = 0; i < df->nr; i++) {
		const struct lgd_diff_row *r = &df->rows[i];
		const struct lgd_diff_side *sd[2] = { &r->a, &r->b };

		cli_csv_field(stdout, r->from);
		putchar(',');
		cli_csv_field(stdout, r->to);
		printf(",%s", r->present == LGD_DIFF_BOTH ? "both" :
		       r->present == LGD_DIFF_IN_A ? "only_a" : "only_b");
		for (int k = 0; k < 2; k++) {
			if (r->present & (1 << k))
				printf(",%" PRIu64 ",%" PRId64 ",%" PRId64, sd[k]->count,
				       sd[k]->median, sd[k]->p99);
			else
				fputs(",,,", stdout);
		}
		putchar(',');
		if (r->present == LGD_DIFF_BOTH)
			csv_num(r->ratio);
		putchar(',');
		if (r->present == LGD_DIFF_BOTH)
			csv_num(r->change_pct);
		printf(",%s,%s\n", ck[0], ck[1]);
	}
}

static void json_num(double v)
{
	if (isinf(v) || isnan(v))
		fputs("null", stdout);
	else
		printf("%.4f", v);
}

static void print_json(const struct lgd_diff *df, const char *fa, const char *fb,
		       const char *const ck[2])
{
	fputs("{\"a\": ", stdout);
	cli_json_str(stdout, fa);
	fputs(", \"b\": ", stdout);
	cli_json_str(stdout, fb);
	fputs(", \"clock_a\": ", stdout);
	cli_json_str(stdout, ck[0]);
	fputs(", \"clock_b\": ", stdout);
	cli_json_str(stdout, ck[1]);
	fputs(", \"pairs\": [", stdout);
	for (size_t i = 0; i < df->nr; i++) {
		const struct lgd_diff_row *r = &df->rows[i];
		const struct lgd_diff_side *sd[2] = { &r->a, &r->b };

		fputs(i ? ",\n  {\"from\": " : "\n  {\"from\": ", stdout);
		cli_json_str(stdout, r->from);
		fputs(", \"to\": ", stdout);
		cli_json_str(stdout, r->to);
		printf(", \"status\": \"%s\"", r->present == LGD_DIFF_BOTH ? "both" :
		       r->present == LGD_DIFF_IN_A ? "only_a" : "only_b");
		for (int k = 0; k < 2; k++) {
			printf(", \"%c\": ", k ? 'b' : 'a');
			if (r->present & (1 << k))
				printf("{\"count\": %" PRIu64 ", \"median_ns\": %" PRId64
				       ", \"p99_ns\": %" PRId64 "}", sd[k]->count,
				       sd[k]->median, sd[k]->p99);
			else
				fputs("null", stdout);
		}
		fputs(", \"ratio\": ", stdout);
		if (r->present == LGD_DIFF_BOTH)
			json_num(r->ratio);
		else
			fputs("null", stdout);
		fputs(", \"change_pct\": ", stdout);
		if (r->present == LGD_DIFF_BOTH)
			json_num(r->change_pct);
		else
			fputs("null", stdout);
		putchar('}');
	}
	puts(df->nr ? "\n]}" : "]}");
}

/*
 * diff --svg OUT: the histograms of one pair in A and B on one chart
 * (logdev-hist.c's loader; with --pair N the Nth row of A's deltas table,
 * found in B by its labels), and a line per side on stdout.
 */
static int diff_svg(const char *out, const char *from, const char *to, uint64_t nth,
		    const char *files[2], int durations, int by)
{
	struct lgd_reader r[2];
	struct lgd_deltas ds[2] = { { 0 }, { 0 } };
	const struct lgd_pair *p[2];
	uint32_t up[2][1][2];
	uint64_t pos[2][LGD_HIST_LOG2_N], neg[2][LGD_HIST_LOG2_N];
	char marks[2][160], *fl = NULL, *tl = NULL, *title = NULL, *name[2] = { NULL, NULL };
	struct lgd_svg_series s[2];
	const struct lgd_site *like[2];
	int ret, k;

	ret = cli_hist_load(files[0], &r[0], &ds[0], "diff", from, to, NULL, nth, durations, by,
			    up[0], &p[0], NULL, NULL);
	if (ret)
		return ret;
	fl = lgd_site_label_alloc(&r[0].sites, p[0]->from);
	tl = lgd_site_label_alloc(&r[0].sites, p[0]->to);
	if (!fl || !tl) {
		fprintf(stderr, "logdev: out of memory\n");
		ret = 1;
		goto out_a;
	}
	/* B's sites at the places of A's, as the table matches them */
	like[0] = lgd_sites_get(&r[0].sites, p[0]->from);
	like[1] = lgd_sites_get(&r[0].sites, p[0]->to);
	ret = cli_hist_load(files[1], &r[1], &ds[1], "diff", fl, tl, like, 0, durations, by,
			    up[1], &p[1], NULL, NULL);
	if (ret)
		goto out_a;
	cli_clocks_differ("logdev diff", &r[0], files[0], &r[1], files[1]);
	for (k = 0; k < 2; k++) {
		size_t n = strlen(files[k]) + 4;

		name[k] = malloc(n);
		if (!name[k])
			break;
		snprintf(name[k], n, "%c: %s", k ? 'B' : 'A', files[k]);
		lgd_hist_log2(&p[k]->h, pos[k], neg[k]);
		cli_hist_marks_text(marks[k], sizeof(marks[k]), cli_pair_marks(&ds[k], p[k]));
		s[k] = (struct lgd_svg_series){ .name = name[k], .pos = pos[k], .neg = neg[k],
			.count = p[k]->count, .min = p[k]->min, .median = p[k]->median,
			.max = p[k]->max, .marks = marks[k] };
	}
	if (k == 2) {
		size_t n = strlen(fl) + strlen(tl) + 64;

		title = malloc(n);
		if (title)
			snprintf(title, n, "%s -> %s (A vs B, %s%s)", fl, tl,
				 durations ? "durations" : "by ", durations ? "" : lgd_by_name(by));
	}
	if (!title) {
		fprintf(stderr, "logdev: out of memory\n");
		ret = 1;
	} else {
		/* the picture first: if it cannot be written, nothing is printed */
		ret = cli_hist_svg_write(out, files, 2, title, s, 2, "diff");
		for (k = 0; !ret && k < 2; k++) {
			char m[8], a[2][32], *e = lgd_escape_alloc(name[k]);

			cli_marks(m, cli_pair_marks(&ds[k], p[k]));
			lgd_fmt_us(a[0], 32, p[k]->median);
			lgd_fmt_us(a[1], 32, p[k]->max);
			printf("%s: %" PRIu64 " %s, median %s us, max %s us%s%s\n", e ? e : "?",
			       p[k]->count, durations ? "durations" : "deltas", a[0], a[1],
			       m[0] ? " " : "", m);
			free(e);
		}
		for (k = 0; !ret && k < 2; k++) {
			cli_deltas_notes(stdout, k ? "B: " : "A: ", &ds[k],
					 cli_pair_marks(&ds[k], p[k]));
			if (durations)
				cli_cost_raw_note(stdout, k ? "B: " : "A: ", &r[k], "diff");
		}
	}
	free(title);
	free(name[0]);
	free(name[1]);
	lgd_deltas_free(&ds[1]);
	lgd_reader_close(&r[1]);
out_a:
	free(fl);
	free(tl);
	lgd_deltas_free(&ds[0]);
	lgd_reader_close(&r[0]);
	if (cli_stdout_done())
		return 1;
	return ret ? ret : cli_exit_status(0);
}

/*
 * The diff of captures @files[0] and @files[1] in format @fmt, rows of at
 * least @min records; --pair FROM,TO labels @upairs[@nupairs].
 */
static int diff_files(const char *const files[2], enum fmt fmt, unsigned long long min,
		      int durations, int by, const char *const *upairs, int nupairs,
		      int breakdown)
{
	struct lgd_reader r[2];
	struct lgd_deltas ds[2] = { { 0 }, { 0 } };
	struct lgd_diff df;
	int ret = 0;
	unsigned int used[2] = { 0, 0 };
	static uint32_t uids[2][16][2];

	ret = load(files[0], &r[0], &ds[0], durations, by, upairs, nupairs, uids[0], breakdown);
	if (ret)
		return ret;
	ret = load(files[1], &r[1], &ds[1], durations, by, upairs, nupairs, uids[1], breakdown);
	if (ret) {
		lgd_deltas_free(&ds[0]);
		lgd_reader_close(&r[0]);
		return ret;
	}
	if (lgd_diff_build(&df, &ds[0], &r[0].sites, &ds[1], &r[1].sites)) {
		fprintf(stderr, "logdev: out of memory\n");
		ret = 1;
	} else {
		const char *ck[2] = { lgd_clock_name(&r[0].hdr), lgd_clock_name(&r[1].hdr) };
		char cd[160];

		warn_rows(&df);
		warn_no_match(&df);
		lgd_diff_min_count(&df, min);
		if (cli_clocks_differ("logdev diff", &r[0], files[0], &r[1], files[1]))
			snprintf(cd, sizeof(cd), "A %s, B %s", ck[0], ck[1]);
		else
			lgd_clock_desc(&r[0].hdr, cd, sizeof(cd));
		if (fmt == F_CSV)
			print_csv(&df, ck);
		else if (fmt == F_JSON)
			print_json(&df, files[0], files[1], ck);
		else
			ret = print_text(&df, used, cd);
		if (breakdown && fmt == F_TEXT)
			cli_bd_print_diff(&df);
		/* machine formats: the marks' meaning on stderr */
		for (int k = 0; k < 2; k++) {
			if (fmt != F_TEXT)
				for (size_t i = 0; i < df.nr; i++)
					used[k] |= side_marks(k ? &df.rows[i].b : &df.rows[i].a);
			cli_deltas_notes(fmt == F_TEXT ? stdout : stderr, k ? "B: " : "A: ",
					 &ds[k], used[k]);
			if (durations)
				cli_cost_raw_note(fmt == F_TEXT ? stdout : stderr, k ? "B: " : "A: ",
						  &r[k], "diff");
			if (!ds[k].records)
				fprintf(fmt == F_TEXT ? stdout : stderr, "%s: 0 records\n",
					k ? "B" : "A");
		}
		lgd_diff_free(&df);
	}
	for (int k = 0; k < 2; k++) {
		lgd_deltas_free(&ds[k]);
		lgd_reader_close(&r[k]);
	}
	if (cli_stdout_done())
		return 1;
	return cli_exit_status(ret);
}

int cmd_diff(int argc, char **argv)
{
	const char *files[2] = { NULL, NULL };
	enum fmt fmt = F_TEXT;
	unsigned long long min = 1;
	int nf = 0, durations = 0, by = LGD_BY_CONTEXT;
	const char *svg = NULL, *ops[4];
	uint64_t nth = 0;
	const char *upairs[16];
	int nupairs = 0, breakdown = 0;

	static const struct option lo[] = {
		{ "durations", no_argument, NULL, 'D' },
		{ "breakdown", no_argument, NULL, 'B' },
		{ "by", required_argument, NULL, 'b' },
		{ "format", required_argument, NULL, 'F' },	/* no short option: -f is --follow */
		{ "min-count", required_argument, NULL, 'm' },
		{ "svg", required_argument, NULL, 'S' },
		{ "pair", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		CLI_FILTER_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct cli_getopt g = { &cli_cmd_diff, ":m:b:p:h", lo, &by, 0 };
	int c;
	uint64_t mc;

	while ((c = cli_getopt(&g, argc, argv)) > 0) {
		switch (c) {
		case 'D':
			durations = 1;
			break;
		case 'B':
			breakdown = 1;
			break;
		case 'F':
			if (!strcmp(optarg, "text"))
				fmt = F_TEXT;
			else if (!strcmp(optarg, "csv"))
				fmt = F_CSV;
			else if (!strcmp(optarg, "json"))
				fmt = F_JSON;
			else {
				fprintf(stderr, "logdev diff: bad --format '%s' (text, csv or json)\n", optarg);
				return 2;
			}
			break;
		case 'm':
			if (cli_parse_uint("diff", "--min-count", optarg, 0, UINT64_MAX, &mc))
				return 2;
			min = mc;
			break;
		case 'S':
			svg = optarg;
			break;
		case 'p':
			if (strchr(optarg, ',')) {	/* FROM,TO: an edprint pair */
				if (nupairs == 16) {
					fprintf(stderr, "logdev diff: at most 16 --pair FROM,TO\n");
					return 2;
				}
				upairs[nupairs++] = optarg;
				durations = 1;
				break;
			}
			if (cli_parse_uint("diff", "--pair", optarg, 1, UINT32_MAX, &nth))
				return 2;
			break;
		}
	}
	if (!c)
		return g.status;
	if (nupairs && (svg || nth)) {
		fprintf(stderr, "logdev diff: --pair FROM,TO is not for --svg (there: FROM TO, or --pair N)\n");
		return 2;
	}
	if (svg || nth) {	/* one pair's histograms: FROM TO A B, or --pair N A B */
		int want = nth ? 2 : 4;

		if (!svg || argc - optind != want) {
			fprintf(stderr, "logdev diff: %s\n", !svg ? "--pair N goes with --svg OUT" :
				"--svg OUT takes FROM TO A.cap B.cap, or --pair N A.cap B.cap");
			return cli_verb_usage_error(&cli_cmd_diff);
		}
		for (int i = 0; i < want; i++)
			ops[i] = argv[optind + i];
		return diff_svg(svg, nth ? NULL : ops[0], nth ? NULL : ops[1], nth,
				ops + want - 2, durations, by);
	}
	for (; optind < argc; optind++) {
		if (nf == 2) {
			fprintf(stderr, "logdev diff: two FILEs only\n");
			return 2;
		}
		files[nf++] = argv[optind];
	}
	if (nf != 2)
		return cli_verb_usage_error(&cli_cmd_diff);
	if (breakdown && (svg || fmt != F_TEXT)) {
		fprintf(stderr, "logdev diff: --breakdown is a text table (not --svg, csv or json: "
			"export --breakdown has its columns)\n");
		return 2;
	}
	return diff_files(files, fmt, min, durations, by, upairs, nupairs, breakdown);
}
