// SPDX-License-Identifier: GPL-2.0
/*
 * vmtool: guest-side helpers for the VM tests that need more than busybox
 * (built static on the host by tests/vm/run-tests.sh, run in the guest).
 *
 *   vmtool eof-read CPU      one blocking reader of CPU's trace_pipe_raw:
 *                            prints "ready", reads until read() returns 0,
 *                            then reads once more; prints
 *                            "records=R after_eof=B" (B: bytes the read after
 *                            the first EOF returned, must be 0)
 *   vmtool eof-poll CPU      the same through poll(): waits in poll(), reads
 *                            on POLLIN; on POLLHUP without POLLIN reads once:
 *                            data there is a violation (counted in
 *                            hup_with_data); prints
 *                            "records=R hup_with_data=H after_eof=B"
 *   vmtool cross ROUNDS      does every sub-buffer name the tasks of its
 *                            records (comm records)? see cross_main()
 *   vmtool seed-rng          credit entropy (test guests: %p hash key)
 *   vmtool hotplug SECONDS   CPUs 1..N-1 offline/online in a loop under
 *                            writers and readers; vmtool ctlstorm SECONDS:
 *                            concurrent writers to every control file;
 *                            vmtool probestorm SECONDS: the probes file
 *                            under concurrent add/remove while probes fire
 *                            (see "faults under load" below; PASS:/FAIL:)
 *   vmtool stress SECONDS ITERS SEED
 *                            control-write stress, see stress() below; prints
 *                            PASS:/FAIL: lines (name vm-stress-smpN)
 *
 * Exit status: 0, or 1 on a setup error (or a FAIL line for stress).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/logdev.h>
#include <linux/random.h>

#define D	"/sys/kernel/debug/logdev"
#define T	"/sys/kernel/debug/logdev_test"
#define MAXSB	65536
#define MAXCPU	64

static int open_pipe(int cpu)
{
	char path[128];
	int fd;

	snprintf(path, sizeof(path), D "/per_cpu/cpu%d/trace_pipe_raw", cpu);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		fprintf(stderr, "vmtool: open %s: %s\n", path, strerror(errno));
	return fd;
}

/* losses by cause, as in the sub-buffer header and the stats file */
enum { L_OVERRUN, L_DROPPED, L_NESTING_LOST, L_TOO_BIG, L_NR };
static const char *const l_name[L_NR] = { "overrun", "dropped", "nesting_lost", "too_big" };

/*
 * Records in @n bytes of whole sub-buffers of @sb bytes, comm records
 * (LOGDEV_REC_COMM, which the stats count as written too) included and also
 * added to *@comm if given; losses in their headers added to @lost[L_*].
 * Returns -1 on a malformed sub-buffer.
 */
static long count_records(const unsigned char *buf, size_t n, size_t sb,
			  int cpu, uint64_t *lost, long *comm)
{
	long recs = 0;
	size_t o;

	if (!sb || n % sb)
		return -1;
	for (o = 0; o < n; o += sb) {
		const struct logdev_subbuf_hdr *h = (const void *)(buf + o);
		uint32_t off = 0;

		if (h->magic != LOGDEV_SUBBUF_MAGIC || h->version != LOGDEV_FORMAT_VERSION ||
		    (cpu >= 0 && h->cpu != cpu) || h->data_bytes > sb - LOGDEV_SUBBUF_HDR_SIZE)
			return -1;
		if (lost) {
			lost[L_OVERRUN] += h->overrun_before;
			lost[L_DROPPED] += h->dropped_before;
			lost[L_NESTING_LOST] += h->nesting_lost_before;
			lost[L_TOO_BIG] += h->too_big_before;
		}
		while (off + LOGDEV_REC_HDR_SIZE <= h->data_bytes) {
			const struct logdev_rec_hdr *r =
				(const void *)(buf + o + LOGDEV_SUBBUF_HDR_SIZE + off);

			if (r->len < LOGDEV_REC_HDR_SIZE || r->len % 8 ||
			    off + r->len > h->data_bytes)
				return -1;
			off += r->len;
			recs++;
			if (comm && r->type == LOGDEV_REC_COMM)
				(*comm)++;
		}
		if (off != h->data_bytes)
			return -1;
	}
	return recs;
}

static int read_u32_file(const char *path, unsigned int *v)
{
	FILE *f = fopen(path, "r");
	int ok;

	if (!f)
		return -1;
	ok = fscanf(f, "%u", v) == 1;
	fclose(f);
	return ok ? 0 : -1;
}

static unsigned char eofbuf[MAXSB];

static int eof_main(int cpu, int use_poll)
{
	unsigned int sb;
	long recs = 0, k, comm = 0;
	ssize_t n, after = 0;
	int fd, hup_data = 0;

	if (read_u32_file(D "/subbuf_size", &sb) || sb > MAXSB)
		return 1;
	fd = open_pipe(cpu);
	if (fd < 0)
		return 1;
	printf("ready\n");
	fflush(stdout);
	for (;;) {
		if (use_poll) {
			struct pollfd p = { .fd = fd, .events = POLLIN };

			if (poll(&p, 1, -1) < 0) {
				if (errno == EINTR)
					continue;
				perror("vmtool: poll");
				return 1;
			}
			if ((p.revents & POLLHUP) && !(p.revents & POLLIN)) {
				/* a read now must give nothing */
				n = read(fd, eofbuf, sb);
				if (n > 0) {
					hup_data++;
					k = count_records(eofbuf, n, sb, cpu, NULL, &comm);
					recs += k > 0 ? k : 0;
					continue;
				}
				break;
			}
		}
		n = read(fd, eofbuf, sb);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			perror("vmtool: read");
			return 1;
		}
		if (n == 0)
			break;
		k = count_records(eofbuf, n, sb, cpu, NULL, &comm);
		if (k < 0) {
			fprintf(stderr, "vmtool: malformed sub-buffer\n");
			return 1;
		}
		recs += k;
	}
	after = read(fd, eofbuf, sb);
	recs -= comm;	/* the burst's records only */
	if (use_poll)
		printf("records=%ld hup_with_data=%d after_eof=%zd\n", recs,
		       hup_data, after);
	else
		printf("records=%ld after_eof=%zd\n", recs, after);
	close(fd);
	return 0;
}

/* ------------------------------------------------------------------ stress */
/*
 * Writers: logdev_test's "run" (task, softirq, hardirq, NMI on every online
 * CPU) written again and again by one thread.  Readers: one consuming
 * reader per CPU.  Controller (main thread): epochs.  An epoch starts with
 * recording off and every reader drained (read() returned 0 after the stop);
 * then enable 1, then random steps: enable 0/1, flush, and writes of clear,
 * buffer_size_kb, subbuf_size, mode, clock, which must be refused with
 * EBUSY and change nothing: the readers have their trace_pipe_raw open
 * (issue 24: a reset under an open reader lost its unread records without a
 * mark).  The epoch ends with enable 0 and the readers drained to EOF; then, per CPU,
 *   records read == stats read,  read + lost in headers == stats written,
 *   lost in headers == overrun + dropped + nesting_lost + too_big, and
 *   for each cause, its *_before in headers == its stats counter.
 * Between epochs (recording off, every reader's file closed) one of
 * buffer_size_kb, subbuf_size, mode, clock is changed (must apply and read
 * back), then clear; the readers open their files again before the next.
 * A reader getting read() == 0 while recording was on for the whole read
 * is a failure (fault 3's class).
 */
static int ncpu;
static volatile int stop_writers, stop_readers;
static volatile int en_state;		/* 1: enabled */
static volatile unsigned int en_gen;	/* bumped at every enable write */
static volatile unsigned int cur_sb = 4096;
static volatile unsigned int pause_req;	/* epoch number whose end drains */
static int fails;

struct rd {
	pthread_t th;
	int cpu;
	uint64_t recs, lost[L_NR];	/* this epoch */
	volatile unsigned int acked;	/* pause_req value seen drained */
	volatile int is_open;		/* its trace_pipe_raw is open */
	uint64_t eof_while_on, bad, errors;
	char err[160];
};
static struct rd rds[MAXCPU];

static void fail(const char *fmt, ...)
{
	va_list ap;

	printf("FAIL: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	fails++;
}

static char name[32];

static void *reader(void *arg)
{
	struct rd *r = arg;
	unsigned char *buf = malloc(MAXSB);
	int fd = open_pipe(r->cpu);

	if (fd < 0 || !buf) {
		r->errors++;
		return NULL;
	}
	__atomic_store_n(&r->is_open, 1, __ATOMIC_RELEASE);
	while (!stop_readers) {
		unsigned int want = __atomic_load_n(&pause_req, __ATOMIC_ACQUIRE);
		unsigned int g0 = en_gen, on0 = en_state;
		unsigned int sb = cur_sb;
		ssize_t n;
		long k;

		if (want && r->acked == want) {
			/* drained for this pause: close (the controller resets
			 * the buffers), then wait for the next epoch */
			if (fd >= 0) {
				close(fd);
				fd = -1;
				__atomic_store_n(&r->is_open, 0, __ATOMIC_RELEASE);
			}
			usleep(1000);
			continue;
		}
		if (fd < 0) {
			fd = open_pipe(r->cpu);
			if (fd < 0) {
				r->errors++;
				break;
			}
			__atomic_store_n(&r->is_open, 1, __ATOMIC_RELEASE);
		}
		n = read(fd, buf, sb);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			snprintf(r->err, sizeof(r->err), "read: %s", strerror(errno));
			r->errors++;
			usleep(1000);
			continue;
		}
		if (n == 0) {
			if (on0 && en_state && g0 == en_gen)
				r->eof_while_on++;
			if (want)
				__atomic_store_n(&r->acked, want, __ATOMIC_RELEASE);
			else
				usleep(1000);
			continue;
		}
		k = count_records(buf, n, sb, r->cpu, r->lost, NULL);
		if (k < 0)
			r->bad++;
		else
			r->recs += k;
	}
	if (fd >= 0)
		close(fd);
	free(buf);
	return NULL;
}

static unsigned int iters;

static void *writer(void *arg)
{
	char s[32];
	int fd;

	(void)arg;
	snprintf(s, sizeof(s), "%u\n", iters);
	while (!stop_writers) {
		fd = open(T "/run", O_WRONLY);
		if (fd < 0 || write(fd, s, strlen(s)) != (ssize_t)strlen(s)) {
			fail("%s: logdev_test run: %s", name, strerror(errno));
			if (fd >= 0)
				close(fd);
			break;
		}
		close(fd);
	}
	return NULL;
}

/* One write(2) of @val to D/@file: 0 or errno. */
static int put(const char *file, const char *val)
{
	char path[128];
	int fd, err = 0;

	snprintf(path, sizeof(path), D "/%s", file);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return errno;
	if (write(fd, val, strlen(val)) != (ssize_t)strlen(val))
		err = errno ? errno : EIO;
	close(fd);
	return err;
}

/* Content of D/@file, selected word for "[x] y" files. */
static void get(const char *file, char *out, size_t size)
{
	char path[128], buf[128], *b, *e;
	FILE *f;

	snprintf(path, sizeof(path), D "/%s", file);
	out[0] = '\0';
	f = fopen(path, "r");
	if (!f)
		return;
	if (fgets(buf, sizeof(buf), f)) {
		buf[strcspn(buf, "\n")] = '\0';
		b = strchr(buf, '[');
		e = b ? strchr(b, ']') : NULL;
		if (b && e) {
			*e = '\0';
			snprintf(out, size, "%s", b + 1);
		} else {
			snprintf(out, size, "%s", buf);
		}
	}
	fclose(f);
}

static unsigned long nops, nbusy;

static void set_enable(int on)
{
	int err;

	if (!on)
		en_state = 0;
	__atomic_add_fetch(&en_gen, 1, __ATOMIC_SEQ_CST);
	err = put("enable", on ? "1\n" : "0\n");
	if (err)
		fail("%s: enable %d refused: %s", name, on, strerror(err));
	__atomic_add_fetch(&en_gen, 1, __ATOMIC_SEQ_CST);
	if (on)
		en_state = 1;
	nops++;
}

/* While enabled: @file=@val must be refused with EBUSY, value kept. */
static void expect_busy(const char *file, const char *val)
{
	char before[128], after[128];
	int err;

	get(file, before, sizeof(before));
	err = put(file, val);
	get(file, after, sizeof(after));
	nops++;
	if (err != EBUSY)
		fail("%s: %s <- %s with readers open: %s, want EBUSY", name, file,
		     val, err ? strerror(err) : "accepted");
	else if (strcmp(before, after))
		fail("%s: %s <- %s refused but changed '%s' -> '%s'", name,
		     file, val, before, after);
	else
		nbusy++;
}

/* While disabled: @file=@val must apply and read back @want. */
static void expect_ok(const char *file, const char *val, const char *want)
{
	char got[128];
	int err = put(file, val);

	nops++;
	get(file, got, sizeof(got));
	if (err)
		fail("%s: %s <- %s while disabled refused: %s", name, file, val,
		     strerror(err));
	else if (strcmp(got, want))
		fail("%s: %s <- %s reads back '%s', want '%s'", name, file, val,
		     got, want);
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

struct st { unsigned long long w, r, lost[L_NR], by; };

static int read_stats(struct st *st)
{
	FILE *f = fopen(D "/stats", "r");
	char line[256];
	int cpu, n = 0;
	struct st s;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "cpu=%d written=%llu read=%llu overrun=%llu dropped=%llu nesting_lost=%llu too_big=%llu bytes=%llu",
			   &cpu, &s.w, &s.r, &s.lost[L_OVERRUN], &s.lost[L_DROPPED],
			   &s.lost[L_NESTING_LOST], &s.lost[L_TOO_BIG], &s.by) == 8 &&
		    cpu >= 0 && cpu < MAXCPU) {
			st[cpu] = s;
			n++;
		}
	}
	fclose(f);
	return n;
}

/* is reader @r's file open (@want 1) or closed (0)? */
static int rd_open_is(const struct rd *r, unsigned int want)
{
	return __atomic_load_n(&r->is_open, __ATOMIC_ACQUIRE) == (int)want;
}

/* has reader @r drained to EOF for pause @want? */
static int rd_drained(const struct rd *r, unsigned int want)
{
	return __atomic_load_n(&r->acked, __ATOMIC_ACQUIRE) == want;
}

/* Wait up to 30 s until @ok(reader, @want) holds for every reader: 0, or -1 (said: @what). */
static int readers_wait(int (*ok)(const struct rd *, unsigned int), unsigned int want,
			const char *what)
{
	double t0 = now();
	int c, all;

	do {
		all = 1;
		for (c = 0; c < ncpu; c++)
			if (!ok(&rds[c], want))
				all = 0;
		if (all)
			return 0;
		sleep_ms(2);
	} while (now() - t0 < 30);
	fail("%s: readers %s after 30 s", name, what);
	return -1;
}

/* Wait until every reader's file is @open (1) or closed (0): 0, or -1. */
static int readers_open(int open)
{
	return readers_wait(rd_open_is, (unsigned int)open,
			    open ? "have not opened their files" : "have not closed their files");
}

/* Recording is off: wait until every reader saw EOF after the stop. */
static int drain(unsigned int epoch)
{
	char what[64];

	__atomic_store_n(&pause_req, epoch, __ATOMIC_RELEASE);
	snprintf(what, sizeof(what), "not at EOF of epoch %u after enable 0", epoch);
	return readers_wait(rd_drained, epoch, what);
}

static unsigned long long tot_read, tot_lost, tot_written;
static unsigned int exact_epochs, inexact_epochs;

static void check_epoch(unsigned int epoch, int exact)
{
	struct st st[MAXCPU];
	int c;

	memset(st, 0, sizeof(st));
	if (read_stats(st) < ncpu) {
		fail("%s: stats unreadable", name);
		return;
	}
	for (c = 0; c < ncpu; c++) {
		struct rd *r = &rds[c];
		unsigned long long slost = 0, lost = 0;
		int k;

		for (k = 0; k < L_NR; k++) {
			slost += st[c].lost[k];
			lost += r->lost[k];
		}
		if (exact && (r->recs != st[c].r || r->recs + lost != st[c].w ||
			      lost != slost))
			fail("%s: epoch %u cpu %d: read %llu + lost %llu != written %llu (stats read %llu lost %llu)",
			     name, epoch, c, (unsigned long long)r->recs,
			     lost, st[c].w, st[c].r, slost);
		for (k = 0; exact && k < L_NR; k++)
			if (r->lost[k] != st[c].lost[k])
				fail("%s: epoch %u cpu %d: %s_before in headers %llu != stats %s %llu",
				     name, epoch, c, l_name[k], (unsigned long long)r->lost[k],
				     l_name[k], st[c].lost[k]);
		if (exact) {
			tot_read += r->recs;
			tot_lost += lost;
			tot_written += st[c].w;
		}
		r->recs = 0;
		memset(r->lost, 0, sizeof(r->lost));
	}
	if (exact)
		exact_epochs++;
	else
		inexact_epochs++;
}

/* Between epochs, recording off: change one setting, then clear. */
static const char *const modes[] = { "overwrite", "discard" };
static const char *const clocks[] = { "local", "global", "mono" };
static const unsigned int sbs[] = { 1024, 4096, 8192 };
static const unsigned int kbs[] = { 16, 32, 64 };

static void between(unsigned int epoch)
{
	char v[32], w[32], cur[128];
	unsigned int x;

	switch (epoch % 4) {
	case 0:
		x = kbs[rand() % 3];
		get("subbuf_size", cur, sizeof(cur));
		if (x * 1024 / (unsigned int)atoi(cur) < 2)
			x = 2 * atoi(cur) / 1024;
		snprintf(v, sizeof(v), "%u\n", x);
		snprintf(w, sizeof(w), "%u", x);
		expect_ok("buffer_size_kb", v, w);
		break;
	case 1:
		x = sbs[rand() % 3];
		snprintf(v, sizeof(v), "%u\n", x);
		snprintf(w, sizeof(w), "%u", x);
		get("buffer_size_kb", cur, sizeof(cur));
		if ((unsigned int)atoi(cur) * 1024 / x < 2)
			break;
		expect_ok("subbuf_size", v, w);
		break;
	case 2:
		x = rand() % 2;
		snprintf(v, sizeof(v), "%s\n", modes[x]);
		expect_ok("mode", v, modes[x]);
		break;
	case 3:
		x = rand() % 3;
		snprintf(v, sizeof(v), "%s\n", clocks[x]);
		expect_ok("clock", v, clocks[x]);
		break;
	}
	get("subbuf_size", cur, sizeof(cur));
	cur_sb = atoi(cur);
	if (put("clear", "1\n"))
		fail("%s: clear refused", name);
	nops++;
}

static int stress(double secs, unsigned int it, unsigned int seed)
{
	pthread_t wt;
	unsigned int epoch = 0, step, nsteps;
	double t_end;
	int c, exact;
	char v[32];

	ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	if (ncpu < 1 || ncpu > MAXCPU)
		return 1;
	snprintf(name, sizeof(name), "vm-stress-smp%d", ncpu);
	iters = it;
	srand(seed);
	put("enable", "0\n");
	put("mode", "overwrite\n");
	put("buffer_size_kb", "32\n");
	put("subbuf_size", "4096\n");
	put("clear", "1\n");
	get("subbuf_size", v, sizeof(v));
	cur_sb = atoi(v);
	for (c = 0; c < ncpu; c++) {
		rds[c].cpu = c;
		pthread_create(&rds[c].th, NULL, reader, &rds[c]);
	}
	pthread_create(&wt, NULL, writer, NULL);
	t_end = now() + secs;
	while (now() < t_end) {
		epoch++;
		exact = 1;	/* nothing resets the buffers under the readers */
		__atomic_store_n(&pause_req, 0, __ATOMIC_RELEASE);
		if (readers_open(1))
			break;
		set_enable(1);
		nsteps = 10 + rand() % 20;
		for (step = 0; step < nsteps; step++) {
			switch (rand() % 10) {
			case 0:
				set_enable(!en_state);
				break;
			case 1:
				if (put("flush", "1\n"))
					fail("%s: flush refused", name);
				nops++;
				break;
			case 2:	/* readers open: refused, enabled or not */
				expect_busy("clear", "1\n");
				break;
			case 3:
				expect_busy("buffer_size_kb", "64\n");
				break;
			case 4:
				expect_busy("subbuf_size", "2048\n");
				break;
			case 5:
				expect_busy("mode", rand() % 2 ? "discard\n" : "overwrite\n");
				break;
			case 6:
				expect_busy("clock", rand() % 2 ? "global\n" : "mono\n");
				break;
			default:
				sleep_ms(rand() % 20);
				break;
			}
		}
		set_enable(0);
		if (drain(epoch))
			break;
		check_epoch(epoch, exact);
		printf("INFO: %s: epoch %u done (%lu control writes so far)\n",
		       name, epoch, nops);
		if (readers_open(0))
			break;
		between(epoch);
	}
	stop_writers = 1;
	pthread_join(wt, NULL);
	/* the last run may have recorded nothing: one clean epoch with
	 * recording on while the writers are idle proves nothing more */
	stop_readers = 1;
	for (c = 0; c < ncpu; c++)
		pthread_join(rds[c].th, NULL);

	for (c = 0; c < ncpu; c++) {
		if (rds[c].eof_while_on)
			fail("%s: cpu %d: read() returned 0 (EOF) %llu times while recording was on",
			     name, c, (unsigned long long)rds[c].eof_while_on);
		if (rds[c].bad)
			fail("%s: cpu %d: %llu malformed reads", name, c,
			     (unsigned long long)rds[c].bad);
		if (rds[c].errors)
			fail("%s: cpu %d: %llu read errors (%s)", name, c,
			     (unsigned long long)rds[c].errors, rds[c].err);
	}
	if (exact_epochs < 3 || !tot_read)
		fail("%s: only %u exact epochs, %llu records read: stress too short",
		     name, exact_epochs, tot_read);
	if (!fails) {
		printf("PASS: %s: %lu control writes applied or refused as documented (%lu EBUSY)\n",
		       name, nops, nbusy);
		printf("PASS: %s: %u epochs (%u with clear while enabled): read + lost == written per CPU (read %llu lost %llu written %llu)\n",
		       name, exact_epochs + inexact_epochs, inexact_epochs,
		       tot_read, tot_lost, tot_written);
		printf("PASS: %s: no EOF while recording, no malformed data\n", name);
	}
	return fails ? 1 : 0;
}

/* ---- faults under load (guest-faults.sh, issue 13 item 3) ------------- */
/*
 * Shared by hotplug, ctlstorm and probestorm: the stress part's readers,
 * drain() and check_epoch(), with readers that find the sub-buffer size
 * from the data (subbuf_size may change between their reads) and a
 * controller of its own.  Each mode ends with recording off, every reader
 * drained to EOF and, per CPU, read + lost in headers == written (and the
 * other equalities of check_epoch()) over a span with no clear in it.
 */

/*
 * The sub-buffer size of @n bytes read from one trace_pipe_raw: the
 * smallest power of two 1024..65536 that divides @n and at every multiple
 * of which a sub-buffer header of @cpu starts (a smaller guess would put a
 * header inside a real sub-buffer's records).  0 if none fits.
 */
static size_t guess_sb(const unsigned char *buf, size_t n, int cpu)
{
	size_t sb, o;

	for (sb = 1024; sb <= MAXSB; sb *= 2) {
		if (n % sb)
			continue;
		for (o = 0; o < n; o += sb) {
			const struct logdev_subbuf_hdr *h = (const void *)(buf + o);

			if (h->magic != LOGDEV_SUBBUF_MAGIC || h->cpu != (uint32_t)cpu ||
			    h->data_bytes > sb - LOGDEV_SUBBUF_HDR_SIZE)
				break;
		}
		if (o >= n)
			return sb;
	}
	return 0;
}

/* the stress reader, reading MAXSB at a time, sub-buffer size from the data */
static void *fault_reader(void *arg)
{
	struct rd *r = arg;
	unsigned char *buf = malloc(MAXSB);
	int fd = open_pipe(r->cpu);

	if (fd < 0 || !buf) {
		r->errors++;
		return NULL;
	}
	__atomic_store_n(&r->is_open, 1, __ATOMIC_RELEASE);
	while (!stop_readers) {
		unsigned int want = __atomic_load_n(&pause_req, __ATOMIC_ACQUIRE);
		unsigned int g0 = en_gen, on0 = en_state;
		ssize_t n;
		size_t sb;
		long k;

		if (want && r->acked == want) {
			usleep(1000);
			continue;
		}
		n = read(fd, buf, MAXSB);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			snprintf(r->err, sizeof(r->err), "read: %s", strerror(errno));
			r->errors++;
			usleep(1000);
			continue;
		}
		if (n == 0) {
			if (on0 && en_state && g0 == en_gen)
				r->eof_while_on++;
			if (want)
				__atomic_store_n(&r->acked, want, __ATOMIC_RELEASE);
			else
				usleep(1000);
			continue;
		}
		sb = guess_sb(buf, n, r->cpu);
		k = sb ? count_records(buf, n, sb, r->cpu, r->lost, NULL) : -1;
		if (k < 0)
			r->bad++;
		else
			r->recs += k;
	}
	close(fd);
	__atomic_store_n(&r->is_open, 0, __ATOMIC_RELEASE);
	free(buf);
	return NULL;
}

/* start one fault_reader per CPU, its counts zeroed; see fault_stop_readers() */
static void fault_start_readers(void)
{
	int c;

	stop_readers = 0;
	for (c = 0; c < ncpu; c++) {
		struct rd *r = &rds[c];

		r->cpu = c;
		r->recs = r->eof_while_on = r->bad = r->errors = 0;
		memset(r->lost, 0, sizeof(r->lost));
		r->acked = 0;
		pthread_create(&r->th, NULL, fault_reader, r);
	}
}

/* stop and join the readers; FAIL lines for what they saw; 0 if all well */
static int fault_stop_readers(void)
{
	int c, bad = 0;

	stop_readers = 1;
	for (c = 0; c < ncpu; c++)
		pthread_join(rds[c].th, NULL);
	for (c = 0; c < ncpu; c++) {
		if (rds[c].eof_while_on)
			fail("%s: cpu %d: read() returned 0 (EOF) %llu times while recording was on",
			     name, c, (unsigned long long)rds[c].eof_while_on), bad++;
		if (rds[c].bad)
			fail("%s: cpu %d: %llu malformed reads", name, c,
			     (unsigned long long)rds[c].bad), bad++;
		if (rds[c].errors)
			fail("%s: cpu %d: %llu read errors (%s)", name, c,
			     (unsigned long long)rds[c].errors, rds[c].err), bad++;
	}
	return bad;
}

/* one write of "@val" to @path (absolute): 0 or errno */
static int put_path(const char *path, const char *val)
{
	int fd, err = 0;

	fd = open(path, O_WRONLY);
	if (fd < 0)
		return errno;
	if (write(fd, val, strlen(val)) != (ssize_t)strlen(val))
		err = errno ? errno : EIO;
	close(fd);
	return err;
}

/* final epoch: recording off, readers drained, exact accounting; 0 if exact */
static int fault_end_epoch(unsigned int epoch)
{
	int before = fails;

	set_enable(0);
	if (drain(epoch))
		return -1;
	check_epoch(epoch, 1);
	return fails != before;
}

/* ---- hotplug: every CPU but 0 offline and online again, in a loop ---- */
static volatile int stop_hp;
static unsigned long hp_cycles, hp_err;
static unsigned long wr_runs, wr_bursts, wr_offline;
static char hp_msg[160];

static void *hp_thread(void *arg)
{
	char path[96];
	int c, on, err;

	(void)arg;
	while (!stop_hp) {
		for (c = 1; c < ncpu; c++) {
			for (on = 0; on <= 1; on++) {
				snprintf(path, sizeof(path),
					 "/sys/devices/system/cpu/cpu%d/online", c);
				err = put_path(path, on ? "1\n" : "0\n");
				if (err) {
					hp_err++;
					snprintf(hp_msg, sizeof(hp_msg), "cpu%d online <- %d: %s",
						 c, on, strerror(err));
				}
			}
		}
		hp_cycles++;
	}
	return NULL;
}

/* logdev_test's run (every online CPU, every context), again and again */
static void *run_thread(void *arg)
{
	const char *n = arg;

	while (!stop_writers) {
		int err = put_path(T "/run", n);

		if (err)
			fail("%s: logdev_test run %s: %s", name, n, strerror(err));
		wr_runs++;
	}
	return NULL;
}

/* bursts on random CPUs: -ENODEV if the CPU is offline (counted) */
static void *burst_thread(void *arg)
{
	char v[32];

	(void)arg;
	while (!stop_writers) {
		int err;

		snprintf(v, sizeof(v), "%d 50", rand() % ncpu);
		err = put_path(T "/burst", v);
		if (err == ENODEV)
			wr_offline++;
		else if (err)
			fail("%s: burst %s: %s", name, v, strerror(err));
		else
			wr_bursts++;
	}
	return NULL;
}

/*
 * vmtool hotplug SECONDS: recording on for the whole run; writers in every
 * context (logdev_test run) and bursts on random CPUs, one consuming reader
 * per possible CPU, while CPUs 1..N-1 go offline and online again in a loop.
 * Then CPUs 1..N-1 offline for good under the writers, recording off
 * with them offline (their final flush runs remotely), the readers
 * drained, and per CPU read + lost == written, each cause of loss equal in
 * headers and stats; then the CPUs online again.
 */
static int hotplug_main(double secs)
{
	pthread_t hp, w1, w2;
	char path[96];
	double t_end;
	int c, bad;

	ncpu = sysconf(_SC_NPROCESSORS_CONF);
	if (ncpu < 2 || ncpu > MAXCPU)
		return printf("FAIL: vm-faults: hotplug: %d CPUs (want 2..%d)\n", ncpu, MAXCPU), 1;
	snprintf(name, sizeof(name), "vm-faults: hotplug");
	srand(1);
	put("enable", "0\n");
	put("mode", "overwrite\n");
	put("subbuf_size", "4096\n");
	/* 4 sub-buffers per CPU: the readers fall behind, losses are counted too */
	put("buffer_size_kb", "16\n");
	put("clear", "1\n");
	fault_start_readers();
	set_enable(1);
	pthread_create(&w1, NULL, run_thread, "200\n");
	pthread_create(&w2, NULL, burst_thread, NULL);
	pthread_create(&hp, NULL, hp_thread, NULL);
	t_end = now() + secs;
	while (now() < t_end) {
		sleep_ms(1000);
		printf("INFO: %s: %lu hotplug cycles, %lu runs, %lu bursts\n", name,
		       hp_cycles, wr_runs, wr_bursts);
	}
	stop_hp = 1;
	pthread_join(hp, NULL);
	/*
	 * CPUs 1..N-1 go offline for good while the writers still run, so
	 * their open sub-buffers hold records; recording stops with them
	 * offline (their final flush runs on another CPU), then they come back.
	 */
	for (c = 1; c < ncpu; c++) {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", c);
		if (put_path(path, "0\n"))
			fail("%s: cpu%d offline before the stop refused", name, c);
		sleep_ms(100);
	}
	stop_writers = 1;
	pthread_join(w1, NULL);
	pthread_join(w2, NULL);
	if (fault_end_epoch(1) == 0)
		printf("PASS: %s: read + lost == written per CPU after %lu offline/online cycles of CPUs 1..%d and a stop with them offline (read %llu lost %llu written %llu)\n",
		       name, hp_cycles, ncpu - 1, tot_read, tot_lost, tot_written);
	for (c = 1; c < ncpu; c++) {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", c);
		if (put_path(path, "1\n"))
			fail("%s: cpu%d online after the stop refused", name, c);
	}
	bad = fault_stop_readers();
	if (!bad)
		printf("PASS: %s: no EOF while recording, no malformed data, no read error\n", name);
	if (hp_err)
		fail("%s: %lu hotplug writes failed, e.g. %s", name, hp_err, hp_msg);
	else if (hp_cycles < 3)
		fail("%s: only %lu hotplug cycles in %.0f s", name, hp_cycles, secs);
	else
		printf("PASS: %s: %lu cycles of CPUs 1..%d offline and online, every write accepted\n",
		       name, hp_cycles, ncpu - 1);
	if (wr_runs < 2 || wr_bursts < 10 || !tot_read)
		fail("%s: too little load: %lu runs, %lu bursts, %llu records read",
		     name, wr_runs, wr_bursts, tot_read);
	else
		printf("PASS: %s: writers ran meanwhile: %lu runs, %lu bursts (%lu refused ENODEV: CPU offline)\n",
		       name, wr_runs, wr_bursts, wr_offline);
	return fails ? 1 : 0;
}

/* ---- ctlstorm: concurrent writers to every control file --------------- */
/*
 * One thread per control file writes random words from its table, good and
 * bad, while logdev_test's writers run; the first half with no reader, the
 * second with the readers consuming.  A word marked bad must fail with
 * EINVAL; a good one must be accepted, except: mode, clock, buffer_size_kb
 * and subbuf_size may be refused with EBUSY (recording was on), and with
 * the readers' files open those and clear must be (issue 24: a reset under
 * a reader lost its unread records); around the readers' start either
 * outcome is allowed.  Any other outcome is a FAIL.  Afterwards: every file
 * reads back a value of its table, the sizes agree, and, the readers closed
 * for a clear and opened again, one more epoch (recording on, a run,
 * recording off) is exact.
 */
struct ctl {
	const char *file;
	const char *words[8];	/* "!" first: must be refused with EINVAL */
	int busy_ok;		/* good words may be refused with EBUSY;
				 * 2: must be while readers are open */
	unsigned long ok, busy, inval, busy_read;	/* busy_read: EBUSY, readers open */
	char err[160];
	unsigned long nerr;
};

static struct ctl ctls[] = {
	{ "enable", { "1\n", "0\n", "1\n", "!2\n", "!on\n", "!\n" }, 0 },
	{ "mode", { "overwrite\n", "discard\n", "!bogus\n", "!overwrite discard\n" }, 2 },
	{ "clock", { "local\n", "global\n", "mono\n", "!loc\n" }, 2 },
	{ "buffer_size_kb", { "16\n", "32\n", "64\n", "!0\n", "!abc\n", "!12abc\n" }, 2 },
	{ "subbuf_size", { "1024\n", "2048\n", "4096\n", "!3000\n", "!0\n" }, 2 },
	{ "clear", { "1\n", "!\n" }, 2 },
	{ "flush", { "1\n", "!2\n" }, 0 },
	{ "dump_on_oops", { "0\n", "!7\n" }, 0 },
};
#define NCTL (sizeof(ctls) / sizeof(ctls[0]))
static volatile int stop_ctl;
/* 0: no reader; 1: the readers' files are opening; 2: all open */
static volatile int ctl_readers;

static void *ctl_thread(void *arg)
{
	struct ctl *k = arg;
	unsigned int seed = (unsigned int)(k - ctls) * 7919 + 1;
	int nw = 0;

	while (nw < 8 && k->words[nw])
		nw++;
	while (!stop_ctl) {
		const char *w = k->words[rand_r(&seed) % nw];
		int badw = *w == '!', err;

		int ph0 = ctl_readers, ph1, want_busy, may_busy;

		if (badw)
			w++;
		if (!strcmp(k->file, "enable")) {
			/* keep en_state/en_gen true for the readers' EOF check */
			if (badw) {
				err = put(k->file, w);
			} else {
				set_enable(w[0] == '1');
				err = 0;
			}
		} else {
			err = put(k->file, w);
		}
		ph1 = ctl_readers;
		/* the readers' state for the whole write: 0 none, 2 open, else either */
		want_busy = k->busy_ok == 2 && ph0 == 2 && ph1 == 2;
		may_busy = k->busy_ok == 1 || (k->busy_ok == 2 &&
					       (strcmp(k->file, "clear") || ph0 || ph1));
		if (badw ? err == EINVAL :
		    want_busy ? err == EBUSY : (!err || (err == EBUSY && may_busy))) {
			if (badw)
				k->inval++;
			else if (err)
				k->busy++, k->busy_read += want_busy;
			else
				k->ok++;
		} else {
			k->nerr++;
			snprintf(k->err, sizeof(k->err), "'%.*s' -> %s (want %s)",
				 (int)strcspn(w, "\n"), w, err ? strerror(err) : "accepted",
				 badw ? "EINVAL" : want_busy ? "EBUSY, readers open" :
				 may_busy ? "accepted or EBUSY" : "accepted");
		}
		if (rand_r(&seed) % 4 == 0)
			sleep_ms(rand_r(&seed) % 5);
	}
	return NULL;
}

/* is @v one of @k's good words (without their newline)? */
static int ctl_good(const struct ctl *k, const char *v)
{
	int i;

	for (i = 0; i < 8 && k->words[i]; i++)
		if (k->words[i][0] != '!' &&
		    !strncmp(k->words[i], v, strcspn(k->words[i], "\n")) &&
		    strlen(v) == strcspn(k->words[i], "\n"))
			return 1;
	return 0;
}

static int ctl_has_bad(const struct ctl *k)
{
	int i;

	for (i = 0; i < 8 && k->words[i]; i++)
		if (k->words[i][0] == '!')
			return 1;
	return 0;
}

static int ctlstorm_main(double secs)
{
	pthread_t th[NCTL], w1;
	char v[128], kb[128], sb[128];
	unsigned long tot = 0;
	double t_end;
	size_t i;
	int bad;

	ncpu = sysconf(_SC_NPROCESSORS_CONF);
	if (ncpu < 1 || ncpu > MAXCPU)
		return 1;
	snprintf(name, sizeof(name), "vm-faults-ctl: storm");
	put("enable", "0\n");
	put("subbuf_size", "4096\n");
	put("buffer_size_kb", "32\n");
	put("clear", "1\n");
	ctl_readers = 0;
	set_enable(1);
	pthread_create(&w1, NULL, run_thread, "100\n");
	for (i = 0; i < NCTL; i++)
		pthread_create(&th[i], NULL, ctl_thread, &ctls[i]);
	t_end = now() + secs;
	while (now() < t_end) {
		sleep_ms(1000);
		printf("INFO: %s: %lu runs so far\n", name, wr_runs);
		if (!ctl_readers && now() > t_end - secs / 2) {
			ctl_readers = 1;	/* the second half: readers */
			fault_start_readers();
			if (readers_open(1))
				break;
			ctl_readers = 2;
		}
	}
	stop_ctl = 1;
	for (i = 0; i < NCTL; i++)
		pthread_join(th[i], NULL);
	stop_writers = 1;
	pthread_join(w1, NULL);

	for (i = 0; i < NCTL; i++) {
		struct ctl *k = &ctls[i];

		tot += k->ok + k->busy + k->inval;
		if (k->nerr)
			fail("%s: %s: %lu writes with the wrong outcome, e.g. %s", name,
			     k->file, k->nerr, k->err);
		else if (!k->ok || (ctl_has_bad(k) && !k->inval) ||
			 (k->busy_ok == 2 && !k->busy_read))
			fail("%s: %s: %lu accepted, %lu EBUSY (%lu with readers open), %lu EINVAL: a kind never tried",
			     name, k->file, k->ok, k->busy, k->busy_read, k->inval);
		else
			printf("PASS: %s: %s: %lu accepted, %lu EBUSY (%lu with readers open), %lu EINVAL, each as documented\n",
			       name, k->file, k->ok, k->busy, k->busy_read, k->inval);
	}
	/* recording off, readers drained; the files hold values of their tables */
	set_enable(0);
	drain(1);
	check_epoch(1, 0);	/* clears ran meanwhile: not exact, counts reset */
	for (i = 1; i < NCTL; i++) {
		struct ctl *k = &ctls[i];

		if (!strcmp(k->file, "clear") || !strcmp(k->file, "flush"))
			continue;
		get(k->file, v, sizeof(v));
		if (!ctl_good(k, v))
			fail("%s: %s reads '%s' after the storm, not a value written", name,
			     k->file, v);
		else
			printf("PASS: %s: %s reads '%s' after the storm\n", name, k->file, v);
	}
	get("buffer_size_kb", kb, sizeof(kb));
	get("subbuf_size", sb, sizeof(sb));
	if (atoi(sb) <= 0 || atoi(kb) * 1024 / atoi(sb) < 2 || atoi(kb) * 1024 % atoi(sb))
		fail("%s: buffer_size_kb %s and subbuf_size %s disagree", name, kb, sb);
	/* one clean epoch: exact accounting after the storm (readers closed for the clear) */
	bad = fault_stop_readers();
	if (put("clear", "1\n"))
		fail("%s: clear after the storm refused", name);
	fault_start_readers();
	readers_open(1);
	__atomic_store_n(&pause_req, 0, __ATOMIC_RELEASE);
	set_enable(1);
	if (put_path(T "/run", "300\n"))
		fail("%s: logdev_test run after the storm failed", name);
	if (fault_end_epoch(2) == 0 && tot_read)
		printf("PASS: %s: after %lu control writes from %zu threads, an epoch is exact: read %llu + lost %llu == written %llu\n",
		       name, tot, NCTL, tot_read, tot_lost, tot_written);
	else if (!tot_read)
		fail("%s: nothing read in the epoch after the storm", name);
	if (!fault_stop_readers() && !bad)
		printf("PASS: %s: no EOF while recording, no malformed data, no read error\n", name);
	put("dump_on_oops", "0\n");
	return fails ? 1 : 0;
}

/* ---- probestorm: the probes file under concurrent add/remove --------- */
/*
 * Threads add and remove probes on functions that fire all the time (the
 * readers' own vfs_read, kmem_cache_free), some under the same names as
 * other threads', one truncating the file (O_TRUNC removes every probe),
 * one reading the listing, while recording is on.  Outcomes allowed: add
 * 0 or EEXIST (the name is taken), removal 0 or ENOENT (already gone).
 * Then every probe removed, the listing empty, recording off, and per CPU
 * read + lost == written (no clear in this run: one exact span).
 */
struct pst {
	const char *add, *del;
	unsigned long added, exist, removed, noent, nerr;
	char err[200];
};

static struct pst psts[] = {
	{ "p:fs_a vfs_read", "-:fs_a" },
	{ "p:fs_a vfs_write", "-:fs_a" },	/* same name: EEXIST / ENOENT */
	{ "r:fs_r vfs_read $retval", "-:fs_r" },
	{ "p:fs_k kmem_cache_free s=$arg1 o=$arg2", "-:fs_k" },
	{ "p:kprobes/fs_g vfs_read $comm", "-:kprobes/fs_g" },
};
#define NPST (sizeof(psts) / sizeof(psts[0]))
static unsigned long ps_trunc, ps_lists;

static void *pst_thread(void *arg)
{
	struct pst *k = arg;
	char path[] = D "/probes";
	int err;

	while (!stop_ctl) {
		err = put_path(path, k->add);
		if (!err)
			k->added++;
		else if (err == EEXIST)
			k->exist++;
		else if (k->nerr++ == 0)
			snprintf(k->err, sizeof(k->err), "'%s' -> %s", k->add, strerror(err));
		usleep(rand() % 3000);
		err = put_path(path, k->del);
		if (!err)
			k->removed++;
		else if (err == ENOENT)
			k->noent++;
		else if (k->nerr++ == 0)
			snprintf(k->err, sizeof(k->err), "'%s' -> %s", k->del, strerror(err));
	}
	return NULL;
}

static void *pst_other(void *arg)
{
	char buf[4096];
	int fd;

	(void)arg;
	while (!stop_ctl) {
		fd = open(D "/probes", O_RDONLY);
		if (fd >= 0) {
			while (read(fd, buf, sizeof(buf)) > 0)
				;
			close(fd);
			ps_lists++;
		}
		if (rand() % 4 == 0) {
			fd = open(D "/probes", O_WRONLY | O_TRUNC);
			if (fd >= 0) {
				close(fd);
				ps_trunc++;
			}
		}
		usleep(2000);
	}
	return NULL;
}

static int probestorm_main(double secs)
{
	pthread_t th[NPST], o;
	char buf[4096];
	double t_end;
	size_t i;
	ssize_t n;
	int fd, bad = 0;
	unsigned long adds = 0;

	ncpu = sysconf(_SC_NPROCESSORS_CONF);
	if (ncpu < 1 || ncpu > MAXCPU)
		return 1;
	snprintf(name, sizeof(name), "vm-faults-ctl: probes");
	put("enable", "0\n");
	put("subbuf_size", "4096\n");
	put("buffer_size_kb", "64\n");
	put("mode", "overwrite\n");
	put("clear", "1\n");
	stop_readers = 0;
	stop_ctl = 0;
	fault_start_readers();
	set_enable(1);
	for (i = 0; i < NPST; i++)
		pthread_create(&th[i], NULL, pst_thread, &psts[i]);
	pthread_create(&o, NULL, pst_other, NULL);
	t_end = now() + secs;
	while (now() < t_end) {
		sleep_ms(1000);
		printf("INFO: %s: %lu listings, %lu truncations\n", name, ps_lists, ps_trunc);
	}
	stop_ctl = 1;
	for (i = 0; i < NPST; i++)
		pthread_join(th[i], NULL);
	pthread_join(o, NULL);
	for (i = 0; i < NPST; i++) {
		struct pst *k = &psts[i];

		adds += k->added;
		if (k->nerr) {
			fail("%s: '%s' / '%s': %lu unexpected outcomes, e.g. %s", name,
			     k->add, k->del, k->nerr, k->err);
			bad++;
		}
	}
	if (!bad && adds > 10)
		printf("PASS: %s: %lu adds (%lu + %lu EEXIST for the shared name), %lu listings, %lu truncations: every outcome 0, EEXIST or ENOENT\n",
		       name, adds, psts[1].added, psts[1].exist, ps_lists, ps_trunc);
	else if (!bad)
		fail("%s: only %lu probes added", name, adds);
	/* remove what is left; the listing must be empty */
	fd = open(D "/probes", O_WRONLY | O_TRUNC);
	if (fd >= 0)
		close(fd);
	fd = open(D "/probes", O_RDONLY);
	n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	if (fd >= 0)
		close(fd);
	if (n != 0)
		fail("%s: probes lists %zd bytes after every probe was removed: %.80s",
		     name, n, n > 0 ? (buf[n] = 0, buf) : "");
	else
		printf("PASS: %s: the listing is empty after removing every probe\n", name);
	if (fault_end_epoch(1) == 0 && tot_read)
		printf("PASS: %s: read + lost == written per CPU (read %llu lost %llu written %llu)\n",
		       name, tot_read, tot_lost, tot_written);
	else if (!tot_read)
		fail("%s: no record read: the probes never fired", name);
	if (!fault_stop_readers())
		printf("PASS: %s: no EOF while recording, no malformed data, no read error\n", name);
	return fails ? 1 : 0;
}

/* ---- seed-rng: credit entropy so the kernel's %p hash key gets made ---- */
/*
 * vmtool seed-rng: RNDADDENTROPY of 64 bytes of getrandom() output, credited
 * as 512 bits (root only), so that crng is initialised in a guest without
 * an entropy source (qemu64 has no RDRAND) and lib/vsprintf.c's key for
 * hashing %p is drawn (it retries every 2 s): plain %p then prints a hash,
 * not "(____ptrval____)".  A test guest only.
 */
static int seed_rng_main(void)
{
	struct {
		int entropy_count;
		int buf_size;
		unsigned char buf[64];
	} e;
	int fd, ok;

	e.entropy_count = 8 * sizeof(e.buf);
	e.buf_size = sizeof(e.buf);
	if (getrandom(e.buf, sizeof(e.buf), GRND_INSECURE) != (ssize_t)sizeof(e.buf))
		return perror("vmtool: getrandom"), 1;
	fd = open("/dev/random", O_WRONLY);
	if (fd < 0)
		return perror("vmtool: /dev/random"), 1;
	ok = ioctl(fd, RNDADDENTROPY, &e) == 0;
	if (!ok)
		perror("vmtool: RNDADDENTROPY");
	close(fd);
	return ok ? 0 : 1;
}

/* ---- comm: task names across exit and pid reuse (guest-comm.sh) ---- */

/* as task NAME, write TAG to logdev_test's comm file; Return: 0 or -1 */
static int comm_write(const char *name, unsigned int tag)
{
	char b[16];
	int fd, n, ok;

	if (name && prctl(PR_SET_NAME, name, 0, 0, 0))
		return -1;
	fd = open("/sys/kernel/debug/logdev_test/comm", O_WRONLY);
	if (fd < 0)
		return -1;
	n = snprintf(b, sizeof(b), "%u", tag);
	ok = write(fd, b, (size_t)n) == n;
	close(fd);
	return ok ? 0 : -1;
}

/*
 * vmtool comm A B C: this process (named vmtool) writes tag 0; a child named
 * A (pid 300 or more) writes tag 1 and exits; children are forked until one gets A's pid
 * again: it names itself B, writes tag 2, renames itself C (prctl, same
 * pid), writes tag 3; then this process writes tag 4.  Prints
 * "pid vmtool=P A=Q" and "PASS:"/"FAIL:" lines.
 */
static int comm_main(const char *a, const char *b, const char *c)
{
	pid_t pa, p;
	int st, tries;

	if (comm_write(NULL, 0))
		return printf("FAIL: vm-comm: write tag 0: %s\n", strerror(errno)), 1;
	/*
	 * pids below 300 (RESERVED_PIDS) are not handed out again after the
	 * pid counter wraps: make lt_alpha's pid at least 300 (the guest sets
	 * a small pid_max, so the counter wraps soon after).
	 */
	for (tries = 0; tries < 100000; tries++) {
		p = fork();
		if (p == 0)
			_exit(0);
		if (p < 0 || waitpid(p, &st, 0) != p)
			return printf("FAIL: vm-comm: fork: %s\n", strerror(errno)), 1;
		if (p >= 300)
			break;
	}
	pa = fork();
	if (pa == 0)
		_exit(comm_write(a, 1) ? 1 : 0);
	if (pa < 0 || waitpid(pa, &st, 0) != pa || !WIFEXITED(st) || WEXITSTATUS(st))
		return printf("FAIL: vm-comm: task %s did not record\n", a), 1;
	for (tries = 0; tries < 200000; tries++) {
		p = fork();
		if (p == 0) {
			if (getpid() != pa)
				_exit(0);
			_exit(comm_write(b, 2) || comm_write(c, 3) ? 1 : 0);
		}
		if (p < 0 || waitpid(p, &st, 0) != p)
			return printf("FAIL: vm-comm: fork: %s\n", strerror(errno)), 1;
		if (p == pa)
			break;
	}
	if (p != pa)
		return printf("FAIL: vm-comm: pid %d not reused in %d forks\n", pa, tries), 1;
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		return printf("FAIL: vm-comm: task %s/%s did not record\n", b, c), 1;
	if (comm_write(NULL, 4))
		return printf("FAIL: vm-comm: write tag 4\n"), 1;
	printf("pid vmtool=%d %s=%d\n", getpid(), a, pa);
	printf("PASS: vm-comm: pid %d reused after %d forks, every task recorded\n", pa, tries);
	return 0;
}

/* ------------------------------------------------------------------ cross */

/* One write of "N BYTES" to logdev_test's fill file: 0 or -1. */
static int fill_write(unsigned int n, unsigned int bytes)
{
	char b[32];
	int fd, len, ok;

	fd = open(T "/fill", O_WRONLY);
	if (fd < 0)
		return -1;
	len = snprintf(b, sizeof(b), "%u %u", n, bytes);
	ok = write(fd, b, (size_t)len) == len;
	close(fd);
	return ok ? 0 : -1;
}

/* A byte over a pipe, and the answer: 0 or -1. */
static int turn(int wfd, int rfd, char c)
{
	char a;

	if (write(wfd, &c, 1) != 1 || read(rfd, &a, 1) != 1)
		return -1;
	return a == 'k' ? 0 : -1;
}

/*
 * vmtool cross ROUNDS: does every sub-buffer name the tasks of its records?
 * On CPU 0, in overwrite mode with 1024-byte sub-buffers: this process
 * (vmtool) and a child named lt_cross take turns.  Per round vmtool writes
 * 4-6 records of 8-200 payload bytes (the sizes vary so that the open
 * sub-buffer's free space does), then lt_cross one of 512 bytes, which fits
 * a sub-buffer with vmtool's records in it about half of the time: else it
 * opens the next one, lt_cross's comm record left in the one before.  Every
 * 10th round vmtool then flushes and lt_cross writes one 8-byte record,
 * which opens a sub-buffer too.  vmtool's records that follow fill the
 * rest of that sub-buffer, so lt_cross's name can only be in it if the
 * kernel wrote one there for the record that opened it (the reader names a
 * record by its pid's comm record before it, else the first after:
 * lgd_comm_at(); with the older sub-buffers overwritten only that one is
 * left).  Then recording off, CPU 0 drained to EOF, and every sub-buffer
 * checked: each pid of a record has a comm record in the same sub-buffer.
 * Prints "PASS:"/"FAIL:" lines (vm-comm).
 */
static int cross_main(unsigned int rounds)
{
	unsigned int sbsz, r, nsb = 0, opened = 0, flushed = 0, unnamed = 0;
	unsigned int flushes = 0, recs = 0;
	int p2c[2], c2p[2], fd, st, fails0 = 0;
	size_t cap = 8 << 20, n = 0, o;
	unsigned char *buf;
	uint64_t lost = 0;
	cpu_set_t set;
	ssize_t k;
	pid_t child, me = getpid();

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		return printf("FAIL: vm-comm: cross: pin to CPU 0: %s\n", strerror(errno)), 1;
	if (put("enable", "0") || put("mode", "overwrite") || put("subbuf_size", "1024") ||
	    put("buffer_size_kb", "1024") || put("clear", "1") ||
	    read_u32_file(D "/subbuf_size", &sbsz) || sbsz != 1024)
		return printf("FAIL: vm-comm: cross: setup refused\n"), 1;
	if (pipe(p2c) || pipe(c2p))
		return printf("FAIL: vm-comm: cross: pipe: %s\n", strerror(errno)), 1;
	child = fork();
	if (child < 0)
		return printf("FAIL: vm-comm: cross: fork: %s\n", strerror(errno)), 1;
	if (child == 0) {
		char c, a;

		if (prctl(PR_SET_NAME, "lt_cross", 0, 0, 0))
			_exit(1);
		while (read(p2c[0], &c, 1) == 1 && c != 'q') {
			a = fill_write(1, c == 'b' ? 512 : 8) ? 'e' : 'k';
			if (write(c2p[1], &a, 1) != 1)
				_exit(1);
		}
		_exit(0);
	}
	if (put("enable", "1"))
		return printf("FAIL: vm-comm: cross: enable refused\n"), 1;
	for (r = 0; r < rounds; r++) {
		if (fill_write(4 + r % 3, 8 + (r * 53) % 193 / 4 * 4) ||
		    turn(p2c[1], c2p[0], 'b')) {
			printf("FAIL: vm-comm: cross: round %u did not record\n", r);
			fails0 = 1;
			break;
		}
		if (r % 10 == 9) {
			if (put("flush", "1") || turn(p2c[1], c2p[0], 's')) {
				printf("FAIL: vm-comm: cross: flush round %u did not record\n", r);
				fails0 = 1;
				break;
			}
			flushes++;
		}
	}
	if (write(p2c[1], "q", 1) != 1 || waitpid(child, &st, 0) != child ||
	    !WIFEXITED(st) || WEXITSTATUS(st))
		fails0 = 1;
	if (put("enable", "0"))
		fails0 = 1;
	buf = malloc(cap);
	fd = open_pipe(0);
	if (!buf || fd < 0)
		return printf("FAIL: vm-comm: cross: no buffer or no trace_pipe_raw\n"), 1;
	while (n + sbsz <= cap && (k = read(fd, buf + n, sbsz)) > 0)
		n += (size_t)k;
	close(fd);
	if (n % sbsz) {
		free(buf);
		return printf("FAIL: vm-comm: cross: read %zu bytes, not whole sub-buffers\n", n), 1;
	}
	for (o = 0; o < n; o += sbsz) {
		const struct logdev_subbuf_hdr *h = (const void *)(buf + o);
		uint32_t off = 0, first_pid = 0, named[8], nn = 0, i, first_type = 0;
		uint32_t second_pid = 0, second_bytes = 0, nrec = 0;
		uint32_t need[64], nneed = 0;

		if (h->magic != LOGDEV_SUBBUF_MAGIC || h->data_bytes > sbsz - LOGDEV_SUBBUF_HDR_SIZE) {
			free(buf);
			return printf("FAIL: vm-comm: cross: malformed sub-buffer at byte %zu\n", o), 1;
		}
		nsb++;
		lost += h->overrun_before + h->dropped_before + h->nesting_lost_before +
			h->too_big_before;
		while (off + LOGDEV_REC_HDR_SIZE <= h->data_bytes) {
			const struct logdev_rec_hdr *rec =
				(const void *)(buf + o + LOGDEV_SUBBUF_HDR_SIZE + off);

			if (rec->len < LOGDEV_REC_HDR_SIZE || off + rec->len > h->data_bytes)
				break;
			if (!off) {
				first_pid = rec->pid;
				first_type = rec->type;
			} else if (nrec == 1) {
				second_pid = rec->pid;
				second_bytes = rec->arg_bytes;
			}
			nrec++;
			if (rec->type == LOGDEV_REC_COMM) {
				if (nn < 8)
					named[nn++] = rec->pid;
			} else {
				recs++;
				for (i = 0; i < nneed && need[i] != rec->pid; i++)
					;
				if (i == nneed && nneed < 64)
					need[nneed++] = rec->pid;
			}
			off += rec->len;
		}
		if (first_type != LOGDEV_REC_COMM && first_pid == (uint32_t)child)
			opened++;
		/* after a flush: lt_cross's name, then its 8-byte record */
		if (first_type == LOGDEV_REC_COMM && first_pid == (uint32_t)child &&
		    second_pid == (uint32_t)child && second_bytes == 8)
			flushed++;
		for (i = 0; i < nneed; i++) {
			uint32_t j;

			for (j = 0; j < nn && named[j] != need[i]; j++)
				;
			if (j == nn && unnamed++ < 5)
				printf("FAIL: vm-comm: cross: sub-buffer seq %llu: records of pid %u (%s), no comm record of it\n",
				       (unsigned long long)h->seq, need[i],
				       need[i] == (uint32_t)child ? "lt_cross" :
				       need[i] == (uint32_t)me ? "vmtool" : "?");
		}
	}
	free(buf);
	if (fails0)
		return printf("FAIL: vm-comm: cross: the rounds did not complete\n"), 1;
	if (lost)
		printf("FAIL: vm-comm: cross: %llu records lost, want none\n", (unsigned long long)lost);
	if (opened < rounds / 5)
		printf("FAIL: vm-comm: cross: %u of %u sub-buffers opened by lt_cross's 512-byte record, want at least %u\n",
		       opened, nsb, rounds / 5);
	if (flushed != flushes)
		printf("FAIL: vm-comm: cross: %u sub-buffers after a flush begin with lt_cross's name, want %u\n",
		       flushed, flushes);
	if (unnamed)
		printf("FAIL: vm-comm: cross: %u sub-buffers hold records of a task they do not name\n",
		       unnamed);
	if (lost || opened < rounds / 5 || flushed != flushes || unnamed)
		return 1;
	printf("PASS: vm-comm: cross: %u rounds, %u records in %u sub-buffers; %u opened by lt_cross's record, %u after a flush: every sub-buffer names the tasks of its records\n",
	       rounds, recs, nsb, opened, flushed);
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 3 && !strcmp(argv[1], "eof-read"))
		return eof_main(atoi(argv[2]), 0);
	if (argc == 3 && !strcmp(argv[1], "eof-poll"))
		return eof_main(atoi(argv[2]), 1);
	if (argc == 5 && !strcmp(argv[1], "stress"))
		return stress(atof(argv[2]), strtoul(argv[3], NULL, 0),
			      strtoul(argv[4], NULL, 0));
	if (argc == 5 && !strcmp(argv[1], "comm"))
		return comm_main(argv[2], argv[3], argv[4]);
	if (argc == 3 && !strcmp(argv[1], "cross"))
		return cross_main(strtoul(argv[2], NULL, 0));
	if (argc == 2 && !strcmp(argv[1], "seed-rng"))
		return seed_rng_main();
	if (argc == 3 && !strcmp(argv[1], "hotplug"))
		return hotplug_main(atof(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "ctlstorm"))
		return ctlstorm_main(atof(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "probestorm"))
		return probestorm_main(atof(argv[2]));
	fprintf(stderr, "usage: vmtool eof-read CPU | eof-poll CPU | stress SECONDS ITERS SEED | comm A B C | cross ROUNDS | seed-rng | hotplug SECONDS | ctlstorm SECONDS | probestorm SECONDS\n");
	return 2;
}
