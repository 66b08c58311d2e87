// SPDX-License-Identifier: GPL-2.0
/*
 * test_follow.c: "logdev report --follow" and "deltas --follow" (issue 11
 * item 5), without a kernel:
 *   - the library's live merge (live.c) fed by hand: the reorder window
 *     (by trace clock, by wall time, all CPUs waiting), a late record
 *     marked and counted, the byte bound (records handed out early,
 *     marked), a sub-buffer fed in pieces, lost events per CPU, comm
 *     records as task names, memory back to nothing after a long run,
 *     flipped bytes fed in random pieces (no crash, nothing held after);
 *   - the CLI against a fake debugfs directory (LOGDEV_DEBUGFS) whose
 *     per_cpu/cpuN/trace_pipe_raw are FIFOs fed by this program in pieces:
 *     every record printed exactly once, in time order; a CPU whose data
 *     comes after the window prints its records marked late; SIGINT and
 *     SIGTERM end it with the records held and the lost-events summary,
 *     exit 3 with lost events, 0 without; --cpu filters; a site that
 *     registers while following is named (formats read again) and --site
 *     matches it; deltas --follow's final table; 5 MB from one CPU with a
 *     60 s window: over the 4 MiB bound records go out early, one EARLY
 *     line, none lost or reordered; usage errors.
 *
 * Usage: test_follow PATH-TO-logdev
 * Output: "PASS: name" / "FAIL: name: why"; exit 1 if anything failed.
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
#include "testlib.h"

char tmpdir[] = "/tmp/logdev-follow-XXXXXX";

static const char formats_text[] =
	"# id\tfile\tline\tfunc\tformat\n"
	"1\tt.c\t10\tev\tseq %d\n";

#define MS	1000000ull

/* a sub-buffer of CPU @cpu, seq @seq, @n records of site 1 at ts0, ts0+step, ... */
static void mk_sb(struct sbuf *s, uint16_t cpu, uint64_t seq, uint64_t ts0, uint64_t step,
		  int n, int first_val, uint32_t overrun)
{
	uint8_t pl[4];

	sb_begin(s, cpu, seq, ts0, 0, overrun);
	for (int i = 0; i < n; i++) {
		lgd_cap_put_u32(pl, (uint32_t)(first_val + i));
		sb_rec(s, ts0 + (uint64_t)i * step, 1, LOGDEV_REC_PRINT, 0, 100 + cpu, pl, 4);
	}
}

static uint32_t val_of(const struct lgd_item *it)
{
	return it->payload[0] | it->payload[1] << 8 | it->payload[2] << 16 |
	       (uint32_t)it->payload[3] << 24;
}

static int open_meta(struct lgd_reader *r)
{
	struct buf b = { 0 };
	struct lgd_diag d;
	char *p;
	int ret;

	cap_meta(&b, formats_text);
	p = write_tmp("meta.cap", b.p, b.n);
	free(b.p);
	ret = lgd_reader_open(r, p, NULL, NULL, &d);
	return ret;
}

/* ---- the library's live merge ------------------------------------------ */

static void test_live_window(void)
{
	static const uint32_t cpus[2] = { 0, 1 };
	struct lgd_reader r;
	struct lgd_live lv;
	struct lgd_item it;
	struct sbuf s;
	unsigned int fl;
	uint64_t k[9];

	if (open_meta(&r)) {
		fail("live: meta", "cannot open the metadata capture");
		return;
	}
	CHECK_EQ(lgd_live_init(&lv, &r, cpus, 2, 50 * MS, 0), 0, "live: init");
	/* CPU 0 only, 1 ms of records: CPU 1 might still bring older ones */
	mk_sb(&s, 0, 0, 1000 * MS, 100000, 5, 0, 0);
	CHECK_EQ(lgd_live_feed(&lv, 0, s.b, 100, 0), 0, "live: feed a piece");
	CHECK_EQ(lv.held_bytes, 0, "live: a piece of a sub-buffer is not held yet");
	CHECK_EQ(lgd_live_feed(&lv, 0, s.b + 100, SBS - 100, 0), 0, "live: feed the rest");
	CHECK_EQ(lv.held_bytes, SBS, "live: the whole sub-buffer held");
	CHECK_EQ(lgd_live_next(&lv, 10 * MS, 0, &it, &fl), 0,
		 "live: inside the window, one CPU silent: nothing goes out");
	CHECK_EQ(lgd_live_deadline(&lv), 50 * MS, "live: due at feed time + window (wall)");
	/* CPU 1 brings records interleaved: now both wait, the merge may go */
	mk_sb(&s, 1, 0, 1000 * MS + 50000, 100000, 5, 100, 3);
	lgd_live_feed(&lv, 1, s.b, SBS, 10 * MS);
	{
		int n = 0, order = 1, gap = 0;
		uint64_t prev = 0;

		while (lgd_live_next(&lv, 10 * MS, 0, &it, &fl) > 0) {
			if (it.kind == LGD_ITEM_GAP) {
				gap += it.cpu == 1 && it.gap_kind == LGD_GAP_OVERRUN &&
				       it.gap_count == 3;
				continue;
			}
			order &= it.ts >= prev && !fl;
			prev = it.ts;
			n++;
		}
		/* out while both CPUs have one waiting: up to CPU 0's last (CPU 1's last waits) */
		CHECK_EQ(n, 9, "live: both CPUs waiting: merged out to the last but one");
		CHECK_TRUE(order, "live: merged in time order, no mark");
		CHECK_EQ(gap, 1, "live: the overrun gap of CPU 1 comes out");
	}
	CHECK_EQ(lgd_live_next(&lv, 10 * MS, 0, &it, &fl), 0,
		 "live: CPU 1's last record waits (CPU 0 silent, window not passed)");
	CHECK_EQ(lgd_live_next(&lv, 61 * MS, 0, &it, &fl), 1,
		 "live: after the window of wall time it goes out");
	CHECK_EQ(val_of(&it), 104, "live: that is CPU 1's last record");
	/* a record of CPU 0 older than CPU 1's last: late, printed, counted */
	mk_sb(&s, 0, 1, 1000 * MS + 420000, 1, 1, 5, 0);
	lgd_live_feed(&lv, 0, s.b, SBS, 70 * MS);
	CHECK_EQ(lgd_live_next(&lv, 200 * MS, 0, &it, &fl), 1, "live: late record out");
	CHECK_EQ(fl, LGD_LIVE_LATE, "live: late record marked late");
	CHECK_EQ(val_of(&it), 5, "live: the late record is CPU 0's");
	CHECK_EQ(lv.late, 1, "live: late records counted");
	CHECK_EQ(lv.records, 11, "live: records counted");
	/* trace-clock window: a record 60 ms newer than the waiting one lets it out */
	mk_sb(&s, 1, 1, 2000 * MS, 1, 1, 200, 0);
	lgd_live_feed(&lv, 1, s.b, SBS, 300 * MS);
	CHECK_EQ(lgd_live_next(&lv, 300 * MS, 0, &it, &fl), 0,
		 "live: alone and new: waits");
	mk_sb(&s, 1, 2, 2060 * MS, 1, 1, 201, 0);
	lgd_live_feed(&lv, 1, s.b, SBS, 300 * MS);
	CHECK_EQ(lgd_live_next(&lv, 300 * MS, 0, &it, &fl), 1,
		 "live: 60 ms older than the newest record (window 50): out");
	CHECK_EQ(val_of(&it), 200, "live: the older one first");
	CHECK_EQ(lgd_live_next(&lv, 300 * MS, 0, &it, &fl), 0, "live: the newest waits");
	CHECK_EQ(lgd_live_next(&lv, 300 * MS, 1, &it, &fl), 1, "live: drain hands it out");
	CHECK_EQ(lgd_live_next(&lv, 300 * MS, 1, &it, &fl), 0, "live: drained: empty");
	CHECK_EQ(lv.held_bytes, 0, "live: drained: nothing held");
	CHECK_EQ(lgd_live_deadline(&lv), UINT64_MAX, "live: nothing held: no deadline");
	CHECK_EQ(lgd_reader_lost(&r, 1, k, NULL), 3, "live: lost records of CPU 1 (the reader's counts)");
	CHECK_EQ(k[LGD_GAP_OVERRUN], 3, "live: lost by kind");
	CHECK_EQ(lgd_reader_lost(&r, 0, k, NULL), 0, "live: CPU 0 lost nothing");
	lgd_live_free(&lv);
	lgd_reader_close(&r);
}

/* the byte bound: records go out early, marked, and memory stays bounded */
static void test_live_bound(void)
{
	static const uint32_t cpus[2] = { 0, 1 };
	struct lgd_reader r;
	struct lgd_live lv;
	struct lgd_item it;
	struct sbuf s;
	unsigned int fl;
	uint64_t maxheld = 0, n = 0, early = 0, last = 0;
	int order = 1, seq_ok = 1;

	if (open_meta(&r)) {
		fail("bound: meta", "cannot open the metadata capture");
		return;
	}
	/* bound 8 sub-buffers; CPU 1 silent; window 1 s never passes */
	CHECK_EQ(lgd_live_init(&lv, &r, cpus, 2, 1000 * MS, 8 * SBS), 0, "bound: init");
	for (int k = 0; k < 10000; k++) {
		mk_sb(&s, 0, (uint64_t)k, 1000 * MS + (uint64_t)k * 1000, 100, 6, k * 6, 0);
		lgd_live_feed(&lv, 0, s.b, SBS, 0);
		if (lv.held_bytes > maxheld)
			maxheld = lv.held_bytes;
		while (lgd_live_next(&lv, 0, 0, &it, &fl) > 0) {
			seq_ok &= val_of(&it) == n;
			order &= it.ts >= last;
			last = it.ts;
			early += !!(fl & LGD_LIVE_EARLY);
			n++;
		}
	}
	CHECK_WHY(maxheld <= 9 * SBS, "bound: held bytes never above the bound + one feed",
		  "max held %llu bytes, bound %d", (unsigned long long)maxheld, 8 * SBS);
	CHECK_TRUE(early > 0 && early == n, "bound: every record out before its window is marked early");
	CHECK_TRUE(seq_ok && order, "bound: early records keep their order, none lost");
	CHECK_EQ(lv.early, early, "bound: early records counted");
	while (lgd_live_next(&lv, 0, 1, &it, &fl) > 0)
		seq_ok &= val_of(&it) == n++;
	CHECK_EQ(n, 60000, "bound: all 60000 records out after the drain");
	CHECK_TRUE(seq_ok, "bound: every record exactly once");
	CHECK_EQ(lv.held_bytes, 0, "bound: nothing held after the drain");
	lgd_live_free(&lv);
	lgd_reader_close(&r);
}

/* comm records are task names, not items; corrupt sub-buffers are gaps */
static void test_live_comm_corrupt(void)
{
	static const uint32_t cpus[1] = { 0 };
	struct lgd_reader r;
	struct lgd_live lv;
	struct lgd_item it;
	struct sbuf s;
	unsigned int fl;
	uint8_t junk[SBS];
	int nrec = 0, ncorrupt = 0;
	const char *name;

	if (open_meta(&r)) {
		fail("comm: meta", "cannot open the metadata capture");
		return;
	}
	lgd_live_init(&lv, &r, cpus, 1, 50 * MS, 0);
	sb_begin(&s, 0, 0, 1000, 0, 0);
	sb_rec(&s, 1000, 0, LOGDEV_REC_COMM, 0, 100, "worker\0\0\0\0\0\0\0\0\0", LOGDEV_COMM_LEN);
	sb_rec(&s, 1001, 1, LOGDEV_REC_PRINT, 0, 100, "\1\0\0\0", 4);
	lgd_live_feed(&lv, 0, s.b, SBS, 0);
	memset(junk, 0x5a, sizeof(junk));
	lgd_live_feed(&lv, 0, junk, SBS, 0);
	while (lgd_live_next(&lv, 0, 0, &it, &fl) > 0) {	/* one CPU: all waiting */
		nrec += it.kind == LGD_ITEM_REC;
		ncorrupt += it.kind == LGD_ITEM_GAP && it.gap_kind == LGD_GAP_CORRUPT;
	}
	CHECK_EQ(nrec, 1, "comm: the comm record is no item");
	name = lgd_comm_at(&r, 100, 1001);
	CHECK_STR_EQ(name ? name : "(none)", "worker", "comm: its name is the task's");
	CHECK_EQ(ncorrupt, 1, "corrupt: a bad sub-buffer is a corrupt gap");
	CHECK_EQ(lv.held_bytes, 0, "corrupt: nothing held");
	lgd_live_free(&lv);
	lgd_reader_close(&r);
}

/* warnings of the live merge, counted */
static void count_warn(void *arg, const struct lgd_diag *d)
{
	(void)d;
	(*(int *)arg)++;
}

/*
 * A damaged seq in the live buffers (2^32+2 between 1 and 3) is no loss of
 * 2^32 sub-buffers: with the next sub-buffer queued it is read as 2
 * (damaged), fed one at a time it is an impossible jump then a step back;
 * warned either way, no sub-buffer counted lost.
 */
static void test_live_seq(void)
{
	static const uint32_t cpus[1] = { 0 };
	static const uint64_t seqs[4] = { 0, 1, (1ull << 32) + 2, 3 };

	for (int one_by_one = 0; one_by_one < 2; one_by_one++) {
		struct lgd_reader r;
		struct lgd_live lv;
		struct lgd_item it;
		struct sbuf s;
		unsigned int fl;
		uint64_t k[LGD_GAP_NR];
		int warns = 0, gaps = 0, recs = 0;

		if (open_meta(&r)) {
			fail("live seq: meta", "cannot open the metadata capture");
			return;
		}
		r.warn = count_warn;
		r.warn_arg = &warns;
		lgd_live_init(&lv, &r, cpus, 1, 50 * MS, 0);
		for (int i = 0; i < 4; i++) {
			mk_sb(&s, 0, seqs[i], 1000 * MS + (uint64_t)i * 1000, 100, 2, 2 * i, 0);
			lgd_live_feed(&lv, 0, s.b, SBS, 0);
			while (one_by_one && lgd_live_next(&lv, 0, 0, &it, &fl) > 0) {
				recs += it.kind == LGD_ITEM_REC;
				gaps += it.kind == LGD_ITEM_GAP;
			}
		}
		while (lgd_live_next(&lv, 0, 1, &it, &fl) > 0) {
			recs += it.kind == LGD_ITEM_REC;
			gaps += it.kind == LGD_ITEM_GAP;
		}
		lgd_reader_lost(&r, 0, k, NULL);
		CHECK_WHY(recs == 8 && !gaps && !k[LGD_GAP_SUBBUFS] && warns == (one_by_one ? 2 : 1),
			  NAMEF("live seq: a damaged seq (%s) is warned, no sub-buffer lost",
				one_by_one ? "fed one at a time" : "the next one queued"),
			  "%d records, %d gaps, subbufs %llu, %d warnings", recs, gaps,
			  (unsigned long long)k[LGD_GAP_SUBBUFS], warns);
		lgd_live_free(&lv);
		lgd_reader_close(&r);
	}
}

/* hostile bytes in random pieces: no crash, nothing held after the drain */
static void test_live_hostile(void)
{
	static const uint32_t cpus[2] = { 0, 1 };
	struct lgd_reader r;
	struct lgd_live lv;
	struct lgd_item it;
	unsigned int fl, seed = 12345;
	uint64_t items = 0;

	if (open_meta(&r)) {
		fail("hostile: meta", "cannot open the metadata capture");
		return;
	}
	lgd_live_init(&lv, &r, cpus, 2, 50 * MS, 16 * SBS);
	for (int k = 0; k < 3000; k++) {
		struct sbuf s;
		uint8_t pl[4] = { 1, 0, 0, 0 };
		size_t off = 0;

		mk_sb(&s, (uint16_t)(k & 1), (uint64_t)(rand_r(&seed) % 50), rand_r(&seed), 1000,
		      1 + rand_r(&seed) % 5, k, 0);
		sb_rec(&s, rand_r(&seed) % 4 ? 5 : 0, 1 + rand_r(&seed) % 3, LOGDEV_REC_PRINT, 0, 1,
		       pl, 4);
		for (int j = rand_r(&seed) % 6; j > 0; j--)	/* flip a few bytes anywhere */
			s.b[rand_r(&seed) % SBS] ^= (uint8_t)(1 + rand_r(&seed) % 255);
		while (off < SBS) {
			size_t n = 1 + rand_r(&seed) % 300;

			n = n > SBS - off ? SBS - off : n;
			lgd_live_feed(&lv, (uint32_t)(k & 1), s.b + off, n, (uint64_t)k * MS);
			off += n;
		}
		while (lgd_live_next(&lv, (uint64_t)k * MS, 0, &it, &fl) > 0)
			items++;
	}
	while (lgd_live_next(&lv, 0, 1, &it, &fl) > 0)
		items++;
	CHECK_TRUE(items > 3000, "hostile: flipped bytes: items come out, no crash");
	CHECK_EQ(lv.held_bytes, 0, "hostile: nothing held after the drain");
	lgd_live_free(&lv);
	lgd_reader_close(&r);
}

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
	test_live_window();
	test_live_bound();
	test_live_comm_corrupt();
	test_live_seq();
	test_live_hostile();
	test_cli_usage();
	test_cli_follow(SIGINT, "sigint");
	test_cli_follow(SIGTERM, "sigterm");
	test_cli_late();
	test_cli_filter_clean();
	test_cli_new_site();
	test_cli_deltas();
	test_cli_early();
	tmpdir_remove();
	return ldc_exit_status();
}
