// SPDX-License-Identifier: GPL-2.0
/*
 * cli-notes.c: the CLI's diagnostic text on stderr (layer: CLI): the
 * library's warnings (struct lgd_diag), the warning count behind exit
 * status 3, the hint when no live buffer is there, and the notes after a
 * verb's output (lost events, what filters left out, durations, deltas).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "cli.h"
#include "subbuf.h"

unsigned long cli_nwarn;
const char *cli_warn_converted;

/*
 * A diagnostic's text, which may quote a capture's or a kernel file's own
 * bytes (a bad header value, a section's line), escaped for the terminal
 * as recorded text is (lgd_escape()); without memory, control bytes as '?'.
 */
const char *cli_diag_text(const char *msg)
{
	static char *last;
	char *p;

	free(last);
	last = lgd_escape_alloc(msg);
	if (last)
		return last;
	for (p = (char *)msg; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	return msg;
}

void cli_warn(void *arg, const struct lgd_diag *d)
{
	const char *what = "at";
	int pos = d->cpu >= 0 || d->seq >= 0;

	(void)arg;
	cli_nwarn++;
	if (d->err == -ENODATA)
		what = "truncated at";		/* the file ends before the data does */
	else if (d->err == -EINVAL || d->err == -EPROTO)
		what = "corrupt at";		/* bytes present but wrong */
	fprintf(stderr, "logdev: warning: ");
	if (d->offset >= 0)
		fprintf(stderr, "%s byte %" PRId64, what, d->offset);
	if (d->offset >= 0 && cli_warn_converted)
		fprintf(stderr, " of the capture converted from %s", cli_warn_converted);
	if (pos)
		fprintf(stderr, "%s", d->offset >= 0 ? " (" : "(");
	if (d->cpu >= 0)
		fprintf(stderr, "CPU %" PRId64, d->cpu);
	if (d->seq >= 0)
		fprintf(stderr, "%ssub-buffer seq %" PRId64, d->cpu >= 0 ? ", " : "", d->seq);
	if (pos)
		fputc(')', stderr);
	/* "warning: corrupt at byte 12 (CPU 0): what", or "warning: what" with no position */
	fprintf(stderr, "%s%s\n", d->offset >= 0 || pos ? ": " : "", cli_diag_text(d->msg));
}

int cli_exit_status(int failed)
{
	if (failed)
		return 1;
	return cli_nwarn ? 3 : 0;
}

void cli_live_hint(const char *dir, int err)
{
	fprintf(stderr, "logdev: no live logdev buffer at %s (%s).\n", dir, strerror(err));
	if (err == EACCES || err == EPERM) {
		fprintf(stderr, "  debugfs is for root only: run logdev with sudo.\n");
		return;
	}
	fprintf(stderr,
		"  Load the module:    sudo modprobe logdev  (in the source tree: sudo insmod kernel/logdev.ko)\n"
		"  Mount debugfs:      sudo mount -t debugfs none /sys/kernel/debug\n"
		"  Another directory:  -d DIR (record) or LOGDEV_DEBUGFS=DIR\n"
		"  Or read a capture:  logdev report FILE\n");
}

void cli_lost_notes(const struct lgd_merge_counts *c, const char *file, int always)
{
	uint64_t total = 0, subbufs = 0;
	char line[4096];
	size_t o = 0;

	line[0] = 0;
	for (uint32_t i = 0; i < c->nr_lost; i++) {
		uint32_t cpu;
		uint64_t k[LGD_GAP_NR], n = lgd_merge_lost(c, i, k, &cpu);
		int first = 1;

		total = lgd_add_sat(total, n);
		subbufs = lgd_add_sat(subbufs, k[LGD_GAP_SUBBUFS]);
		o += (size_t)snprintf(line + o, sizeof(line) - o, "%scpu:%u %" PRIu64, i ? ", " : "",
				      cpu, n);
		if (o >= sizeof(line))
			o = sizeof(line) - 1;
		for (int j = 1; j < LGD_GAP_NR; j++) {
			if (!k[j] || j == LGD_GAP_BAD_TS)
				continue;
			o += (size_t)snprintf(line + o, sizeof(line) - o, "%s%s %" PRIu64 "%s",
					      first ? " (" : ", ", lgd_gap_kind_name(j), k[j],
					      j == LGD_GAP_SUBBUFS ? " sub-buffers" :
					      j == LGD_GAP_CORRUPT ? " bytes" : "");
			if (o >= sizeof(line))
				o = sizeof(line) - 1;
			first = 0;
		}
		if (!first && o + 2 < sizeof(line))
			line[o++] = ')', line[o] = 0;
	}
	if (!total && !subbufs && !always)
		return;
	if (total || subbufs)
		cli_nwarn++;	/* records are missing from the output: exit 3 */
	fprintf(stderr, "logdev: %s%s%slost events: %s\n", total || subbufs ? "warning: " : "",
		file ? cli_diag_text(file) : "", file ? ": " : "", c->nr_lost ? line : "none");
}

void cli_filter_notes(const struct lgd_reader *r, const struct lgd_merge_counts *c,
		      const char *file)
{
	cli_lost_notes(c, file, 0);
	cli_left_out_notes(r, c, file);
}

void cli_left_out_notes(const struct lgd_reader *r, const struct lgd_merge_counts *c,
			const char *file)
{
	if (lgd_filter_active(&cli_filter) && c->recs_seen && !c->recs_kept) {
		fprintf(stderr, "logdev: the filters left out all %" PRIu64 " record%s\n",
			c->recs_seen, c->recs_seen == 1 ? "" : "s");
		if (cli_filter.nr_comms && !lgd_reader_comm_matches(r))
			fprintf(stderr, "logdev: no task in the capture is named like --comm%s\n",
				r->nr_comms ? "" : " (it holds no task names: recorded without them?)");
	}
	if (c->bad_type) {
		cli_nwarn++;	/* a number of the output is not what was recorded */
		fprintf(stderr, "logdev: warning: %s%s%" PRIu64 " record%s of no known type (damaged?): "
			"their messages not decoded (report shows <type? ...>); their times "
			"still count\n", file ? cli_diag_text(file) : "", file ? ": " : "",
			c->bad_type, c->bad_type == 1 ? "" : "s");
	}
	if (c->recorder_out)
		fprintf(stderr, "logdev: %" PRIu64 " record%s of the recorder (pid %" PRId64
			") left out; --include-recorder keeps them\n", c->recorder_out,
			c->recorder_out == 1 ? "" : "s", r->recorder_pid);
}

void cli_dur_huge(uint64_t n)
{
	if (!n)
		return;
	cli_nwarn++;
	fprintf(stderr, "logdev: warning: %" PRIu64 " return-probe pair%s more than 2^62 ns apart "
		"(damaged timestamps?) left out of the durations\n", n, n == 1 ? "" : "s");
}

void cli_left_out_note(const char *who, const char *file, uint64_t back, uint64_t huge)
{
	char lo[256];

	if (!lgd_fmt_left_out_n(lo, sizeof(lo), back, huge))
		return;
	fprintf(stderr, "%s: warning: %s%s%s\n", who, file ? file : "", file ? ": " : "", lo);
	cli_nwarn++;
}

void cli_cost_raw_note(FILE *f, const char *prefix, const struct lgd_reader *r,
		       const char *verb)
{
	if (!r->have_cost)
		return;
	fprintf(f, "%sprobe cost: not taken out by logdev %s: durations as measured, the "
		"probes' own time in them; logdev deltas --durations takes it out "
		"(docs/ANALYSIS.md)\n", prefix, verb);
}

void cli_clock_header(FILE *f, const struct lgd_reader *r)
{
	char d[128];

	fprintf(f, "# clock: %s\n", lgd_clock_desc(&r->hdr, d, sizeof(d)));
}

int cli_clocks_differ(const char *who, const struct lgd_reader *a, const char *fa,
		      const struct lgd_reader *b, const char *fb)
{
	const char *ca = lgd_clock_name(&a->hdr), *cb = lgd_clock_name(&b->hdr);

	if (!strcmp(ca, cb))
		return 0;
	fprintf(stderr, "%s: warning: %s was recorded on clock %s, %s on clock %s: times within "
		"each capture compare, their timestamps do not (logdev's clock file, "
		"docs/DEBUGFS.md)\n", who, fa ? fa : "A", ca, fb ? fb : "B", cb);
	cli_nwarn++;
	return 1;
}

void cli_marks(char *b, unsigned int m)
{
	int n = 0;

	if (m & CLI_MARK_CUT)
		b[n++] = '!';
	if (m & CLI_MARK_UNMATCHED)
		b[n++] = '?';
	if (m & CLI_MARK_APPROX)
		b[n++] = '~';
	if (m & CLI_MARK_MISSED)
		b[n++] = '#';
	if (m & CLI_MARK_SAT)
		b[n++] = '>';
	b[n] = 0;
}

unsigned int cli_pair_marks(const struct lgd_deltas *ds, const struct lgd_pair *p)
{
	unsigned int m = 0;

	if (lgd_deltas_cut_at(ds, p->from))
		m |= CLI_MARK_CUT;
	if (p->unmatched)
		m |= CLI_MARK_UNMATCHED;
	if (p->approx)
		m |= CLI_MARK_APPROX;
	/* a sum at its limit saturated there (lgd_hist_total(), self, nested) */
	if (p->total == INT64_MAX || p->total == INT64_MIN || p->self_ns == INT64_MAX ||
	    p->self_ns == INT64_MIN || p->nested_ns >= (uint64_t)INT64_MAX)
		m |= CLI_MARK_SAT;
	return m;
}

unsigned int cli_probe_misses(const struct lgd_reader *r)
{
	struct lgd_probe_info pi;
	unsigned int n = 0;
	const char *l;

	if (!r->probes)
		return 0;
	for (l = r->probes; *l; l += strcspn(l, "\n"), l += *l == '\n') {
		char name[1024], why[256];
		uint64_t run;

		if (!lgd_probe_line(l, &pi) || !pi.missed)
			continue;
		lgd_escape(name, sizeof(name), pi.name, pi.len < 200 ? pi.len : 200);
		if (pi.len > 200)
			strcat(name, "...");	/* room: lgd_escape() of 200 bytes fits 1021 */
		run = pi.missed - pi.missed_maxactive;	/* never below: lgd_probe_line() */
		if (pi.missed_maxactive)
			snprintf(why, sizeof(why), "%" PRIu64 " for want of a free return instance "
				 "(raise maxactive: rN:...), %" PRIu64 " because a handler was already "
				 "running on that CPU", pi.missed - run, run);
		else
			snprintf(why, sizeof(why), "a handler was already running on that CPU");
		cli_nwarn++;
		n++;
		fprintf(stderr, "logdev: warning: probe %s missed %" PRIu64 " hit%s (the kernel's "
			"nmissed %s: %s); its records are short of them\n", name, pi.missed,
			pi.missed == 1 ? "" : "s",
			pi.recording ? "in this recording" : "since the probe was added", why);
	}
	return n;
}

void cli_deltas_notes(FILE *f, const char *pfx, const struct lgd_deltas *ds,
		      unsigned int used)
{
	if (ds->lost_gaps) {
		fprintf(f, "%s%slost events: %" PRIu64 " gap%s, %" PRIu64 " record%s lost%s", pfx,
			used & CLI_MARK_CUT ? "! " : "", ds->lost_gaps,
			ds->lost_gaps == 1 ? "" : "s", ds->lost, ds->lost == 1 ? "" : "s",
			ds->lost_unknown ? " and more in missing sub-buffers or corrupt data" : "");
		if (ds->st_ready)
			fprintf(f, "; %" PRIu64 " pair%s cut", ds->cut, ds->cut == 1 ? "" : "s");
		if (used & CLI_MARK_CUT)
			fputs(": counts of pairs from a site where one was cut may be short "
			      "(rows marked !)", f);
		fputc('\n', f);
	}
	else if (used & CLI_MARK_CUT)	/* cut only by records left out (absurd stamps) */
		fprintf(f, "%s! %" PRIu64 " pair%s cut by records left out of the statistics "
			"(absurd timestamps): counts of rows marked ! may be short\n", pfx,
			ds->cut, ds->cut == 1 ? "" : "s");
	if (used & CLI_MARK_UNMATCHED)
		fprintf(f, "%s? rows whose probe has entries without return: their count is "
			"short of those (summary line)\n", pfx);
	if (used & CLI_MARK_MISSED)
		fprintf(f, "%s# rows of a run-time probe that missed hits (the kernel's nmissed, "
			"warning on stderr): their counts are short of those\n", pfx);
	if (used & CLI_MARK_SAT) {
		fprintf(f, "%s> rows with a sum (total, self or nested) at its limit, 2^63-1 ns "
			"(9223372036854775.807 us): saturated, the true sum is larger\n", pfx);
		cli_nwarn++;	/* a number printed that is not the sum: exit 3 */
	}
	if (used & CLI_MARK_APPROX)
		fprintf(f, "%s~ median and p99 from a log-linear histogram (more than %d deltas): "
			"within %s of the exact value\n", pfx, LGD_HIST_EXACT_MAX,
			LGD_HIST_REL_ERROR);
}

/* the label and the escaped format of @st (id @id) of @r as "LABEL 'FMT'" */
static void redefined_one(const struct lgd_reader *r, const struct lgd_site *st)
{
	char *l = lgd_site_label_text_alloc(&r->sites, st->id), *f = lgd_escape_alloc(st->fmt);

	fprintf(stderr, "%s '%s'", l ? l : "?", f ? f : "?");
	free(l);
	free(f);
}

unsigned int cli_probe_redefined(const struct lgd_reader *r)
{
	unsigned int n = 0;

	for (uint32_t i = 0; i < r->sites.nr; i++) {
		const struct lgd_site *b = r->sites.by_id[i], *a = NULL;
		char *name;

		if (!b || b->canon || b->label_seq != 2 || strcmp(b->file, "probe"))
			continue;
		for (uint32_t j = 0; j < r->sites.nr && !a; j++) {
			const struct lgd_site *x = r->sites.by_id[j];

			if (x && !x->canon && x->label_seq == 1 && x->line == b->line &&
			    !strcmp(x->file, "probe") && !strcmp(x->func, b->func))
				a = x;
		}
		if (!a)
			continue;
		name = lgd_escape_alloc(b->func);
		fprintf(stderr, "logdev: warning: probe %s stands for different definitions in "
			"this capture (removed and added again with other arguments); "
			"told apart by #N: ", name ? name : "?");
		free(name);
		redefined_one(r, a);
		fputs(", ", stderr);
		redefined_one(r, b);
		for (uint32_t j = 0; j < r->sites.nr; j++) {
			const struct lgd_site *x = r->sites.by_id[j];

			if (x && !x->canon && x->label_seq > 2 && x->line == b->line &&
			    !strcmp(x->file, "probe") && !strcmp(x->func, b->func)) {
				fputs(", ", stderr);
				redefined_one(r, x);
			}
		}
		fputc('\n', stderr);
		n++;
	}
	return n;
}
