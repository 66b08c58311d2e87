// SPDX-License-Identifier: GPL-2.0
/*
 * test_breakdown_cli.c: `deltas --breakdown` (issue 28) on hand-made
 * captures whose markers give every bucket a known time: a pair of task
 * 100 from 1,000,000 to 1,200,000 ns (200 us), in which the local timer
 * takes 20 us, a softirq (TIMER) 10 us of which an irq 11 nested in it 2 us,
 * a preemption by task 200 ("hog") 30 us, a sleep 50 us woken by CPU 0's
 * TIMER softirq, then 10 us waiting for CPU 0 held by task 300, and an NMI
 * 3 us: own 77 us.  Woken on an idle CPU instead, the wait is the sleep's.
 * Also: the markers never split a pair (plain deltas gives one row in->out
 * by task), a capture without markers is refused (exit 2, never zeros),
 * a lost-events gap inside the pair makes it incomplete (not summed, a
 * warning, exit 3), and a pair inside a softirq counts only the hardirq
 * nested in it.
 * Usage: test_breakdown_cli PATH-TO-logdev.  Output: PASS/FAIL lines.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "liblogdev.h"
#include "testlib.h"
#include "fixture.h"
#include "capture.h"

char tmpdir[] = "/tmp/logdev-bd-XXXXXX";

static const char fmts[] =
	"1\ta.c\t10\tf\tin\n"
	"2\ta.c\t20\tf\tout\n"
	"3\tprobe\t0\tlogdev_bd_irq_in\tirq=%lld\n"
	"4\tprobe\t0\tlogdev_bd_irq_out\tirq=%lld\n"
	"5\tprobe\t0\tlogdev_bd_sirq_in\tvec_nr=%llu\n"
	"6\tprobe\t0\tlogdev_bd_sirq_out\tvec_nr=%llu\n"
	"7\tprobe\t0\tlogdev_bd_switch\tpreempt=%llu prev=0x%llx next=0x%llx prev_state=%llu\n"
	"8\tprobe\t0\tlogdev_bd_waking\tp=0x%llx\n"
	"9\tprobe\t0\tlogdev_bd_nmi\thandler=0x%llx delta_ns=%lld\n"
	"10\tprobe\t0\tlogdev_bd_timer_in\tvector=%lld\n"
	"11\tprobe\t0\tlogdev_bd_timer_out\tvector=%lld\n"
	"12\ta.c\t30\th\tsoft in\n"
	"13\ta.c\t40\th\tsoft out\n"
	"14\ta.c\t50\tk\tother\n";

enum { IN = 1, OUT, IRQ_IN, IRQ_OUT, SIRQ_IN, SIRQ_OUT, SWITCH, WAKING, NMI, TIMER_IN,
       TIMER_OUT, SOFT_IN, SOFT_OUT, OTHER };
enum { TASK = 0, SOFT = 1, HARD = 2, NMIC = 3 };

#define T_PTR	0xffff888001000000ull	/* task 100 */
#define H_PTR	0xffff888002000000ull	/* task 200, the hog */
#define I1_PTR	0xffff888003000000ull	/* CPU 1's idle task */
#define O_PTR	0xffff888004000000ull	/* task 300, running on CPU 0 */

/* one record of the scenario: CPU, ts, site, context, pid, up to 4 u64 args */
struct ev {
	uint32_t cpu;
	uint64_t ts;
	uint32_t site;
	uint8_t ctx;
	uint32_t pid;
	int nargs;
	uint64_t a[4];
};

static const struct ev base[] = {
	{ 1, 1000000, IN, TASK, 100, 0, { 0 } },
	{ 1, 1010000, TIMER_IN, HARD, 100, 1, { 236 } },
	{ 1, 1030000, TIMER_OUT, HARD, 100, 1, { 236 } },
	{ 1, 1040000, SIRQ_IN, SOFT, 100, 1, { 1 } },
	{ 1, 1042000, SOFT_IN, SOFT, 100, 0, { 0 } },
	{ 1, 1045000, IRQ_IN, HARD, 100, 1, { 11 } },
	{ 1, 1047000, IRQ_OUT, HARD, 100, 1, { 11 } },
	{ 1, 1048000, SOFT_OUT, SOFT, 100, 0, { 0 } },
	{ 1, 1050000, SIRQ_OUT, SOFT, 100, 1, { 1 } },
	{ 1, 1060000, SWITCH, TASK, 100, 4, { 1, T_PTR, H_PTR, 0 } },
	{ 1, 1090000, SWITCH, TASK, 200, 4, { 0, H_PTR, T_PTR, 1 } },
	{ 1, 1100000, SWITCH, TASK, 100, 4, { 0, T_PTR, I1_PTR, 1 } },
	{ 0, 1149000, SIRQ_IN, SOFT, 300, 1, { 1 } },
	{ 0, 1150000, WAKING, SOFT, 300, 1, { T_PTR } },
	{ 0, 1151000, SIRQ_OUT, SOFT, 300, 1, { 1 } },
	{ 0, 1160000, SWITCH, TASK, 300, 4, { 1, O_PTR, T_PTR, 0 } },
	{ 0, 1170000, NMI, NMIC, 100, 2, { 0xffffffff81001000ull, 3000 } },
	{ 0, 1200000, OUT, TASK, 100, 0, { 0 } },
};

#define NEV (sizeof(base) / sizeof(base[0]))

/*
 * the capture of @ev[@n] (two CPUs; each CPU's records in one sub-buffer,
 * or two with @gap_cpu's split at @gap_ts with 5 records lost), task names
 * "worker" (100) and "hog" (200) first; its path (static)
 */
static const char *build_probes;	/* a PROBES section's text, if not NULL */

static char *build(const char *name, const struct ev *ev, size_t n, int markers, int gap_cpu,
		   uint64_t gap_ts)
{
	struct buf b = { 0 };
	struct sbuf s;
	char comm[LOGDEV_COMM_LEN];
	static char path[4096];
	uint64_t seq;

	cap_meta(&b, fmts);
	for (uint32_t cpu = 0; cpu < 2; cpu++) {
		seq = 0;
		sb_begin(&s, (uint16_t)cpu, seq++, 900000, 0, 0);
		memset(comm, 0, sizeof(comm));
		strcpy(comm, cpu ? "worker" : "other");
		sb_rec(&s, 900000, 0, LOGDEV_REC_COMM, 0, cpu ? 100 : 300, comm, sizeof(comm));
		memset(comm, 0, sizeof(comm));
		strcpy(comm, "hog");
		sb_rec(&s, 900001, 0, LOGDEV_REC_COMM, 0, 200, comm, sizeof(comm));
		for (size_t i = 0; i < n; i++) {
			struct pl p = { { 0 }, 0 };

			if (ev[i].cpu != cpu || (!markers && ev[i].site >= IRQ_IN &&
						 ev[i].site <= TIMER_OUT))
				continue;
			if ((int)cpu == gap_cpu && ev[i].ts > gap_ts && gap_ts) {
				cap_sect(&b, LGD_SECT_CPU_DATA, cpu, s.b, SBS);
				sb_begin(&s, (uint16_t)cpu, seq++, ev[i].ts, 5, 0);
				gap_ts = 0;
			}
			enc(&p, "LLLL" + 4 - ev[i].nargs, (long long)ev[i].a[0], (long long)ev[i].a[1],
			    (long long)ev[i].a[2], (long long)ev[i].a[3]);
			if (!sb_rec(&s, ev[i].ts, ev[i].site, LOGDEV_REC_PRINT, ev[i].ctx, ev[i].pid,
				    p.n ? p.b : NULL, p.n)) {
				cap_sect(&b, LGD_SECT_CPU_DATA, cpu, s.b, SBS);
				sb_begin(&s, (uint16_t)cpu, seq++, ev[i].ts, 0, 0);
				sb_rec(&s, ev[i].ts, ev[i].site, LOGDEV_REC_PRINT, ev[i].ctx,
				       ev[i].pid, p.n ? p.b : NULL, p.n);
			}
		}
		cap_sect(&b, LGD_SECT_CPU_DATA, cpu, s.b, SBS);
	}
	if (build_probes)
		cap_sect(&b, LGD_SECT_PROBES, LGD_CAP_NO_CPU, build_probes, strlen(build_probes));
	cap_sect(&b, LGD_SECT_END, LGD_CAP_NO_CPU, NULL, 0);
	snprintf(path, sizeof(path), "%s", write_tmp(name, b.p, b.n));
	free(b.p);
	return path;
}

/* the line of @out that starts with @start, else "" (static copy) */
static const char *line_of(const char *out, const char *start)
{
	static char l[2048];
	const char *p = out;

	l[0] = 0;
	while (p && *p) {
		size_t n = strcspn(p, "\n");

		if (!strncmp(p, start, strlen(start))) {
			snprintf(l, sizeof(l), "%.*s", (int)(n < sizeof(l) ? n : sizeof(l) - 1), p);
			break;
		}
		p += n + (p[n] == '\n');
	}
	return l;
}

static void whole_pair(void)
{
	char *cap = build("bd.cap", base, NEV, 1, -1, 0), args[4200], *out, *err;
	const char *row, *worst;
	int st;

	snprintf(args, sizeof(args), "deltas --by task %s", cap);
	st = run_cli(args, &out, &err);
	CHECK_WHY(st == 0 && strstr(out, "200.000") && !strstr(out, "logdev_bd_"),
		  "markers-never-pair", "status %d, out:\n%s", st, out);
	free(out);
	free(err);
	/* report's +D and export's delta_ns: the same rule */
	snprintf(args, sizeof(args), "report --by task %s", cap);
	check_cli("report-markers-never-pair", args, 0, "+200.000 us", NULL);
	snprintf(args, sizeof(args), "export --format csv --by task %s", cap);
	check_cli("export-markers-never-pair", args, 0, ",out,200000,", NULL);
	snprintf(args, sizeof(args), "deltas --by task --breakdown %s", cap);
	st = run_cli(args, &out, &err);
	row = line_of(strstr(out, "\nbreakdown:") ? strstr(out, "\nbreakdown:") : "", "f:10");
	/* own 77, hardirq 22, softirq 8, nmi 3, preempted 40, blocked 50 */
	CHECK_WHY(st == 0 && strstr(row, "77.000  38.5%") && strstr(row, "22.000  11.0%") &&
		  strstr(row, "8.000   4.0%") && strstr(row, "3.000   1.5%") &&
		  strstr(row, "40.000  20.0%") && strstr(row, "50.000  25.0%"),
		  "buckets", "status %d, row '%s', out:\n%s\nerr:\n%s", st, row, out, err);
	worst = line_of(out, "    slowest:");
	CHECK_WHY(strstr(worst, "hardirq 22.000 (local timer)") &&
		  strstr(worst, "softirq 8.000 (softirq TIMER)") &&
		  strstr(worst, "preempted 40.000 (hog-200)") &&
		  strstr(worst, "blocked 50.000 (softirq TIMER)") && strstr(worst, "nmi 3.000 (NMI"),
		  "culprits", "'%s'", worst);
	CHECK_WHY(strstr(out, "2 pairs (0 incomplete, 0 of two tasks"), "split-count", "out:\n%s", out);
	free(out);
	free(err);
	{	/* CPU 0 idle when the task is woken: its wait there is the sleep's */
		struct ev idle[NEV];

		memcpy(idle, base, sizeof(base));
		for (size_t i = 0; i < NEV; i++)
			if (idle[i].cpu == 0 && idle[i].pid == 300 && idle[i].ts < 1170000)
				idle[i].pid = 0;
		snprintf(args, sizeof(args), "deltas --by task --breakdown %s",
			 build("idle.cap", idle, NEV, 1, -1, 0));
		check_cli("woken-on-idle-cpu", args, 0, "preempted 30.000 (hog-200), blocked "
			  "60.000 (softirq TIMER)", NULL);
	}
	/* the pair inside the softirq: 6 us, of it the irq 11 nested: 2 us */
	snprintf(args, sizeof(args), "deltas --breakdown %s", cap);
	st = run_cli(args, &out, &err);
	row = line_of(strstr(out, "\nbreakdown:") ? strstr(out, "\nbreakdown:") : "", "h:30");
	CHECK_WHY(st == 0 && strstr(row, "4.000  66.7%") && strstr(row, "2.000  33.3%"),
		  "softirq-pair", "status %d, row '%s', out:\n%s", st, row, out);
	free(out);
	free(err);
}

/* hist --breakdown: the row's buckets; --svg: the bar stacked by them */
static void hist(void)
{
	char *cap = build("bd.cap", base, NEV, 1, -1, 0), args[4200], *svg;

	snprintf(args, sizeof(args), "hist --by task --breakdown --svg %s f:10 f:20 %s",
		 tmp_path("bd.svg"), cap);
	check_cli("hist-breakdown", args, 0, "breakdown: 1 pair (0 incomplete, 0 of two tasks: not summed): "
		  "own 77.000 us 38.5%, hardirq 22.000 us 11.0%, softirq 8.000 us 4.0%, nmi "
		  "3.000 us 1.5%, preempted 40.000 us 20.0%, blocked 50.000 us 25.0%", NULL);
	svg = slurp(tmp_path("bd.svg"));
	CHECK_WHY(strstr(svg, "<title>own: 38.5 %</title>") &&
		  strstr(svg, "<title>preempted: 20.0 %</title>") &&
		  strstr(svg, "<title>blocked: 25.0 %</title>") && strstr(svg, "</svg>"),
		  "hist-svg-stacked", "svg:\n%.3000s", svg);
	free(svg);
	snprintf(args, sizeof(args), "hist --by task --breakdown f:10 f:20 %s",
		 build("nobd.cap", base, NEV, 0, -1, 0));
	check_cli("hist-no-markers-refused", args, 2, NULL, "nothing is broken down");
}

/* export --breakdown: the pair's buckets as columns; perfetto's slices */
static void export(void)
{
	char *cap = build("bd.cap", base, NEV, 1, -1, 0), args[4200];

	snprintf(args, sizeof(args), "export --format csv --by task --breakdown %s", cap);
	check_cli("export-csv", args, 0, ",out,200000,,,,local,77000,22000,8000,3000,40000,50000\r\n",
		  NULL);
	check_cli("export-csv-header", args, 0, "clock,own_ns,hardirq_ns,softirq_ns,nmi_ns,"
		  "preempted_ns,blocked_ns\r\n", NULL);
	snprintf(args, sizeof(args), "export --format json --by task --breakdown %s", cap);
	check_cli("export-json", args, 0, "\"own_ns\":77000,\"hardirq_ns\":22000,\"softirq_ns\":"
		  "8000,\"nmi_ns\":3000,\"preempted_ns\":40000,\"blocked_ns\":50000}", NULL);
	snprintf(args, sizeof(args), "export --format perfetto --by task --breakdown %s", cap);
	check_cli("export-perfetto-preempted", args, 0, "\"ts\":1060.000,\"dur\":30.000,"
		  "\"name\":\"preempted: hog-200\"", NULL);
	check_cli("export-perfetto-blocked", args, 0, "\"ts\":1100.000,\"dur\":50.000,"
		  "\"name\":\"blocked: softirq TIMER\"", NULL);
	check_cli("export-perfetto-timer", args, 0, "{\"ph\":\"X\",\"pid\":1,\"tid\":2,"
		  "\"ts\":1010.000,\"dur\":20.000,\"name\":\"local timer\"", NULL);
	check_cli("export-perfetto-track", args, 0, "\"name\":\"thread_name\",\"args\":"
		  "{\"name\":\"worker-100\"}", NULL);
	{	/* the markers are the slices: no instant event of theirs */
		char *out, *err;
		int st = run_cli(args, &out, &err);

		CHECK_WHY(st == 0 && !strstr(out, "logdev_bd_") && strstr(out, "\"name\":\"f:10\""),
			  "export-perfetto-no-marker-instants", "status %d", st);
		/* the hog's time before it was first seen is not known: no slice of it */
		CHECK_WHY(st == 0 && !strstr(out, "\"tid\":200,\"ts\":0.000") &&
			  !strstr(out, "4294967295"), "export-perfetto-no-unknown-slice",
			  "out:\n%s", out);
		free(out);
		free(err);
	}
	snprintf(args, sizeof(args), "export --format csv --breakdown %s",
		 build("nobd.cap", base, NEV, 0, -1, 0));
	check_cli("export-no-markers-refused", args, 2, NULL, "nothing is broken down");
}

/* diff --breakdown: B's pair 100 us longer, all of it own time */
static void diff(void)
{
	struct ev longer[NEV];
	char a[4096], args[9000];

	snprintf(a, sizeof(a), "%s", build("bd.cap", base, NEV, 1, -1, 0));
	memcpy(longer, base, sizeof(base));
	longer[NEV - 1].ts = 1300000;
	snprintf(args, sizeof(args), "diff --by task --breakdown %s %s", a,
		 build("longer.cap", longer, NEV, 1, -1, 0));
	check_cli("diff-breakdown", args, 0, "f:10 -> f:20 (1 -> 1 pairs): own 77.000 -> 177.000, "
		  "hardirq 22.000 -> 22.000, softirq 8.000 -> 8.000, nmi 3.000 -> 3.000, preempted "
		  "40.000 -> 40.000, blocked 50.000 -> 50.000\n    most changed: own, +100.000 us "
		  "per pair", NULL);
}

/* a copy of base without its event at @ts on @cpu of @site (or all at @ts if site 0) */
static size_t without(struct ev *v, uint32_t cpu, uint64_t ts, uint32_t site)
{
	size_t n = 0;

	for (size_t i = 0; i < NEV; i++)
		if (!(base[i].cpu == cpu && base[i].ts == ts && (!site || base[i].site == site)))
			v[n++] = base[i];
	return n;
}

static int by_ts(const void *a, const void *b)
{
	const struct ev *x = a, *y = b;

	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

/* @v[@n] with one pair of task 100, by task: incomplete (never smaller figures) */
static void incomplete(const char *name, struct ev *v, size_t n)
{
	char args[4200], cap[64];

	qsort(v, n, sizeof(*v), by_ts);	/* each CPU's records in time order */
	snprintf(cap, sizeof(cap), "%s.cap", name);
	snprintf(args, sizeof(args), "deltas --by task --breakdown %s", build(cap, v, n, 1, -1, 0));
	check_cli(name, args, 3, "(1 incomplete, 0 of two tasks", "could not be broken down");
}

/*
 * Markers that do not add up make the pair incomplete, each alone (a fresh
 * user's hostile captures: every one was reported complete, its time moved
 * to own or buckets summing past the delta, before)
 */
static void anomalies(void)
{
	struct ev v[NEV + 2];
	size_t n;

	/* the hog's switch giving the task back is lost: out twice */
	n = without(v, 1, 1090000, SWITCH);
	incomplete("switched-out-twice", v, n);
	/* a switch record with 2 of its 4 arguments: unreadable */
	n = without(v, 9, 0, 0);
	for (size_t i = 0; i < n; i++)
		if (v[i].ts == 1100000)
			v[i].nargs = 2;
	incomplete("switch-unreadable", v, n);
	/* irq 11's exit lost inside the softirq */
	n = without(v, 1, 1047000, IRQ_OUT);
	incomplete("irq-exit-lost", v, n);
	/* the local timer's exit lost: a softirq record comes under it */
	n = without(v, 1, 1030000, TIMER_OUT);
	incomplete("timer-exit-lost", v, n);
	/* an exit whose entry was not seen, inside the pair */
	n = without(v, 1, 1010000, TIMER_IN);
	incomplete("exit-without-entry", v, n);
	/* an NMI's delta_ns past its own time */
	n = without(v, 9, 0, 0);
	for (size_t i = 0; i < n; i++)
		if (v[i].site == NMI)
			v[i].a[1] = 5000000;
	incomplete("nmi-delta-past-ts", v, n);
	/* a softirq vector no kernel has */
	n = without(v, 9, 0, 0);
	for (size_t i = 0; i < n; i++)
		if (v[i].ts == 1040000)
			v[i].a[0] = 77;
	incomplete("softirq-vector-77", v, n);
	/* pid 100 is two tasks whose times off CPU overlap: buckets past the delta */
	n = without(v, 9, 0, 0);
	v[n++] = (struct ev){ 0, 1070000, SWITCH, TASK, 100, 4, { 0, T_PTR + 8, O_PTR, 1 } };
	v[n++] = (struct ev){ 0, 1190000, SWITCH, TASK, 300, 4, { 1, O_PTR, T_PTR + 8, 0 } };
	incomplete("one-pid-two-tasks", v, n);
}

/* a marker's site in another format: unusable, still never paired */
static void formats(void)
{
	char args[4200], *cap = build("bd.cap", base, NEV, 1, -1, 0), *data, *p;
	size_t len;

	/* the switch marker with prev and next swapped in its format */
	data = slurp_n(cap, &len);
	p = memmem(data, len, "prev=0x%llx next=0x%llx", 23);
	if (!p) {
		fail("swapped-format", "no switch format in the capture");
		free(data);
		return;
	}
	memcpy(p, "next=0x%llx prev=0x%llx", 23);
	snprintf(args, sizeof(args), "deltas --by task --breakdown %s",
		 write_tmp("swapped.cap", data, len));
	check_cli("swapped-format-refused", args, 2, NULL,
		  "missing, or not in its marker's format: logdev_bd_switch");
	snprintf(args, sizeof(args), "deltas --by task %s", tmp_path("swapped.cap"));
	check_cli("swapped-format-never-pairs", args, 0, "200.000", NULL);
	{
		char *out, *err;
		int st = run_cli(args, &out, &err);

		CHECK_WHY(st == 0 && !strstr(out, "logdev_bd_"), "swapped-format-no-marker-row",
			  "status %d, out:\n%s", st, out);
		free(out);
		free(err);
	}
	/* its first name changed too: the name is the marker's, so it never pairs */
	p = memmem(data, len, "preempt=%llu", 12);
	if (p)
		memcpy(p, "preemXt=%llu", 12);
	snprintf(args, sizeof(args), "deltas --by task %s", write_tmp("renamed.cap", data, len));
	{
		char *out, *err;
		int st = run_cli(args, &out, &err);

		CHECK_WHY(p && st == 0 && strstr(out, "200.000") && !strstr(out, "logdev_bd_"),
			  "reserved-name-never-pairs", "status %d, out:\n%s", st, out);
		free(out);
		free(err);
	}
	free(data);
}

/*
 * PREEMPT_RT: a task serving a softirq (a tasklet at local_bh_enable()) is
 * preempted and serves it on when it comes back: the softirq is the task's,
 * not the CPU's; complete, softirq 20 + preempted 30 + own 50 of 100 us
 */
static void rt_softirq(void)
{
	static const struct ev rt[] = {
		{ 1, 1000000, IN, TASK, 100, 0, { 0 } },
		{ 1, 1010000, SIRQ_IN, SOFT, 100, 1, { 6 } },
		{ 1, 1020000, SWITCH, SOFT, 100, 4, { 1, T_PTR, H_PTR, 0 } },
		{ 1, 1030000, OTHER, TASK, 200, 0, { 0 } },
		{ 1, 1050000, SWITCH, TASK, 200, 4, { 0, H_PTR, T_PTR, 1 } },
		{ 1, 1060000, SIRQ_OUT, SOFT, 100, 1, { 6 } },
		{ 1, 1100000, OUT, TASK, 100, 0, { 0 } },
	};
	char args[4200];

	snprintf(args, sizeof(args), "deltas --by task --breakdown %s",
		 build("rt.cap", rt, sizeof(rt) / sizeof(rt[0]), 1, -1, 0));
	check_cli("rt-softirq-goes-with-the-task", args, 0, "own 50.000, softirq 20.000 (softirq "
		  "TASKLET), preempted 30.000 (hog-200)", NULL);
}

/* --by context: a pair from another task's record is not split, and says so */
static void two_tasks(void)
{
	struct ev v[NEV + 1];
	char args[4200];
	size_t n = without(v, 9, 0, 0);

	v[n++] = (struct ev){ 0, 1165000, OTHER, TASK, 300, 0, { 0 } };
	qsort(v, n, sizeof(*v), by_ts);
	snprintf(args, sizeof(args), "deltas --breakdown %s", build("mixed.cap", v, n, 1, -1, 0));
	check_cli("two-tasks-not-split", args, 0, "(0 incomplete, 1 of two tasks: not summed)",
		  NULL);
	check_cli("two-tasks-note", args, 0, "note: 1 pair joins two tasks' records", NULL);
}

/*
 * the markers' sites from an earlier recording of the boot, this one's
 * PROBES without them: refused before anything is written (export wrote its
 * rows, zeros included, then refused)
 */
static void sites_only(void)
{
	char args[4200], *sites;

	build_probes = "r:vfs_read vfs_read hits=3\n";
	sites = build("sites-only.cap", base, NEV, 0, -1, 0);
	build_probes = NULL;
	snprintf(args, sizeof(args), "export --format csv --breakdown %s", sites);
	{
		char *out, *err;
		int st = run_cli(args, &out, &err);

		CHECK_WHY(st == 2 && !*out && strstr(err, "none of the context markers"),
			  "sites-only-export-refused", "status %d, out:\n%.400s\nerr:\n%s", st, out,
			  err);
		free(out);
		free(err);
	}
}

static void refusals(void)
{
	char *cap = build("nobd.cap", base, NEV, 0, -1, 0), args[4200];

	snprintf(args, sizeof(args), "deltas --by task --breakdown %s", cap);
	check_cli("no-markers-refused", args, 2, NULL, "nothing is broken down (never zeros)");

	{	/* and nothing on stdout: no table of zeros */
		char *out, *err;
		int st = run_cli(args, &out, &err);

		CHECK_WHY(st == 2 && !*out, "no-markers-no-table", "status %d, out:\n%s", st, out);
		free(out);
		free(err);
	}
	/* the same capture without --breakdown: the table as always */
	snprintf(args, sizeof(args), "deltas --by task %s", cap);
	check_cli("no-markers-plain-deltas", args, 0, "200.000", NULL);
	/*
	 * a gap on CPU 0 while the task ran there inside the pair (5 records
	 * lost; the pair itself, by task, began on CPU 1): incomplete, not summed
	 */
	cap = build("gap.cap", base, NEV, 1, 0, 1165000);
	snprintf(args, sizeof(args), "deltas --by task --breakdown %s", cap);
	check_cli("gap-incomplete", args, 3, "2 pairs (1 incomplete, 0 of two tasks",
		  "could not be broken down");
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s PATH-TO-logdev\n", argv[0]);
		return 2;
	}
	cli = argv[1];
	if (tmpdir_make())
		return 1;
	whole_pair();
	hist();
	export();
	diff();
	anomalies();
	formats();
	two_tasks();
	rt_softirq();
	refusals();
	sites_only();
	if (!getenv("KEEP")) tmpdir_remove();
	printf("breakdown: %d passed, %d failed\n", ldc_passes, ldc_failures);
	return ldc_exit_status();
}
