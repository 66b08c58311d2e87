// SPDX-License-Identifier: GPL-2.0
/*
 * test_follow.c: "logdev report --follow" and "deltas --follow" (CLI),
 * without a kernel: the CLI against a fake debugfs directory
 * (LOGDEV_DEBUGFS) whose per_cpu/cpuN/trace_pipe_raw are FIFOs fed by this
 * program in pieces: every record printed exactly once, in time order; a
 * CPU whose data comes after the window prints its records marked late;
 * SIGINT and SIGTERM end it with the records held and the lost-events
 * summary, exit 3 with lost events, 0 without; --cpu filters; a site that
 * registers while following is named (formats read again) and --site
 * matches it; deltas --follow's final table; 5 MB from one CPU with a 60 s
 * window: over the 4 MiB bound records go out early, one EARLY line, none
 * lost or reordered; usage errors.
 * Usage: test_follow PATH-TO-logdev.  Output: PASS/FAIL lines (ldcheck.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "liblogdev.h"
#include "live_fixture.h"

char tmpdir[] = "/tmp/logdev-follow-XXXXXX";

/* ---- the CLI against FIFOs ----------------------------------------------- */

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void put_file(const char *dir, const char *name, const char *s)
{
	char p[1024];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	f = fopen(p, "wb");
	if (f) {
		fputs(s, f);
		fclose(f);
	}
}

/* a fake debugfs: header, formats, flush, per_cpu/cpu0..1/trace_pipe_raw FIFOs */
static char *fake_debugfs(const char *name)
{
	char *dir = strdup(tmp_path(name)), p[1024];

	mkdir(dir, 0755);
	put_file(dir, "header", header_text);
	put_file(dir, "formats", formats_text);
	put_file(dir, "flush", "");
	put_file(dir, "enable", "1\n");
	snprintf(p, sizeof(p), "%s/per_cpu", dir);
	mkdir(p, 0755);
	for (int c = 0; c < 2; c++) {
		snprintf(p, sizeof(p), "%s/per_cpu/cpu%d", dir, c);
		mkdir(p, 0755);
		snprintf(p, sizeof(p), "%s/per_cpu/cpu%d/trace_pipe_raw", dir, c);
		mkfifo(p, 0644);
	}
	return dir;
}

/* start "logdev ARGS" on @dir, stdout and stderr to files */
static pid_t spawn(const char *dir, const char *out, const char *err, char *const args[])
{
	char *argv[16];
	int n = 0;
	pid_t pid;

	argv[n++] = (char *)cli;
	for (int i = 0; args[i] && n < 15; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int e = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		setenv("LOGDEV_DEBUGFS", dir, 1);
		dup2(o, 1);
		dup2(e, 2);
		execv(cli, argv);
		_exit(126);
	}
	return pid;
}

static int open_fifo(const char *dir, int cpu)
{
	char p[1024];

	snprintf(p, sizeof(p), "%s/per_cpu/cpu%d/trace_pipe_raw", dir, cpu);
	return open(p, O_WRONLY);	/* waits for the follower to open it */
}

/* write @n bytes in pieces of @piece (a pipe reader may get part of a sub-buffer) */
static void write_pieces(int fd, const uint8_t *p, size_t n, size_t piece)
{
	while (n) {
		size_t k = n < piece ? n : piece;
		ssize_t w = write(fd, p, k);

		if (w <= 0)
			return;
		p += w;
		n -= (size_t)w;
	}
}

/* lines of @path that contain @needle */
static int count_lines(const char *path, const char *needle)
{
	char *s = slurp(path), *l;
	int n = 0;

	for (l = s; l && *l;) {
		char *e = strchr(l, '\n');

		if (e)
			*e = 0;
		n += strstr(l, needle) != NULL;
		l = e ? e + 1 : l + strlen(l);
	}
	free(s);
	return n;
}

/* wait until @path has @n lines with @needle (up to @secs) */
static int wait_lines(const char *path, const char *needle, int n, double secs)
{
	double t0 = now_s();

	while (now_s() - t0 < secs) {
		if (count_lines(path, needle) >= n)
			return 1;
		usleep(20000);
	}
	return 0;
}

static int wait_exit(pid_t pid, double secs)
{
	double t0 = now_s();
	int st;

	while (now_s() - t0 < secs) {
		if (waitpid(pid, &st, WNOHANG) == pid)
			return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
		usleep(10000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	return -1;
}

#define NSB	40	/* sub-buffers per CPU */
#define NPER	6	/* records per sub-buffer */

/*
 * --raw lines "ts\tcpu\tpid\tctx\tsite\tev\t10\tseq N": each N of 0..total-1
 * exactly once, ts never going back, and no LATE line
 */
static void check_raw(const char *out, int total, const char *name)
{
	char *s = slurp(out), *l, nm[200];
	int *seen = calloc((size_t)total, sizeof(int)), once = 1, n = 0, late = 0;
	unsigned long long prev = 0, ts;
	int order = 1;

	for (l = s; l && *l;) {
		char *e = strchr(l, '\n');
		unsigned cpu;
		int v;

		if (e)
			*e = 0;
		late += !strncmp(l, "LATE\t", 5);
		if (sscanf(l, "%llu\t%u\t%*u\t%*s\t%*u\tev\t10\tseq %d", &ts, &cpu, &v) == 3) {
			if (v >= 0 && v < total)
				seen[v]++;
			order &= ts >= prev;
			prev = ts;
			n++;
		}
		l = e ? e + 1 : l + strlen(l);
	}
	for (int i = 0; i < total; i++)
		once &= seen[i] == 1;
	snprintf(nm, sizeof(nm), "%s: %d records printed", name, total);
	CHECK_EQ(n, total, nm);
	snprintf(nm, sizeof(nm), "%s: every record exactly once", name);
	CHECK_TRUE(once, nm);
	snprintf(nm, sizeof(nm), "%s: in time order, none late", name);
	CHECK_TRUE(order && !late, nm);
	free(seen);
	free(s);
}

/* two CPUs interleaved in time, written in pieces; ended by @sig */
static void test_cli_follow(int sig, const char *name)
{
	char *dir = fake_debugfs(name), out[1100], err[1100], nm[200];
	/* a wide window: a loaded machine may pause this writer between two CPUs */
	char *args[] = { "report", "--follow", "--raw", "--window", "3000", NULL };
	pid_t pid;
	int fd[2], st;
	char *e;

	snprintf(out, sizeof(out), "%s.out", dir);
	snprintf(err, sizeof(err), "%s.err", dir);
	pid = spawn(dir, out, err, args);
	fd[0] = open_fifo(dir, 0);
	fd[1] = open_fifo(dir, 1);
	for (int k = 0; k < NSB; k++)
		for (int c = 0; c < 2; c++) {
			struct sbuf s;
			uint8_t pl[4];
			uint64_t t0 = 1000 * MS + (uint64_t)c * 500;

			/* CPU c's record i of sub-buffer k: ts t0 + (k*NPER+i) us, value
			 * (k*NPER+i)*2 + c (CPU 0 even, CPU 1 odd); 4 overrun before CPU 1's 8th */
			sb_begin(&s, (uint16_t)c, (uint64_t)k, t0 + (uint64_t)k * NPER * 1000, 0,
				 c == 1 && k == 7 ? 4 : 0);
			for (int i = 0; i < NPER; i++) {
				lgd_cap_put_u32(pl, (uint32_t)((k * NPER + i) * 2 + c));
				sb_rec(&s, t0 + (uint64_t)(k * NPER + i) * 1000, 1, LOGDEV_REC_PRINT, 0,
				       100, pl, 4);
			}
			write_pieces(fd[c], s.b, SBS, 100);
		}
	snprintf(nm, sizeof(nm), "%s: all records printed while following", name);
	CHECK_TRUE(wait_lines(out, "\tev\t10\tseq ", 2 * NSB * NPER, 20), nm);
	close(fd[0]);
	close(fd[1]);
	kill(pid, sig);
	st = wait_exit(pid, 20);
	snprintf(nm, sizeof(nm), "%s: ends on the signal, exit 3 (events lost)", name);
	CHECK_EQ(st, 3, nm);
	check_raw(out, 2 * NSB * NPER, name);
	e = slurp(err);
	snprintf(nm, sizeof(nm), "%s: lost-events summary per CPU", name);
	CHECK_STR_CONTAINS(e, "logdev: warning: lost events: cpu:0 0, cpu:1 4 (overrun 4)", nm);
	snprintf(nm, sizeof(nm), "%s: records counted in the summary", name);
	CHECK_STR_CONTAINS(e, "logdev: follow: 480 records, 0 late (marked), 0 before their window", nm);
	snprintf(nm, sizeof(nm), "%s: the gap printed in place", name);
	CHECK_EQ(count_lines(out, "LOST\t1\t4\toverrun"), 1, nm);
	free(e);
	free(dir);
}

/* CPU 1's records come after the window: printed, marked late, exit 3 */
static void test_cli_late(void)
{
	char *dir = fake_debugfs("late"), out[1100], err[1100], *o, *e;
	char *args[] = { "report", "--follow", "--window", "50", NULL };
	struct sbuf s;
	pid_t pid;
	int fd[2], st;

	snprintf(out, sizeof(out), "%s.out", dir);
	snprintf(err, sizeof(err), "%s.err", dir);
	pid = spawn(dir, out, err, args);
	fd[0] = open_fifo(dir, 0);
	fd[1] = open_fifo(dir, 1);
	mk_sb(&s, 0, 0, 2000 * MS, 1000, 3, 10, 0);
	write_pieces(fd[0], s.b, SBS, SBS);
	CHECK_TRUE(wait_lines(out, "cpu:0", 3, 10), "late: CPU 0 printed after the window");
	mk_sb(&s, 1, 0, 1000 * MS, 1000, 2, 20, 0);	/* a second older */
	write_pieces(fd[1], s.b, SBS, SBS);
	CHECK_TRUE(wait_lines(out, "(late: older than a record printed before it)", 2, 10),
		   "late: CPU 1's older records printed, marked late");
	kill(pid, SIGINT);
	st = wait_exit(pid, 20);
	CHECK_EQ(st, 3, "late: exit 3 (time order not kept)");
	o = slurp(out);
	e = slurp(err);
	CHECK_STR_CONTAINS(o, "cpu:1 pid:101 ev:10 seq 20  (late: older than a record printed before it)\n",
			   "late: the mark follows the line");
	CHECK_STR_CONTAINS(e, "logdev: follow: 5 records, 2 late (marked)", "late: counted");
	CHECK_STR_CONTAINS(e, "logdev: lost events: cpu:0 0, cpu:1 0\n", "late: nothing lost");
	close(fd[0]);
	close(fd[1]);
	free(o);
	free(e);
	free(dir);
}

/* nothing lost, nothing late: exit 0; --cpu 1 keeps CPU 1's lines */
static void test_cli_filter_clean(void)
{
	char *dir = fake_debugfs("clean"), out[1100], err[1100], *o;
	char *args[] = { "report", "-f", "--cpu", "1", "--window=3000", NULL };
	struct sbuf s;
	pid_t pid;
	int fd[2], st;

	snprintf(out, sizeof(out), "%s.out", dir);
	snprintf(err, sizeof(err), "%s.err", dir);
	pid = spawn(dir, out, err, args);
	fd[0] = open_fifo(dir, 0);
	fd[1] = open_fifo(dir, 1);
	mk_sb(&s, 0, 0, 1000 * MS, 1000, 3, 0, 0);
	write_pieces(fd[0], s.b, SBS, 64);
	mk_sb(&s, 1, 0, 1000 * MS + 500, 1000, 3, 100, 0);
	write_pieces(fd[1], s.b, SBS, 64);
	CHECK_TRUE(wait_lines(out, "cpu:1", 3, 10), "filter: CPU 1's records printed");
	kill(pid, SIGTERM);
	st = wait_exit(pid, 20);
	CHECK_EQ(st, 0, "clean: exit 0 (nothing lost, nothing late)");
	o = slurp(out);
	CHECK_EQ(count_lines(out, "cpu:0"), 0, "filter: --cpu 1 leaves CPU 0 out");
	CHECK_STR_CONTAINS(o, "cpu:1 pid:101 ev:10 seq 101  +1.000 us\n",
			   "filter: deltas per stream as in report");
	close(fd[0]);
	close(fd[1]);
	free(o);
	free(dir);
}

/* a site that registers while following: "formats" read again for it */
static void test_cli_new_site(void)
{
	char *dir = fake_debugfs("newsite"), out[1100], err[1100], *o, p[1200];
	char *args[] = { "report", "-f", "--site", "ev2*", NULL };
	struct sbuf s;
	uint8_t pl[4] = { 7, 0, 0, 0 };
	pid_t pid;
	int fd[2];
	FILE *f;

	snprintf(out, sizeof(out), "%s.out", dir);
	snprintf(err, sizeof(err), "%s.err", dir);
	pid = spawn(dir, out, err, args);
	fd[0] = open_fifo(dir, 0);
	fd[1] = open_fifo(dir, 1);
	usleep(200000);
	snprintf(p, sizeof(p), "%s/formats", dir);	/* site 2 registers now */
	f = fopen(p, "a");
	if (f) {
		fputs("2\tt.c\t20\tev2\tlate site %d\n", f);
		fclose(f);
	}
	sb_begin(&s, 0, 0, 1000 * MS, 0, 0);
	sb_rec(&s, 1000 * MS, 1, LOGDEV_REC_PRINT, 0, 100, pl, 4);
	sb_rec(&s, 1000 * MS + 1000, 2, LOGDEV_REC_PRINT, 0, 100, pl, 4);
	write_pieces(fd[0], s.b, SBS, SBS);
	CHECK_TRUE(wait_lines(out, "ev2:20 late site 7", 1, 10),
		   "new site: named from formats read again, and --site matches it");
	kill(pid, SIGINT);
	wait_exit(pid, 20);
	o = slurp(out);
	CHECK_TRUE(!strstr(o, "ev:10"), "new site: --site leaves the old site out");
	close(fd[0]);
	close(fd[1]);
	free(o);
	free(dir);
}

/*
 * the reorder buffer's bound (4 MiB): CPU 0 alone writes 5 MB with a 60 s
 * window, so records go out before their window: one EARLY line before
 * that run, every record once and in order, counted, exit 3
 */
static void test_cli_early(void)
{
	char *dir = fake_debugfs("early"), out[1100], err[1100], *e;
	char *args[] = { "report", "-f", "--raw", "--window", "60000", NULL };
	enum { N = 20000 };	/* sub-buffers of 6 records: 5 MB */
	pid_t pid;
	int fd[2], st;

	snprintf(out, sizeof(out), "%s.out", dir);
	snprintf(err, sizeof(err), "%s.err", dir);
	pid = spawn(dir, out, err, args);
	fd[0] = open_fifo(dir, 0);
	fd[1] = open_fifo(dir, 1);
	for (int k = 0; k < N; k++) {
		struct sbuf s;
		uint8_t pl[4];

		sb_begin(&s, 0, (uint64_t)k, 1000 * MS + (uint64_t)k * NPER * 1000, 0, 0);
		for (int i = 0; i < NPER; i++) {
			lgd_cap_put_u32(pl, (uint32_t)(k * NPER + i));
			sb_rec(&s, 1000 * MS + (uint64_t)(k * NPER + i) * 1000, 1, LOGDEV_REC_PRINT,
			       0, 100, pl, 4);
		}
		write_pieces(fd[0], s.b, SBS, SBS);
	}
	/* all read once what is beyond 4 MiB (16384 sub-buffers) is printed */
	CHECK_TRUE(wait_lines(out, "\tev\t10\tseq ", (N - 16384) * NPER - NPER, 60),
		   "early: the records beyond the bound printed while following");
	usleep(300000);
	kill(pid, SIGINT);
	st = wait_exit(pid, 60);
	CHECK_EQ(st, 3, "early: exit 3 (records before their window)");
	CHECK_EQ(count_lines(out, "EARLY\t0\t"), 1, "early: one EARLY line before the run");
	check_raw(out, N * NPER, "early");
	e = slurp(err);
	CHECK_STR_CONTAINS(e, "logdev: follow: 120000 records, 0 late (marked), ",
			   "early: all counted");
	CHECK_TRUE(!strstr(e, ", 0 before their window"), "early: records before their window counted");
	close(fd[0]);
	close(fd[1]);
	free(e);
	free(dir);
}

/* deltas --follow, not on a terminal: the table once, at the end */
static void test_cli_deltas(void)
{
	char *dir = fake_debugfs("deltas"), out[1100], err[1100], *o, *e;
	char *args[] = { "deltas", "--follow", "--window", "3000", NULL };
	struct sbuf s;
	pid_t pid;
	int fd[2], st;

	snprintf(out, sizeof(out), "%s.out", dir);
	snprintf(err, sizeof(err), "%s.err", dir);
	pid = spawn(dir, out, err, args);
	fd[0] = open_fifo(dir, 0);
	fd[1] = open_fifo(dir, 1);
	mk_sb(&s, 0, 0, 1000 * MS, 2000, 5, 0, 0);
	write_pieces(fd[0], s.b, SBS, SBS);
	mk_sb(&s, 1, 0, 1000 * MS, 3000, 4, 0, 2);
	write_pieces(fd[1], s.b, SBS, SBS);
	usleep(400000);
	kill(pid, SIGINT);
	st = wait_exit(pid, 20);
	CHECK_EQ(st, 3, "deltas: exit 3 (events lost)");
	o = slurp(out);
	e = slurp(err);
	CHECK_STR_CONTAINS(o, "ev:10                    ev:10                             7      2.000",
			   "deltas: 4 + 3 deltas of ev:10 -> ev:10, min 2 us");
	CHECK_EQ(count_lines(out, "from "), 1, "deltas: the table once (not a terminal)");
	CHECK_STR_CONTAINS(e, "lost events: cpu:0 0, cpu:1 2 (overrun 2)", "deltas: lost summary");
	close(fd[0]);
	close(fd[1]);
	free(o);
	free(e);
	free(dir);
}

/*
 * a breakdown marker (logdev_bd_switch) between two records of one stream:
 * never paired, live as in a capture: deltas --follow has ev:10 -> ev:10
 * only, report --follow's "+D" of the second ev spans the marker
 */
static void test_cli_marker(const char *verb)
{
	char name[64], out[1100], err[1100], *o;
	char *args[] = { (char *)verb, "--follow", "--window", "3000", NULL };
	char *dir;
	uint8_t pl[32] = { 0 };
	struct sbuf s;
	pid_t pid;
	int fd[2];

	snprintf(name, sizeof(name), "marker-%s", verb);
	dir = fake_debugfs(name);
	put_file(dir, "formats", "1\tt.c\t10\tev\tseq %d\n"
		 "2\tprobe\t0\tlogdev_bd_switch\tpreempt=%llu prev=0x%llx next=0x%llx prev_state=%llu\n");
	snprintf(out, sizeof(out), "%s.out", dir);
	snprintf(err, sizeof(err), "%s.err", dir);
	pid = spawn(dir, out, err, args);
	fd[0] = open_fifo(dir, 0);
	fd[1] = open_fifo(dir, 1);
	sb_begin(&s, 0, 0, 1000 * MS, 0, 0);
	sb_rec(&s, 1000 * MS, 1, LOGDEV_REC_PRINT, 0, 100, pl, 4);
	sb_rec(&s, 1000 * MS + 1000, 2, LOGDEV_REC_PRINT, 0, 100, pl, 32);
	sb_rec(&s, 1000 * MS + 5000, 1, LOGDEV_REC_PRINT, 0, 100, pl, 4);
	write_pieces(fd[0], s.b, SBS, SBS);
	usleep(400000);
	kill(pid, SIGINT);
	wait_exit(pid, 20);
	o = slurp(out);
	if (!strcmp(verb, "deltas"))
		CHECK_WHY(strstr(o, "ev:10                    ev:10                             1      5.000") &&
			  !strstr(o, "logdev_bd_switch"), "deltas --follow: a marker never pairs",
			  "out:\n%s", o);
	else
		CHECK_WHY(strstr(o, "+5.000 us") && !strstr(o, "+4.000 us"),
			  "report --follow: a marker never pairs", "out:\n%s", o);
	close(fd[0]);
	close(fd[1]);
	free(o);
	free(dir);
}

static void test_cli_usage(void)
{
	char *out, *err;

	CHECK_EQ(run_cli("report --follow some.cap", &out, &err), 2, "usage: --follow with FILE: 2");
	CHECK_STR_CONTAINS(err, "--follow reads the live buffers", "usage: says why");
	free(out);
	free(err);
	CHECK_EQ(run_cli("report --window 50 some.cap", &out, &err), 2,
		 "usage: --window without --follow: 2");
	free(out);
	free(err);
	CHECK_EQ(run_cli("report --follow --window 0", &out, &err), 2, "usage: --window 0: 2");
	CHECK_STR_CONTAINS(err, "--window", "usage: names --window");
	free(out);
	free(err);
	CHECK_EQ(run_cli("deltas --follow --durations", &out, &err), 2,
		 "usage: deltas --follow --durations: 2");
	free(out);
	free(err);
	CHECK_EQ(run_cli_env("LOGDEV_DEBUGFS=/nonexistent", "report --follow", &out, &err), 1,
		 "no live buffer: exit 1");
	CHECK_STR_CONTAINS(err, "no live logdev buffer at /nonexistent", "no live buffer: said");
	free(out);
	free(err);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: test_follow LOGDEV\n");
		return 2;
	}
	cli = argv[1];
	signal(SIGPIPE, SIG_IGN);
	if (tmpdir_make())
		return 1;
	test_cli_usage();
	test_cli_follow(SIGINT, "sigint");
	test_cli_follow(SIGTERM, "sigterm");
	test_cli_late();
	test_cli_filter_clean();
	test_cli_new_site();
	test_cli_deltas();
	test_cli_marker("deltas");
	test_cli_marker("report");
	test_cli_early();
	tmpdir_remove();
	printf("follow: %d passed, %d failed\n", ldc_passes, ldc_failures);
	return ldc_exit_status();
}
