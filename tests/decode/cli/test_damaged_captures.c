// SPDX-License-Identifier: GPL-2.0
/*
 * test_damaged_captures.c: a reader that says what happened to a capture
 * (CLI and library): exit status 0 all decoded, 1 I/O error, 3 decoded with
 * warnings; "truncated at byte N" and "corrupt at byte N" told apart for a
 * capture cut at every byte and for damaged section headers and lengths;
 * lost events in every verb; raw task-name rows; diagnostics escaped;
 * absurd timestamps (0, 2^64-1) out of the statistics, counted, marked.
 * Usage: test_damaged_captures PATH-TO-logdev [SOURCE-TOP]
 * Output: PASS/FAIL lines (ldcheck.h); exit 1 if anything failed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "liblogdev.h"
#include "testlib.h"
#include "fixture.h"

char tmpdir[] = "/tmp/logdev-damaged-XXXXXX";

static const char *top = "../..";	/* the source tree, from tests/decode */

/* ---- exit status, truncated or corrupt ------------------------------------ */

/*
 * A clean capture of two sub-buffers on CPU 0 (in/out pairs 500 ns apart);
 * *@second: the file offset of the second sub-buffer's data.
 */
static struct buf two_subbufs(size_t *second)
{
	struct buf b = { 0 };
	struct sbuf s;

	cap_meta(&b, plain_formats);
	for (int k = 0; k < 2; k++) {
		uint64_t t0 = 1000000ull + (uint64_t)k * 100000;

		sb_begin(&s, 0, (uint64_t)k, t0, 0, 0);
		for (int i = 0; i < 3; i++) {
			sb_rec(&s, t0 + (uint64_t)i * 1000, 1, LOGDEV_REC_PRINT, 0, 1, NULL, 0);
			sb_rec(&s, t0 + (uint64_t)i * 1000 + 500, 2, LOGDEV_REC_PRINT, 0, 1, NULL, 0);
		}
		*second = cap_sect(&b, LGD_SECT_CPU_DATA, 0, s.b, SBS);
	}
	cap_sect(&b, LGD_SECT_END, LGD_CAP_NO_CPU, NULL, 0);
	return b;
}

/* ---- a capture cut at every byte: truncated, never corrupt --------------- */

struct cut_warns {
	int n, other;		/* warnings; those that are not -ENODATA */
	char first_other[400];
};

static void cut_warn(void *arg, const struct lgd_diag *d)
{
	struct cut_warns *w = arg;

	w->n++;
	if (d->err != -ENODATA && !w->other++)
		snprintf(w->first_other, sizeof(w->first_other), "err %d at %lld: %s",
			 d->err, (long long)d->offset, d->msg);
}

/*
 * Every section kind a recording writes, small: HEADER, FORMATS, KALLSYMS,
 * RECORDER, MODLOG, two sub-buffers of CPU 0, one of CPU 1, STATS, END.
 * *@data: the offset of the first CPU_DATA section.
 */
static struct buf every_section_cap(size_t *data)
{
	static const char ksyms[] =
		"ffffffff81000000 T _stext\nffffffff81000100 t helper\nffffffff81000200 T kmem_cache_free\n";
	static const char modlog[] =
		"# logdev module log: clock local, 0 entries dropped\n"
		"load 500000 mod core=ffffffffc0537000+1000/5000 init=ffffffffc053d000+1000/3000\n"
		"ffffffffc0537000 t mod_fn\t[mod]\n";
	static const char stats[] = "cpu0 entries: 6 overrun: 0\ncpu1 entries: 2 overrun: 0\n";
	struct buf b = { 0 };
	struct sbuf s;

	cap_meta(&b, plain_formats);
	cap_sect(&b, LGD_SECT_KALLSYMS, LGD_CAP_NO_CPU, ksyms, strlen(ksyms));
	cap_sect(&b, LGD_SECT_RECORDER, LGD_CAP_NO_CPU, "pid 4242\n", 9);
	cap_sect(&b, LGD_SECT_MODLOG, LGD_CAP_NO_CPU, modlog, strlen(modlog));
	*data = b.n;
	for (int k = 0; k < 3; k++) {
		uint64_t t0 = 1000000ull + (uint64_t)k * 100000;

		sb_begin(&s, k == 2, (uint64_t)(k == 2 ? 0 : k), t0, 0, 0);
		if (k == 0) {	/* a task name: a record of no call site */
			char c[LOGDEV_COMM_LEN] = "sh";

			sb_rec(&s, t0, 0, LOGDEV_REC_COMM, 0, 1, c, sizeof(c));
		}
		for (int i = 0; i < 3; i++) {
			sb_rec(&s, t0 + (uint64_t)i * 1000, 1, LOGDEV_REC_PRINT, 0, 1, NULL, 0);
			sb_rec(&s, t0 + (uint64_t)i * 1000 + 500, 2, LOGDEV_REC_PRINT, 0, 1, NULL, 0);
		}
		cap_sect(&b, LGD_SECT_CPU_DATA, k == 2, s.b, SBS);
	}
	cap_sect(&b, LGD_SECT_STATS, LGD_CAP_NO_CPU, stats, strlen(stats));
	cap_sect(&b, LGD_SECT_END, LGD_CAP_NO_CPU, NULL, 0);
	return b;
}

/*
 * Issue 11: a capture cut anywhere, inside its metadata too, is truncated:
 * the reader opens it, every warning is a truncation (-ENODATA: "truncated
 * at byte N", with the section), never a corruption or a parse error, and
 * the records before the cut are decoded.  Every cut length, from 1 to the
 * whole file (0 bytes is no capture at all: lib/test_corruption.c), through the
 * library; through the CLI every cut in the file
 * and first section headers, every 5th in the metadata, every 29th in the
 * data (report, deltas, export in turn): exit 3,
 * "truncated at byte N", never "corrupt", nothing on stdout but data.
 */
static void test_every_cut(void)
{
	size_t data, bad_lib = 0, bad_cli = 0, runs = 0;
	struct buf b = every_section_cap(&data);
	char why[600] = "", args[1200], *out, *err;
	int full_recs = -1;

	for (size_t n = b.n + 1; n-- > 1;) {	/* the whole file first: its records */
		struct cut_warns w = { 0 };
		struct lgd_reader r;
		struct lgd_diag d = { 0 };
		struct lgd_merge m;
		struct lgd_item it;
		char *path = write_tmp("every.cap", b.p, n);
		int recs = 0, ret = lgd_reader_open(&r, path, cut_warn, &w, &d);

		if (ret) {
			if (!bad_lib++)
				snprintf(why, sizeof(why), "cut at %zu: open failed: %s", n, d.msg);
			continue;
		}
		if (!lgd_merge_init(&m, &r)) {
			while (lgd_merge_next(&m, &it) > 0)
				recs += it.kind == LGD_ITEM_REC;
			lgd_merge_free(&m);
		}
		lgd_reader_close(&r);
		if (n == b.n) {
			full_recs = recs;
			if (w.n && !bad_lib++)
				snprintf(why, sizeof(why), "the whole file: %d warnings", w.n);
		} else if ((w.other || !w.n || recs > full_recs) && !bad_lib++) {
			snprintf(why, sizeof(why), "cut at %zu: %d warnings, %d not truncation (%s), %d records",
				 n, w.n, w.other, w.first_other, recs);
		}
	}
	CHECK_WHY(!bad_lib && full_recs == 18, "truncated: every cut length opens, every warning says truncated",
		  "%zu bad cuts; %s; whole file %d records", bad_lib, why, full_recs);

	for (size_t n = 1; n < b.n; n += n < 40 ? 1 : n < data + 64 ? 5 : 29) {
		static const char *const verbs[3] = { "report", "deltas", "export --format csv" };
		const char *v = verbs[n % 3];
		char want[64];
		int st;

		write_tmp("every.cap", b.p, n);
		snprintf(args, sizeof(args), "%s %s", v, tmp_path("every.cap"));
		st = run_cli(args, &out, &err);
		runs++;
		snprintf(want, sizeof(want), "truncated at byte %zu", n);
		/* the formats come first here: no site can be missing (a task
		 * name record has none, and must not be counted as missing) */
		if ((st != 3 || !strstr(err, want) || strstr(err, "corrupt") ||
		     strstr(err, "error") || strstr(err, "missing from the capture's formats")) &&
		    !bad_cli++)
			snprintf(why, sizeof(why), "%s cut at %zu: exit %d, stderr: %.300s", v, n, st, err);
		free(out);
		free(err);
	}
	CHECK_WHY(!bad_cli, NAMEF("truncated: %zu cuts through the CLI: exit 3, truncated at byte N, never corrupt",
				  runs), "%zu bad; first: %s", bad_cli, why);
	free(b.p);
}

/*
 * Issue 12: lost events are a warning in every verb.  The same records on
 * two CPUs, once with nothing lost and once with CPU 0's second
 * sub-buffer after 7 overwritten records: every verb that reads records
 * exits 0 on the first; on the second it exits 3 with one line per capture
 * on stderr giving the lost events per CPU (as --follow prints them).
 * --cpu 1 leaves CPU 0's gap out, and with it the warning.
 */
static struct buf lost_cap(uint32_t overrun)
{
	struct buf b = { 0 };
	struct sbuf s;

	cap_meta(&b, plain_formats);
	for (int k = 0; k < 3; k++) {
		uint16_t cpu = k == 2;
		uint64_t t0 = 1000000ull + (uint64_t)k * 100000;

		sb_begin(&s, cpu, k == 2 ? 0 : (uint64_t)k, t0, 0, k == 1 ? overrun : 0);
		for (int i = 0; i < 3; i++) {
			sb_rec(&s, t0 + (uint64_t)i * 1000, 1, LOGDEV_REC_PRINT, 0, 1, NULL, 0);
			sb_rec(&s, t0 + (uint64_t)i * 1000 + 500, 2, LOGDEV_REC_PRINT, 0, 1, NULL, 0);
		}
		cap_sect(&b, LGD_SECT_CPU_DATA, cpu, s.b, SBS);
	}
	cap_sect(&b, LGD_SECT_END, LGD_CAP_NO_CPU, NULL, 0);
	return b;
}

static void test_lost_every_verb(void)
{
	static const char *const verbs[] = {
		"report %s", "report --raw %s", "deltas %s", "hist f:1 g:2 %s", "export --format csv %s",
		"export --format json %s", "convert -o /dev/null %s", "diff %s %s",
	};
	struct buf clean = lost_cap(0), lost = lost_cap(7);
	char *cp = strdup(write_tmp("lost0.cap", clean.p, clean.n));
	char *lp = strdup(write_tmp("lost7.cap", lost.p, lost.n));
	char args[1500], *o0, *e0, *o1, *e1;

	for (size_t i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++) {
		static const char want[] = "lost events: cpu:0 7 (overrun 7), cpu:1 0\n";
		int s0, s1, diff = !strncmp(verbs[i], "diff", 4), nlines = 0;
		char *at;

		snprintf(args, sizeof(args), verbs[i], cp, cp);
		s0 = run_cli(args, &o0, &e0);
		snprintf(args, sizeof(args), verbs[i], lp, lp);
		s1 = run_cli(args, &o1, &e1);
		/* one line per capture: diff's two name theirs */
		for (at = e1; (at = strstr(at, want)); at++)
			nlines++;
		CHECK_WHY(s0 == 0 && !strstr(e0, "lost events:"),
			  NAMEF("lost events: %.30s of a capture with none: exit 0, no lost line", verbs[i]),
			  "exit %d, stderr %s", s0, e0);
		CHECK_WHY(s1 == 3 && nlines == 1 + diff &&
			  strstr(e1, diff ? "logdev: warning: /" : "logdev: warning: lost events: cpu:0 7") &&
			  (!diff || strstr(e1, "lost7.cap: lost events")),
			  NAMEF("lost events: %.30s: exit 3, the lost events per CPU on stderr", verbs[i]),
			  "exit %d, stderr %s", s1, e1);
		free(o0);
		free(e0);
		free(o1);
		free(e1);
	}
	snprintf(args, sizeof(args), "report --cpu 1 %s", lp);
	CHECK_EQ(run_cli(args, &o1, &e1), 0, "lost events: report --cpu 1 leaves CPU 0's gap and its warning out");
	CHECK_TRUE(!strstr(e1, "lost events:"), "lost events: --cpu 1: no lost line");
	free(o1);
	free(e1);
	free(cp);
	free(lp);
	free(clean.p);
	free(lost.p);
}

/*
 * report --raw shows a capture's task names as rows (docs/USAGE.md, man page,
 * --help): "ts cpu pid ctx 0 <comm> 0 NAME" before the task's first record
 * on that CPU; text report puts the name in its COMM-PID column instead.
 */
static void test_raw_comm_rows(void)
{
	size_t data;
	struct buf b = every_section_cap(&data);
	char args[1200], *out, *err, *man, path[700];
	size_t n;
	int st;

	snprintf(args, sizeof(args), "report --raw %s", write_tmp("comm.cap", b.p, b.n));
	st = run_cli(args, &out, &err);
	CHECK_WHY(st == 0 && !strncmp(out, "1000000\t0\t1\ttask\t0\t<comm>\t0\tsh\n1000000\t0\t1\ttask\t1\tf\t1\tin\n",
				      strlen("1000000\t0\t1\ttask\t0\t<comm>\t0\tsh\n1000000\t0\t1\ttask\t1\tf\t1\tin\n")),
		  "raw comm rows: report --raw: the task name as a row (site 0, func <comm>, line 0) before its record",
		  "exit %d, stdout %.200s", st, out);
	free(out);
	free(err);
	snprintf(args, sizeof(args), "report %s", tmp_path("comm.cap"));
	st = run_cli(args, &out, &err);
	CHECK_WHY(st == 0 && !strstr(out, "<comm>") && strstr(out, "cpu:0 sh-1 f:1 in"),
		  "raw comm rows: text report has no <comm> line, the name is in COMM-PID",
		  "exit %d, stdout %.200s", st, out);
	free(out);
	free(err);
	st = run_cli("report --help", &out, &err);
	CHECK_STR_CONTAINS(out, "func <comm>", "raw comm rows: report --help documents them");
	free(out);
	free(err);
	snprintf(path, sizeof(path), "%s/docs/logdev.1", top);
	man = slurp_n(path, &n);
	CHECK_STR_CONTAINS(man, "ts_ns cpu pid ctx 0 <comm> 0 NAME", "raw comm rows: the man page documents them");
	free(man);
	free(b.p);
}

/*
 * A capture's own bytes quoted in an error or a warning (a bad header
 * value, a section's text) reach the terminal escaped, like recorded text:
 * an ESC in the header's version line is printed as \x1b (found by a fresh
 * user: "bad version value: <ESC>3" went raw to stderr).
 */
static void test_diag_escaped(void)
{
	size_t data;
	struct buf b = every_section_cap(&data);
	char *p = memmem(b.p, b.n, "version: 3", 10), args[1200], *out, *err;
	int st;

	CHECK_TRUE(p != NULL, "diag escaped: the fixture has a version line");
	if (!p) {
		free(b.p);
		return;
	}
	p[9] = 0x1b;
	snprintf(args, sizeof(args), "report %s", write_tmp("escbad.cap", b.p, b.n));
	st = run_cli(args, &out, &err);
	CHECK_WHY(!strchr(err, 0x1b) && strstr(err, "\\x1b"),
		  "diag escaped: a capture's ESC in an error message is printed as \\x1b",
		  "exit %d, stderr %s", st, err);
	free(out);
	free(err);
	free(b.p);
}

/*
 * A section header whose bytes are wrong (an unknown type with a length
 * beyond the end of the file) is corruption, not truncation: the file is
 * whole (found by a fresh user: one flipped byte gave "truncated at byte
 * 184270: unknown-type section at byte 255 has 183999 of its
 * 7236270204635460154 bytes").
 */
static void test_sect_hdr_corrupt(void)
{
	size_t data;
	struct buf b = every_section_cap(&data);
	char args[1200], want[100], *out, *err;
	int st;

	lgd_cap_sect_hdr_put((uint8_t *)b.p + data, 0x7f7f7f7f, 0, 0x6464646464646464ull);
	snprintf(args, sizeof(args), "report %s", write_tmp("sectbad.cap", b.p, b.n));
	st = run_cli(args, &out, &err);
	snprintf(want, sizeof(want), "corrupt at byte %zu", data);
	CHECK_WHY(st == 3 && strstr(err, want) && !strstr(err, "truncated"),
		  "corrupt section header: an unknown type longer than the file is corrupt, not truncated",
		  "exit %d, want %s, stderr %s", st, want, err);
	free(out);
	free(err);
	free(b.p);
}

/*
 * A section whose length field is wrong (past the end of the file, not
 * whole sub-buffers, shorter or longer than its data) hid every section
 * after it: the reader said "truncated" and lost them (fresh user).  Now
 * it says the length is corrupt, with the byte of the section header, and
 * resynchronises at the next section header: for every section of
 * every_section_cap() and each wrong length, the CLI exits 3, says
 * "corrupt at byte OFF" (OFF: the header) and "length L is corrupt", never
 * "truncated", and prints every record of the whole capture, exactly; the
 * library gets one warning, -EINVAL at OFF.  A section header whose type and
 * CPU are garbage before sub-buffers: read as the CPU its sub-buffers name.
 */
struct corrupt_warns {
	int n, einval_at;	/* warnings; -EINVAL ones at the offset wanted */
	int64_t want;
	char first[400];
};

static void corrupt_warn(void *arg, const struct lgd_diag *d)
{
	struct corrupt_warns *w = arg;

	if (!w->n++)
		snprintf(w->first, sizeof(w->first), "err %d at %lld: %s", d->err,
			 (long long)d->offset, d->msg);
	w->einval_at += d->err == -EINVAL && d->offset == w->want;
}

static void test_sect_len_corrupt(void)
{
	size_t data, offs[16], lens[16], nsect = 0, bad_cli = 0, bad_lib = 0, runs = 0;
	struct buf b = every_section_cap(&data);
	char args[1200], why[1500] = "", *clean, *out, *err;
	int st;

	snprintf(args, sizeof(args), "report --raw %s", write_tmp("lenok.cap", b.p, b.n));
	st = run_cli(args, &clean, &err);
	CHECK_WHY(st == 0 && !err[0] && strstr(clean, "\tg\t2\tout"), "corrupt length: the clean capture decodes",
		  "exit %d, stderr %s", st, err);
	free(err);
	for (size_t off = LGD_CAP_FILE_HDR_BYTES; off + LGD_CAP_SECT_HDR_BYTES <= b.n && nsect < 16;) {
		uint32_t type, cpu;
		uint64_t len;

		lgd_cap_sect_hdr_get(b.p + off, &type, &cpu, &len);
		if (type == LGD_SECT_END)
			break;
		offs[nsect] = off;
		lens[nsect++] = (size_t)len;
		off += LGD_CAP_SECT_HDR_BYTES + (size_t)len;
	}
	for (size_t i = 0; i < nsect; i++) {
		const uint64_t wrong[] = {
			UINT64_MAX, 1ull << 40, b.n, lens[i] + 1, lens[i] + 100, lens[i] / 2,
			lens[i] > 8 ? lens[i] - 8 : 0, 3 * (uint64_t)lens[i] + SBS,
		};

		for (size_t k = 0; k < sizeof(wrong) / sizeof(wrong[0]); k++) {
			struct buf c = { 0 };
			struct corrupt_warns w = { .want = (int64_t)offs[i] };
			struct lgd_reader r;
			struct lgd_diag d = { 0 };
			char want[120], *path;

			if (wrong[k] == lens[i])
				continue;
			b_put(&c, b.p, b.n);
			lgd_cap_put_u64(c.p + offs[i] + 8, wrong[k]);
			path = write_tmp("lenbad.cap", c.p, c.n);
			free(c.p);
			if (!lgd_reader_open(&r, path, corrupt_warn, &w, &d)) {
				struct lgd_merge m;
				struct lgd_item it;

				if (!lgd_merge_init(&m, &r)) {
					while (lgd_merge_next(&m, &it) > 0)
						;
					lgd_merge_free(&m);
				}
				lgd_reader_close(&r);
			}
			if (w.einval_at != 1 && !bad_lib++)
				snprintf(why, sizeof(why), "section %zu at %zu, length %llu: %d warnings at it (%d in all), first: %s",
					 i, offs[i], (unsigned long long)wrong[k], w.einval_at, w.n, w.first);
			snprintf(args, sizeof(args), "report --raw %s", path);
			st = run_cli(args, &out, &err);
			runs++;
			snprintf(want, sizeof(want), "corrupt at byte %zu", offs[i]);
			if ((st != 3 || !strstr(err, want) || !strstr(err, "is corrupt") ||
			     strstr(err, "truncated") || strcmp(out, clean)) && !bad_cli++)
				snprintf(why, sizeof(why), "section %zu at %zu, length %llu: exit %d, stderr %.600s, %s stdout",
					 i, offs[i], (unsigned long long)wrong[k], st, err,
					 strcmp(out, clean) ? "other" : "same");
			free(out);
			free(err);
		}
	}
	CHECK_WHY(!bad_lib && !bad_cli && runs > 60,
		  NAMEF("corrupt length: %zu wrong lengths in %zu sections: corrupt at the header's byte, resynchronised, every record kept, exit 3",
			runs, nsect), "%zu bad (library), %zu bad (CLI); first: %s", bad_lib, bad_cli, why);

	/* a CPU_DATA header of garbage type and CPU: its sub-buffers say whose */
	{
		struct buf c = { 0 };
		char want[120];

		b_put(&c, b.p, b.n);
		lgd_cap_sect_hdr_put(c.p + data + LGD_CAP_SECT_HDR_BYTES + SBS, 0x7f7f7f7f, 0x7f7f7f7f,
				     0x7f7f7f7f7f7f7f7full);
		snprintf(args, sizeof(args), "report --raw %s", write_tmp("hdrbad.cap", c.p, c.n));
		st = run_cli(args, &out, &err);
		snprintf(want, sizeof(want), "corrupt at byte %zu (CPU 0): section header corrupt",
			 data + LGD_CAP_SECT_HDR_BYTES + SBS);
		CHECK_WHY(st == 3 && strstr(err, want) && !strcmp(out, clean),
			  "corrupt section header before sub-buffers: read as their CPU's, every record kept",
			  "exit %d, want %s, stderr %s, stdout %s", st, want, err,
			  strcmp(out, clean) ? "other" : "same");
		free(out);
		free(err);
		free(c.p);
	}
	/* cut inside a CPU_DATA section: still truncated, not corrupt */
	snprintf(args, sizeof(args), "report %s", write_tmp("lencut.cap", b.p, data + 100));
	st = run_cli(args, &out, &err);
	CHECK_WHY(st == 3 && strstr(err, "truncated at byte") && !strstr(err, "corrupt"),
		  "corrupt length: a file cut inside a section is still truncated",
		  "exit %d, stderr %s", st, err);
	free(out);
	free(err);
	free(clean);
	free(b.p);
}

static void test_exit_and_damage(void)
{
	size_t second;
	struct buf b = two_subbufs(&second);
	char args[1200], want[200], *out, *err, *path;
	int st;

	path = write_tmp("clean.cap", b.p, b.n);
	for (int i = 0; i < 2; i++) {
		snprintf(args, sizeof(args), "%s %s", i ? "deltas" : "report", path);
		st = run_cli(args, &out, &err);
		CHECK_WHY(st == 0 && !err[0], NAMEF("exit: %s of a clean capture: 0, nothing on stderr",
						    i ? "deltas" : "report"), "status %d, stderr %s", st, err);
		free(out);
		free(err);
	}
	snprintf(args, sizeof(args), "diff %s %s", path, path);
	st = run_cli(args, &out, &err);
	CHECK_WHY(st == 0 && !err[0], "exit: diff of clean captures: 0", "status %d, stderr %s", st, err);
	free(out);
	free(err);
	snprintf(args, sizeof(args), "convert -o %s %s", tmp_path("clean.dat"), path);
	st = run_cli(args, &out, &err);
	CHECK_EQ(st, 0, "exit: convert of a clean capture: 0");
	free(out);
	free(err);

	/* cut inside the second sub-buffer's records: truncated, not corrupt */
	path = write_tmp("cut.cap", b.p, second + 48 + 24 * 3 + 10);
	snprintf(args, sizeof(args), "report %s", path);
	st = run_cli(args, &out, &err);
	snprintf(want, sizeof(want), "truncated at byte %zu (CPU 0)", second + 48 + 24 * 3 + 10);
	CHECK_EQ(st, 3, "truncated: report exits 3");
	CHECK_STR_CONTAINS(err, want, "truncated: said with the byte where the file ends and the CPU");
	CHECK_STR_CONTAINS(err, "CPU_DATA section at byte", "truncated: the section is named");
	CHECK_TRUE(!strstr(err, "corrupt"), "truncated: no word of corruption");
	CHECK_TRUE(!strstr(out, "LOST"), "truncated: no corrupt gap in the report");
	CHECK_EQ((long)(strstr(out, "g:2 out") ? 1 : 0), 1L, "truncated: the records before the cut are shown");
	free(out);
	free(err);
	snprintf(args, sizeof(args), "deltas %s", path);
	st = run_cli(args, &out, &err);
	CHECK_EQ(st, 3, "truncated: deltas exits 3");
	free(out);
	free(err);
	snprintf(args, sizeof(args), "diff %s %s", path, path);
	st = run_cli(args, &out, &err);
	CHECK_EQ(st, 3, "truncated: diff exits 3");
	free(out);
	free(err);
	snprintf(args, sizeof(args), "convert -o %s %s", tmp_path("cut.dat"), path);
	st = run_cli(args, &out, &err);
	CHECK_EQ(st, 3, "truncated: convert exits 3 (written, with warnings)");
	free(out);
	free(err);

	/* a record length that is not a multiple of 8: corrupt, with the reason */
	{
		struct buf c = { 0 };
		size_t at;

		b_put(&c, b.p, b.n);
		at = second + 48 + 24 + 12;	/* the second record's len field */
		c.p[at] = 13;
		c.p[at + 1] = 0;
		path = write_tmp("corrupt.cap", c.p, c.n);
		snprintf(args, sizeof(args), "report %s", path);
		st = run_cli(args, &out, &err);
		snprintf(want, sizeof(want), "corrupt at byte %zu (CPU 0, sub-buffer seq 1): bad record length 13",
			 at);
		CHECK_EQ(st, 3, "corrupt: report exits 3");
		CHECK_STR_CONTAINS(err, want, "corrupt: said with the byte of the bad field and why");
		CHECK_TRUE(!strstr(err, "truncated"), "corrupt: no word of truncation");
		CHECK_STR_CONTAINS(out, "(corrupt sub-buffer)", "corrupt: the skipped bytes show as a gap");
		free(out);
		free(err);
		/* a bad sub-buffer magic */
		c.p[second] ^= 0xff;
		path = write_tmp("magic.cap", c.p, c.n);
		snprintf(args, sizeof(args), "report %s", path);
		st = run_cli(args, &out, &err);
		snprintf(want, sizeof(want), "corrupt at byte %zu (CPU 0): bad sub-buffer magic", second);
		CHECK_EQ(st, 3, "corrupt: bad magic exits 3");
		CHECK_STR_CONTAINS(err, want, "corrupt: bad magic at the sub-buffer's byte");
		free(out);
		free(err);
		free(c.p);
	}

	/* I/O error: no such file */
	snprintf(args, sizeof(args), "report %s", tmp_path("nonexistent.cap"));
	st = run_cli(args, &out, &err);
	CHECK_EQ(st, 1, "exit: report of a missing file: 1");
	free(out);
	free(err);
	st = run_cli("report --bogus", &out, &err);
	CHECK_EQ(st, 2, "exit: usage error: 2");
	free(out);
	free(err);
	free(b.p);
}

/* ---- absurd timestamps ---------------------------------------------------- */

static void test_absurd_ts(void)
{
	static const uint64_t ts[] = { 1000, 1500, 0, 2000, 2600, UINT64_MAX, 3000, 3700 };
	struct buf b = { 0 };
	struct sbuf s;
	char args[1200], *out, *err, *path, *l;
	int st;

	cap_meta(&b, plain_formats);
	sb_begin(&s, 0, 0, 1000, 0, 0);
	for (int i = 0; i < 8; i++)	/* f g f(0) g f g(2^64-1) f g */
		sb_rec(&s, ts[i], (uint32_t)(i % 2 + 1), LOGDEV_REC_PRINT, 0, 1, NULL, 0);
	cap_sect(&b, LGD_SECT_CPU_DATA, 0, s.b, SBS);
	cap_sect(&b, LGD_SECT_END, LGD_CAP_NO_CPU, NULL, 0);
	path = write_tmp("absurd.cap", b.p, b.n);
	free(b.p);

	snprintf(args, sizeof(args), "deltas %s", path);
	st = run_cli(args, &out, &err);
	CHECK_EQ(st, 3, "absurd: deltas exits 3");
	/* f->g 500 and 700, g->f 600; nothing to or from an absurd record or across it */
	CHECK_STR_CONTAINS(out, "\nf:1                      g:2                               2      0.500      0.500      0.700      0.700        1.200        0      0.000 !\n"
				"g:2                      f:1                               1      0.600      0.600      0.600      0.600        0.600        0      0.000 !\n",
			   "absurd: deltas statistics leave both absurd records out, no pair across them");
	CHECK_STR_CONTAINS(out, "! 2 pairs cut by records left out of the statistics (absurd timestamps)",
			   "absurd: the rows marked ! say why, not as lost events");
	CHECK_TRUE(!strstr(out, "lost events"), "absurd: an absurd record is not a lost event");
	CHECK_TRUE(!strstr(out, "left out: clock went backwards"),
		   "absurd: not counted as clock steps either (once, as absurd)");
	CHECK_STR_CONTAINS(err, "2 records with an absurd timestamp (0 or 2^64-1) left out of every statistic",
			   "absurd: counted in one warning line");
	free(out);
	free(err);

	snprintf(args, sizeof(args), "report %s", path);
	st = run_cli(args, &out, &err);
	CHECK_EQ(st, 3, "absurd: report exits 3");
	CHECK_STR_CONTAINS(out, "[     0.000000] cpu:0 pid:1 f:1 in  (absurd timestamp, not in statistics)\n"
				"[     0.000002] cpu:0 pid:1 g:2 out\n",
			   "absurd: report shows the record in place, marked; no delta after it");
	CHECK_STR_CONTAINS(out, "[ 18446744073.709551] cpu:0 pid:1 g:2 out  (absurd timestamp, not in statistics)\n",
			   "absurd: 2^64-1 shown in place and marked");
	l = strstr(out, "18446744073.709551");
	CHECK_TRUE(l && strstr(l, "f:1 in\n"), "absurd: 2^64-1 kept in place, not moved to the end");
	CHECK_STR_CONTAINS(err, "2 records with an absurd timestamp", "absurd: report warns with the count");
	free(out);
	free(err);

	snprintf(args, sizeof(args), "report --raw %s", path);
	st = run_cli(args, &out, &err);
	CHECK_STR_CONTAINS(out, "\n18446744073709551615\t0\t1\ttask\t2\tg\t2\tout\n",
			   "absurd: report --raw gives the record's own timestamp");
	free(out);
	free(err);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: test_damaged_captures PATH-TO-logdev [SOURCE-TOP]\n");
		return 2;
	}
	cli = argv[1];
	if (argc > 2)
		top = argv[2];
	if (tmpdir_make())
		return 1;
	test_exit_and_damage();
	test_every_cut();
	test_lost_every_verb();
	test_raw_comm_rows();
	test_diag_escaped();
	test_sect_hdr_corrupt();
	test_sect_len_corrupt();
	test_absurd_ts();
	tmpdir_remove();
	printf("damaged_captures: %d passed, %d failed\n", ldc_passes, ldc_failures);
	return ldc_exit_status();
}
