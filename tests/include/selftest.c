// SPDX-License-Identifier: GPL-2.0
/*
 * selftest.c - the assertion helper (ldcheck.h) tested by failing on purpose.
 *
 *   selftest          run `selftest fail` and `selftest pass`, check their
 *                     output line by line and their exit status
 *   selftest fail     one failing check of each kind (exit 1); after each
 *                     FAIL line, "#line N" names the line of the check
 *   selftest pass     the same kinds passing, and the edge cases (exit 0)
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "ldcheck.h"

#define L() printf("#line %d\n", __LINE__)

static int failing(void)
{
	int n = 11, a = 3, b = 4, neg = -1, st = 2;
	unsigned int u = 1;
	uint64_t big = UINT64_MAX;
	const char *out = "a\tb\n", *none = NULL, *err = "boom";
	char longs[301], longw[301];
	unsigned char m1[4] = { 1, 2, 3, 4 }, m2[4] = { 1, 2, 0xff, 4 };

	memset(longs, 'x', 300);
	longs[300] = 0;
	memcpy(longw, longs, sizeof(longs));
	longw[100] = 'y';
	CHECK_EQ(n, 12, "int eq"); L();
	CHECK_EQ(a, b, "two variables"); L();
	CHECK_GT(neg, u, "signed against unsigned by value"); L();
	CHECK_EQ(big, 0, "large unsigned in hex too"); L();
	CHECK_NE(n, 11, "ne"); L();
	CHECK_LE(b, a, "le"); L();
	CHECK_TRUE(n == 12, "true"); L();
	CHECK_FALSE(n == 11, "false"); L();
	CHECK_WHY(st == 0 && !*err, "why", "status %d stderr '%s'", st, err); L();
	CHECK_STR_EQ(out, "a\tc\n", "str"); L();
	CHECK_STR_EQ(none, out, "str NULL"); L();
	CHECK_STR_EQ(longs, longw, "str long"); L();
	CHECK_STR_CONTAINS(out, "xyz", "contains"); L();
	CHECK_MEM_EQ(m1, m2, sizeof(m1), "mem"); L();
	CHECK_EQ(n, 12, NAMEF("named %d", 5)); L();
	CHECK_EQ(n, 12, "plain 100% name"); L();
	return ldc_exit_status();
}

static int passing(void)
{
	int n = 11, neg = -1;
	unsigned int u = 1;
	uint64_t big = UINT64_MAX;
	const char *out = "a\tb\n";
	unsigned char m1[4] = { 1, 2, 3, 4 };
	int calls = 0;

	CHECK_EQ(n, 11, "int eq");
	CHECK_LT(neg, u, "-1 < 1u by value");
	CHECK_GT(big, neg, "UINT64_MAX > -1 by value");
	CHECK_EQ((++calls, calls), 1, "operands evaluated once");
	CHECK_TRUE(n == 11, "true");
	CHECK_FALSE(n == 12, "false");
	CHECK_STR_EQ(out, "a\tb\n", "str");
	CHECK_STR_CONTAINS(out, "\tb", "contains");
	CHECK_MEM_EQ(m1, "\1\2\3\4", 4, "mem");
	CHECK_WHY(n == 11, "why", "%d", ++calls);
	CHECK_EQ(calls, 1, "once, and the why text only on failure");
	return ldc_exit_status();
}

/* the FAIL lines `selftest fail` must print, as formats (x200, x40yx159); @ is selftest.c:LINE */
static const char *const want_fail[] = {
	"FAIL: int eq: @: expected n == 12, got n = 11",
	"FAIL: two variables: @: expected a == b, got a = 3, b = 4",
	"FAIL: signed against unsigned by value: @: expected neg > u, got neg = -1, u = 1",
	"FAIL: large unsigned in hex too: @: expected big == 0, got big = 18446744073709551615 (0xffffffffffffffff)",
	"FAIL: ne: @: expected n != 11, got n = 11",
	"FAIL: le: @: expected b <= a, got b = 4, a = 3",
	"FAIL: true: @: expected n == 12, got false",
	"FAIL: false: @: expected !(n == 11), got true",
	"FAIL: why: @: expected st == 0 && !*err, got status 2 stderr 'boom'",
	"FAIL: str: @: expected out == \"a\\tc\\n\", got out = \"a\\tb\\n\" (differ at byte 2; 4 and 4 bytes)",
	"FAIL: str NULL: @: expected none == out, got none = NULL, out = \"a\\tb\\n\"",
	"FAIL: str long: @: expected longs == longw, got longs = ...\"%s\"..., longw = ...\"%s\"... (differ at byte 100; 300 and 300 bytes)",
	"FAIL: contains: @: expected out to contain \"xyz\", got out = \"a\\tb\\n\"",
	"FAIL: mem: @: expected m1 == m2, got m1 = \"\\x01\\x02\\x03\\x04\", m2 = \"\\x01\\x02\\xff\\x04\" (differ at byte 2; 4 and 4 bytes)",
	"FAIL: named 5: @: expected n == 12, got n = 11",
	"FAIL: plain 100%% name: @: expected n == 12, got n = 11",
};

static const char *const want_pass[] = {
	"PASS: int eq", "PASS: -1 < 1u by value", "PASS: UINT64_MAX > -1 by value",
	"PASS: operands evaluated once", "PASS: true", "PASS: false", "PASS: str",
	"PASS: contains", "PASS: mem", "PASS: why", "PASS: once, and the why text only on failure",
};

/* run "SELF MODE"; its lines into @lines (at most @max), exit status into @st */
static int run(const char *self, const char *mode, char **lines, int max, int *st)
{
	char cmd[4096], buf[4096];
	FILE *p;
	int n = 0;

	snprintf(cmd, sizeof(cmd), "%s %s", self, mode);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	while (fgets(buf, sizeof(buf), p)) {
		buf[strcspn(buf, "\n")] = 0;
		if (n < max)
			lines[n] = strdup(buf);
		n++;
	}
	*st = pclose(p);
	*st = WIFEXITED(*st) ? WEXITSTATUS(*st) : 255;
	return n;
}

int main(int argc, char **argv)
{
	char *lines[64], want[2048], x200[201], x40yx159[201];
	int n, st, i, k, nwant = sizeof(want_fail) / sizeof(want_fail[0]);

	memset(x200, 'x', 200);
	x200[200] = 0;
	memcpy(x40yx159, x200, sizeof(x200));
	x40yx159[40] = 'y';
	if (argc > 1 && !strcmp(argv[1], "fail"))
		return failing();
	if (argc > 1 && !strcmp(argv[1], "pass"))
		return passing();

	n = run(argv[0], "fail", lines, 64, &st);
	CHECK_EQ(st, 1, "ldcheck: a program with failed checks exits 1");
	CHECK_EQ(n, 2 * nwant, "ldcheck: one FAIL line per failed check, nothing else");
	for (i = 0; i < nwant && 2 * i + 1 < n && 2 * i + 1 < 64; i++) {
		const char *at = strchr(want_fail[i], '@');
		int line = atoi(lines[2 * i + 1] + strlen("#line "));

		char fmt[1024];

		/* the long strings: bytes 60..259 shown, the 'y' at 100 */
		k = snprintf(fmt, sizeof(fmt), "%.*s", (int)(at - want_fail[i]), want_fail[i]);
		snprintf(fmt + k, sizeof(fmt) - k, "selftest.c:%d%s", line, at + 1);
		snprintf(want, sizeof(want), fmt, x200, x40yx159);
		CHECK_STR_EQ(lines[2 * i], want, NAMEF("ldcheck: FAIL text %d of %d", i + 1, nwant));
	}
	for (i = 0; i < n && i < 64; i++)
		free(lines[i]);
	n = run(argv[0], "pass", lines, 64, &st);
	CHECK_EQ(st, 0, "ldcheck: a program whose checks all pass exits 0");
	CHECK_EQ(n, (int)(sizeof(want_pass) / sizeof(want_pass[0])),
		 "ldcheck: one PASS line per passed check");
	for (i = 0; i < n && i < 64 && i < (int)(sizeof(want_pass) / sizeof(want_pass[0])); i++)
		CHECK_STR_EQ(lines[i], want_pass[i], NAMEF("ldcheck: PASS text %d", i + 1));
	for (i = 0; i < n && i < 64; i++)
		free(lines[i]);
	return ldc_exit_status();
}
