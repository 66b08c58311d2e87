// SPDX-License-Identifier: GPL-2.0
/*
 * hostbench - the portable ring core (kernel/logdev_ring.c) in userspace,
 * recording edprint-equivalent records, side by side with the physical
 * floor, snprintf at record time and (if built with HAVE_LTTNG) LTTng-UST.
 *
 *   hostbench [--records N] [--runs R] [--threads LIST] [--instr FILE]
 *   hostbench --only METHOD:PAYLOAD --records N     (for callgrind)
 *
 * Every thread is pinned to its own CPU and writes its own buffer (one
 * ld_cpu_buf per thread, as one per CPU in the kernel).  Runs are
 * interleaved (run r of every method before run r + 1 of any), each figure
 * is the median over runs of the mean ns/record of the threads.
 * --instr FILE: lines "METHOD:PAYLOAD instructions/record" (callgrind) to
 * print next to the timings.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "edp.h"
#include "ring_sw.h"
#ifdef HAVE_LTTNG
#include "lttng_tp.h"
#endif

/* ------------------------------------------------------- ring-core glue */

__thread int ld_thread_nesting;
__thread u32 edp_tid;
u32 edp_next_site;

u64 ld_clock_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

/* The kernel has no test hooks; keep this empty. */
void ld_test_hook(int where)
{
	(void)where;
}

u32 edp_site_id(struct edp_site *s)
{
	u32 id = __atomic_add_fetch(&edp_next_site, 1, __ATOMIC_RELAXED);
	u32 zero = 0;

	if (!__atomic_compare_exchange_n(&s->id, &zero, id, false,
					 __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		return zero;
	return id;
}

/* ------------------------------------------------------------ scenarios */

#define BUF_BYTES	(1u << 20)	/* per thread: ring, floor array, text */
#define SUBBUF		4096u

enum method { M_FLOOR, M_EDP, M_EDP_SW, M_SNPRINTF, M_SPIN, M_LTTNG, NR_METHODS };
enum payload { P0, P2, P2S, NR_PAYLOADS };

static const char *const method_name[NR_METHODS] = {
	"floor", "edprint", "edprint-sw", "snprintf", "spin", "lttng-ust",
};
static const char *const method_desc[NR_METHODS] = {
	"floor (clock + plain stores)",
	"edprint (ring, multi-writer)",
	"edprint (ring, one writer)",
	"snprintf at record time",
	"control: ALU only, no memory",
	"LTTng-UST (snapshot session)",
};
static const char *const payload_name[NR_PAYLOADS] = { "0", "2", "2s" };
static const char *const payload_desc[NR_PAYLOADS] = {
	"0 args: \"bench\"",
	"2 ints: \"bench %d %d\"",
	"2 ints + 16-byte %s: \"bench %d %d %s\"",
};

static const char *volatile str16 = "eth0-rx-queue-07";	/* 16 chars */

struct thr {
	pthread_t th;
	int idx;
	enum method m;
	enum payload p;
	u64 n;
	u64 ns;
	struct ld_cpu_buf cb;
	ld_local_t *commit;
	char *mem;
	char *arr;
	u64 sink;
} __attribute__((aligned(128)));

static pthread_barrier_t barrier;

/* Floor: the record's bytes stored plainly, with its timestamp. */
static inline char *floor_rec(struct thr *t, u64 *pos, u32 payload)
{
	u32 len = (LOGDEV_REC_HDR_SIZE + payload + 7) & ~7u;
	struct logdev_rec_hdr *h;

	if (*pos + len > BUF_BYTES)
		*pos = 0;
	h = (struct logdev_rec_hdr *)(t->arr + *pos);
	*pos += len;
	h->ts = ld_clock_now();
	h->site = 1;
	h->len = (u16)len;
	h->type = LOGDEV_REC_PRINT_SLOTS;
	h->ctx = 0;
	h->pid = edp_tid;
	h->arg_bytes = payload;
	return (char *)(h + 1);
}

#define RUN_LOOP(body)					\
	do {						\
		for (u64 i = 0; i < n; i++) {		\
			int a = (int)i, b = (int)(i ^ 0x55);	\
			(void)a; (void)b; (void)s;	\
			body;				\
		}					\
	} while (0)

static __attribute__((noinline)) void run_floor(struct thr *t, enum payload p, u64 n)
{
	const char *s = str16;
	u64 pos = 0;

	switch (p) {
	case P0:
		RUN_LOOP(floor_rec(t, &pos, 0));
		break;
	case P2:
		RUN_LOOP({
			char *q = floor_rec(t, &pos, 8);
			q = edp_put_u(q, (u32)a, 4);
			edp_put_u(q, (u32)b, 4);
		});
		break;
	case P2S:
		RUN_LOOP({
			u32 l = edp_strlen(s);
			char *q = floor_rec(t, &pos, 8 + ((l + 4) & ~3u));
			q = edp_put_u(q, (u32)a, 4);
			q = edp_put_u(q, (u32)b, 4);
			q = edp_put_s(q, s, l);
			if ((l + 4) & 4)
				memset(q, 0, 4);
		});
		break;
	default:
		break;
	}
}

static __attribute__((noinline)) void run_edp(struct thr *t, enum payload p, u64 n)
{
	const char *s = str16;

	switch (p) {
	case P0:
		RUN_LOOP(EDP(&t->cb, "bench"));
		break;
	case P2:
		RUN_LOOP(EDP(&t->cb, "bench %d %d", a, b));
		break;
	case P2S:
		RUN_LOOP(EDP(&t->cb, "bench %d %d %s", a, b, s));
		break;
	default:
		break;
	}
}

static __attribute__((noinline)) void run_snprintf(struct thr *t, enum payload p, u64 n)
{
	const char *s = str16;
	u64 pos = 0, sink = 0;
	int w = 0;

	switch (p) {
	case P0:
		RUN_LOOP({ sink += ld_clock_now();
			   w = snprintf(t->arr + pos, 128, "bench"); pos += w + 1;
			   if (pos > BUF_BYTES - 256) pos = 0; });
		break;
	case P2:
		RUN_LOOP({ sink += ld_clock_now();
			   w = snprintf(t->arr + pos, 128, "bench %d %d", a, b); pos += w + 1;
			   if (pos > BUF_BYTES - 256) pos = 0; });
		break;
	case P2S:
		RUN_LOOP({ sink += ld_clock_now();
			   w = snprintf(t->arr + pos, 128, "bench %d %d %s", a, b, s); pos += w + 1;
			   if (pos > BUF_BYTES - 256) pos = 0; });
		break;
	default:
		break;
	}
	t->sink = sink;
}

/* Machine control: a dependent ALU chain, no memory, no clock. */
static __attribute__((noinline)) void run_spin(struct thr *t, enum payload p, u64 n)
{
	u64 x = 88172645463325252ULL + (u64)p;

	for (u64 i = 0; i < n; i++)
		for (int k = 0; k < 16; k++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
		}
	t->sink = x;
}

static __attribute__((noinline)) void run_lttng(struct thr *t, enum payload p, u64 n)
{
#ifdef HAVE_LTTNG
	const char *s = str16;

	switch (p) {
	case P0:
		RUN_LOOP(lttng_ust_tracepoint(logdev_bench, a0, 0));
		break;
	case P2:
		RUN_LOOP(lttng_ust_tracepoint(logdev_bench, a2, a, b));
		break;
	case P2S:
		RUN_LOOP(lttng_ust_tracepoint(logdev_bench, a2s, a, b, s));
		break;
	default:
		break;
	}
#else
	(void)p; (void)n;
#endif
	(void)t;
}

static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

static void *thread_main(void *arg)
{
	struct thr *t = arg;
	cpu_set_t set;
	int ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);
	u64 t0;

	CPU_ZERO(&set);
	CPU_SET(t->idx % ncpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	edp_tid = (u32)syscall(SYS_gettid);
	ld_cpu_buf_reset(&t->cb, LD_MODE_OVERWRITE);
	memset(t->arr, 0, BUF_BYTES);	/* fault in */
	memset(t->mem, 0, BUF_BYTES);
	pthread_barrier_wait(&barrier);
	t0 = now_ns();
	switch (t->m) {
	case M_FLOOR: run_floor(t, t->p, t->n); break;
	case M_EDP: run_edp(t, t->p, t->n); break;
	case M_EDP_SW: run_edp_sw(&t->cb, (int)t->p, t->n, str16); break;
	case M_SNPRINTF: run_snprintf(t, t->p, t->n); break;
	case M_SPIN: run_spin(t, t->p, t->n); break;
	case M_LTTNG: run_lttng(t, t->p, t->n); break;
	default: break;
	}
	t->ns = now_ns() - t0;
	return NULL;
}

static struct thr *thr_new(int idx)
{
	struct thr *t = aligned_alloc(128, sizeof(*t));
	u32 nr = BUF_BYTES / SUBBUF;

	memset(t, 0, sizeof(*t));
	t->idx = idx;
	t->mem = aligned_alloc(4096, BUF_BYTES);
	t->arr = aligned_alloc(4096, BUF_BYTES);
	t->commit = aligned_alloc(128, (LD_COMMIT_ARRAY_BYTES(nr) + 127) & ~127ul);
	if (!t->mem || !t->arr || !t->commit ||
	    ld_cpu_buf_init(&t->cb, t->mem, t->commit, (u32)idx, SUBBUF, nr, LD_MODE_OVERWRITE)) {
		fprintf(stderr, "hostbench: out of memory\n");
		exit(1);
	}
	return t;
}

/* mean ns/record over @nthr threads running @m/@p */
static double run_once(struct thr **ts, int nthr, enum method m, enum payload p, u64 n)
{
	double sum = 0;

	pthread_barrier_init(&barrier, NULL, (unsigned int)nthr);
	for (int i = 0; i < nthr; i++) {
		ts[i]->m = m;
		ts[i]->p = p;
		ts[i]->n = n;
		pthread_create(&ts[i]->th, NULL, thread_main, ts[i]);
	}
	for (int i = 0; i < nthr; i++) {
		pthread_join(ts[i]->th, NULL);
		sum += (double)ts[i]->ns / (double)n;
	}
	pthread_barrier_destroy(&barrier);
	return sum / nthr;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_d);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static double instr[NR_METHODS][NR_PAYLOADS];

static void load_instr(const char *path)
{
	FILE *f = fopen(path, "r");
	char mname[32], pname[8];
	double v;

	if (!f)
		return;
	while (fscanf(f, "%31[^:]:%7s %lf\n", mname, pname, &v) == 3)
		for (int m = 0; m < NR_METHODS; m++)
			for (int p = 0; p < NR_PAYLOADS; p++)
				if (!strcmp(mname, method_name[m]) && !strcmp(pname, payload_name[p]))
					instr[m][p] = v;
	fclose(f);
}

static int parse_only(const char *s, enum method *m, enum payload *p)
{
	for (int i = 0; i < NR_METHODS; i++)
		for (int j = 0; j < NR_PAYLOADS; j++) {
			char buf[48];

			snprintf(buf, sizeof(buf), "%s:%s", method_name[i], payload_name[j]);
			if (!strcmp(buf, s)) {
				*m = (enum method)i;
				*p = (enum payload)j;
				return 0;
			}
		}
	return -1;
}

/*
 * --verify: record 2 ints + string and 2 ints through EDP, read the ring back
 * with ld_consume() and check every record's header and slots.
 */
static u32 verify_read(struct thr *t, u32 *bad)
{
	static char sb[SUBBUF];
	u32 seen = 0;

	ld_flush(&t->cb);
	while (ld_consume(&t->cb, sb) == 1) {
		const struct logdev_subbuf_hdr *h = (const void *)sb;
		u32 off = 0;

		while (off < h->data_bytes) {
			const struct logdev_rec_hdr *r = (const void *)(sb + LOGDEV_SUBBUF_HDR_SIZE + off);
			const char *q = (const char *)(r + 1);
			int32_t a, b;
			long long c;

			memcpy(&a, q, 4);
			if (r->type != LOGDEV_REC_PRINT_SLOTS || r->pid != 42 || (u32)a != seen)
				(*bad)++;
			else if (seen & 1) {
				memcpy(&b, q + 4, 4);
				if (r->arg_bytes != 28 || r->len != 56 || b != -a ||
				    strcmp(q + 8, "eth0-rx-queue-07") || q[27])
					(*bad)++;
			} else {
				memcpy(&c, q + 4, 8);
				if (r->arg_bytes != 12 || r->len != 40 || c != (long long)seen << 33)
					(*bad)++;
			}
			seen++;
			off += r->len;
		}
	}
	return seen;
}

/*
 * --verify: record 2 ints + string and 2 ints through EDP, with both builds
 * of the ring (multi-writer and one writer), read each ring back with
 * ld_consume() and check every record's header and slots, and the stats.
 */
static int verify(void)
{
	u32 n = 3000, fails = 0;
	const char *s = str16;

	edp_tid = 42;
	for (int sw = 0; sw < 2; sw++) {
		struct thr *t = thr_new(sw);
		struct ld_stats st;
		u32 seen, bad = 0;

		ld_cpu_buf_reset(&t->cb, LD_MODE_DISCARD);
		if (sw) {
			edp_sw_verify_fill(&t->cb, n, s);
		} else {
			for (u32 i = 0; i < n; i++) {
				if (i & 1)
					EDP(&t->cb, "v %d %d %s", (int)i, -(int)i, s);
				else
					EDP(&t->cb, "v %d %lld", (int)i, (long long)i << 33);
			}
		}
		seen = verify_read(t, &bad);
		ld_get_stats(&t->cb, &st);
		if (seen != n || bad || st.written != n || st.read != n ||
		    st.bytes != (u64)n / 2 * 56 + (u64)(n - n / 2) * 40) {
			printf("FAIL: bench-edp-encoding-%s: %u of %u records read, %u bad; stats written %llu read %llu bytes %llu\n",
			       sw ? "one-writer" : "multi-writer", seen, n, bad,
			       (unsigned long long)st.written, (unsigned long long)st.read,
			       (unsigned long long)st.bytes);
			fails++;
		} else {
			printf("PASS: bench-edp-encoding-%s: %u records, slots, strings and stats read back\n",
			       sw ? "one-writer" : "multi-writer", n);
		}
	}
	return fails ? 1 : 0;
}

#define MAX_RUNS	31
#define MAX_TCOUNTS	4

/* One timed session: its options (see the header) and its medians. */
struct session {
	u64 n;				/* records per thread and run */
	int runs, nmeth;		/* runs per figure; methods timed */
	int ntc, tcounts[MAX_TCOUNTS], maxt;	/* thread counts timed; the largest */
	const char *only, *instr_file, *tlist;
	double med[MAX_TCOUNTS][NR_METHODS][NR_PAYLOADS];	/* ns/record */
};

/*
 * The options into @s: -1 to go on, or the exit status (2 on a bad option,
 * after the usage line; --verify runs at once and gives verify()'s).
 */
static int parse_args(int argc, char **argv, struct session *s)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--records") && i + 1 < argc)
			s->n = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--runs") && i + 1 < argc)
			s->runs = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--threads") && i + 1 < argc)
			s->tlist = argv[++i];
		else if (!strcmp(argv[i], "--only") && i + 1 < argc)
			s->only = argv[++i];
		else if (!strcmp(argv[i], "--verify"))
			return verify();
		else if (!strcmp(argv[i], "--instr") && i + 1 < argc)
			s->instr_file = argv[++i];
		else {
			fprintf(stderr, "usage: hostbench [--records N] [--runs R] [--threads 1,2] "
					"[--instr FILE] | --only METHOD:PAYLOAD --records N\n");
			return 2;
		}
	}
	if (s->runs < 1 || s->runs > MAX_RUNS || !s->n)
		return 2;
	return -1;
}

/* --threads (default "1,NCPUS") into s->tcounts: 0, or 2 on a count out of 1..64. */
static int parse_threads(struct session *s)
{
	if (!s->tlist) {
		static char def[16];

		snprintf(def, sizeof(def), "1,%ld", sysconf(_SC_NPROCESSORS_ONLN));
		s->tlist = def;
	}
	for (const char *c = s->tlist; *c && s->ntc < MAX_TCOUNTS; ) {
		int v = atoi(c);

		if (v < 1 || v > 64)
			return 2;
		if (!s->ntc || s->tcounts[s->ntc - 1] != v)
			s->tcounts[s->ntc++] = v;
		if (v > s->maxt)
			s->maxt = v;
		c = strchr(c, ',');
		if (!c)
			break;
		c++;
	}
	return 0;
}

/* The runs, interleaved (run r of every method before run r + 1 of any), into s->med. */
static void run_all(struct session *s, struct thr **ts)
{
	static double res[MAX_TCOUNTS][NR_METHODS][NR_PAYLOADS][MAX_RUNS];

	for (int r = 0; r < s->runs; r++)
		for (int tc = 0; tc < s->ntc; tc++)
			for (int p = 0; p < NR_PAYLOADS; p++)
				for (int m = 0; m < s->nmeth; m++)
					res[tc][m][p][r] = run_once(ts, s->tcounts[tc], (enum method)m,
								    (enum payload)p, s->n);
	for (int tc = 0; tc < s->ntc; tc++)
		for (int p = 0; p < NR_PAYLOADS; p++)
			for (int m = 0; m < s->nmeth; m++)
				s->med[tc][m][p] = median(res[tc][m][p], s->runs);
}

/* The table of one thread count and payload: ns/record, x floor, instructions, targets. */
static void print_table(const struct session *s, int tc, int p)
{
	const int nmeth = s->nmeth;
	double fl = s->med[tc][M_FLOOR][p];

	printf("\nHost, native: %s; %d thread%s (one per CPU), %llu records/thread, median of %d runs\n",
	       payload_desc[p], s->tcounts[tc], s->tcounts[tc] > 1 ? "s" : "",
	       (unsigned long long)s->n, s->runs);
	printf("  %-30s %10s %9s %13s  %s\n", "method", "ns/record", "x floor",
	       "instr/record", "target");
	for (int m = 0; m < nmeth; m++) {
		char ib[32] = "-";
		char tg[160] = "";

		if (instr[m][p] > 0)
			snprintf(ib, sizeof(ib), "%.0f", instr[m][p]);
		if ((m == M_EDP || m == M_EDP_SW) && p == P2) {
			/* issue 13 item 6, judged on the kernel-like row */
			double xf = s->med[tc][m][p] / fl;
			double xl = nmeth > M_LTTNG ? s->med[tc][m][p] / s->med[tc][M_LTTNG][p] : 0;
			char lt[64] = "no LTTng-UST row";

			if (nmeth > M_LTTNG)
				snprintf(lt, sizeof(lt), "%.2fx", xl);
			if (m == M_EDP_SW)
				snprintf(tg, sizeof(tg), "<= 1.30x floor: %.2fx %s; <= 0.50x LTTng-UST: %s %s",
					 xf, xf <= 1.3 ? "MET" : "MISSED", lt,
					 nmeth <= M_LTTNG ? "MISSED" : xl <= 0.5 ? "MET" : "MISSED");
			else
				snprintf(tg, sizeof(tg), "(%.2fx floor, %s LTTng-UST: locked RMWs; target on the one-writer row)",
					 xf, lt);
		}
		printf("  %-30s %10.1f %9.2f %13s  %s\n", method_desc[m],
		       s->med[tc][m][p], s->med[tc][m][p] / fl, ib, tg);
	}
}

/* Per-writer records/s at each thread count, with the ALU control factored out. */
static void print_scaling(const struct session *s)
{
	const int ntc = s->ntc;
	double ctl = s->med[0][M_SPIN][P2] / s->med[ntc - 1][M_SPIN][P2];

	printf("\nScaling: per-writer records/s (million), 2 ints, each thread its own CPU and buffer\n");
	printf("  (\"/ctl\": the %d-thread share divided by the ALU control's share, i.e. what the\n"
	       "   machine itself gives a second thread factored out)\n", s->tcounts[ntc - 1]);
	printf("  %-30s", "method");
	for (int tc = 0; tc < ntc; tc++)
		printf(" %7d thr", s->tcounts[tc]);
	printf(" %7s %7s  target: %d thr >= 80%% of 1 thr\n", "share", "/ctl", s->tcounts[ntc - 1]);
	for (int m = 0; m < s->nmeth; m++) {
		double share = s->med[0][m][P2] / s->med[ntc - 1][m][P2];

		printf("  %-30s", method_desc[m]);
		for (int tc = 0; tc < ntc; tc++)
			printf(" %11.2f", 1e3 / s->med[tc][m][P2]);
		printf(" %6.0f%% %6.0f%%", 100 * share, 100 * share / ctl);
		if (m == M_EDP || m == M_EDP_SW)
			printf("  raw %s, vs control %s", share >= 0.8 ? "MET" : "MISSED",
			       share / ctl >= 0.8 ? "MET" : "MISSED");
		printf("\n");
	}
}

int main(int argc, char **argv)
{
	static struct session s = { .n = 2000000, .runs = 7, .nmeth = NR_METHODS, .maxt = 1 };
	struct thr *ts[64];
	int rc = parse_args(argc, argv, &s);

	if (rc >= 0)
		return rc;
#ifndef HAVE_LTTNG
	s.nmeth = M_LTTNG;
#endif
	if (s.only) {
		enum method m;
		enum payload p;

		if (parse_only(s.only, &m, &p))
			return 2;
		ts[0] = thr_new(0);
		run_once(ts, 1, m, p, s.n);
		return 0;
	}
	if (parse_threads(&s))
		return 2;
	if (s.instr_file)
		load_instr(s.instr_file);
	for (int i = 0; i < s.maxt; i++)
		ts[i] = thr_new(i);

	run_all(&s, ts);
	for (int tc = 0; tc < s.ntc; tc++)
		for (int p = 0; p < NR_PAYLOADS; p++)
			print_table(&s, tc, p);
	if (s.ntc > 1)
		print_scaling(&s);
	return 0;
}
