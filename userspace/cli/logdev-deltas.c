// SPDX-License-Identifier: GPL-2.0
/*
 * logdev-deltas.c: "logdev deltas [--by cpu|task|context] [--durations]
 * [--sort=KEY] [FILE]": for every record and the previous record of its
 * stream (--by context, the default: same CPU and same context level, so
 * an interrupt that records inside a task's pair leaves it whole; --by cpu:
 * same CPU whatever the context; --by task: same task across CPUs;
 * streams.c), never across a lost-events gap, grouped by (from site, to
 * site): count, min, median, p99, max, total of the time between them, in
 * us with 3 decimals; with --by context or task also "nested": how many of
 * those deltas had records of deeper contexts between their two records,
 * and the sum of those records' run spans ("nested(us)", a lower bound of
 * the interrupts' time, streams.c).  Sorted slowest first, by total time
 * unless --sort=max|p99|median|total|count (descending; ties by count then
 * site ids).  median/p99: nearest rank, exact up to LGD_HIST_EXACT_MAX
 * deltas per pair, beyond that from a log-linear histogram within 2^-8
 * (0.39 %) of the exact value (row marked '~').
 * --durations: instead, the durations of return probes (logdev probes "r:"),
 * each return paired with its entry (durations.c), as pairs NAME:0 ->
 * NAME%return:0; exact even when other records come in between.  Signed:
 * negative where a return's CPU clock is behind its entry's.  Ends with
 * the line "durations: P paired (N negative), E entries without return,
 * R returns without entry" (durations.c: every entry and return counted).
 * With a PROBE_COST section (the module's calibration), the nested records'
 * cost is taken out of durations, self and --inside times (deltas.c), shown
 * in columns probes and probes(us) and a note; --raw: as measured; without
 * one the note says nothing was taken out.  logdev's task-name records
 * inside pairs are charged as edprint records, and the note counts them.
 * Without --durations, pairs across a timestamp going back or jumping by
 * more than 2^62 ns on their stream are left out (lgd_ts_step()) and counted
 * in a last line "deltas: N pairs left out: clock went backwards (K), step
 * over 2^62 ns (J)" (only when N > 0).
 * Marks after a row, explained by footnotes (cli_deltas_notes()): '!' pairs
 * from its first site were cut by lost events, '?' its probe has entries
 * without return, '~' percentiles from the histogram, '#' a run-time probe
 * of either site missed hits (the capture's PROBES section).  A capture without
 * records says "deltas: 0 records".
 *
 *   from              to                   count    min(us) median(us)    p99(us)    max(us)    total(us)   nested nested(us)  # clock: local (ftrace clock local)
 *   kfree_skbmem:295  kfree_skbmem:320         1    484.000    484.000    484.000    484.000      484.000        1      2.000
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "cli-breakdown.h"

const struct cli_cmd cli_cmd_deltas = {
	"deltas", cmd_deltas,
	"deltas [--by cpu|task|context] [--durations [--pair FROM,TO]... [--by-parent] "
	"[--inside SITE] [--raw]] [--breakdown] [--sort=total|max|p99|median|count] [FILTERS] "
	"[-j N] [FILE | --follow [--window MS]]",
	"  -b, --by STREAM      which records pair: context (default: same CPU and\n"
	"                       context level), cpu (same CPU), task (same pid)\n"
	"      --durations      return-probe durations instead of record deltas, with\n"
	"                       self time (minus directly nested pairs' durations)\n"
	"      --pair FROM,TO   also edprint pairs: FROM's records as entries, TO's as\n"
	"                       their returns (site labels, e.g. f:10,f:20)\n"
	"      --by-parent      split each row by the innermost enclosing entry of the\n"
	"                       same task and context (column parent)\n"
	"      --inside SITE    time of each pair inside SITE's calls and its share\n"
	"                       (--pair, --by-parent, --inside imply --durations)\n"
	"      --raw            --durations as measured: the nested probes' own cost\n"
	"                       (the capture's calibration) not taken out\n"
	"      --breakdown      where each pair's time went: own, hardirq, softirq, NMI,\n"
	"                       preempted, blocked, with the culprits of the slowest\n"
	"                       (needs a capture of `logdev record --breakdown`)\n"
	"  -s, --sort KEY       total (default), max, p99, median or count\n"
	"  -f, --follow         live: the table of the records as they arrive, redrawn\n"
	"                       once a second on a terminal (only at the end when not\n"
	"                       on a terminal), until Ctrl-C (SIGINT) or SIGTERM; then\n"
	"                       the final table and the lost events per CPU (stderr);\n"
	"                       not with --durations, --pair, --by-parent, --inside\n"
	"      --window MS      --follow's reorder window, 1 to 60000 ms (default 100)\n"
	"  -j, --jobs N         read a capture's CPUs on N threads (default: the CPUs\n"
	"                       online; the same table; one thread with a filter,\n"
	"                       --by task, --durations, --breakdown or damage)\n"
	"  Times in us.  median, p99: nearest rank; exact up to 1024 deltas per pair,\n"
	"  beyond from a log-linear histogram within 2^-8 (0.39 %) of the exact value\n"
	"  (row marked ~).  min, max, count, total: exact.  nested: deltas with\n"
	"  deeper-context records inside, nested(us) the sum of those records' spans.\n"
	"  Marks: ! pairs cut by lost events or left-out records, ? entries without\n"
	"  return.\n"
	CLI_FILTER_HELP,
};

/* *@buf = the whole label of site @id (malloc'd); Return: its length, -1 if no memory */
static int label(const struct lgd_reader *r, uint32_t id, char **buf)
{
	free(*buf);
	*buf = lgd_site_label_text_alloc(&r->sites, id);
	return *buf ? (int)strlen(*buf) : -1;
}

/*
 * --pair number @i (sites @ids[@i]) said on stderr and refused (1) where
 * the durations could not take it: a probe's site (its entry and return
 * pair by themselves), or a site of an earlier --pair
 */
static int pair_refused(const struct lgd_reader *r, const char *const *pairs, uint32_t (*ids)[2],
			int i)
{
	for (int k = 0; k < 2; k++) {
		const struct lgd_site *st = lgd_sites_get(&r->sites, ids[i][k]);
		char *lb = NULL;

		if (st && !strcmp(st->file, "probe")) {
			fprintf(stderr, "logdev deltas: --pair %s: %s is a probe's site: a probe's "
				"entry and return pair by themselves (deltas --durations); --pair "
				"pairs edprint sites\n", pairs[i],
				label(r, ids[i][k], &lb) < 0 ? "?" : lb);
			free(lb);
			return 1;
		}
		for (int j = 0; j < i; j++)
			if (ids[j][0] == ids[i][k] || ids[j][1] == ids[i][k]) {
				fprintf(stderr, "logdev deltas: --pair %s: %s is in --pair %s too: a "
					"site starts or ends one pair\n", pairs[i],
					label(r, ids[i][k], &lb) < 0 ? "?" : lb, pairs[j]);
				free(lb);
				return 1;
			}
	}
	return 0;
}

/* qsort: pairs by time inside the --inside site, most first, then by site */
static int by_inside(const void *pa, const void *pb)
{
	const struct lgd_pair *a = *(const struct lgd_pair *const *)pa;
	const struct lgd_pair *b = *(const struct lgd_pair *const *)pb;

	if (a->inside_ns != b->inside_ns)
		return a->inside_ns > b->inside_ns ? -1 : 1;
	return a->from < b->from ? -1 : a->from > b->from;
}

/*
 * "time in X inside Y": per pair with durations inside an entry of site Y,
 * their count, sum and share of Y's inclusive time (the sum of the
 * durations of Y's rows; a recursive Y counts its inner calls again), most
 * time first; calls at any depth, so where they nest the shares add to
 * more than 100 %, which a note says
 */
static void print_inside(const struct lgd_reader *r, const struct lgd_deltas *ds,
			 const char *y)
{
	const struct lgd_pair **v;
	int64_t ytot = 0;
	uint64_t ycount = 0;
	size_t n = 0;
	double share, sum = 0;
	char *fb = NULL, *tb = NULL, t[32];

	for (size_t i = 0; i < ds->nr; i++)
		if (ds->pairs[i].from == ds->inside_site) {
			ytot = ytot > INT64_MAX - ds->pairs[i].total ? INT64_MAX :
			       ytot + ds->pairs[i].total;
			ycount += ds->pairs[i].count;
		}
	lgd_fmt_us(t, sizeof(t), ytot);
	printf("inside %s: %" PRIu64 " call%s, %s us inclusive\n", y, ycount,
	       ycount == 1 ? "" : "s", t);
	if (!ycount) {	/* a site there, but nothing measured: never a silent 0 */
		char *e = lgd_escape_alloc(y);

		fprintf(stderr, "logdev deltas: --inside %s: that site has no call in this capture "
			"(no duration starts at it)\n", e ? e : "?");
		free(e);
	}
	v = malloc((ds->nr ? ds->nr : 1) * sizeof(*v));
	for (size_t i = 0; v && i < ds->nr; i++)
		if (ds->pairs[i].inside_n)
			v[n++] = &ds->pairs[i];
	if (v)	/* by time inside, the share's order (the table's is by total) */
		qsort(v, n, sizeof(*v), by_inside);
	for (size_t i = 0; i < n; i++) {
		const struct lgd_pair *p = v[i];

		lgd_fmt_us(t, sizeof(t), p->inside_ns);
		printf("  %s -> %s: %" PRIu64 " call%s, %s us", label(r, p->from, &fb) < 0 ? "?" : fb,
		       label(r, p->to, &tb) < 0 ? "?" : tb, p->inside_n,
		       p->inside_n == 1 ? "" : "s", t);
		if (ytot > 0) {
			share = (double)p->inside_ns * 100.0 / (double)ytot;
			sum += share;
			printf(", %.1f %% of %s", share, y);
		}
		putchar('\n');
	}
	if (sum > 100.05)
		printf("  (calls at any depth inside %s: nested ones are counted in their callers "
		       "too, so the shares add to %.1f %%; --by-parent splits them by direct "
		       "parent)\n", y, sum);
	free(v);
	free(fb);
	free(tb);
}

/*
 * --durations: logdev's own task-name records inside pairs (deltas.c), if
 * any: how many, and what was taken out for them (@ps each, rows summed
 * @ns) or why nothing was (@why)
 */
static void print_comm_note(const struct lgd_deltas *ds, int64_t ps, int64_t ns,
			    const char *why)
{
	uint64_t n = ds->comm_inside;

	if (!n)
		return;
	if (why) {
		printf("%stask names: %" PRIu64 " of logdev's task-name record%s inside pairs, "
		       "not taken out (%s)\n", ds->cost ? "  " : "", n, n == 1 ? "" : "s", why);
		return;
	}
	printf("  %-16s %.3f us, edprint's figure (the same write path): %" PRIu64 " of logdev's "
	       "task-name record%s inside pairs, %.3f us taken out (rows summed)\n", "task names",
	       ps / 1e6, n, n == 1 ? "" : "s", (double)ns / 1e3);
}

/*
 * --durations: what was done about the probes' own cost (docs/ANALYSIS.md):
 * the figures taken out, per kind seen, or why nothing was; the same for
 * logdev's task-name records inside pairs
 */
static void print_cost_note(const struct lgd_reader *r, const struct lgd_deltas *ds)
{
	uint64_t hits = 0;
	int64_t ns = 0, comm_ns = 0;

	if (!r->have_cost) {
		printf("probe cost: not taken out: the capture has no calibration (write "
		       "\"calibrate\" to logdev/probe_cost before recording); durations and "
		       "self times include the nested probes' own time\n");
		print_comm_note(ds, 0, 0, "no calibration");
		return;
	}
	if (!ds->cost) {
		printf("probe cost: not taken out (--raw)\n");
		print_comm_note(ds, 0, 0, "--raw");
		return;
	}
	for (size_t i = 0; i < ds->nr; i++) {
		hits = lgd_add_sat(hits, ds->pairs[i].cost_hits);
		ns = ns > INT64_MAX - ds->pairs[i].cost_ns ? INT64_MAX : ns + ds->pairs[i].cost_ns;
		comm_ns = comm_ns > INT64_MAX - ds->pairs[i].comm_ns ? INT64_MAX :
			  comm_ns + ds->pairs[i].comm_ns;
	}
	printf("probe cost: taken out of durations, self and inside times (--raw: as measured); "
	       "nested records' cost per record (median of the calibration, its runs min to max):\n");
	for (unsigned int k = 0; k < LOGDEV_COST_NR_KINDS; k++) {
		const struct logdev_cost_kind *c = &ds->cost->pc.kind[k];
		unsigned int half = lgd_cost_records(k);

		if (!((ds->cost_kinds | ds->floor_kinds) & (1u << k)))
			continue;
		if (!(c->flags & LOGDEV_COST_F_MEASURED)) {
			printf("  %-16s not measured: not taken out\n", lgd_cost_kind_name(k));
			continue;
		}
		printf("  %-16s %.3f us (%.3f to %.3f)%s%s", lgd_cost_kind_name(k),
		       c->median_ps / half / 1e6, c->min_ps / half / 1e6, c->max_ps / half / 1e6,
		       half == 2 ? ", half a call's" : "",
		       c->flags & LOGDEV_COST_F_DIRECT ? ", the hook's dispatch not included" : "");
		if (ds->floor_kinds & (1u << k))
			printf("; its own pair's part inside it %.3f us a pair",
			       c->pair_ps / 1e6);
		putchar('\n');
	}
	print_comm_note(ds, lgd_cost_comm(ds->cost), comm_ns,
			lgd_cost_comm(ds->cost) ? NULL : "edprint not measured");
	printf("  rows summed: %" PRIu64 " nested record%s", hits, hits == 1 ? "" : "s");
	if (ds->floor_pairs)
		printf(" and the own records of %" PRIu64 " pair%s", ds->floor_pairs,
		       ds->floor_pairs == 1 ? "" : "s");
	printf(", %.3f us taken out (columns probes, probes(us))\n", (double)ns / 1e3);
}

/*
 * Above this ratio of a kind's p90 to its p10 the calibration's runs say
 * that a hit's cost moved while it was measured (under QEMU's TCG a
 * return probe's hit moved between 1.3 and 2.7 us within tens of ms;
 * on a steady machine the runs lie within about 10 %): a correction by
 * such a median is uncertain by up to half that range a record.
 */
#define UNSTEADY_P90_P10	1.5

/*
 * --durations with the probe cost taken out: a calibration whose runs of
 * a kind in use spread wide (UNSTEADY_P90_P10) is said on stderr, with
 * the range and the uncertainty it gives a corrected time (exit 3)
 */
static void warn_unsteady(const struct lgd_deltas *ds)
{
	for (unsigned int k = 0; k < LOGDEV_COST_NR_KINDS; k++) {
		const struct logdev_cost_kind *c = &ds->cost->pc.kind[k];
		double half = lgd_cost_records(k);

		if (!((ds->cost_kinds | ds->floor_kinds) & (1u << k)) ||
		    !(c->flags & LOGDEV_COST_F_MEASURED) ||
		    c->p90_ps <= UNSTEADY_P90_P10 * c->p10_ps)
			continue;
		fprintf(stderr, "logdev: warning: the calibration's %s hits cost from %.3f (p10) "
			"to %.3f us (p90) a record: the machine's speed moved while it was "
			"measured (a VM's host, frequency scaling); a corrected time is uncertain "
			"by about +-%.3f us a nested record (docs/ANALYSIS.md)\n",
			lgd_cost_kind_name(k), c->p10_ps / half / 1e6, c->p90_ps / half / 1e6,
			(c->p90_ps - c->p10_ps) / half / 2e6);
		cli_nwarn++;
	}
}

/*
 * --durations with the probe cost taken out: a row whose self time (or
 * duration) came out below 0 had more taken out than it held: the nested
 * hits cost less here than the calibration measured (a figure from other
 * code, cache state and load; docs/ANALYSIS.md).  Said on stderr, with the
 * first such row, and counted (exit 3): never a silent negative time.
 */
static void warn_over_corrected(const struct lgd_reader *r, const struct lgd_deltas *ds,
				int final)
{
	size_t n = 0, named = 0;
	char *lb = NULL;

	if (!ds->cost || !final)
		return;
	warn_unsteady(ds);
	if (ds->floor_pairs && ds->floor_max_ps > ds->floor_min_raw * 1000) {
		fprintf(stderr, "logdev: warning: the calibration puts %.3f us of a pair's own "
			"records inside a pair, more than this capture's shortest such pair as "
			"measured (%.3f us): it was measured under other conditions (a busy "
			"host, or a machine whose speed moves: then the spread warning above "
			"says so, and calibrating again does not help); read --raw "
			"(docs/ANALYSIS.md)\n", ds->floor_max_ps / 1e6, ds->floor_min_raw / 1e3);
		cli_nwarn++;
	}
	for (size_t i = 0; i < ds->nr; i++) {
		const struct lgd_pair *p = &ds->pairs[i];

		if (p->self_ns >= 0 && p->min >= 0 && p->median >= 0)
			continue;
		if (!n++)
			fputs("logdev: warning: rows below 0 after the probe cost was taken out (", stderr);
		if (named++ < 3)
			fprintf(stderr, "%s%s: self %.3f us, min %.3f us, median %.3f us",
				named > 1 ? "; " : "", label(r, p->from, &lb) < 0 ? "?" : lb,
				p->self_ns / 1e3, p->min / 1e3, p->median / 1e3);
		free(lb);
		lb = NULL;
	}
	if (!n)
		return;
	if (n > 3)
		fprintf(stderr, "; %zu more", n - 3);
	fprintf(stderr, "): %zu row%s: the nested hits cost less here than the calibration "
		"measured; read these rows beside --raw (docs/ANALYSIS.md)\n", n,
		n == 1 ? "" : "s");
	cli_nwarn++;
}

/*
 * The table of @ds (finished here, sorted by @key) on stdout, with its
 * footnotes and summary lines; @ret < 0: the collection failed (table
 * only).  @final: the last table of the run, whose warnings count
 * (cli_nwarn) and go to stderr (deltas --follow redraws tables before it).
 */
static void print_table(const struct lgd_reader *r, struct lgd_deltas *ds, enum lgd_sort key,
			int durations, int by, int by_parent, const char *inside, int ret,
			const struct lgd_dur_stats *st, int final)
{
	unsigned int used = 0;
	int wf = 24, wt = 24, nested;
	char *fb = NULL, *tb = NULL, cb[128];

	lgd_deltas_finish(ds, key);
	nested = !durations && by != LGD_BY_CPU;
	/* site columns: at least 24 wide, wider if a label needs it (never cut) */
	for (size_t i = 0; i < ds->nr; i++) {
		int lf = label(r, ds->pairs[i].from, &fb);
		int lt = label(r, ds->pairs[i].to, &tb);

		if (lf > wf)
			wf = lf;
		if (lt > wt)
			wt = lt;
	}
	if (!ret && ds->records && !ds->nr) {	/* no bare header: say why the table is empty */
		printf("no pairs: %s\n", durations ?
		       "no return-probe record paired with its entry" :
		       by == LGD_BY_CPU ? "no two consecutive records on one CPU" :
		       "no two records of one stream (--by: CPU, context level, task)");
		if (lgd_filter_active(&cli_filter))
			printf("  (with filters: a pair is kept only where both its records pass the filters,\n"
			       "   two records next to each other in their stream before filtering)\n");
	} else if (ds->nr) {
		printf("%-*s %-*s %10s %10s %10s %10s %10s %12s", wf, "from", wt, "to", "count",
		       "min(us)", "median(us)", "p99(us)", "max(us)", "total(us)");
		if (nested)
			printf(" %8s %10s", "nested", "nested(us)");
		if (durations)
			printf(" %12s", "self(us)");
		if (ds->cost)
			printf(" %8s %11s", "probes", "probes(us)");
		if (by_parent)
			printf(" %s", "parent");
		printf("  # clock: %s\n", lgd_clock_desc(&r->hdr, cb, sizeof(cb)));
	}
	for (size_t i = 0; i < ds->nr; i++) {
		const struct lgd_pair *p = &ds->pairs[i];
		const char *f = label(r, p->from, &fb) < 0 ? "?" : fb;
		const char *t = label(r, p->to, &tb) < 0 ? "?" : tb;
		unsigned int mk = cli_pair_marks(ds, p);

		if (lgd_probe_missed(r->probes, lgd_sites_get(&r->sites, p->from)) ||
		    lgd_probe_missed(r->probes, lgd_sites_get(&r->sites, p->to)))
			mk |= CLI_MARK_MISSED;
		char a[6][32], m[8];

		lgd_fmt_us(a[0], 32, p->min);
		lgd_fmt_us(a[1], 32, p->median);
		lgd_fmt_us(a[2], 32, p->p99);
		lgd_fmt_us(a[3], 32, p->max);
		lgd_fmt_us(a[4], 32, p->total);
		lgd_fmt_us(a[5], 32, p->nested_ns > INT64_MAX ? INT64_MAX : (int64_t)p->nested_ns);
		cli_marks(m, mk);
		used |= mk;
		printf("%-*s %-*s %10" PRIu64 " %10s %10s %10s %10s %12s", wf, f, wt, t,
		       p->count, a[0], a[1], a[2], a[3], a[4]);
		if (nested)
			printf(" %8" PRIu64 " %10s", p->nested_n, a[5]);
		if (durations) {
			lgd_fmt_us(a[5], 32, p->self_ns);
			printf(" %12s", a[5]);
		}
		if (ds->cost) {
			lgd_fmt_us(a[5], 32, p->cost_ns);
			printf(" %8" PRIu64 " %11s", p->cost_hits, a[5]);
		}
		if (by_parent)
			printf(" %s", p->parent == LGD_NO_SITE ? "-" :
			       label(r, p->parent, &fb) < 0 ? "?" : fb);
		printf("%s%s\n", m[0] ? " " : "", m);
	}
	if (inside && !ret)
		print_inside(r, ds, inside);
	if (!ret && !ds->records)
		printf("deltas: 0 records\n");
	if (!ret)
		cli_deltas_notes(stdout, "", ds, used);
	if (!ret && (used & CLI_MARK_MISSED) && final)
		cli_probe_misses(r);
	if (durations && !ret) {
		print_cost_note(r, ds);
		warn_over_corrected(r, ds, final);
	}
	if (durations && !ret) {
		char sum[256];

		lgd_fmt_dur_summary(sum, sizeof(sum), st);
		fputs(sum, stdout);
	}
	if (!durations && !ret && (ds->left_back || ds->left_huge)) {
		char lo[256];

		lgd_fmt_left_out(lo, sizeof(lo), ds);
		printf("deltas: %s\n", lo);
		cli_nwarn += final;	/* exit 3: numbers left out */
	}
	free(fb);
	free(tb);
}

/* ---- --follow: the table of the live buffers (cli-follow.c) ------------ */

struct follow_tab {
	struct cli_follow *f;
	struct lgd_deltas ds;
	enum lgd_sort key;
	int by;
	uint64_t late_seen;
};

static int follow_add(void *arg, const struct lgd_item *it, unsigned int flags)
{
	struct follow_tab *t = arg;

	(void)flags;	/* a late record pairs within its stream (its CPU's order holds) */
	if (cli_bd_is_marker(&t->f->r, it))
		return 0;	/* a breakdown marker: never paired */
	if (lgd_deltas_add(&t->ds, it)) {
		fprintf(stderr, "logdev: out of memory\n");
		return 1;
	}
	return 0;
}

/* on a terminal, once a second: clear the screen, a title line, the table */
static int follow_redraw(void *arg, uint64_t now_ns)
{
	struct follow_tab *t = arg;
	struct lgd_dur_stats st = { 0 };

	(void)now_ns;
	fputs("\033[H\033[2J", stdout);	/* cursor home, clear: as top(1) */
	printf("logdev deltas --follow: %" PRIu64 " records, %" PRIu64 " late  (Ctrl-C: final "
	       "table)\n", t->f->lv.records, t->f->lv.late);
	print_table(&t->f->r, &t->ds, t->key, 0, t->by, 0, NULL, 0, &st, 0);
	return fflush(stdout) ? 1 : 0;
}

static int deltas_follow(int by, enum lgd_sort key, uint64_t window_ns)
{
	static struct follow_tab t;
	struct lgd_dur_stats st = { 0 };
	struct cli_follow f;
	int failed;

	/* pairs are made on every record (streams.c) */
	if (cli_follow_open(&f, window_ns, LGD_ITEMS_FILTERED))
		return 1;
	t.f = &f;
	t.key = key;
	t.by = by;
	lgd_deltas_init(&t.ds, &(struct lgd_deltas_opts){ .by = by });
	failed = cli_follow_run(&f, follow_add, isatty(STDOUT_FILENO) ? follow_redraw : NULL,
				1000000000ull, &t);
	if (isatty(STDOUT_FILENO))
		fputs("\033[H\033[2J", stdout);
	print_table(&f.r, &t.ds, key, 0, by, 0, NULL, failed ? -1 : 0, &st, 1);
	if (cli_stdout_done())
		failed = 1;
	cli_follow_summary(&f);
	lgd_deltas_free(&t.ds);
	cli_follow_close(&f);
	return cli_exit_status(failed);
}

/*
 * The deltas table of capture @file (NULL: a snapshot of the live buffers):
 * the --pair labels @pairs[@npairs] and --inside @inside looked up in it,
 * then collected and printed sorted by @key.
 */
static int deltas_file(const char *file, const char *const *pairs, int npairs, int durations,
		       int by, int by_parent, const char *inside, enum lgd_sort key, int raw,
		       int breakdown)
{
	unsigned int have = 0;
	struct lgd_cost_sites cs = { 0 };
	struct lgd_reader r;
	struct lgd_deltas ds;
	struct lgd_deltas_opts o = { .by = by, .by_parent = by_parent };
	int ret;
	struct lgd_dur_stats st;
	uint32_t pair_ids[16][2];

	if (cli_open_input(file, &r))
		return 1;
	for (int i = 0; i < npairs; i++) {
		char *from = strdup(pairs[i]), *to = from ? strchr(from, ',') : NULL;
		int64_t f = -1, t = -1;

		if (to) {
			*to++ = 0;
			f = cli_site_by_label(&r, from);
			t = cli_site_by_label(&r, to);
		}
		if (f < 0 || t < 0 || f == t) {
			fprintf(stderr, "logdev deltas: --pair %s: %s\n", pairs[i],
				!from ? "out of memory" : f == t && f >= 0 ? "the same site twice" :
				"no site of the capture has that label (func:line, as deltas prints)");
			if (to && (f < 0 || t < 0))
				cli_site_unknown(&r, f < 0 ? from : to);
			free(from);
			lgd_reader_close(&r);
			return from ? 2 : 1;
		}
		free(from);
		pair_ids[i][0] = (uint32_t)f;
		pair_ids[i][1] = (uint32_t)t;
		if (pair_refused(&r, pairs, pair_ids, i)) {
			lgd_reader_close(&r);
			return 2;
		}
	}
	o.user_pairs = (const uint32_t (*)[2])pair_ids;
	o.nr_user_pairs = (size_t)npairs;
	if (inside) {
		int64_t y = cli_site_by_label(&r, inside);

		if (y < 0) {
			fprintf(stderr, "logdev deltas: --inside %s: no site of the capture has "
				"that label (func:line, as deltas prints)\n", inside);
			cli_site_unknown(&r, inside);
			lgd_reader_close(&r);
			return 2;
		}
		o.inside_site = (uint32_t)y;
		o.inside_set = 1;
	}
	if (durations && !raw && r.have_cost) {
		if (lgd_cost_sites_init(&cs, &r.sites, r.probes, &r.cost)) {
			fprintf(stderr, "logdev: out of memory\n");
			lgd_reader_close(&r);
			return 1;
		}
		o.cost = &cs;
	}
	if (breakdown && (ret = cli_bd_open("deltas", &r, &o.bd, &have))) {
		lgd_cost_sites_free(&cs);
		lgd_reader_close(&r);
		return ret;
	}
	lgd_deltas_init(&ds, &o);
	ret = cli_collect(&r, &ds, durations, &st, NULL) ? -1 : 0;
	if (o.bd && !ret && cli_bd_none(o.bd)) {
		lgd_deltas_free(&ds);
		lgd_bd_close(o.bd);
		lgd_cost_sites_free(&cs);
		lgd_reader_close(&r);
		return 2;
	}
	print_table(&r, &ds, key, durations, by, by_parent, inside, ret, &st, 1);
	if (o.bd && !ret)
		cli_bd_print(&r, &ds, have);
	lgd_deltas_free(&ds);
	lgd_bd_close(o.bd);
	lgd_cost_sites_free(&cs);
	lgd_reader_close(&r);
	if (cli_stdout_done())
		return 1;
	return cli_exit_status(ret < 0);
}

int cmd_deltas(int argc, char **argv)
{
	int durations = 0, by = LGD_BY_CONTEXT;
	const char *file = NULL;
	enum lgd_sort key = LGD_SORT_TOTAL;
	const char *pairs[16], *inside = NULL;
	int npairs = 0, by_parent = 0, follow = 0, window_set = 0, raw = 0, breakdown = 0;
	uint64_t window_ns = CLI_FOLLOW_WINDOW_MS * 1000000ull;

	static const struct option lo[] = {
		{ "durations", no_argument, NULL, 'D' },
		{ "pair", required_argument, NULL, 'p' },
		{ "by-parent", no_argument, NULL, 'P' },
		{ "inside", required_argument, NULL, 'i' },
		{ "raw", no_argument, NULL, 'R' },
		{ "breakdown", no_argument, NULL, 'B' },
		{ "by", required_argument, NULL, 'b' },
		{ "sort", required_argument, NULL, 's' },
		{ "follow", no_argument, NULL, 'f' },
		{ "window", required_argument, NULL, 'W' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		CLI_FILTER_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	static const char *const keys[] = {
		[LGD_SORT_TOTAL] = "total", [LGD_SORT_MAX] = "max", [LGD_SORT_P99] = "p99",
		[LGD_SORT_MEDIAN] = "median", [LGD_SORT_COUNT] = "count",
	};
	struct cli_getopt g = { &cli_cmd_deltas, ":s:b:p:i:j:fh", lo, &by, 0 };
	uint64_t jobs;
	int c, k;

	while ((c = cli_getopt(&g, argc, argv)) > 0) {
		switch (c) {
		case 'D':
			durations = 1;
			break;
		case 'p':	/* --pair FROM,TO: an edprint in/out pair as a duration */
			if (npairs == 16 || !strchr(optarg, ',')) {
				fprintf(stderr, "logdev deltas: --pair FROM,TO (two site labels, "
					"at most 16 pairs): %s\n", optarg);
				return 2;
			}
			pairs[npairs++] = optarg;
			durations = 1;
			break;
		case 'P':
			by_parent = durations = 1;
			break;
		case 'i':
			inside = optarg;
			durations = 1;
			break;
		case 'R':
			raw = durations = 1;
			break;
		case 'B':
			breakdown = 1;
			break;
		case 's':
			for (k = 0; k < (int)(sizeof(keys) / sizeof(keys[0])); k++)
				if (!strcmp(optarg, keys[k]))
					break;
			if (k == (int)(sizeof(keys) / sizeof(keys[0]))) {
				fprintf(stderr, "logdev deltas: bad --sort key '%s' (total, max, p99, median or count)\n",
					optarg);
				return 2;
			}
			key = (enum lgd_sort)k;
			break;
		case 'f':
			follow = 1;
			break;
		case 'W':
			if (cli_window_arg("deltas", optarg, &window_ns))
				return 2;
			window_set = 1;
			break;
		case 'j':
			if (cli_parse_uint("deltas", "--jobs", optarg, 1, 1024, &jobs))
				return 2;
			cli_jobs = (unsigned int)jobs;
			break;
		}
	}
	if (!c)
		return g.status;
	if (cli_file_arg("deltas", argc, argv, optind, &file))
		return 2;
	if ((follow && (file || durations || breakdown)) || (window_set && !follow)) {
		fprintf(stderr, "logdev deltas: %s\n", !follow ? "--window goes with --follow" :
			file ? "--follow reads the live buffers, not a FILE" :
			"--follow makes record deltas, not --breakdown, --durations, --pair, --by-parent, --inside or --raw "
			"(return probes are paired in a first pass over a capture)");
		return cli_verb_usage_error(&cli_cmd_deltas);
	}
	if (!cli_jobs) {
		long online = sysconf(_SC_NPROCESSORS_ONLN);

		cli_jobs = online > 1 ? (unsigned int)(online < 1024 ? online : 1024) : 1;
	}
	if (follow)
		return deltas_follow(by, key, window_ns);
	return deltas_file(file, pairs, npairs, durations, by, by_parent, inside, key, raw,
			   breakdown);
}
