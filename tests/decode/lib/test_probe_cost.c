// SPDX-License-Identifier: GPL-2.0
/*
 * test_probe_cost.c: the probe cost a capture carries (its PROBE_COST
 * section: include/uapi/linux/logdev.h struct logdev_probe_cost) and its
 * correction of durations, self and inside times (lgd_cost.h, deltas.c,
 * logdev deltas --durations, --raw, --inside), on captures built byte by
 * byte: the figures checked (version, size, never calibrated), each site's
 * kind (edprint, kprobe at an entry or an offset, return probe, tracepoint,
 * with and without the probes' definitions), the arithmetic of the nested
 * records' cost on a known nesting, and a capture without calibration
 * (nothing subtracted, said so); logdev's own task-name records inside a
 * pair counted and charged at edprint's figure (--raw, no calibration:
 * counted, not charged), those of another CPU's code or outside the pair
 * not counted.
 * Usage: test_probe_cost PATH-TO-logdev.  Output: PASS/FAIL lines (ldcheck.h).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <stddef.h>
#include "liblogdev.h"
#include "testlib.h"
#include "fixture.h"

char tmpdir[] = "/tmp/logdev-probecost-XXXXXX";

/*
 * outer and inner are return probes, kp a kprobe at an offset, tp a
 * tracepoint probe, e an edprint site
 */
static const char fmts[] =
	"# id\tfile\tline\tfunc\tformat\n"
	"1\tprobe\t0\touter\targ1=%llx\n"
	"2\tprobe\t0\touter%return\tretval=%llx\n"
	"3\tprobe\t0\tinner\targ1=%llx\n"
	"4\tprobe\t0\tinner%return\tretval=%llx\n"
	"5\ta.c\t7\tf\tx=%llx\n"
	"6\tprobe\t0\tkp\targ1=%llx\n"
	"7\tprobe\t0\ttp\targ1=%llx\n"
	"8\tprobe\t0\tkpe\targ1=%llx\n";

static const char probes[] =
	"r:outer outer_fn hits=1 returns=1 missed=0 missed_maxactive=0\n"
	"r:inner inner_fn hits=1 returns=1 missed=0 missed_maxactive=0\n"
	"p:grp/kp some_fn+4 $arg1 hits=1 missed=0\n"
	"t:tp sched:sched_switch hits=0\n"
	"p:kpe some_fn hits=0 missed=0\n";

/* per call or record, in ps: kretprobe 400 ns a call, edprint 100 ns ... */
static void calib(struct logdev_probe_cost *pc, int opt)
{
	static const uint32_t med[LOGDEV_COST_NR_KINDS] = {
		[LOGDEV_COST_EDPRINT] = 100000, [LOGDEV_COST_KPROBE_INT3] = 1000000,
		[LOGDEV_COST_KPROBE_FTRACE] = 150000, [LOGDEV_COST_KPROBE_OPT] = 250000,
		[LOGDEV_COST_KRETPROBE] = 400000, [LOGDEV_COST_TRACEPOINT] = 120000,
	};

	memset(pc, 0, sizeof(*pc));
	pc->magic = LOGDEV_COST_MAGIC;
	pc->version = LOGDEV_COST_VERSION;
	pc->nr_kinds = LOGDEV_COST_NR_KINDS;
	pc->size = sizeof(*pc);
	pc->ts = 12345;
	for (int k = 0; k < LOGDEV_COST_NR_KINDS; k++) {
		struct logdev_cost_kind *c = &pc->kind[k];

		if (k == LOGDEV_COST_KPROBE_OPT && !opt)
			continue;
		c->flags = LOGDEV_COST_F_MEASURED |
			   (k == LOGDEV_COST_TRACEPOINT ? LOGDEV_COST_F_DIRECT : 0);
		c->runs = 31;
		c->calls = 100;
		c->median_ps = med[k];
		c->min_ps = med[k] - med[k] / 4;
		c->p10_ps = med[k] - med[k] / 8;
		c->p90_ps = med[k] + med[k] / 8;
		c->max_ps = med[k] + med[k] / 4;
	}
}

/*
 * Task 10: outer 1000..5000 holds inner 2000..3000 (an edprint record at
 * 2500 inside it) and a kp hit at 3500; task 20 (another task) hits kp at
 * 4000 during it.  Raw: outer 4 us, self 3 us; inner 1 us.  Nested in
 * outer: inner's two records (0.2 us each), the edprint (0.1), kp (0.25
 * optimised): 0.75 us; in inner: the edprint, 0.1.  Corrected: outer
 * 3.25 us, inner 0.9, outer's self 2.35.  @cost: a PROBE_COST section
 * (@pc); @with_probes: the PROBES section.
 */
static char *build_sect(const char *name, const void *pc, size_t pclen, int with_probes)
{
	struct buf b = { 0 };
	struct sbuf s;
	struct pl p;
	char *path;

	cap_meta(&b, fmts);
	if (pc)
		cap_sect(&b, LGD_SECT_PROBE_COST, LGD_CAP_NO_CPU, pc, pclen);
	enc(&p, "L", 0x11ll);
	sb_begin(&s, 0, 0, 1000, 0, 0);
	sb_rec(&s, 1000, 1, LOGDEV_REC_PRINT, 0, 10, p.b, p.n);
	sb_rec(&s, 2000, 3, LOGDEV_REC_PRINT, 0, 10, p.b, p.n);
	sb_rec(&s, 2500, 5, LOGDEV_REC_PRINT, 0, 10, p.b, p.n);
	sb_rec(&s, 3000, 4, LOGDEV_REC_PRINT, 0, 10, p.b, p.n);
	sb_rec(&s, 3500, 6, LOGDEV_REC_PRINT, 0, 10, p.b, p.n);
	sb_rec(&s, 4000, 6, LOGDEV_REC_PRINT, 0, 20, p.b, p.n);
	cap_sect(&b, LGD_SECT_CPU_DATA, 0, s.b, SBS);
	sb_begin(&s, 0, 1, 5000, 0, 0);
	sb_rec(&s, 5000, 2, LOGDEV_REC_PRINT, 0, 10, p.b, p.n);
	cap_sect(&b, LGD_SECT_CPU_DATA, 0, s.b, SBS);
	if (with_probes)
		cap_sect(&b, LGD_SECT_PROBES, LGD_CAP_NO_CPU, probes, strlen(probes));
	cap_sect(&b, LGD_SECT_END, LGD_CAP_NO_CPU, NULL, 0);
	path = write_tmp(name, b.p, b.n);
	free(b.p);
	return path;
}

static char *build(const char *name, const struct logdev_probe_cost *pc, int with_probes)
{
	return build_sect(name, pc, pc ? sizeof(*pc) : 0, with_probes);
}

/*
 * logdev's task-name records (LOGDEV_REC_COMM, site 0) among task 10's
 * pairs on CPU 0: outer 1000..5000 holds inner 2000..3000; task names of
 * task 10 at 900 (before outer), 1500 (in outer), 2200 (in inner, so in
 * outer too) and 5100 (after); on CPU 1 meanwhile, task 20's at 2500 and an
 * interrupt's (pid 0, hardirq) at 2600: not in task 10's pairs.  Nested in
 * outer: 1500, inner's two records (0.2 us each), 2200: 0.6 us; in inner:
 * 2200, 0.1.  Corrected: outer 3.4 us, inner 0.9, outer's self 2.5.
 * Without @mine, task 10's two inside its pairs are not written: only
 * CPU 1's fall in the pairs' time span.  @mine 3: also one of task 20 on
 * CPU 1 with an absurd stamp (0): a task name only, no lost record.
 */
static char *build_comm(const char *name, const struct logdev_probe_cost *pc, int mine)
{
	static const char comm[LOGDEV_COMM_LEN] = "worker";
	struct buf b = { 0 };
	struct sbuf s;
	struct pl p;
	char *path;

	cap_meta(&b, fmts);
	if (pc)
		cap_sect(&b, LGD_SECT_PROBE_COST, LGD_CAP_NO_CPU, pc, sizeof(*pc));
	enc(&p, "L", 0x11ll);
	sb_begin(&s, 0, 0, 900, 0, 0);
	sb_rec(&s, 900, 0, LOGDEV_REC_COMM, 0, 10, comm, sizeof(comm));
	sb_rec(&s, 1000, 1, LOGDEV_REC_PRINT, 0, 10, p.b, p.n);
	if (mine)
		sb_rec(&s, 1500, 0, LOGDEV_REC_COMM, 0, 10, comm, sizeof(comm));
	sb_rec(&s, 2000, 3, LOGDEV_REC_PRINT, 0, 10, p.b, p.n);
	cap_sect(&b, LGD_SECT_CPU_DATA, 0, s.b, SBS);
	sb_begin(&s, 0, 1, 2200, 0, 0);	/* (a sub-buffer holds 4 or 5 of these) */
	if (mine)
		sb_rec(&s, 2200, 0, LOGDEV_REC_COMM, 0, 10, comm, sizeof(comm));
	sb_rec(&s, 3000, 4, LOGDEV_REC_PRINT, 0, 10, p.b, p.n);
	sb_rec(&s, 5000, 2, LOGDEV_REC_PRINT, 0, 10, p.b, p.n);
	sb_rec(&s, 5100, 0, LOGDEV_REC_COMM, 0, 10, comm, sizeof(comm));
	cap_sect(&b, LGD_SECT_CPU_DATA, 0, s.b, SBS);
	sb_begin(&s, 1, 0, 2500, 0, 0);
	sb_rec(&s, 2500, 0, LOGDEV_REC_COMM, LOGDEV_CTX_TASK, 20, comm, sizeof(comm));
	sb_rec(&s, 2600, 0, LOGDEV_REC_COMM, LOGDEV_CTX_HARDIRQ, 0, comm, sizeof(comm));
	if (mine == 3)
		CHECK_GT(sb_rec(&s, 0, 0, LOGDEV_REC_COMM, 0, 20, comm, sizeof(comm)), 0,
			 "task names: the absurd one fits");
	sb_rec(&s, 2700, 5, LOGDEV_REC_PRINT, LOGDEV_CTX_HARDIRQ, 0, p.b, p.n);
	cap_sect(&b, LGD_SECT_CPU_DATA, 1, s.b, SBS);
	cap_sect(&b, LGD_SECT_PROBES, LGD_CAP_NO_CPU, probes, strlen(probes));
	cap_sect(&b, LGD_SECT_END, LGD_CAP_NO_CPU, NULL, 0);
	path = write_tmp(name, b.p, b.n);
	free(b.p);
	return path;
}

/* the PROBE_COST section as the reader takes it or leaves it */
static void test_check(void)
{
	struct logdev_probe_cost pc, out;

	CHECK_EQ(sizeof(pc), LOGDEV_PROBE_COST_SIZE, "struct logdev_probe_cost is 272 bytes");
	calib(&pc, 1);
	CHECK_EQ(lgd_cost_check(&pc, sizeof(pc), &out), 0, "check: a calibration is taken");
	CHECK_EQ(out.kind[LOGDEV_COST_KRETPROBE].median_ps, 400000, "check: its figures copied");
	CHECK_EQ(lgd_cost_check(&pc, sizeof(pc) - 1, &out), -EPROTO, "check: another size refused");
	pc.version = 3;
	CHECK_EQ(lgd_cost_check(&pc, sizeof(pc), &out), -EPROTO, "check: another version refused");
	pc.version = 1;
	CHECK_EQ(lgd_cost_check(&pc, sizeof(pc), &out), -EPROTO,
		 "check: version 1 in version 2's size refused");
	calib(&pc, 1);
	pc.magic ^= 1;
	CHECK_EQ(lgd_cost_check(&pc, sizeof(pc), &out), -EPROTO, "check: another magic refused");
	calib(&pc, 1);
	pc.ts = 0;
	CHECK_EQ(lgd_cost_check(&pc, sizeof(pc), &out), -ENODATA,
		 "check: never calibrated (ts 0): no figures");
}

/* each site's kind and cost per record */
static void test_kinds(void)
{
	struct logdev_probe_cost pc;
	struct lgd_cost_sites cs;
	struct lgd_sites s = { 0 };

	CHECK_EQ(lgd_sites_parse(&s, fmts, strlen(fmts)), 0, "kinds: formats parsed");
	calib(&pc, 1);
	CHECK_EQ(lgd_cost_sites_init(&cs, &s, probes, &pc), 0, "kinds: table made");
	CHECK_EQ(cs.kind[0], LGD_COST_NONE, "kinds: site 0 costs nothing known");
	CHECK_EQ(cs.kind[1], LOGDEV_COST_KRETPROBE, "kinds: r: entry");
	CHECK_EQ(cs.kind[2], LOGDEV_COST_KRETPROBE, "kinds: r: return");
	CHECK_EQ(cs.ps[1], 200000, "kinds: a return probe's call cost, half on its entry");
	CHECK_EQ(cs.ps[2], 200000, "kinds: and half on its return");
	CHECK_EQ(cs.kind[5], LOGDEV_COST_EDPRINT, "kinds: edprint");
	CHECK_EQ(cs.ps[5], 100000, "kinds: edprint's median");
	CHECK_EQ(cs.kind[6], LOGDEV_COST_KPROBE_OPT, "kinds: p: at an offset (GRP/NAME), optimised");
	CHECK_EQ(cs.kind[7], LOGDEV_COST_TRACEPOINT, "kinds: t:");
	CHECK_EQ(cs.kind[8], LOGDEV_COST_KPROBE_FTRACE, "kinds: p: at an entry: through ftrace");
	CHECK_EQ(lgd_cost_of(&cs, 99), 0, "kinds: a site beyond the table costs 0");
	lgd_cost_sites_free(&cs);

	calib(&pc, 0);
	lgd_cost_sites_init(&cs, &s, probes, &pc);
	CHECK_EQ(cs.kind[6], LOGDEV_COST_KPROBE_INT3,
		 "kinds: p: at an offset, optimisation not measured: int3");
	CHECK_EQ(cs.ps[6], 1000000, "kinds: int3's median");
	lgd_cost_sites_free(&cs);

	lgd_cost_sites_init(&cs, &s, NULL, &pc);
	CHECK_EQ(cs.kind[3], LOGDEV_COST_KRETPROBE, "kinds: no PROBES: NAME with a NAME%return is r:");
	CHECK_EQ(cs.kind[6], LOGDEV_COST_KPROBE_FTRACE, "kinds: no PROBES: another probe is p: at an entry");
	lgd_cost_sites_free(&cs);
	lgd_sites_free(&s);
}

static void run_expect(const char *name, const char *args, const char *want)
{
	char *out, *err;
	int st = run_cli(args, &out, &err);

	CHECK_EQ(st, 0, NAMEF("%s: exit 0", name));
	expect_text(name, out, want);
	free(out);
	free(err);
}

/* the arithmetic, through the CLI */
static void test_deltas(void)
{
	struct logdev_probe_cost pc;
	char *cap, *nocal, args[700];

	calib(&pc, 1);
	cap = build("cost.cap", &pc, 1);
	nocal = build("nocal.cap", NULL, 1);

	snprintf(args, sizeof(args), "deltas --durations %s", cap);
	run_expect("deltas --durations: nested records' cost out of durations and self", args,
		"from                     to                            count    min(us) median(us)    p99(us)    max(us)    total(us)     self(us)   probes  probes(us)  # clock: local (ftrace clock local)\n"
		"outer:0                  outer%return:0                    1      3.250      3.250      3.250      3.250        3.250        2.350        4       0.750\n"
		"inner:0                  inner%return:0                    1      0.900      0.900      0.900      0.900        0.900        0.900        1       0.100\n"
		"probe cost: taken out of durations, self and inside times (--raw: as measured); nested records' cost per record (median of the calibration, its runs min to max):\n"
		"  edprint          0.100 us (0.075 to 0.125)\n"
		"  kprobe-optimised 0.250 us (0.188 to 0.312)\n"
		"  kretprobe        0.200 us (0.150 to 0.250), half a call's\n"
		"  rows summed: 5 nested records, 0.850 us taken out (columns probes, probes(us))\n"
		"durations: 2 paired (0 negative), 0 entries without return, 0 returns without entry\n");

	snprintf(args, sizeof(args), "deltas --durations --raw %s", cap);
	run_expect("deltas --raw: as measured", args,
		"from                     to                            count    min(us) median(us)    p99(us)    max(us)    total(us)     self(us)  # clock: local (ftrace clock local)\n"
		"outer:0                  outer%return:0                    1      4.000      4.000      4.000      4.000        4.000        3.000\n"
		"inner:0                  inner%return:0                    1      1.000      1.000      1.000      1.000        1.000        1.000\n"
		"probe cost: not taken out (--raw)\n"
		"durations: 2 paired (0 negative), 0 entries without return, 0 returns without entry\n");

	snprintf(args, sizeof(args), "deltas --inside outer:0 %s", cap);
	run_expect("deltas --inside: the share of corrected times", args,
		"from                     to                            count    min(us) median(us)    p99(us)    max(us)    total(us)     self(us)   probes  probes(us)  # clock: local (ftrace clock local)\n"
		"outer:0                  outer%return:0                    1      3.250      3.250      3.250      3.250        3.250        2.350        4       0.750\n"
		"inner:0                  inner%return:0                    1      0.900      0.900      0.900      0.900        0.900        0.900        1       0.100\n"
		"inside outer:0: 1 call, 3.250 us inclusive\n"
		"  inner:0 -> inner%return:0: 1 call, 0.900 us, 27.7 % of outer:0\n"
		"probe cost: taken out of durations, self and inside times (--raw: as measured); nested records' cost per record (median of the calibration, its runs min to max):\n"
		"  edprint          0.100 us (0.075 to 0.125)\n"
		"  kprobe-optimised 0.250 us (0.188 to 0.312)\n"
		"  kretprobe        0.200 us (0.150 to 0.250), half a call's\n"
		"  rows summed: 5 nested records, 0.850 us taken out (columns probes, probes(us))\n"
		"durations: 2 paired (0 negative), 0 entries without return, 0 returns without entry\n");

	pc.version = 3;
	cap = build("v3.cap", &pc, 1);
	snprintf(args, sizeof(args), "deltas --durations %s", cap);
	{
		char *out, *err;
		int st = run_cli(args, &out, &err);

		CHECK_EQ(st, 3, "a PROBE_COST section of another version: exit 3");
		CHECK_STR_CONTAINS(err, "PROBE_COST section of another version or size: probe cost not used",
				   "a PROBE_COST section of another version: warned");
		CHECK_STR_CONTAINS(out, "probe cost: not taken out: the capture has no calibration",
				   "a PROBE_COST section of another version: nothing taken out, said so");
		free(out);
		free(err);
	}

	snprintf(args, sizeof(args), "deltas --durations %s", nocal);
	run_expect("deltas --durations without calibration: nothing taken out, said so", args,
		"from                     to                            count    min(us) median(us)    p99(us)    max(us)    total(us)     self(us)  # clock: local (ftrace clock local)\n"
		"outer:0                  outer%return:0                    1      4.000      4.000      4.000      4.000        4.000        3.000\n"
		"inner:0                  inner%return:0                    1      1.000      1.000      1.000      1.000        1.000        1.000\n"
		"probe cost: not taken out: the capture has no calibration (write \"calibrate\" to logdev/probe_cost before recording); durations and self times include the nested probes' own time\n"
		"durations: 2 paired (0 negative), 0 entries without return, 0 returns without entry\n");
}

/*
 * the library: lgd_deltas_collect() of @path with costs (@cost) or raw:
 * the task-name records it counted inside pairs (*@inside: each once;
 * @outer, @inner: per pair) and the ns taken out of outer's for them
 */
static void comm_collect(const char *path, int cost, uint64_t *inside, uint64_t *outer,
			 uint64_t *inner, int64_t *outer_ns)
{
	struct lgd_cost_sites cs = { 0 };
	struct lgd_deltas_opts o = { 0 };
	struct lgd_deltas ds;
	struct lgd_reader r;
	struct lgd_diag d;

	*inside = *outer = *inner = 99;
	*outer_ns = -1;
	if (lgd_reader_open(&r, path, NULL, NULL, &d)) {
		CHECK_TRUE(0, "task names: capture opened");
		return;
	}
	if (cost && r.have_cost && !lgd_cost_sites_init(&cs, &r.sites, r.probes, &r.cost))
		o.cost = &cs;
	lgd_deltas_init(&ds, &o);
	CHECK_EQ(lgd_deltas_collect(&r, &ds, 1, NULL, NULL), 0, "task names: collected");
	*inside = ds.comm_inside;
	for (size_t i = 0; i < ds.nr; i++) {
		if (ds.pairs[i].from == 1) {
			*outer = ds.pairs[i].comm_hits;
			*outer_ns = ds.pairs[i].comm_ns;
		} else if (ds.pairs[i].from == 3) {
			*inner = ds.pairs[i].comm_hits;
		}
	}
	lgd_deltas_free(&ds);
	lgd_cost_sites_free(&cs);
	lgd_reader_close(&r);
}

/* the counts behind the note: each record once, per pair, other CPUs' left out */
static void test_comm_lib(void)
{
	struct logdev_probe_cost pc;
	uint64_t inside, outer, inner;
	int64_t ns;
	char *path;

	calib(&pc, 1);
	path = build_comm("comm-lib.cap", &pc, 1);
	comm_collect(path, 1, &inside, &outer, &inner, &ns);
	CHECK_EQ(inside, 2, "task names: 2 records inside pairs (the one in both counted once)");
	CHECK_EQ(outer, 2, "task names: 2 inside outer");
	CHECK_EQ(inner, 1, "task names: 1 inside inner");
	CHECK_EQ(ns, 200, "task names: 2 x edprint's 100 ns out of outer");
	comm_collect(path, 0, &inside, &outer, &inner, &ns);
	CHECK_EQ(inside, 2, "task names, raw: counted all the same");
	CHECK_EQ(outer, 2, "task names, raw: 2 inside outer");
	CHECK_EQ(ns, 0, "task names, raw: nothing taken out");
	path = build_comm("comm-other.cap", &pc, 0);
	comm_collect(path, 1, &inside, &outer, &inner, &ns);
	CHECK_EQ(inside, 0, "task names of another CPU in the pairs' span: not counted");
	CHECK_EQ(outer, 0, "task names of another CPU: none in outer");
	CHECK_EQ(ns, 0, "task names of another CPU: nothing taken out");
}

/* logdev's task-name records inside pairs: counted, charged or said why not */
static void test_comm(void)
{
	struct logdev_probe_cost pc;
	char *cap, *nocal, *noed, args[700];

	calib(&pc, 1);
	cap = build_comm("comm.cap", &pc, 1);
	nocal = build_comm("comm-nocal.cap", NULL, 1);
	pc.kind[LOGDEV_COST_EDPRINT].flags = 0;
	noed = build_comm("comm-noedprint.cap", &pc, 1);

	snprintf(args, sizeof(args), "deltas --durations %s", cap);
	run_expect("task names inside pairs: counted once, charged at edprint's figure", args,
		"from                     to                            count    min(us) median(us)    p99(us)    max(us)    total(us)     self(us)   probes  probes(us)  # clock: local (ftrace clock local)\n"
		"outer:0                  outer%return:0                    1      3.400      3.400      3.400      3.400        3.400        2.500        4       0.600\n"
		"inner:0                  inner%return:0                    1      0.900      0.900      0.900      0.900        0.900        0.900        1       0.100\n"
		"probe cost: taken out of durations, self and inside times (--raw: as measured); nested records' cost per record (median of the calibration, its runs min to max):\n"
		"  edprint          0.100 us (0.075 to 0.125)\n"
		"  kretprobe        0.200 us (0.150 to 0.250), half a call's\n"
		"  task names       0.100 us, edprint's figure (the same write path): 2 of logdev's task-name records inside pairs, 0.300 us taken out (rows summed)\n"
		"  rows summed: 5 nested records, 0.700 us taken out (columns probes, probes(us))\n"
		"durations: 2 paired (0 negative), 0 entries without return, 0 returns without entry\n");

	snprintf(args, sizeof(args), "deltas --durations --raw %s", cap);
	run_expect("task names inside pairs, --raw: counted, not taken out", args,
		"from                     to                            count    min(us) median(us)    p99(us)    max(us)    total(us)     self(us)  # clock: local (ftrace clock local)\n"
		"outer:0                  outer%return:0                    1      4.000      4.000      4.000      4.000        4.000        3.000\n"
		"inner:0                  inner%return:0                    1      1.000      1.000      1.000      1.000        1.000        1.000\n"
		"probe cost: not taken out (--raw)\n"
		"task names: 2 of logdev's task-name records inside pairs, not taken out (--raw)\n"
		"durations: 2 paired (0 negative), 0 entries without return, 0 returns without entry\n");

	snprintf(args, sizeof(args), "deltas --durations %s", nocal);
	run_expect("task names inside pairs, no calibration: counted, not taken out", args,
		"from                     to                            count    min(us) median(us)    p99(us)    max(us)    total(us)     self(us)  # clock: local (ftrace clock local)\n"
		"outer:0                  outer%return:0                    1      4.000      4.000      4.000      4.000        4.000        3.000\n"
		"inner:0                  inner%return:0                    1      1.000      1.000      1.000      1.000        1.000        1.000\n"
		"probe cost: not taken out: the capture has no calibration (write \"calibrate\" to logdev/probe_cost before recording); durations and self times include the nested probes' own time\n"
		"task names: 2 of logdev's task-name records inside pairs, not taken out (no calibration)\n"
		"durations: 2 paired (0 negative), 0 entries without return, 0 returns without entry\n");

	snprintf(args, sizeof(args), "deltas --durations %s", noed);
	run_expect("task names inside pairs, edprint not measured: counted, not taken out", args,
		"from                     to                            count    min(us) median(us)    p99(us)    max(us)    total(us)     self(us)   probes  probes(us)  # clock: local (ftrace clock local)\n"
		"outer:0                  outer%return:0                    1      3.600      3.600      3.600      3.600        3.600        2.600        2       0.400\n"
		"inner:0                  inner%return:0                    1      1.000      1.000      1.000      1.000        1.000        1.000        0       0.000\n"
		"probe cost: taken out of durations, self and inside times (--raw: as measured); nested records' cost per record (median of the calibration, its runs min to max):\n"
		"  kretprobe        0.200 us (0.150 to 0.250), half a call's\n"
		"  task names: 2 of logdev's task-name records inside pairs, not taken out (edprint not measured)\n"
		"  rows summed: 2 nested records, 0.400 us taken out (columns probes, probes(us))\n"
		"durations: 2 paired (0 negative), 0 entries without return, 0 returns without entry\n");

	calib(&pc, 1);
	cap = build_comm("comm-other-cli.cap", &pc, 0);
	snprintf(args, sizeof(args), "deltas --durations %s", cap);
	{
		char *out, *err;
		int st = run_cli(args, &out, &err);

		CHECK_EQ(st, 0, "task names only on another CPU: exit 0");
		CHECK_TRUE(!strstr(out, "task names"), "task names only on another CPU: no note");
		CHECK_STR_CONTAINS(out, "outer:0                  outer%return:0                    "
				   "1      3.600",
				   "task names only on another CPU: nothing taken out for them");
		free(out);
		free(err);
	}

	cap = build_comm("comm-absurd.cap", &pc, 3);
	snprintf(args, sizeof(args), "deltas --durations %s", cap);
	{
		char *out, *err;
		int st = run_cli(args, &out, &err);

		CHECK_EQ(st, 0, "a task name with an absurd stamp: exit 0 (no record left out)");
		CHECK_TRUE(!strstr(err, "timestamp"), "a task name with an absurd stamp: no warning");
		CHECK_STR_CONTAINS(out, "2 of logdev's task-name records inside pairs",
				   "a task name with an absurd stamp: the others counted as before");
		free(out);
		free(err);
	}
}

/*
 * A calibration that overestimates here (a return probe at 4 us a call, 2 us
 * a record): outer's 4 us hold 4.35 us of charged records, so its
 * corrected duration and self time fall below 0: the table still prints
 * them, and a warning on stderr names the row (exit 3), never silently.
 */
static void test_over_corrected(void)
{
	struct logdev_probe_cost pc;
	char *cap, *out, *err, args[700];
	int st;

	calib(&pc, 1);
	pc.kind[LOGDEV_COST_KRETPROBE].median_ps = 4000000;
	cap = build("over.cap", &pc, 1);
	snprintf(args, sizeof(args), "deltas --durations %s", cap);
	st = run_cli(args, &out, &err);
	CHECK_WHY(st == 3 && strstr(err, "warning: rows below 0 after the probe cost was taken out (outer:0: self -1.250 us") &&
		  strstr(err, "): 1 row: the nested hits cost less") &&
		  strstr(out, "-1.250"),
		  "over-corrected: a self time below 0 is warned about, naming the row (exit 3)",
		  "status %d\nstdout: %s\nstderr: %s", st, out, err);
	free(out);
	free(err);
	snprintf(args, sizeof(args), "deltas --durations --raw %s", cap);
	st = run_cli(args, &out, &err);
	CHECK_WHY(st == 0 && !strstr(err, "below 0"),
		  "over-corrected: --raw takes nothing out and warns about nothing (exit 0)",
		  "status %d\nstderr: %s", st, err);
	free(out);
	free(err);
}

/*
 * A version 1 section (224 bytes, kinds 32 bytes apart, as modules before
 * the pair floor wrote it): taken in the current layout, its figures where
 * they were, no pair floor; the CLI reads it as it did before.
 */
static void test_v1(void)
{
	const size_t hdr = offsetof(struct logdev_probe_cost, kind);
	unsigned char v1[LOGDEV_PROBE_COST_SIZE_V1];
	struct logdev_probe_cost pc, out;
	uint32_t size = LOGDEV_PROBE_COST_SIZE_V1;
	uint16_t one = 1;
	char *cap, args[700];

	calib(&pc, 1);
	pc.kind[LOGDEV_COST_KRETPROBE].flags |= LOGDEV_COST_F_PAIR;	/* a stray bit */
	memcpy(v1, &pc, hdr);
	memcpy(v1 + offsetof(struct logdev_probe_cost, version), &one, sizeof(one));
	memcpy(v1 + offsetof(struct logdev_probe_cost, size), &size, sizeof(size));
	for (int k = 0; k < LOGDEV_COST_NR_KINDS; k++)
		memcpy(v1 + hdr + k * LOGDEV_COST_KIND_SIZE_V1, &pc.kind[k],
		       LOGDEV_COST_KIND_SIZE_V1);
	CHECK_EQ(lgd_cost_check(v1, sizeof(v1), &out), 0, "v1: a version 1 calibration is taken");
	CHECK_EQ(out.version, LOGDEV_COST_VERSION, "v1: in the current layout (version)");
	CHECK_EQ(out.size, sizeof(out), "v1: in the current layout (size)");
	CHECK_EQ(out.kind[LOGDEV_COST_KRETPROBE].median_ps, 400000, "v1: the kinds' figures in place");
	CHECK_EQ(out.kind[LOGDEV_COST_TRACEPOINT].median_ps, 120000, "v1: the last kind's too");
	CHECK_EQ(out.kind[LOGDEV_COST_KRETPROBE].flags & LOGDEV_COST_F_PAIR, 0,
		 "v1: no pair floor (a stray flag cleared)");
	CHECK_EQ(lgd_cost_check(v1, sizeof(v1) - 8, &out), -EPROTO, "v1: a shorter one refused");
	cap = build_sect("v1.cap", v1, sizeof(v1), 1);
	snprintf(args, sizeof(args), "deltas --durations %s", cap);
	check_cli("v1: a capture of version 1 corrects as before (nothing for the pairs' own records)",
		  args, 0, "rows summed: 5 nested records, 0.850 us taken out", NULL);
	check_cli("v1: ... outer's corrected duration as before", args, 0,
		  "outer:0                  outer%return:0                    1      3.250", NULL);
}

/* which pairs have their own records' part taken out, and how much */
static void test_floor_kinds(void)
{
	struct logdev_probe_cost pc;
	struct lgd_cost_sites cs;
	struct lgd_sites s = { 0 };

	lgd_sites_parse(&s, fmts, strlen(fmts));
	calib(&pc, 1);
	pc.kind[LOGDEV_COST_KRETPROBE].flags |= LOGDEV_COST_F_PAIR;
	pc.kind[LOGDEV_COST_KRETPROBE].pair_ps = 300000;
	pc.kind[LOGDEV_COST_EDPRINT].flags |= LOGDEV_COST_F_PAIR;
	pc.kind[LOGDEV_COST_EDPRINT].pair_ps = 90000;
	pc.kind[LOGDEV_COST_KPROBE_OPT].pair_ps = 77000;	/* not flagged */
	lgd_cost_sites_init(&cs, &s, probes, &pc);
	CHECK_EQ(lgd_cost_floor(&cs, 1, 2), 300000, "floor: a kretprobe's entry to its return");
	CHECK_EQ(lgd_cost_floor(&cs, 3, 2), 300000, "floor: one kretprobe's entry to another's return");
	CHECK_EQ(lgd_cost_floor(&cs, 2, 1), 0, "floor: a return to an entry: none");
	CHECK_EQ(lgd_cost_floor(&cs, 1, 3), 0, "floor: two entries: none");
	CHECK_EQ(lgd_cost_floor(&cs, 5, 5), 90000, "floor: two edprint records");
	CHECK_EQ(lgd_cost_floor(&cs, 1, 5), 0, "floor: a kretprobe's entry to an edprint: none");
	CHECK_EQ(lgd_cost_floor(&cs, 6, 6), 0, "floor: a kprobe kind not measured: none");
	CHECK_EQ(lgd_cost_floor(&cs, 0, 2), 0, "floor: site 0: none");
	CHECK_EQ(lgd_cost_floor(&cs, 1, 99), 0, "floor: a site beyond the table: none");
	CHECK_EQ(lgd_cost_floor(NULL, 1, 2), 0, "floor: no costs (--raw): none");
	lgd_cost_sites_free(&cs);
	pc.kind[LOGDEV_COST_KRETPROBE].flags &= ~(uint32_t)LOGDEV_COST_F_PAIR;
	lgd_cost_sites_init(&cs, &s, probes, &pc);
	CHECK_EQ(lgd_cost_floor(&cs, 1, 2), 0, "floor: not measured (no LOGDEV_COST_F_PAIR): none");
	lgd_cost_sites_free(&cs);
	lgd_sites_free(&s);
}

/*
 * build()'s capture with a kretprobe pair floor of 0.3 us: outer 3.25 -
 * 0.3 = 2.95 us, inner 0.9 - 0.3 = 0.6, outer's self 2.95 - 0.6 = 2.35 (the
 * floor comes out of the parent and of the child), inner's share of outer
 * 0.6 / 2.95 = 20.3 %; the probes(us) column holds it.
 */
static void test_floor(void)
{
	struct logdev_probe_cost pc;
	char *cap, args[700];

	calib(&pc, 1);
	pc.kind[LOGDEV_COST_KRETPROBE].flags |= LOGDEV_COST_F_PAIR;
	pc.kind[LOGDEV_COST_KRETPROBE].pair_ps = 300000;
	pc.kind[LOGDEV_COST_KRETPROBE].pair_n = 1000;
	cap = build("floor.cap", &pc, 1);
	snprintf(args, sizeof(args), "deltas --inside outer:0 %s", cap);
	run_expect("floor: each pair's own records' part out of it", args,
		"from                     to                            count    min(us) median(us)    p99(us)    max(us)    total(us)     self(us)   probes  probes(us)  # clock: local (ftrace clock local)\n"
		"outer:0                  outer%return:0                    1      2.950      2.950      2.950      2.950        2.950        2.350        4       1.050\n"
		"inner:0                  inner%return:0                    1      0.600      0.600      0.600      0.600        0.600        0.600        1       0.400\n"
		"inside outer:0: 1 call, 2.950 us inclusive\n"
		"  inner:0 -> inner%return:0: 1 call, 0.600 us, 20.3 % of outer:0\n"
		"probe cost: taken out of durations, self and inside times (--raw: as measured); nested records' cost per record (median of the calibration, its runs min to max):\n"
		"  edprint          0.100 us (0.075 to 0.125)\n"
		"  kprobe-optimised 0.250 us (0.188 to 0.312)\n"
		"  kretprobe        0.200 us (0.150 to 0.250), half a call's; its own pair's part inside it 0.300 us a pair\n"
		"  rows summed: 5 nested records and the own records of 2 pairs, 1.450 us taken out (columns probes, probes(us))\n"
		"durations: 2 paired (0 negative), 0 entries without return, 0 returns without entry\n");
	snprintf(args, sizeof(args), "deltas --durations %s", cap);
	{
		char *o, *e;
		int st = run_cli(args, &o, &e);

		CHECK_WHY(st == 0 && !strstr(e, "warning"),
			  "floor: below the capture's shortest pair: no warning (exit 0)",
			  "status %d\nstderr: %s", st, e);
		free(o);
		free(e);
	}
	pc.kind[LOGDEV_COST_KRETPROBE].pair_ps = 1200000;	/* inner took 1 us */
	cap = build("floor-over.cap", &pc, 1);
	snprintf(args, sizeof(args), "deltas --durations %s", cap);
	check_cli("floor: more than the capture's shortest pair: warned, naming both (exit 3)", args,
		  3, NULL, "warning: the calibration puts 1.200 us of a pair's own records inside a "
		  "pair, more than this capture's shortest such pair as measured (1.000 us)");
	check_cli("floor: ... and the rows it drove below 0, by median too", args, 3, NULL,
		  "inner:0: self -0.300 us, min -0.300 us, median -0.300 us");
	snprintf(args, sizeof(args), "deltas --durations --raw %s", cap);
	run_expect("floor: --raw takes nothing out", args,
		"from                     to                            count    min(us) median(us)    p99(us)    max(us)    total(us)     self(us)  # clock: local (ftrace clock local)\n"
		"outer:0                  outer%return:0                    1      4.000      4.000      4.000      4.000        4.000        3.000\n"
		"inner:0                  inner%return:0                    1      1.000      1.000      1.000      1.000        1.000        1.000\n"
		"probe cost: not taken out (--raw)\n"
		"durations: 2 paired (0 negative), 0 entries without return, 0 returns without entry\n");
}

/*
 * A calibration whose runs of a kind in use spread wide (p90 over 1.5x
 * p10: the machine's speed moved while it was measured) is warned about
 * with the range a record and the uncertainty it gives (exit 3); the
 * figures of test_floor() (p90 1.29x p10) are not.
 */
static void test_unsteady(void)
{
	struct logdev_probe_cost pc;
	char *cap, args[700];

	calib(&pc, 1);
	pc.kind[LOGDEV_COST_KRETPROBE].p10_ps = 300000;
	pc.kind[LOGDEV_COST_KRETPROBE].p90_ps = 700000;
	cap = build("unsteady.cap", &pc, 1);
	snprintf(args, sizeof(args), "deltas --durations %s", cap);
	check_cli("unsteady: a wide spread of a kind in use is warned, with the range a record (exit 3)",
		  args, 3, NULL, "warning: the calibration's kretprobe hits cost from 0.150 (p10) "
		  "to 0.350 us (p90) a record: the machine's speed moved while it was measured");
	check_cli("unsteady: ... and the uncertainty a nested record", args, 3, NULL,
		  "uncertain by about +-0.100 us a nested record");
	calib(&pc, 1);
	pc.kind[LOGDEV_COST_TRACEPOINT].p90_ps = 10 * pc.kind[LOGDEV_COST_TRACEPOINT].p10_ps;
	cap = build("unsteady-unused.cap", &pc, 1);
	snprintf(args, sizeof(args), "deltas --durations %s", cap);
	check_cli("unsteady: a kind no record of the capture has: no warning (exit 0)", args, 0,
		  NULL, NULL);
}

/*
 * hist, diff and export show durations as measured: with a calibration in
 * the capture they say so, and where deltas --durations takes it out;
 * without one they say nothing (deltas too shows them as measured)
 */
static void test_raw_notes(void)
{
	static const struct { const char *args, *name; int err; const char *want; } c[] = {
		{ "hist --durations outer:0 outer%%return:0 %s", "hist", 0,
		  "probe cost: not taken out by logdev hist: durations as measured" },
		{ "diff --durations %s %s", "diff", 0,
		  "B: probe cost: not taken out by logdev diff: durations as measured" },
		{ "diff --durations --format csv %s %s", "diff csv", 1,
		  "A: probe cost: not taken out by logdev diff" },
		{ "export --format csv %s", "export", 1,
		  "logdev export: probe cost: not taken out by logdev export" },
	};
	struct logdev_probe_cost pc;
	char *cap, *nocal, args[700], *out, *err;

	calib(&pc, 1);
	cap = build("notes.cap", &pc, 1);
	nocal = build("notes-nocal.cap", NULL, 1);
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		int st;

		snprintf(args, sizeof(args), c[i].args, cap, cap);
		check_cli(NAMEF("raw notes: %s of a calibrated capture says the probe cost is in its durations",
				c[i].name), args, 0, c[i].err ? NULL : c[i].want, c[i].err ? c[i].want : NULL);
		snprintf(args, sizeof(args), c[i].args, nocal, nocal);
		st = run_cli(args, &out, &err);
		CHECK_WHY(st == 0 && !strstr(out, "probe cost") && !strstr(err, "probe cost"),
			  NAMEF("raw notes: %s of a capture without calibration: no such note", c[i].name),
			  "status %d\nstdout: %s\nstderr: %s", st, out, err);
		free(out);
		free(err);
	}
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: test_probe_cost PATH-TO-logdev\n");
		return 2;
	}
	cli = argv[1];
	if (tmpdir_make())
		return 1;
	test_check();
	test_kinds();
	test_deltas();
	test_comm_lib();
	test_comm();
	test_over_corrected();
	test_v1();
	test_floor_kinds();
	test_floor();
	test_unsteady();
	test_raw_notes();
	tmpdir_remove();
	printf("probe_cost: %d passed, %d failed\n", ldc_passes, ldc_failures);
	return ldc_exit_status();
}
