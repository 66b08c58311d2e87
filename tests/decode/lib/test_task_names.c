// SPDX-License-Identifier: GPL-2.0
/*
 * test_task_names.c: task names (library and CLI): comm records of format
 * version 3 name the pids of the records around them
 * Captures are built byte by byte (testlib.h, fixture.h), written to
 * temporary files, decoded by the library in-process and by the CLI given
 * as argv[1].
 * Usage: test_task_names PATH-TO-logdev.  Output: PASS/FAIL lines (ldcheck.h).
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <errno.h>
#include <sys/wait.h>
#include <limits.h>
#include "liblogdev.h"
#include "testlib.h"
#include "fixture.h"

char tmpdir[] = "/tmp/logdev-tasknames-XXXXXX";

/* ---- task names (comm records, format version 3) --------------------- */

static void comm_rec(struct sbuf *s, uint64_t ts, uint8_t ctx, uint32_t pid, const char *name)
{
	char c[LOGDEV_COMM_LEN] = { 0 };

	memcpy(c, name, strlen(name) < sizeof(c) ? strlen(name) : sizeof(c) - 1);
	sb_rec(s, ts, 0, LOGDEV_REC_COMM, ctx, pid, c, sizeof(c));
}

/*
 * CPU 0: alpha-100, beta-101 (an NMI inside), 102 unnamed, 103 named late;
 * CPU 1: pid 100 reused by gamma, renamed; control characters, an empty
 * name, the idle task.  Its path (malloc'd).
 */
static char *comm_cap(void)
{
	struct buf b = { 0 };
	struct sbuf s;
	char *path;

	cap_meta(&b, formats_text);
	/* CPU 0: alpha-100, then beta-101 with an NMI inside, then 102 with no name */
	sb_begin(&s, 0, 0, 1000000000ull, 0, 0);
	comm_rec(&s, 1000000000ull, 0, 100, "alpha");
	sb_rec(&s, 1000000000ull, 1, LOGDEV_REC_PRINT, 0, 100, NULL, 0);
	comm_rec(&s, 1000001000ull, 0, 101, "beta");
	sb_rec(&s, 1000001000ull, 2, LOGDEV_REC_PRINT, 0, 101, NULL, 0);
	sb_rec(&s, 1000001500ull, 3, LOGDEV_REC_PRINT, LOGDEV_CTX_NMI, 101, NULL, 0);
	sb_rec(&s, 1000002000ull, 1, LOGDEV_REC_PRINT, 0, 102, NULL, 0);
	cap_sect(&b, LGD_SECT_CPU_DATA, 0, s.b, SBS);
	sb_begin(&s, 0, 1, 1000002500ull, 0, 0);
	/* 103's first record: its comm record comes later (the first was lost) */
	sb_rec(&s, 1000002500ull, 1, LOGDEV_REC_PRINT, 0, 103, NULL, 0);
	comm_rec(&s, 1000002600ull, 0, 103, "late");
	sb_rec(&s, 1000002600ull, 2, LOGDEV_REC_PRINT, 0, 103, NULL, 0);
	cap_sect(&b, LGD_SECT_CPU_DATA, 0, s.b, SBS);
	/* CPU 1: pid 100 reused by gamma (alpha exited), which renames itself */
	sb_begin(&s, 1, 0, 1000003000ull, 0, 0);
	comm_rec(&s, 1000003000ull, LOGDEV_CTX_HARDIRQ, 100, "gamma");
	sb_rec(&s, 1000003000ull, 1, LOGDEV_REC_PRINT, LOGDEV_CTX_HARDIRQ, 100, NULL, 0);
	comm_rec(&s, 1000004000ull, 0, 100, "gamma");	/* repeated: no new entry */
	sb_rec(&s, 1000004000ull, 2, LOGDEV_REC_PRINT, 0, 100, NULL, 0);
	comm_rec(&s, 1000005000ull, 0, 100, "renamed-long-nam");	/* 16 bytes, no NUL */
	sb_rec(&s, 1000005000ull, 3, LOGDEV_REC_PRINT, 0, 100, NULL, 0);
	cap_sect(&b, LGD_SECT_CPU_DATA, 1, s.b, SBS);
	/* names a task may give itself: control characters, nothing */
	sb_begin(&s, 1, 1, 1000006000ull, 0, 0);
	comm_rec(&s, 1000006000ull, 0, 104, "a\tb\nc\\");
	sb_rec(&s, 1000006000ull, 1, LOGDEV_REC_PRINT, 0, 104, NULL, 0);
	comm_rec(&s, 1000007000ull, 0, 105, "");
	sb_rec(&s, 1000007000ull, 1, LOGDEV_REC_PRINT, 0, 105, NULL, 0);
	/* pid 0: every CPU's idle task, one name for all */
	comm_rec(&s, 1000008000ull, LOGDEV_CTX_HARDIRQ, 0, "swapper/1");
	sb_rec(&s, 1000008000ull, 1, LOGDEV_REC_PRINT, LOGDEV_CTX_HARDIRQ, 0, NULL, 0);
	cap_sect(&b, LGD_SECT_CPU_DATA, 1, s.b, SBS);
	cap_sect(&b, LGD_SECT_END, LGD_CAP_NO_CPU, NULL, 0);
	path = write_tmp("comm.cap", b.p, b.n);

	free(b.p);
	return strdup(path);
}

/* report, report --raw and deltas name the tasks of comm_cap()'s capture */
static void test_comm_outputs(const char *path)
{
	char *out, *err, args[700];
	int st;

	snprintf(args, sizeof(args), "report --by cpu %s", path);
	st = run_cli(args, &out, &err);
	expect_text("comm: report prints COMM-PID, pid:N without a comm record", out,
		"# clock: local (ftrace clock local)\n"
		"[     1.000000] cpu:0 alpha-100 kfree_skbmem:291 in\n"
		"[     1.000001] cpu:0 beta-101 kfree_skbmem:295 1  +1.000 us\n"
		"[     1.000001] cpu:0 beta-101 nmi kfree_skbmem:320 out  +0.500 us\n"
		"[     1.000002] cpu:0 pid:102 kfree_skbmem:291 in  +0.500 us\n"
		"[     1.000002] cpu:0 pid:103 kfree_skbmem:291 in  +0.500 us\n"
		"[     1.000002] cpu:0 late-103 kfree_skbmem:295 1  +0.100 us\n"
		"[     1.000003] cpu:1 gamma-100 hardirq kfree_skbmem:291 in\n"
		"[     1.000004] cpu:1 gamma-100 kfree_skbmem:295 1  +1.000 us\n"
		"[     1.000005] cpu:1 renamed-long-na-100 kfree_skbmem:320 out  +1.000 us\n"
		"[     1.000006] cpu:1 a\\tb\\nc\\\\-104 kfree_skbmem:291 in  +1.000 us\n"
		"[     1.000007] cpu:1 pid:105 kfree_skbmem:291 in  +1.000 us\n"
		"[     1.000008] cpu:1 <idle>-0 hardirq kfree_skbmem:291 in  +1.000 us\n");
	CHECK_WHY(st == 0 && err[0] == 0, "comm: report exit 0, no warnings",
		  "status %d stderr '%s'", st, err);
	free(out);
	free(err);
	snprintf(args, sizeof(args), "report --raw %s", path);
	run_cli(args, &out, &err);
	CHECK_WHY(!strstr(out, "type?") &&
		  strstr(out, "1000000000\t0\t100\ttask\t0\t<comm>\t0\talpha\n"
			 "1000000000\t0\t100\ttask\t1\tkfree_skbmem\t291\tin\n") &&
		  strstr(out, "1000005000\t1\t100\ttask\t0\t<comm>\t0\trenamed-long-na\n"),
		  "comm: report --raw shows comm records (func <comm>, the name)", "%s", out);
	free(out);
	free(err);
	snprintf(args, sizeof(args), "deltas %s", path);
	run_cli(args, &out, &err);
	CHECK_WHY(!strstr(out, "site#0"), "comm: deltas leave comm records out", "%s", out);
	free(out);
	free(err);
}

/* the library: names at each time, after a full load */
static void test_comm_at(const char *path)
{
	struct lgd_reader r;
	struct lgd_diag d;

	if (lgd_reader_open(&r, path, NULL, NULL, &d)) {
		CHECK_TRUE(0, "comm: open");
		return;
	}
	CHECK_TRUE(lgd_comm_at(&r, 100, 1000000000ull) == NULL, "comm: nothing known before a merge");
	CHECK_EQ(lgd_comm_load(&r), 0, "comm: load");
	CHECK_EQ(r.nr_comms, (size_t)8, "comm: one entry per (pid, name) run");
	{
		static const struct { uint32_t pid; uint64_t ts; const char *want; } at[] = {
			{ 100, 1000000000ull, "alpha" }, { 100, 1000002999ull, "alpha" },
			{ 100, 1000003000ull, "gamma" }, { 100, 1000004999ull, "gamma" },
			{ 100, 1000005000ull, "renamed-long-na" }, { 100, ~0ull, "renamed-long-na" },
			{ 100, 0, "alpha" },	/* before any: the first after */
			{ 101, 1000001500ull, "beta" }, { 103, 1000002500ull, "late" },
			{ 102, 1000002000ull, NULL }, { 99, 1000002000ull, NULL },
		};

		for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
			const char *got = lgd_comm_at(&r, at[i].pid, at[i].ts);

			CHECK_WHY(at[i].want ? got && !strcmp(got, at[i].want) : !got,
				  NAMEF("comm: pid %u at %llu is %s", at[i].pid,
					(unsigned long long)at[i].ts, at[i].want ? at[i].want : "unknown"),
				  "got %s", got ? got : "NULL");
		}
	}
	lgd_reader_close(&r);
}

static void test_comm_many(void)
{
	struct sbuf s;
	struct lgd_reader r;
	struct lgd_diag d;
	char *path;

	/*
	 * Many comm records: 20000 pids in descending order (the old sorted
	 * array moved every entry at each insertion), and one pid renamed
	 * 2000 times with the clock going backwards (out of time order: kept
	 * only for the first LGD_COMM_UNORDERED_MAX names).  Must stay linear.
	 */
	{
		struct buf c = { 0 };
		uint64_t seq = 0, ts = 5000000000ull;
		struct timespec t0, t1;
		char nm[16];
		double secs;
		int k = 0;

		cap_meta(&c, formats_text);
		while (k < 22000) {
			sb_begin(&s, 0, seq++, ts, 0, 0);
			for (; k < 22000; k++) {
				uint32_t pid = k < 20000 ? 30000 - (uint32_t)k : 7;

				snprintf(nm, sizeof(nm), k < 20000 ? "t%d" : "r%d", k);
				if (k >= 20000)
					ts -= 10;	/* backwards */
				else
					ts += 10;
				char cm[LOGDEV_COMM_LEN] = { 0 };

				memcpy(cm, nm, strlen(nm));
				if (!sb_rec(&s, ts, 0, LOGDEV_REC_COMM, 0, pid, cm, sizeof(cm)))
					break;
			}
			cap_sect(&c, LGD_SECT_CPU_DATA, 0, s.b, SBS);
		}
		cap_sect(&c, LGD_SECT_END, LGD_CAP_NO_CPU, NULL, 0);
		path = write_tmp("comm-many.cap", c.p, c.n);
		if (!lgd_reader_open(&r, path, NULL, NULL, &d)) {
			clock_gettime(CLOCK_MONOTONIC, &t0);
			CHECK_EQ(lgd_comm_load(&r), 0, "comm many: load");
			clock_gettime(CLOCK_MONOTONIC, &t1);
			secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
			CHECK_WHY(secs < 2.0, "comm many: 22000 comm records loaded in under 2 s",
				  "%.2f s", secs);
			CHECK_EQ(r.nr_comm_tasks, (size_t)20001, "comm many: 20001 pids");
			CHECK_EQ(r.nr_comms, (size_t)(20000 + LGD_COMM_UNORDERED_MAX),
				 "comm many: out-of-order renames capped");
			CHECK_STR_EQ(lgd_comm_at(&r, 30000, ~0ull), "t0", "comm many: first pid named");
			CHECK_STR_EQ(lgd_comm_at(&r, 10001, ~0ull), "t19999", "comm many: last pid named");
			lgd_reader_close(&r);
		} else {
			CHECK_TRUE(0, "comm many: open");
		}
		free(c.p);
	}
}

static void test_comm(void)
{
	char *path = comm_cap();

	test_comm_outputs(path);
	test_comm_at(path);
	test_comm_many();
	free(path);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: test_task_names PATH-TO-logdev\n");
		return 2;
	}
	cli = argv[1];
	if (tmpdir_make())
		return 1;
	test_comm();
	tmpdir_remove();
	printf("task_names: %d passed, %d failed\n", ldc_passes, ldc_failures);
	return ldc_exit_status();
}
