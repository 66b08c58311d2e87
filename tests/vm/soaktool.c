/*
 * soaktool: guest side of the soak test (tests/vm/guest-soak.sh; built
 * static on the host by tests/vm/soak.sh, run in the guest).
 *
 *   soaktool RECORDS EVERY NAME
 *
 * Recording on, then one consuming reader per CPU (trace_pipe_raw, blocking
 * reads of up to 64 KiB) and one write of "ITERS EVERY" to logdev_test's
 * soak file: on every CPU a writer in task context, with softirq (tasklet),
 * hardirq (irq_work, hrtimer) and NMI (self-IPI) writers interrupting it,
 * and every EVERY iterations a chain nested four deep (three on PREEMPT_RT,
 * see kernel/test/logdev_test_ctx.c).  ITERS is chosen so that at least RECORDS
 * edprint() calls are made in all.  When the write returns: recording off,
 * every reader drains to EOF.  Nothing is stored: each record is checked as
 * it is read.
 *
 * Every logdev_test record carries ctx=C seq=S, S counting 0, 1, 2... per
 * CPU and per context (a stream).  Per stream the readers check S strictly
 * increases and count the gaps (S jumps, and the tail up to the calls made);
 * then, with logdev_test's counts (calls per stream) and logdev's stats:
 *   per CPU and context:  read + lost == written, lost = the stream's gaps
 *   per CPU:  the streams' gaps + comm records lost == records lost in the
 *             sub-buffer headers (sequence gaps equal the losses);
 *             read + lost (headers) == stats written == calls + comm records;
 *             read == stats read; each cause in headers == its stats counter;
 *             nesting_lost == 0 and too_big == 0 (four deep is allowed)
 *   records: well-formed sub-buffers, the record's ctx field equals its
 *             payload's, nothing but logdev_test's records and comm records
 *   nesting:  chains reached the deepest level (nest_deep > 0), every NMI
 *             sent arrived.
 *   readers:  no read() waited more than STALL_MAX_S and half the run while
 *             its CPU's writers ran (sampled every 200 ms; a CPU whose
 *             writers are done early completes nothing more, and its
 *             reader rightly waits for the others): a sub-buffer completes
 *             every few ms.
 *   wake-ups: no reader slept more than ASLEEP_MAX_S in one read() after
 *             a sub-buffer of its CPU completed (a lost wake-up: the
 *             irq_work kick and the 50 ms timer each wake it well within
 *             that).  Every 200 ms the reader's state and run count
 *             (/proc/self/task/TID/stat and schedstat) and its CPU's
 *             stats written are sampled: a reader seen sleeping (S) twice
 *             in the same read() with an unchanged run count slept all
 *             along, and if its CPU wrote more records than fit in two
 *             sub-buffers meanwhile, one of them completed while it slept.
 *             A reader that was woken but not run ("runnable", state R,
 *             run count unchanged; and the scheduler's run delay) is
 *             starved, not lost: reported (INFO), not failed.
 * Prints PASS:/FAIL: lines named NAME, "INFO:" lines with the per-CPU and
 * per-context figures, and "SOAK:" summary lines (records/s, duration) that
 * tests/vm/soak.sh collects.  Progress every 20 s while the writers run.
 * Exit status 0, or 1 if a check failed.  The readers: soaktool_read.c.
 */
#include "soaktool.h"

static const char *const l_name[L_NR] = { "overrun", "dropped", "nesting_lost", "too_big" };

static const char *name;
static int fails;

static void out(const char *kind, const char *fmt, ...)
{
	va_list ap;

	printf("%s: %s: ", kind, name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

/* check: one PASS or FAIL line */
static void check(int ok, const char *what, const char *fmt, ...)
{
	char why[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	if (ok) {
		out("PASS", "%s", what);
	} else {
		out("FAIL", "%s: %s", what, why);
		fails++;
	}
}

static struct rd rds[MAXCPU];
volatile int writers_done;

/* ---- control ------------------------------------------------------- */

static int put(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, val, strlen(val));
	n = n == (ssize_t)strlen(val) ? 0 : n < 0 ? -errno : -EIO;
	close(fd);
	return n;
}

static unsigned long read_ul(const char *path)
{
	FILE *f = fopen(path, "r");
	unsigned long v = 0;

	if (f) {
		if (fscanf(f, "%lu", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v;
}

double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

struct st {
	uint64_t written, read, comm, lost[L_NR];
	int seen;
};
static struct st st[MAXCPU];

/* logdev's stats: per CPU written/read/comm and the causes of loss */
static int read_stats(struct st *s)
{
	char line[512];
	FILE *f = fopen(D "/stats", "r");

	if (!f)
		return -1;
	memset(s, 0, sizeof(*s) * MAXCPU);
	while (fgets(line, sizeof(line), f)) {
		char *tok, *save = NULL;
		int cpu = -1;
		struct st one = { 0 };

		for (tok = strtok_r(line, " \t\n", &save); tok; tok = strtok_r(NULL, " \t\n", &save)) {
			char *eq = strchr(tok, '=');
			uint64_t v;
			int k;

			if (!eq)
				continue;
			*eq = '\0';
			v = strtoull(eq + 1, NULL, 10);
			if (!strcmp(tok, "cpu"))
				cpu = (int)v;
			else if (!strcmp(tok, "written"))
				one.written = v;
			else if (!strcmp(tok, "read"))
				one.read = v;
			else if (!strcmp(tok, "comm"))
				one.comm = v;
			for (k = 0; k < L_NR; k++)
				if (!strcmp(tok, l_name[k]))
					one.lost[k] = v;
		}
		if (cpu >= 0 && cpu < MAXCPU) {
			one.seen = 1;
			s[cpu] = one;
		}
	}
	fclose(f);
	return 0;
}

/*
 * The state letter of thread @tid (/proc/self/task/TID/stat, after the
 * command's ')'), and from its schedstat the run delay (ns waiting on a
 * run queue) and the run count (times it was put on a CPU).  Returns 0,
 * or -1 if either file cannot be read (no CONFIG_SCHED_INFO).
 */
static int thread_sched(int tid, char *state, double *rdelay, uint64_t *pcount)
{
	char path[64], line[512], *p;
	unsigned long long run, delay, cnt;
	FILE *f;
	int ok = 0;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fgets(line, sizeof(line), f) && (p = strrchr(line, ')')) && p[1] == ' ' && p[2]) {
		*state = p[2];
		ok = 1;
	}
	fclose(f);
	snprintf(path, sizeof(path), "/proc/self/task/%d/schedstat", tid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%llu %llu %llu", &run, &delay, &cnt) != 3)
		ok = 0;
	fclose(f);
	*rdelay = (double)delay;
	*pcount = cnt;
	return ok ? 0 : -1;
}

/*
 * One sample of reader @r at time @t, its CPU's stats written being
 * @written (every record attempted, dropped ones too) and a sub-buffer
 * holding at most @per_sb records: see "wake-ups" in the header.
 */
static double t_start;

static void sample_reader(struct rd *r, double t, uint64_t written, uint64_t dropped,
			  uint64_t per_sb)
{
	uint64_t nreads = r->nreads, pcount;
	double rdelay, dt = t - r->s_t;
	char state = '?';
	int same;

	if (!r->tid || r->no_proc)
		return;
	if (thread_sched(r->tid, &state, &rdelay, &pcount)) {
		r->no_proc = 1;
		return;
	}
	same = r->s_t > 0 && nreads == r->s_nreads;
	if (!same) {			/* a new read() since the last sample */
		r->w_runnable = 0;
		r->w_rdelay0 = rdelay;
		r->s_asleep_since = r->s_ready_since = 0;
	}
	if (same && pcount == r->s_pcount) {	/* not run since the last sample */
		if (state == 'R' && r->s_state == 'R') {
			r->w_runnable += dt;
			if (r->w_runnable > r->runnable_max)
				r->runnable_max = r->w_runnable;
		}
		if (state == 'S' && r->s_state == 'S') {
			if (!r->s_asleep_since) {
				r->s_asleep_since = r->s_t;
				r->s_written0 = r->s_written;
				r->s_dropped0 = r->s_dropped;
			}
			/*
			 * more records since it fell asleep than two sub-buffers
			 * hold: one of them completed while it slept
			 */
			if (!r->s_ready_since && written - r->s_written0 > 2 * per_sb)
				r->s_ready_since = t;
			if (r->s_ready_since && t - r->s_ready_since > r->asleep_ready) {
				r->asleep_ready = t - r->s_ready_since;
				r->ar_at = t - t_start;
				r->ar_written = written - r->s_written0;
				r->ar_dropped = dropped - r->s_dropped0;
				r->ar_subbufs = r->subbufs;
			}
		} else {
			r->s_asleep_since = r->s_ready_since = 0;
		}
	} else {
		r->s_asleep_since = r->s_ready_since = 0;
	}
	if (same && (rdelay - r->w_rdelay0) / 1e9 > r->rdelay_max)
		r->rdelay_max = (rdelay - r->w_rdelay0) / 1e9;
	r->s_nreads = nreads;
	r->s_pcount = pcount;
	r->s_state = state;
	r->s_written = written;
	r->s_dropped = dropped;
	r->s_t = t;
}

/* logdev_test's counts */
static uint64_t wr[MAXCPU][NCTX];
static long nmi_sent = -1, nmi_seen = -1, chains = -1, deep = -1, outer = -1, timeouts = -1;

static int read_counts(void)
{
	char line[256];
	FILE *f = fopen(T "/counts", "r");
	unsigned int cpu, ctx;
	unsigned long long w;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "cpu=%u ctx=%u written=%llu", &cpu, &ctx, &w) == 3) {
			if (cpu < MAXCPU && ctx < NCTX)
				wr[cpu][ctx] = w;
		} else if (sscanf(line, "nmi_sent=%ld nmi_seen=%ld", &nmi_sent, &nmi_seen) == 2) {
		} else {
			sscanf(line, "nest_chains=%ld nest_deep=%ld nest_outer=%ld nest_timeouts=%ld",
			       &chains, &deep, &outer, &timeouts);
		}
	}
	fclose(f);
	return 0;
}

struct wjob {
	char arg[64];
	int err;
	volatile int done;
};

static void *writer(void *arg)
{
	struct wjob *w = arg;

	w->err = put(T "/soak", w->arg);
	w->done = 1;
	return NULL;
}

/* The run, from the command line and the kernel (setup()), and its totals. */
static const char *const cname[NCTX] = { "task", "softirq", "hardirq", "nmi" };
static double records, t0, tw;	/* calls asked for; the writers' start (now()), time (s) */
static unsigned long every, iters, sb;
static int ncpu;
static struct wjob job;
static uint64_t totw, totr, totl, calls;

/* The command line, the sub-buffer size and the iterations per CPU: 0 or an exit status. */
static int setup(int argc, char **argv)
{
	double per_iter;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc != 4) {
		fprintf(stderr, "usage: soaktool RECORDS EVERY NAME\n");
		return 2;
	}
	records = atof(argv[1]);
	every = strtoul(argv[2], NULL, 0);
	name = argv[3];
	ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);
	sb = read_ul(D "/subbuf_size");
	if (ncpu < 1 || ncpu > MAXCPU || sb < 256 || records < 1 || every < 1) {
		out("FAIL", "setup: %d CPUs, subbuf_size %lu, records %g, every %lu", ncpu, sb, records, every);
		return 1;
	}
	/*
	 * Calls per writer iteration, counted low so that at least RECORDS are
	 * made: task 1, hardirq 1/4 (irq_work), NMI 1/16, a chain of 3 per
	 * EVERY (4 but on PREEMPT_RT); not the softirq's 1/8: a tasklet still
	 * pending when scheduled again runs once (on PREEMPT_RT, a softirq
	 * thread behind the writer: 14% of them there); the hrtimer adds more.
	 */
	per_iter = 1 + 1.0 / 4 + 1.0 / 16 + 3.0 / every;
	iters = (unsigned long)(records / (ncpu * per_iter)) + 1;
	snprintf(job.arg, sizeof(job.arg), "%lu %lu", iters, every);
	return 0;
}

/* Every 200 ms until the writers are done: the readers' waits and sleeps; progress every 20 s. */
static void watch(void)
{
	double last = t0;
	int c;

	while (!job.done) {
		double t;
		int have_st;

		usleep(200000);
		t = now();
		have_st = !read_stats(st);
		for (c = 0; c < ncpu; c++) {
			struct rd *r = &rds[c];
			double from = r->last_ret ? r->last_ret : t0;
			double since = t - from;

			if (since > r->stall)
				r->stall = since;
			/*
			 * Each CPU's writers finish on their own: a CPU done
			 * early completes no sub-buffer until the final flush,
			 * and its reader rightly waits for the others (the 10^8
			 * runs' "longest waits" of 12 to 29 s were all in such
			 * tails).  So the wait is also counted only since the
			 * last sample that found the CPU's writers idle.
			 */
			if (!have_st)
				continue;
			if (st[c].written == r->w_prev)
				r->idle_at = t;
			r->w_prev = st[c].written;
			since = t - (r->idle_at > from ? r->idle_at : from);
			if (since > r->stall_cpu)
				r->stall_cpu = since;
			sample_reader(r, t, st[c].written, st[c].lost[L_DROPPED], sb / LOGDEV_REC_HDR_SIZE);
		}
		if (now() - last >= 20) {
			uint64_t w = 0, r = 0;

			last = now();
			if (!read_stats(st))
				for (c = 0; c < ncpu; c++) {
					w += st[c].written;
					r += st[c].read;
				}
			out("INFO", "progress: %.0f s, %llu written, %llu read so far", last - t0,
			    (unsigned long long)w, (unsigned long long)r);
			for (c = 0; c < ncpu; c++)
				out("INFO", "progress: cpu %d: %llu sub-buffers read, longest wait in read() %.1f s (%.1f s while its CPU wrote)",
				    c, (unsigned long long)rds[c].subbufs, rds[c].stall, rds[c].stall_cpu);
		}
	}
}

/* One CPU's INFO lines and checks, added to the totals. */
static void report_cpu(int c)
{
	struct rd *r = &rds[c];
	uint64_t rsum = r->comm, gsum = 0, hl = 0, wsum = 0;
	char what[160];
	int x, k;

	for (k = 0; k < L_NR; k++)
		hl += r->lost[k];
	for (x = 0; x < NCTX; x++) {
		uint64_t lost;
		int beyond = r->next[x] > wr[c][x];

		/* gaps inside the stream, then the tail never read */
		lost = r->gaps[x] + (beyond ? 0 : wr[c][x] - r->next[x]);
		rsum += r->read[x];
		gsum += lost;
		wsum += wr[c][x];
		out("INFO", "cpu %d %-7s written %llu read %llu lost %llu (gaps %llu)", c, cname[x],
		    (unsigned long long)wr[c][x], (unsigned long long)r->read[x],
		    (unsigned long long)lost, (unsigned long long)r->gaps[x]);
		snprintf(what, sizeof(what), "cpu %d %s: read + lost (seq gaps) == written", c, cname[x]);
		check(!beyond && r->read[x] + lost == wr[c][x], what,
		      "read %llu lost %llu written %llu (next seq %llu)",
		      (unsigned long long)r->read[x], (unsigned long long)lost,
		      (unsigned long long)wr[c][x], (unsigned long long)r->next[x]);
	}
	calls += wsum;
	totw += st[c].written;
	totr += rsum;
	totl += hl;
	out("INFO", "cpu %d: calls %llu + comm %llu, stats written %llu read %llu; read %llu (comm %llu), lost in headers %llu (overrun %llu dropped %llu nesting_lost %llu too_big %llu), %llu sub-buffers, longest wait in read() %.1f s (%.1f s while its CPU wrote)",
	    c, (unsigned long long)wsum, (unsigned long long)st[c].comm,
	    (unsigned long long)st[c].written, (unsigned long long)st[c].read,
	    (unsigned long long)rsum, (unsigned long long)r->comm, (unsigned long long)hl,
	    (unsigned long long)r->lost[0], (unsigned long long)r->lost[1],
	    (unsigned long long)r->lost[2], (unsigned long long)r->lost[3],
	    (unsigned long long)r->subbufs, r->stall, r->stall_cpu);
	snprintf(what, sizeof(what), "cpu %d: sub-buffers and records well-formed, only logdev_test's, ctx fields agree, seq increasing", c);
	check(!r->bad_sb && !r->other && !r->ctx_bad && !r->order_bad && !r->errors, what,
	      "bad %llu other %llu ctx %llu order %llu errors %llu: %s",
	      (unsigned long long)r->bad_sb, (unsigned long long)r->other,
	      (unsigned long long)r->ctx_bad, (unsigned long long)r->order_bad,
	      (unsigned long long)r->errors, r->ex);
	/*
	 * While a CPU's writers run a sub-buffer completes every few
	 * ms, so a reader waiting seconds in one read() was not woken
	 * (a lost wake-up) or not scheduled.  The lost wake-up fixed
	 * in logdev_pipe.c left a reader asleep to the end (12.2 s of
	 * a 17.3 s run).  Both limits must be exceeded (a loaded host
	 * may starve a reader for seconds); the sharp test of a lost
	 * wake-up is the sleep check below.
	 */
	snprintf(what, sizeof(what), "cpu %d: reader never waited more than %d s and half the run in one read() while its CPU's writers ran",
		 c, STALL_MAX_S);
	check(r->stall_cpu <= STALL_MAX_S || r->stall_cpu <= tw / 2, what,
	      "waited %.1f s (run %.1f s), %llu sub-buffers read",
	      r->stall_cpu, tw, (unsigned long long)r->subbufs);
	out("INFO", "cpu %d: reader: longest sleep after a sub-buffer completed %.1f s; most time runnable but not run in one read() %.1f s, run delay %.1f s%s",
	    c, r->asleep_ready, r->runnable_max, r->rdelay_max,
	    r->no_proc ? " (no /proc/self/task/TID/schedstat: not sampled)" : "");
	snprintf(what, sizeof(what), "cpu %d: reader never slept more than %d s after a sub-buffer of its CPU completed (no lost wake-up)",
		 c, ASLEEP_MAX_S);
	check(r->asleep_ready <= ASLEEP_MAX_S, what,
	      "slept %.1f s in one read() while its CPU completed sub-buffers (state S, not run since; seen at %.1f s of %.1f, its CPU attempted %llu records since it fell asleep, %llu of them dropped; %llu sub-buffers read then, %llu in all)",
	      r->asleep_ready, r->ar_at, tw, (unsigned long long)r->ar_written,
	      (unsigned long long)r->ar_dropped, (unsigned long long)r->ar_subbufs,
	      (unsigned long long)r->subbufs);
	snprintf(what, sizeof(what), "cpu %d: no EOF while recording", c);
	check(!r->eof_early, what, "read() returned 0 before the writers were done");
	snprintf(what, sizeof(what), "cpu %d: stats seen", c);
	check(st[c].seen, what, "no line for cpu %d in stats", c);
	snprintf(what, sizeof(what), "cpu %d: seq gaps + comm records lost == lost in headers", c);
	check(st[c].comm >= r->comm && gsum + (st[c].comm - r->comm) == hl, what,
	      "seq gaps %llu, comm written %llu read %llu, headers %llu",
	      (unsigned long long)gsum, (unsigned long long)st[c].comm,
	      (unsigned long long)r->comm, (unsigned long long)hl);
	snprintf(what, sizeof(what), "cpu %d: read + lost (headers) == stats written == calls + comm", c);
	check(rsum + hl == st[c].written && st[c].written == wsum + st[c].comm, what,
	      "read %llu + lost %llu, stats written %llu, calls %llu + comm %llu",
	      (unsigned long long)rsum, (unsigned long long)hl,
	      (unsigned long long)st[c].written, (unsigned long long)wsum,
	      (unsigned long long)st[c].comm);
	snprintf(what, sizeof(what), "cpu %d: stats read == records read", c);
	check(st[c].read == rsum, what, "stats %llu, readers %llu",
	      (unsigned long long)st[c].read, (unsigned long long)rsum);
	for (k = 0; k < L_NR; k++) {
		snprintf(what, sizeof(what), "cpu %d: %s in headers == stats %s", c, l_name[k], l_name[k]);
		check(r->lost[k] == st[c].lost[k], what, "headers %llu, stats %llu",
		      (unsigned long long)r->lost[k], (unsigned long long)st[c].lost[k]);
	}
	snprintf(what, sizeof(what), "cpu %d: nothing lost to nesting or size", c);
	check(!st[c].lost[L_NESTING_LOST] && !st[c].lost[L_TOO_BIG], what,
	      "nesting_lost %llu too_big %llu", (unsigned long long)st[c].lost[L_NESTING_LOST],
	      (unsigned long long)st[c].lost[L_TOO_BIG]);
}

int main(int argc, char **argv)
{
	pthread_t wth;
	int c, err;
	double t1;

	err = setup(argc, argv);
	if (err)
		return err;
	err = put(D "/enable", "1");
	if (err) {
		out("FAIL", "enable 1: %s", strerror(-err));
		return 1;
	}
	for (c = 0; c < ncpu; c++) {
		rds[c].cpu = c;
		rds[c].sb = (unsigned int)sb;
		if (pthread_create(&rds[c].th, NULL, reader, &rds[c])) {
			out("FAIL", "reader thread %d", c);
			return 1;
		}
	}
	out("INFO", "%d CPUs, subbuf_size %lu, writing: soak \"%s\" (%lu iterations per CPU, a chain every %lu)",
	    ncpu, sb, job.arg, iters, every);
	t0 = now();
	t_start = t0;
	if (pthread_create(&wth, NULL, writer, &job)) {
		out("FAIL", "writer thread");
		return 1;
	}
	watch();
	pthread_join(wth, NULL);
	t1 = now();
	tw = t1 - t0;
	writers_done = 1;
	check(job.err == 0, "soak write returned", "write of \"%s\" to %s/soak: %s", job.arg, T,
	      strerror(-job.err));
	err = put(D "/enable", "0");
	check(err == 0, "enable 0 accepted", "%s", strerror(-err));
	for (c = 0; c < ncpu; c++)
		pthread_join(rds[c].th, NULL);
	if (read_stats(st) || read_counts()) {
		out("FAIL", "cannot read %s/stats or %s/counts", D, T);
		return 1;
	}

	for (c = 0; c < ncpu; c++)
		report_cpu(c);
	check(calls >= records, "calls made >= records asked", "%llu calls for %.0f asked",
	      (unsigned long long)calls, records);
	check(nmi_sent >= 0 && nmi_sent == nmi_seen, "every NMI of the writers arrived",
	      "sent %ld seen %ld", nmi_sent, nmi_seen);
	check(chains > 0 && deep > 0, "chains nested to the deepest level",
	      "chains %ld, NMI records with %ld outer levels open: %ld (timeouts %ld)",
	      chains, outer, deep, timeouts);
	out("SOAK", "cpus=%d written=%llu read=%llu lost=%llu seconds=%.1f records_per_s=%.0f chains=%ld deep=%ld depth=%ld timeouts=%ld",
	    ncpu, (unsigned long long)totw, (unsigned long long)totr, (unsigned long long)totl,
	    tw, tw > 0 ? totw / tw : 0, chains, deep, outer + 1, timeouts);
	return fails ? 1 : 0;
}
