// SPDX-License-Identifier: GPL-2.0
/*
 * vmtool_stress.c - vmtool stress: the control-write stress (writers in every
 * context, a consuming reader per CPU, epochs of enable, flush and refused
 * control writes, then exact counts per CPU); its controls, readers and
 * checks are shared with the faults under load (vmtool.h).
 */
#include "vmtool.h"

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
int ncpu;
volatile int stop_writers, stop_readers;
volatile int en_state;		/* 1: enabled */
volatile unsigned int en_gen;	/* bumped at every enable write */
static volatile unsigned int cur_sb = 4096;
volatile unsigned int pause_req;	/* epoch number whose end drains */
int fails;

struct rd rds[MAXCPU];

void fail(const char *fmt, ...)
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

char name[32];

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
int put(const char *file, const char *val)
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
void get(const char *file, char *out, size_t size)
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

void set_enable(int on)
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

void sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}


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
int readers_open(int open)
{
	return readers_wait(rd_open_is, (unsigned int)open,
			    open ? "have not opened their files" : "have not closed their files");
}

/* Recording is off: wait until every reader saw EOF after the stop. */
int drain(unsigned int epoch)
{
	char what[64];

	__atomic_store_n(&pause_req, epoch, __ATOMIC_RELEASE);
	snprintf(what, sizeof(what), "not at EOF of epoch %u after enable 0", epoch);
	return readers_wait(rd_drained, epoch, what);
}

unsigned long long tot_read, tot_lost, tot_written;
static unsigned int exact_epochs, inexact_epochs;

void check_epoch(unsigned int epoch, int exact)
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

int stress(double secs, unsigned int it, unsigned int seed)
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

