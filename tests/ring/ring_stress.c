// SPDX-License-Identifier: GPL-2.0
/*
 * ring_stress.c - the portable ring core under concurrent writers, nested
 * writers (signal handlers) and a concurrent consuming reader.
 *
 * Simulated CPUs each own one struct ld_cpu_buf.  Each CPU has --threads
 * writer threads (so writers are truly concurrent, a harder case than the
 * kernel's one-CPU stack).  With --signals, a writer raises SIGUSR1 at the
 * ring's test hook points (inside the reserve loop, and between reserve and
 * commit) with probability 1/--sigrate, and an interrupter thread sends
 * SIGUSR1 to random writers at arbitrary points; the handler writes a nested
 * record and may itself be interrupted, up to 6 deep, beyond the ring's
 * LD_MAX_NESTING of 4.
 *
 * Every record carries (stream, seq, checksum); a stream is one thread at
 * one signal depth, and seq counts its attempts, so gaps in a stream are
 * exactly the records lost.  The reader checks every record and, at the end,
 * per CPU:
 *   read + overrun + dropped + nesting_lost + too_big == written           (stats)
 *   records decoded == stats.read
 *   seq gaps over all streams == overrun + dropped + nesting_lost + too_big
 *   lost counts in sub-buffer headers + not yet reported == lost
 *   timestamps never go backwards within a CPU
 * Prints PASS/FAIL lines and the accounting figures.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "harness.h"
#include "ldcheck.h"

#define MAX_CPUS	8
#define MAX_THREADS	8
#define MAX_DEPTH	6
#define NSTREAMS	(MAX_CPUS * MAX_THREADS * (MAX_DEPTH + 1))

struct payload {
	u32 stream;
	u32 seq;
	u64 check;
	/* followed by 0..40 filler bytes */
};

static struct {
	int cpus, threads, seconds_ms, signals, sigrate, reader_delay_us;
	u32 subbuf, nr;
	enum ld_mode mode;
	const char *name;
} cfg = { 2, 2, 1000, 1, 64, 0, 256, 4, LD_MODE_OVERWRITE, "default" };

static struct ld_cpu_buf bufs[MAX_CPUS];
static volatile int stop_writers, stop_reader;
static u64 attempts[NSTREAMS];		/* published when a writer ends */

struct wthread {
	pthread_t tid;
	int cpu, idx;
};
static struct wthread wt[MAX_CPUS * MAX_THREADS];

static __thread struct wthread *me;
static __thread int sig_depth;
static __thread u64 my_attempts[MAX_DEPTH + 1];
static __thread u64 rng;

static u64 mix(u64 x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return x;
}

static u32 rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (u32)rng;
}

static void write_one(void)
{
	unsigned char buf[sizeof(struct payload) + 40];
	struct payload *p = (void *)buf;
	u32 stream = (u32)((me->cpu * MAX_THREADS + me->idx) * (MAX_DEPTH + 1) + sig_depth);
	u32 seq = (u32)my_attempts[sig_depth]++;
	u32 extra = (mix(stream * 1000003ULL + seq) % 6) * 8, i;

	p->stream = stream;
	p->seq = seq;
	p->check = mix(((u64)stream << 32) ^ seq ^ ((u64)extra << 56));
	for (i = 0; i < extra; i++)
		buf[sizeof(*p) + i] = (unsigned char)(p->check >> (i % 8));
	ld_write(&bufs[me->cpu], stream, LOGDEV_REC_RAW, (u8)(sig_depth ? 1 : 0),
		 (u32)me->idx, buf, (u32)(sizeof(*p) + extra));
}

static void on_sigusr1(int sig)
{
	(void)sig;
	if (!me || sig_depth >= MAX_DEPTH)
		return;
	sig_depth++;
	write_one();
	sig_depth--;
}

static void hook(int where)
{
	(void)where;
	if (me && cfg.signals && rnd() % (u32)cfg.sigrate == 0)
		raise(SIGUSR1);
}

static void *writer(void *arg)
{
	me = arg;
	rng = mix((u64)(me->cpu * 131 + me->idx + 1));
	while (!__atomic_load_n(&stop_writers, __ATOMIC_RELAXED))
		write_one();
	/* block signals, then publish what this thread attempted */
	{
		sigset_t s;

		sigemptyset(&s);
		sigaddset(&s, SIGUSR1);
		pthread_sigmask(SIG_BLOCK, &s, NULL);
	}
	for (int d = 0; d <= MAX_DEPTH; d++)
		attempts[(me->cpu * MAX_THREADS + me->idx) * (MAX_DEPTH + 1) + d] =
			my_attempts[d];
	me = NULL;
	return NULL;
}

static void *interrupter(void *arg)
{
	u64 r = 88172645463325252ULL;
	int n = cfg.cpus * cfg.threads;

	(void)arg;
	while (!__atomic_load_n(&stop_writers, __ATOMIC_RELAXED)) {
		r ^= r << 13; r ^= r >> 7; r ^= r << 17;
		pthread_kill(wt[r % (u64)n].tid, SIGUSR1);
		usleep(20);
	}
	return NULL;
}

/* reader-side state */
static u64 last_seq[NSTREAMS];		/* last seq seen + 1; 0 = none */
static u64 decoded[MAX_CPUS], gaps[MAX_CPUS];
/* per CPU, per cause: the sum of the headers' *_before counts */
enum { H_OVERRUN, H_DROPPED, H_NESTING_LOST, H_TOO_BIG, H_NR };
static const char *const h_name[H_NR] = { "overrun", "dropped", "nesting_lost", "too_big" };
static u64 hdr_lost[MAX_CPUS][H_NR];
static u64 last_ts[MAX_CPUS], last_sb[MAX_CPUS], sb_count[MAX_CPUS];
static int have_sb[MAX_CPUS];
static u64 bad_records, bad_subbufs, ts_backwards, sb_backwards;
static char first_error[256];

static void note_error(const char *what, int cpu, u64 seq)
{
	if (!first_error[0])
		snprintf(first_error, sizeof(first_error), "%s (cpu %d sub-buffer %llu)",
			 what, cpu, (unsigned long long)seq);
}

static void check_subbuf(int cpu, unsigned char *sb)
{
	struct logdev_subbuf_hdr *h = (void *)sb;
	u32 off = 0;

	if (h->magic != LOGDEV_SUBBUF_MAGIC || h->cpu != cpu ||
	    h->data_bytes > cfg.subbuf - LOGDEV_SUBBUF_HDR_SIZE) {
		bad_subbufs++;
		note_error("bad sub-buffer header", cpu, h->seq);
		return;
	}
	if (have_sb[cpu] && h->seq <= last_sb[cpu]) {
		sb_backwards++;
		note_error("sub-buffer seq not increasing", cpu, h->seq);
	}
	have_sb[cpu] = 1;
	last_sb[cpu] = h->seq;
	sb_count[cpu]++;
	hdr_lost[cpu][H_OVERRUN] += h->overrun_before;
	hdr_lost[cpu][H_DROPPED] += h->dropped_before;
	hdr_lost[cpu][H_NESTING_LOST] += h->nesting_lost_before;
	hdr_lost[cpu][H_TOO_BIG] += h->too_big_before;
	while (off < h->data_bytes) {
		struct logdev_rec_hdr *rec = (void *)(sb + LOGDEV_SUBBUF_HDR_SIZE + off);
		struct payload *p = (void *)(rec + 1);
		u32 extra;

		if (rec->len < LOGDEV_REC_HDR_SIZE + sizeof(*p) || rec->len % 8 ||
		    off + rec->len > h->data_bytes || p->stream >= NSTREAMS) {
			bad_records++;
			note_error("malformed record", cpu, h->seq);
			return;
		}
		extra = rec->arg_bytes - (u32)sizeof(*p);
		if (rec->site != p->stream || extra > 40 ||
		    p->check != mix(((u64)p->stream << 32) ^ p->seq ^ ((u64)extra << 56))) {
			bad_records++;
			note_error("record payload does not check", cpu, h->seq);
		} else {
			for (u32 i = 0; i < extra; i++)
				if (((unsigned char *)(p + 1))[i] != (unsigned char)(p->check >> (i % 8))) {
					bad_records++;
					note_error("record filler corrupt", cpu, h->seq);
					break;
				}
		}
		if (rec->ts < last_ts[cpu]) {
			ts_backwards++;
			note_error("timestamp went backwards", cpu, h->seq);
		}
		last_ts[cpu] = rec->ts;
		if (p->seq + 1ULL <= last_seq[p->stream]) {
			bad_records++;
			note_error("stream seq not increasing", cpu, h->seq);
		} else {
			gaps[cpu] += p->seq - last_seq[p->stream];
			last_seq[p->stream] = p->seq + 1ULL;
		}
		decoded[cpu]++;
		off += rec->len;
	}
}

static void *reader(void *arg)
{
	unsigned char *sb = malloc(cfg.subbuf);
	int idle;

	(void)arg;
	for (;;) {
		int done = __atomic_load_n(&stop_reader, __ATOMIC_ACQUIRE);

		idle = 1;
		for (int c = 0; c < cfg.cpus; c++)
			while (ld_consume(&bufs[c], sb) == 1) {
				check_subbuf(c, sb);
				idle = 0;
				if (cfg.reader_delay_us)
					usleep((useconds_t)cfg.reader_delay_us);
			}
		if (done && idle)
			break;
		if (idle)
			sched_yield();
	}
	free(sb);
	return NULL;
}

static void usage(void)
{
	fprintf(stderr, "usage: ring_stress [--name N] [--cpus C] [--threads T] [--ms MS] "
		"[--subbuf BYTES] [--nr N] [--mode overwrite|discard] [--no-signals] "
		"[--sigrate R] [--reader-delay-us US]\n");
	exit(2);
}

/* The options (usage() and exit 2 on a bad one) into cfg. */
static void parse_args(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--no-signals")) { cfg.signals = 0; continue; }
		if (!v)
			usage();
		i++;
		if (!strcmp(a, "--name")) cfg.name = v;
		else if (!strcmp(a, "--cpus")) cfg.cpus = atoi(v);
		else if (!strcmp(a, "--threads")) cfg.threads = atoi(v);
		else if (!strcmp(a, "--ms")) cfg.seconds_ms = atoi(v);
		else if (!strcmp(a, "--subbuf")) cfg.subbuf = (u32)atoi(v);
		else if (!strcmp(a, "--nr")) cfg.nr = (u32)atoi(v);
		else if (!strcmp(a, "--sigrate")) cfg.sigrate = atoi(v);
		else if (!strcmp(a, "--reader-delay-us")) cfg.reader_delay_us = atoi(v);
		else if (!strcmp(a, "--mode"))
			cfg.mode = !strcmp(v, "discard") ? LD_MODE_DISCARD : LD_MODE_OVERWRITE;
		else
			usage();
	}
	if (cfg.cpus < 1 || cfg.cpus > MAX_CPUS || cfg.threads < 1 ||
	    cfg.threads > MAX_THREADS || cfg.sigrate < 1)
		usage();
}

/* One ring per simulated CPU; 1 (after a FAIL line) if one cannot be made. */
static int init_bufs(void)
{
	for (int c = 0; c < cfg.cpus; c++) {
		void *mem = calloc(cfg.nr, cfg.subbuf);
		ld_local_t *commit = calloc(cfg.nr, sizeof(*commit));

		if (ld_cpu_buf_init(&bufs[c], mem, commit, (u32)c, cfg.subbuf, cfg.nr, cfg.mode)) {
			ldc_fail(cfg.name, __FILE__, __LINE__, "ld_cpu_buf_init failed");
			return 1;
		}
	}
	return 0;
}

/* The run: reader, writers and interrupter for cfg.seconds_ms, then drained. */
static void run(void)
{
	pthread_t rd, intr;
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigusr1;
	sa.sa_flags = SA_NODEFER | SA_RESTART;
	sigaction(SIGUSR1, &sa, NULL);
	ld_hook_fn = hook;

	pthread_create(&rd, NULL, reader, NULL);
	for (int c = 0; c < cfg.cpus; c++)
		for (int t = 0; t < cfg.threads; t++) {
			struct wthread *w = &wt[c * cfg.threads + t];

			w->cpu = c;
			w->idx = t;
			pthread_create(&w->tid, NULL, writer, w);
		}
	if (cfg.signals)
		pthread_create(&intr, NULL, interrupter, NULL);
	usleep((useconds_t)cfg.seconds_ms * 1000);
	__atomic_store_n(&stop_writers, 1, __ATOMIC_RELEASE);
	if (cfg.signals)
		pthread_join(intr, NULL);
	for (int i = 0; i < cfg.cpus * cfg.threads; i++)
		pthread_join(wt[i].tid, NULL);
	/* writers are quiet: close the partial sub-buffers, let the reader drain */
	for (int c = 0; c < cfg.cpus; c++)
		ld_flush(&bufs[c]);
	__atomic_store_n(&stop_reader, 1, __ATOMIC_RELEASE);
	pthread_join(rd, NULL);
}

/* One CPU's figures and checks; adds its written, read and lost to the totals. */
static void report_cpu(int c, u64 *tot_w, u64 *tot_r, u64 *tot_lost)
{
	struct ld_stats st;
	u64 lost, tail = 0, unreported[H_NR], stat[H_NR], tried = 0;

	ld_get_stats(&bufs[c], &st);
	lost = st.overrun + st.dropped + st.nesting_lost + st.too_big;
	for (int t = 0; t < cfg.threads; t++)
		for (int d = 0; d <= MAX_DEPTH; d++) {
			int s = (c * MAX_THREADS + t) * (MAX_DEPTH + 1) + d;

			tail += attempts[s] - last_seq[s];
			tried += attempts[s];
		}
	unreported[H_OVERRUN] = ld_atomic_read(&bufs[c].overrun_pending);
	unreported[H_DROPPED] = ld_local_read(&bufs[c].pending[LD_DROPPED]) +
				ld_atomic_read(&bufs[c].carry[LD_DROPPED]);
	unreported[H_NESTING_LOST] = ld_local_read(&bufs[c].pending[LD_NESTING_LOST]) +
				     ld_atomic_read(&bufs[c].carry[LD_NESTING_LOST]);
	unreported[H_TOO_BIG] = ld_local_read(&bufs[c].pending[LD_TOO_BIG]) +
				ld_atomic_read(&bufs[c].carry[LD_TOO_BIG]);
	stat[H_OVERRUN] = st.overrun;
	stat[H_DROPPED] = st.dropped;
	stat[H_NESTING_LOST] = st.nesting_lost;
	stat[H_TOO_BIG] = st.too_big;
	printf("# %s cpu%d: written=%llu read=%llu overrun=%llu dropped=%llu nesting_lost=%llu "
	       "too_big=%llu subbufs=%llu bytes=%llu\n", cfg.name, c,
	       (unsigned long long)st.written, (unsigned long long)st.read,
	       (unsigned long long)st.overrun, (unsigned long long)st.dropped,
	       (unsigned long long)st.nesting_lost, (unsigned long long)st.too_big,
	       (unsigned long long)sb_count[c], (unsigned long long)st.bytes);
	CHECK_EQ(st.read + lost, st.written,
		 NAMEF("%s cpu%d: read + lost == written (%llu + %llu == %llu)", cfg.name, c,
		       (unsigned long long)st.read, (unsigned long long)lost,
		       (unsigned long long)st.written));
	/* written is derived from the ring (ld_get_stats()): the writers' own count */
	CHECK_EQ(st.written, tried,
		 NAMEF("%s cpu%d: written == records the writers tried (%llu)", cfg.name, c,
		       (unsigned long long)tried));
	CHECK_EQ(decoded[c], st.read,
		 NAMEF("%s cpu%d: every record read decodes (%llu)", cfg.name, c,
		       (unsigned long long)decoded[c]));
	CHECK_WHY(gaps[c] + tail == lost,
		  NAMEF("%s cpu%d: stream seq gaps == records lost (%llu)", cfg.name, c,
			(unsigned long long)lost),
		  "stream seq gaps %llu + tail %llu != lost %llu",
		  (unsigned long long)gaps[c], (unsigned long long)tail,
		  (unsigned long long)lost);
	for (int k = 0; k < H_NR; k++)
		CHECK_WHY(hdr_lost[c][k] + unreported[k] == stat[k],
			  NAMEF("%s cpu%d: %s_before in sub-buffer headers accounts for every %s loss",
				cfg.name, c, h_name[k], h_name[k]),
			  "header %s_before %llu + unreported %llu != stats %s %llu",
			  h_name[k], (unsigned long long)hdr_lost[c][k],
			  (unsigned long long)unreported[k], h_name[k],
			  (unsigned long long)stat[k]);
	*tot_w += st.written;
	*tot_r += st.read;
	*tot_lost += lost;
}

/* Every CPU's report, then the checks over the whole run; the exit status. */
static int report(void)
{
	u64 tot_w = 0, tot_r = 0, tot_lost = 0;

	for (int c = 0; c < cfg.cpus; c++)
		report_cpu(c, &tot_w, &tot_r, &tot_lost);
	CHECK_WHY(!bad_records && !bad_subbufs && !ts_backwards && !sb_backwards,
		  NAMEF("%s: no corrupt record, sub-buffer seq and timestamps in order", cfg.name),
		  "%llu bad records, %llu bad sub-buffers, %llu ts backwards, %llu seq backwards; first: %s",
		  (unsigned long long)bad_records, (unsigned long long)bad_subbufs,
		  (unsigned long long)ts_backwards, (unsigned long long)sb_backwards, first_error);
	CHECK_WHY(tot_r > 0 && (cfg.mode == LD_MODE_DISCARD || tot_lost > 0 || cfg.nr > 8),
		  NAMEF("%s: exercised: %llu written, %llu read, %llu lost", cfg.name,
			(unsigned long long)tot_w, (unsigned long long)tot_r,
			(unsigned long long)tot_lost),
		  "did not exercise the ring (%llu written, %llu read, %llu lost)",
		  (unsigned long long)tot_w, (unsigned long long)tot_r,
		  (unsigned long long)tot_lost);
	return ldc_exit_status();
}

int main(int argc, char **argv)
{
	parse_args(argc, argv);
	if (init_bufs())
		return 1;
	run();
	return report();
}
