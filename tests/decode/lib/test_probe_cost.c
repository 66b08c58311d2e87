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
 * (nothing subtracted, said so).
 * Usage: test_probe_cost PATH-TO-logdev.  Output: PASS/FAIL lines (ldcheck.h).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
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
static char *build(const char *name, const struct logdev_probe_cost *pc, int with_probes)
{
	struct buf b = { 0 };
	struct sbuf s;
	struct pl p;
	char *path;

	cap_meta(&b, fmts);
	if (pc)
		cap_sect(&b, LGD_SECT_PROBE_COST, LGD_CAP_NO_CPU, pc, sizeof(*pc));
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

/* the PROBE_COST section as the reader takes it or leaves it */
static void test_check(void)
{
	struct logdev_probe_cost pc, out;

	CHECK_EQ(sizeof(pc), LOGDEV_PROBE_COST_SIZE, "struct logdev_probe_cost is 224 bytes");
	calib(&pc, 1);
	CHECK_EQ(lgd_cost_check(&pc, sizeof(pc), &out), 0, "check: a calibration is taken");
	CHECK_EQ(out.kind[LOGDEV_COST_KRETPROBE].median_ps, 400000, "check: its figures copied");
	CHECK_EQ(lgd_cost_check(&pc, sizeof(pc) - 1, &out), -EPROTO, "check: another size refused");
	pc.version = 2;
	CHECK_EQ(lgd_cost_check(&pc, sizeof(pc), &out), -EPROTO, "check: another version refused");
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

	pc.version = 2;
	cap = build("v2.cap", &pc, 1);
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
	tmpdir_remove();
	printf("probe_cost: %d passed, %d failed\n", ldc_passes, ldc_failures);
	return ldc_exit_status();
}
