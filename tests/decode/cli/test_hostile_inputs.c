// SPDX-License-Identifier: GPL-2.0
/*
 * test_hostile_inputs.c: hostile and broken inputs found by a tester: huge printf
 * widths, out-of-range section CPUs, record into an existing file, formats
 * of cut-short captures, warning floods, error messages, build flags.
 *
 * Usage: test_hostile_inputs PATH-TO-logdev USERSPACE-DIR
 * Captures are built byte by byte (testlib.h).  Checks
 * that could hang or crash run in a forked child with an alarm(), so a
 * failure is reported as FAIL and the other checks still run.
 * Output: "PASS: name" / "FAIL: name: why"; exit 1 if anything failed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "liblogdev.h"
#include "testlib.h"

static const char *usdir;
char tmpdir[] = "/tmp/logdev-hostile-XXXXXX";

/* ---- formats of the hand-made captures (builders: testlib.h) ------- */

static const char formats_text[] =
	"# id\tfile\tline\tfunc\tformat\n"
	"1\tnet/core/skbuff.c\t291\tkfree_skbmem\tin\n"
	"2\tx.c\t2\twide_star\t[%*d]\n"
	"3\tx.c\t3\twide_lit\t[%999999999d]\n"
	"4\tx.c\t4\twide_max\t[%2147483647d]\n"
	"5\tx.c\t5\tprec_max\t[%.2147483647d]\n"
	"6\tx.c\t6\twide_str\t[%99999999s]\n"
	"7\tx.c\t7\twide_left\t[%-999999999s]\n";

/* ---- running things ------------------------------------------------ */

static int count_str(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/* run @fn in a child with an alarm: a hang or a crash is a FAIL */
static void isolated(const char *name, int secs, int (*fn)(char *why, size_t n))
{
	int pfd[2], st;
	pid_t pid;
	char why[2048] = "";

	fflush(stdout);
	if (pipe(pfd))
		return;
	pid = fork();
	if (pid == 0) {
		close(pfd[0]);
		alarm((unsigned)secs);
		int ok = fn(why, sizeof(why));

		if (write(pfd[1], why, strlen(why)) < 0)
			_exit(3);
		_exit(ok ? 0 : 1);
	}
	close(pfd[1]);
	ssize_t n = read(pfd[0], why, sizeof(why) - 1);

	why[n > 0 ? n : 0] = 0;
	close(pfd[0]);
	waitpid(pid, &st, 0);
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		pass(name);
	else if (WIFSIGNALED(st))
		fail(name, "child killed by signal %d%s %s", WTERMSIG(st),
		     WTERMSIG(st) == SIGALRM ? " (timed out)" : "", why);
	else
		fail(name, "%s", why);
}

/* ---- 1. huge printf widths and precisions -------------------------- */

struct huge {
	const char *fmt;
	int32_t arg;		/* '*' argument (if the format has one) */
	int star;
	const char *str;	/* %s argument */
};

static const struct huge huge_cases[] = {
	{ "[%*d]", 2147483647, 1, NULL },
	{ "[%*d]", (int32_t)0x80000000, 1, NULL },	/* INT_MIN: -width overflows */
	{ "[%.*d]", 2147483647, 1, NULL },
	{ "[%*c]", 2147483647, 1, NULL },
	{ "[%999999999d]", 0, 0, NULL },
	{ "[%2147483647d]", 0, 0, NULL },
	{ "[%99999999999999999999d]", 0, 0, NULL },	/* int overflow */
	{ "[%.2147483647d]", 0, 0, NULL },
	{ "[%.99999999999999999999d]", 0, 0, NULL },
	{ "[%99999999s]", 0, 0, "abc" },
	{ "[%-999999999s]", 0, 0, "abc" },
	{ "[%#-2147483647llx]", 0, 0, NULL },
	{ "%999999999d%999999999d%999999999d%999999999d%999999999d%999999999d", 0, 0, NULL },
};

static int huge_widths(char *why, size_t wn)
{
	static char out[8192];

	for (size_t c = 0; c < sizeof(huge_cases) / sizeof(huge_cases[0]); c++) {
		const struct huge *h = &huge_cases[c];
		uint8_t pl[64];
		size_t n = 0;

		memset(pl, 0, sizeof(pl));
		if (h->star) {
			lgd_cap_put_u32(pl, (uint32_t)h->arg);
			n = 4;
		}
		if (h->str) {
			memcpy(pl + n, h->str, strlen(h->str) + 1);
			n += strlen(h->str) + 1;
		} else {
			lgd_cap_put_u32(pl + n, 42);
			n += 8;
		}
		for (int i = 0; i < 1000; i++) {
			int len = lgd_bprintf(out, sizeof(out), h->fmt, pl, n, NULL);
			size_t sl = strlen(out);

			/* the full length is bounded (clamped), output truncated */
			if (len < 0 || len > 64 * (1 << 23) ||
			    sl != ((size_t)len < sizeof(out) ? (size_t)len : sizeof(out) - 1)) {
				snprintf(why, wn, "%s: returned %d, strlen %zu", h->fmt, len, sl);
				return 0;
			}
		}
	}
	/* ordinary widths unchanged */
	{
		uint8_t pl[28];

		lgd_cap_put_u32(pl, 7);
		for (int i = 1; i < 5; i++)
			lgd_cap_put_u32(pl + 4 * i, 42);
		lgd_cap_put_u32(pl + 20, 4);
		lgd_cap_put_u32(pl + 24, '*');
		lgd_bprintf(out, sizeof(out), "[%*d|%-4d|%05d|%.3d|%-*c]", pl, 25, NULL);
		if (strcmp(out, "[     42|42  |00042|042|*   ]")) {
			snprintf(why, wn, "small widths: got '%s'", out);
			return 0;
		}
	}
	return 1;
}

static void test_huge_widths(void)
{
	struct buf b = { 0 };
	struct sbuf s;
	int recs = 0, st, lines = 0;
	char *out, *err, args[700], *path;
	size_t olen;

	isolated("bprintf: 1000 renderings of each huge width/precision return quickly, bounded",
		 120, huge_widths);

	/* CLI: 1000 records with such formats */
	cap_meta(&b, formats_text);
	for (uint64_t seq = 0; recs < 1000; seq++) {
		sb_begin(&s, 0, seq, 1000 + seq * 100, 0, 0);
		for (;;) {
			uint8_t pl[8] = { 0 };
			uint32_t site = 2 + (uint32_t)(recs % 6);

			if (site == 2)
				lgd_cap_put_u32(pl, 999999999);
			else if (site >= 6)
				memcpy(pl, "abc", 4);
			else
				lgd_cap_put_u32(pl, 7);
			if (recs >= 1000 || !sb_rec(&s, 1000 + seq * 100 + (uint64_t)recs, site, LOGDEV_REC_PRINT, 0, 1, pl, 8))
				break;
			recs++;
		}
		cap_sect(&b, LGD_SECT_CPU_DATA, 0, s.b, SBS);
	}
	cap_sect(&b, LGD_SECT_END, LGD_CAP_NO_CPU, NULL, 0);
	path = write_tmp("huge.cap", b.p, b.n);
	free(b.p);
	snprintf(args, sizeof(args), "report --raw %s", path);
	st = run_cli(args, &out, &err);
	olen = strlen(out);
	for (char *q = out; *q; q++)
		lines += *q == '\n';
	check("report: 1000 records with huge widths finish (exit 0, 1000 lines, bounded output)",
	      st == 0 && lines == 1000 && olen < 1000 * 8300, "status %d lines %d bytes %zu err %.300s",
	      st, lines, olen, err);
	free(out);
	free(err);
}

/* ---- 2. section CPU numbers out of range --------------------------- */

struct warns {
	int n;
	char text[16384];
};

static void collect_warn(void *arg, const struct lgd_diag *d)
{
	struct warns *w = arg;
	size_t n = strlen(w->text);

	w->n++;
	if (n + 300 < sizeof(w->text))
		snprintf(w->text + n, sizeof(w->text) - n, "off=%lld cpu=%lld %s\n",
			 (long long)d->offset, (long long)d->cpu, d->msg);
}

static char *cpu_range_cap(void)
{
	struct buf b = { 0 };
	struct sbuf s;
	char *path;

	cap_meta(&b, formats_text);
	sb_begin(&s, 0, 0, 1000, 0, 0);
	sb_rec(&s, 1000, 1, LOGDEV_REC_PRINT, 0, 1, NULL, 0);
	sb_rec(&s, 1100, 1, LOGDEV_REC_PRINT, 0, 1, NULL, 0);
	cap_sect(&b, LGD_SECT_CPU_DATA, 0, s.b, SBS);
	sb_begin(&s, 0xfffe, 0, 1000, 0, 0);
	sb_rec(&s, 1050, 1, LOGDEV_REC_PRINT, 0, 1, NULL, 0);
	cap_sect(&b, LGD_SECT_CPU_DATA, 0xfffffffeu, s.b, SBS);
	sb_begin(&s, 1, 0, 1000, 0, 0);
	sb_rec(&s, 1060, 1, LOGDEV_REC_PRINT, 0, 1, NULL, 0);
	cap_sect(&b, LGD_SECT_CPU_DATA, 0xc4000001u, s.b, SBS);
	cap_sect(&b, LGD_SECT_END, LGD_CAP_NO_CPU, NULL, 0);
	path = write_tmp("cpus.cap", b.p, b.n);
	free(b.p);
	return path;
}

static int cpu_range_lib(char *why, size_t wn)
{
	struct lgd_reader r;
	struct lgd_merge m;
	struct lgd_item it;
	struct lgd_diag d;
	static struct warns w;
	int recs = 0;

	if (lgd_reader_open(&r, tmp_path("cpus.cap"), collect_warn, &w, &d)) {
		snprintf(why, wn, "open: %s", d.msg);
		return 0;
	}
	if (r.nr_cpus != 1 || r.cpus[0] != 0 || !strstr(w.text, "out of range")) {
		snprintf(why, wn, "nr_cpus %u warnings:\n%s", r.nr_cpus, w.text);
		lgd_reader_close(&r);
		return 0;
	}
	if (lgd_merge_init(&m, &r)) {
		lgd_reader_close(&r);
		return 0;
	}
	while (lgd_merge_next(&m, &it) > 0)
		recs++;
	lgd_merge_free(&m);
	lgd_reader_close(&r);
	snprintf(why, wn, "records %d", recs);
	return recs == 2;
}

static void test_cpu_range(void)
{
	char *path = cpu_range_cap(), args[700], *out, *err;
	int st;

	isolated("reader: section CPUs 0xfffffffe and 0xc4000001 skipped with a warning",
		 60, cpu_range_lib);
	snprintf(args, sizeof(args), "report %s", path);
	st = run_cli(args, &out, &err);
	check("report: section CPU 0xfffffffe does not crash (exit 3, CPU 0 records, warning)",
	      st == 3 && count_str(out, "cpu:0 ") == 2 && strstr(err, "out of range") &&
	      strstr(err, "4294967294"),
	      "status %d out:\n%s err:\n%s", st, out, err);
	free(out);
	free(err);
	snprintf(args, sizeof(args), "deltas %s", path);
	st = run_cli(args, &out, &err);
	check("deltas: out-of-range section CPUs skipped (exit 3: warned)", st == 3,
	      "status %d err:\n%s", st, err);
	free(out);
	free(err);
}

/* ---- 3/4. record: fake debugfs ------------------------------------- */

static void put_file(const char *dir, const char *name, const void *d, size_t n)
{
	char p[1024];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	f = fopen(p, "wb");
	if (f) {
		if (n)
			fwrite(d, 1, n, f);
		fclose(f);
	}
}

/* a directory that looks like debugfs logdev: header, formats, one CPU */
static char *fake_debugfs(const char *name, int with_cpus, const void *raw, size_t rawlen)
{
	char *dir = tmp_path(name), p[1024];

	mkdir(dir, 0755);
	put_file(dir, "header", header_text, strlen(header_text));
	put_file(dir, "formats", formats_text, strlen(formats_text));
	put_file(dir, "enable", "0\n", 2);
	put_file(dir, "flush", "0\n", 2);
	put_file(dir, "stats", "cpu0 written=1\n", 15);
	if (with_cpus) {
		snprintf(p, sizeof(p), "%s/per_cpu", dir);
		mkdir(p, 0755);
		snprintf(p, sizeof(p), "%s/per_cpu/cpu0", dir);
		mkdir(p, 0755);
		put_file(p, "trace_pipe_raw", raw, rawlen);
	}
	return dir;
}

static void test_record_existing(void)
{
	static const char old[] = "precious old capture";
	char *capp = tmp_path("existing.cap"), tmpn[600], env[700], args[1400];
	char *out, *err, *got, *dir;
	struct stat st_;
	size_t glen;
	int st;

	snprintf(tmpn, sizeof(tmpn), "%s.tmp", capp);

	/* no debugfs at all */
	write_tmp("existing.cap", old, sizeof(old));
	snprintf(env, sizeof(env), "LOGDEV_DEBUGFS=%s/nonexistent", tmpdir);
	snprintf(args, sizeof(args), "record -o %s --duration 0", capp);
	st = run_cli_env(env, args, &out, &err);
	got = slurp_n(capp, &glen);
	check("record: debugfs missing leaves an existing FILE untouched (exit 1)",
	      st == 1 && glen == sizeof(old) && !memcmp(got, old, sizeof(old)) &&
	      stat(tmpn, &st_) < 0,
	      "status %d file now '%.40s' err %s", st, got, err);
	check("record: debugfs missing hints at logdev.ko and mounting debugfs",
	      strstr(err, "sudo modprobe logdev") && strstr(err, "mount -t debugfs"),
	      "err: %s", err);
	free(got);
	free(out);
	free(err);

	/* debugfs there but no per_cpu directory */
	dir = fake_debugfs("fakedbg-nocpu", 0, NULL, 0);
	snprintf(env, sizeof(env), "LOGDEV_DEBUGFS=%s", dir);
	st = run_cli_env(env, args, &out, &err);
	got = slurp_n(capp, &glen);
	check("record: per_cpu missing leaves an existing FILE untouched (exit 1)",
	      st == 1 && glen == sizeof(old) && !memcmp(got, old, sizeof(old)) &&
	      stat(tmpn, &st_) < 0,
	      "status %d file now '%.40s' err %s", st, got, err);
	free(got);
	free(out);
	free(err);

	/* working (fake) debugfs: FILE replaced by a capture, no FILE.tmp left */
	dir = fake_debugfs("fakedbg", 1, NULL, 0);
	snprintf(env, sizeof(env), "LOGDEV_DEBUGFS=%s", dir);
	snprintf(args, sizeof(args), "record -o %s --duration 0.2", capp);
	st = run_cli_env(env, args, &out, &err);
	{
		struct lgd_reader r;
		struct lgd_diag d;
		int ok = !lgd_reader_open(&r, capp, NULL, NULL, &d);

		check("record: success replaces FILE with a complete capture, no FILE.tmp left",
		      st == 0 && ok && r.complete && stat(tmpn, &st_) < 0,
		      "status %d open %d err %s", st, ok, err);
		if (ok)
			lgd_reader_close(&r);
	}
	free(out);
	free(err);
}

/* recording already on (another recorder): warn, and leave it on at the end */
static void test_record_already_enabled(void)
{
	char *capp = tmp_path("shared.cap"), env[700], args[1400], *out, *err, *dir, *en;
	size_t elen;
	int st;

	dir = fake_debugfs("fakedbg-on", 1, NULL, 0);
	put_file(dir, "enable", "1\n", 2);
	snprintf(env, sizeof(env), "LOGDEV_DEBUGFS=%s", dir);
	snprintf(args, sizeof(args), "record -o %s --duration 0.1", capp);
	st = run_cli_env(env, args, &out, &err);
	{
		char p[1024];

		snprintf(p, sizeof(p), "%s/enable", dir);
		en = slurp_n(p, &elen);
	}
	check("record: recording already enabled is warned about and re-enabled at the end",
	      st == 0 && strstr(err, "already enabled") && en && en[0] == '1',
	      "status %d enable '%.8s' err %s", st, en ? en : "", err);
	free(en);
	free(out);
	free(err);
}

static const char formats_late[] =
	"# id\tfile\tline\tfunc\tformat\n"
	"1\tnet/core/skbuff.c\t291\tkfree_skbmem\tin\n"
	"20\tdrivers/late.c\t77\tlate_func\tlate %d\n";

/* offsets of the capture's FORMATS sections; returns count */
static int formats_sections(const uint8_t *p, size_t n, size_t *offs, int max)
{
	size_t off = 16;
	int k = 0;

	while (off + 16 <= n) {
		uint32_t type = lgd_cap_get_u32(p + off);
		uint64_t len = lgd_cap_get_u64(p + off + 8);

		if (type == LGD_SECT_FORMATS && k < max)
			offs[k++] = off;
		if (type == LGD_SECT_END || len > n - off - 16)
			break;
		off += 16 + len;
	}
	return k;
}

static void test_formats_refresh(void)
{
	struct sbuf s;
	uint8_t pl[4];
	char *dir, env[700], args[2400], *out, *err, *cap, *data, *late, *cut;
	size_t dlen, offs[16];
	int st, nf;

	sb_begin(&s, 0, 0, 1000, 0, 0);
	lgd_cap_put_u32(pl, 5);
	sb_rec(&s, 1000, 20, LOGDEV_REC_PRINT, 0, 1, pl, 4);
	dir = fake_debugfs("fakedbg-late", 1, s.b, SBS);
	late = write_tmp("formats-late", formats_late, strlen(formats_late));
	cap = tmp_path("late.cap");
	snprintf(env, sizeof(env), "LOGDEV_DEBUGFS=%s", dir);
	snprintf(args, sizeof(args), "record -o %s -- sh -c 'sleep 1.5; cp %s %s/formats; sleep 1.7'",
		 cap, late, dir);
	st = run_cli_env(env, args, &out, &err);
	free(out);
	free(err);
	data = slurp_n(cap, &dlen);
	nf = formats_sections((uint8_t *)data, dlen, offs, 16);
	check("record: FORMATS rewritten while recording when it changed (>= 3 sections)",
	      st == 0 && nf >= 3, "status %d, %d FORMATS sections", st, nf);
	/* cut the capture before its final FORMATS: the site is still named */
	cut = write_tmp("late-cut.cap", data, nf ? offs[nf - 1] : dlen);
	snprintf(args, sizeof(args), "report --raw %s", cut);
	st = run_cli(args, &out, &err);
	check("record: a capture cut before the final FORMATS still names late sites (exit 3)",
	      st == 3 && strstr(out, "late_func\t77\tlate 5"), "status %d out %s err %s", st, out,
	      err);
	free(out);
	free(err);
	free(data);

	/* reader: a cut-short capture with unnamed sites warns once, with a count */
	{
		struct buf b = { 0 };
		char *path;

		cap_meta(&b, formats_text);
		sb_begin(&s, 0, 0, 1000, 0, 0);
		for (int i = 0; i < 5; i++)
			sb_rec(&s, 1000 + (uint64_t)i, 20, LOGDEV_REC_PRINT, 0, 1, pl, 4);
		sb_rec(&s, 1010, 1, LOGDEV_REC_PRINT, 0, 1, NULL, 0);
		cap_sect(&b, LGD_SECT_CPU_DATA, 0, s.b, SBS);
		sb_begin(&s, 1, 0, 1000, 0, 0);
		sb_rec(&s, 1003, 21, LOGDEV_REC_PRINT, 0, 1, pl, 4);
		cap_sect(&b, LGD_SECT_CPU_DATA, 1, s.b, SBS);
		path = write_tmp("unnamed.cap", b.p, b.n);	/* no END */
		free(b.p);
		snprintf(args, sizeof(args), "report %s", path);
		st = run_cli(args, &out, &err);
		check("report: cut-short capture warns once: 6 records use missing call sites",
		      st == 3 && count_str(err, "missing from the capture's formats") == 1 &&
		      strstr(err, "6 records use call sites missing"), "status %d err %s", st, err);
		free(out);
		free(err);
	}
}

/*
 * The live snapshot (report without FILE) wrote formats before it drained
 * the buffers and then END: a site that first fired meanwhile was missing
 * from a "complete" capture, which is now damage.  It reads formats again
 * after the data, as logdev record ends.  Here formats is a FIFO: the
 * first read gets the formats without site 20, every later one with it;
 * the snapshot's record of site 20 is named, nothing is warned, exit 0.
 */
static void test_snapshot_formats(void)
{
	struct sbuf s;
	uint8_t pl[4];
	char *dir, fifo[700], env[700], *out, *err;
	pid_t pid;
	int st;

	sb_begin(&s, 0, 0, 1000, 0, 0);
	lgd_cap_put_u32(pl, 5);
	sb_rec(&s, 1000, 20, LOGDEV_REC_PRINT, 0, 1, pl, 4);
	dir = fake_debugfs("fakedbg-snap", 1, s.b, SBS);
	snprintf(fifo, sizeof(fifo), "%s/formats", dir);
	unlink(fifo);
	if (mkfifo(fifo, 0644)) {
		fail("snapshot: formats read after the data", "mkfifo: %s", strerror(errno));
		return;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		signal(SIGPIPE, SIG_IGN);
		alarm(30);
		for (int i = 0; i < 4; i++) {
			const char *t = i ? formats_late : formats_text;
			int fd = open(fifo, O_WRONLY);

			if (fd < 0 || write(fd, t, strlen(t)) < 0)
				_exit(1);
			close(fd);
			usleep(100000);	/* the reader closes before the next open */
		}
		_exit(0);
	}
	snprintf(env, sizeof(env), "LOGDEV_DEBUGFS=%s", dir);
	st = run_cli_env(env, "report --raw", &out, &err);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	check("snapshot: formats read again after the data: a site registered meanwhile is named, exit 0",
	      st == 0 && strstr(out, "late_func\t77\tlate 5") && !err[0],
	      "status %d out %s err %s", st, out, err);
	free(out);
	free(err);
}

/* ---- 5. warning floods --------------------------------------------- */

static int flood_lib(char *why, size_t wn)
{
	struct buf b = { 0 };
	struct sbuf s;
	struct lgd_reader r;
	struct lgd_merge m;
	struct lgd_item it;
	struct lgd_diag d;
	static struct warns w;
	int recs = 0, ts_w, cpu_w;
	uint64_t ts = 1000;
	char *path;

	cap_meta(&b, formats_text);
	/* CPU 0: one record at ts ~0, then 200 increasing ones */
	sb_begin(&s, 0, 0, 1000, 0, 0);
	sb_rec(&s, 1000, 1, LOGDEV_REC_PRINT, 0, 1, NULL, 0);
	sb_rec(&s, UINT64_MAX - 1, 1, LOGDEV_REC_PRINT, 0, 1, NULL, 0);	/* huge, not absurd */
	for (uint64_t seq = 0; recs < 200; seq++) {
		if (seq)
			sb_begin(&s, 0, seq, ts, 0, 0);
		while (recs < 200 && sb_rec(&s, ts, 1, LOGDEV_REC_PRINT, 0, 1, NULL, 0)) {
			ts += 10;
			recs++;
		}
		cap_sect(&b, LGD_SECT_CPU_DATA, 0, s.b, SBS);
	}
	/* CPU 2: 30 sub-buffers whose header says CPU 3 */
	for (uint64_t seq = 0; seq < 30; seq++) {
		sb_begin(&s, 3, seq, 1000 + seq, 0, 0);
		sb_rec(&s, 1000 + seq, 1, LOGDEV_REC_PRINT, 0, 1, NULL, 0);
		cap_sect(&b, LGD_SECT_CPU_DATA, 2, s.b, SBS);
	}
	cap_sect(&b, LGD_SECT_END, LGD_CAP_NO_CPU, NULL, 0);
	path = write_tmp("flood.cap", b.p, b.n);
	free(b.p);
	if (lgd_reader_open(&r, path, collect_warn, &w, &d)) {
		snprintf(why, wn, "open: %s", d.msg);
		return 0;
	}
	if (lgd_merge_init(&m, &r))
		return 0;
	recs = 0;
	while (lgd_merge_next(&m, &it) > 0)
		recs++;
	lgd_merge_free(&m);
	lgd_reader_close(&r);
	ts_w = count_str(w.text, "timestamp goes backwards");
	cpu_w = count_str(w.text, "sub-buffer says cpu");
	snprintf(why, wn, "records %d, %d timestamp warnings, %d cpu warnings, all:\n%.3000s",
		 recs, ts_w, cpu_w, w.text);
	return recs == 232 && ts_w == 1 && cpu_w == 10 && strstr(w.text, "and 20 more") &&
	       w.n == 12;
}

static void test_floods(void)
{
	isolated("reader: one bad timestamp warns once; 30 CPU mismatches: 10 + '... and 20 more'",
		 60, flood_lib);
}

/* ---- 6. messages and options --------------------------------------- */

static int header_err(const char *text, struct lgd_diag *d)
{
	struct lgd_header h;

	memset(d, 0, sizeof(*d));
	return lgd_header_parse(&h, text, strlen(text), d);
}

static void test_messages(void)
{
	char args[1400], *out, *err, *good, *o2, *e2;
	struct lgd_diag d;
	int st;

	snprintf(args, sizeof(args), "report %s", tmpdir);
	st = run_cli(args, &out, &err);
	check("report DIR: 'is a directory' (exit 1)", st == 1 && strstr(err, "is a directory") &&
	      !strstr(err, "magic"), "status %d err %s", st, err);
	free(out);
	free(err);

	good = cpu_range_cap();
	snprintf(args, sizeof(args), "report /dev/stdin < %s", good);
	{
		char cmd[2000], o[600], e[600];

		snprintf(o, sizeof(o), "%s/out", tmpdir);
		snprintf(e, sizeof(e), "%s/err", tmpdir);
		snprintf(cmd, sizeof(cmd), "cat %s | %s report /dev/stdin >%s 2>%s", good, cli, o, e);
		st = system(cmd);
		st = WIFEXITED(st) ? WEXITSTATUS(st) : 255;
		err = slurp_n(e, NULL);
		check("report on a pipe: 'must be a seekable file (a pipe was given)' (exit 1)",
		      st == 1 && strstr(err, "must be a seekable file (a pipe was given)"),
		      "status %d err %s", st, err);
		free(err);
	}

	/* header errors name the line */
	{
		static const char h[] = "version: 1\nendian: little\nsubbuf_size: 256\n"
					"field: rec.ts offset:0 size:8\n"
					"field: rec.site offset:9 size:4\n";
		struct buf b = { 0 };
		struct lgd_reader r;
		size_t data;
		int64_t line5 = (int64_t)(strstr(h, "field: rec.site") - h);

		cap_start(&b);
		data = cap_sect(&b, LGD_SECT_HEADER, LGD_CAP_NO_CPU, h, strlen(h));
		write_tmp("badfield.cap", b.p, b.n);
		free(b.p);
		st = lgd_reader_open(&r, tmp_path("badfield.cap"), NULL, NULL, &d);
		check("header error: offset of the offending line, message names line 5",
		      st && d.offset == (int64_t)data + line5 && strstr(d.msg, "line 5"),
		      "ret %d offset %lld (line at %lld) msg %s", st, (long long)d.offset,
		      (long long)data + line5, d.msg);
		if (!st)
			lgd_reader_close(&r);
	}
	st = header_err("version: 1\nendian: little\nsubbuf_size: 256\n", &d);
	check("header without field: lines refused", st != 0 && strstr(d.msg, "field"),
	      "ret %d msg %s", st, d.msg);
	st = header_err("version: 1\nendian: little\nsubbuf_size: 4096x\n"
			"field: rec.ts offset:0 size:8\n", &d);
	check("header 'subbuf_size: 4096x' refused (trailing junk)",
	      st != 0 && strstr(d.msg, "subbuf_size"), "ret %d msg %s", st, d.msg);
	st = header_err("version: 1x\nendian: little\nsubbuf_size: 4096\n"
			"field: rec.ts offset:0 size:8\n", &d);
	CHECK_NE(st, 0, "header 'version: 1x' refused");
	st = header_err("version: 1\nendian: little\nsubbuf_size: 4096\n"
			"field: rec.ts offset:0 size:8 junk\n", &d);
	CHECK_NE(st, 0, "header field line with trailing junk refused");

	static const char *const cmds[] = { "report", "deltas", "record", "diff" };

	for (size_t i = 0; i < 4; i++) {
		char nm[200];

		snprintf(args, sizeof(args), "%s --help", cmds[i]);
		st = run_cli_env("LOGDEV_DEBUGFS=/nonexistent", args, &out, &err);
		snprintf(nm, sizeof(nm), "%s --help: usage on stdout, exit 0", cmds[i]);
		check(nm, st == 0 && strstr(out, "usage") && strstr(out, cmds[i]),
		      "status %d out %s err %s", st, out, err);
		free(out);
		free(err);
	}

	snprintf(args, sizeof(args), "report -- %s", good);
	st = run_cli(args, &out, &err);
	snprintf(args, sizeof(args), "report %s", good);
	run_cli(args, &o2, &e2);
	check("report -- FILE accepted", st == 3 && out[0] && !strcmp(out, o2),
	      "status %d out %s err %s", st, out, err);
	free(out);
	free(err);
	free(o2);
	free(e2);
}

/* ---- 7. build flags ------------------------------------------------ */

static void test_build_flags(void)
{
	char cmd[1200], *out;
	int st;

	snprintf(cmd, sizeof(cmd),
		 "make -s -n -B -C %s CFLAGS='-g -fsanitize=address,undefined' logdev >%s/make.out 2>&1",
		 usdir, tmpdir);
	st = system(cmd);
	snprintf(cmd, sizeof(cmd), "%s/make.out", tmpdir);
	out = slurp_n(cmd, NULL);
	check("make -C userspace CFLAGS=...: includes and -std kept, CFLAGS used",
	      st == 0 && strstr(out, "../include") && strstr(out, "-std=c11") &&
	      strstr(out, "-fsanitize=address,undefined"), "status %d:\n%.1500s", st, out);
	free(out);
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: test_hostile_inputs PATH-TO-logdev USERSPACE-DIR\n");
		return 2;
	}
	cli = argv[1];
	usdir = argv[2];
	if (tmpdir_make())
		return 1;
	test_huge_widths();
	test_cpu_range();
	test_record_existing();
	test_record_already_enabled();
	test_formats_refresh();
	test_snapshot_formats();
	test_floods();
	test_messages();
	test_build_flags();
	tmpdir_remove();
	printf("hostile: %d passed, %d failed\n", passes, failures);
	return failures ? 1 : 0;
}
