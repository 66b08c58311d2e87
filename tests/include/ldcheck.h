/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ldcheck.h - the assertion helper of the C tests (tests/ring, tests/decode).
 *
 * Each check prints one line in the test protocol (docs/DEVELOPING.md):
 *   PASS: NAME
 *   FAIL: NAME: FILE:LINE: expected EXPR, got VALUES
 * e.g.
 *   FAIL: discard keeps 12: ring_unit.c:131: expected n == 12, got n = 11
 *   FAIL: report: ldcheck.c:9: expected out == want, got out = "a\tb" want = "a\tc" (differ at byte 3)
 * and counts it; the program ends with `return ldc_exit_status();` (0 if no
 * check failed, else 1).  Every check macro evaluates its operands once and
 * returns 1 if the check passed, 0 if not, so a test can stop early:
 *   if (!CHECK_EQ(st, 0, "report exit 0")) return;
 *
 * NAME is a plain string (printed as is, a '%' is a '%'); NAMEF(fmt, ...)
 * builds one from a format (one of 8 rotating static buffers).
 *
 *   CHECK_EQ(a, b, name)   also _NE, _LT, _LE, _GT, _GE: integers of any
 *                          type and signedness, compared by value (-1 < 1u)
 *   CHECK_TRUE(cond, name) CHECK_FALSE(cond, name)
 *   CHECK_WHY(cond, name, fmt, ...)  cond true; on failure the text of fmt
 *                          says what was seen (for checks of several values);
 *                          fmt's arguments are evaluated only on failure
 *   CHECK_STR_EQ(got, want, name)     strings (NULL allowed), shown escaped
 *   CHECK_STR_CONTAINS(hay, needle, name)   strstr(hay, needle) != NULL
 *   CHECK_MEM_EQ(got, want, len, name)      len bytes, first difference shown
 *
 * Written for this project after the kernel selftests' EXPECT_EQ
 * (tools/testing/selftests/kselftest_harness.h): expression text and values.
 */
#ifndef LD_LDCHECK_H
#define LD_LDCHECK_H

#include <stddef.h>
#include <stdint.h>

/* checks passed and failed so far in this program */
extern int ldc_passes, ldc_failures;

/* 0 if no check failed, else 1: the program's exit status */
int ldc_exit_status(void);

/* a check's name from a format; one of 8 rotating static buffers */
const char *NAMEF(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* print PASS: NAME, count it */
void ldc_pass(const char *name);
/* print SKIP: NAME: WHY, a check this machine cannot make (not counted) */
void ldc_skip(const char *name, const char *why);
/* print FAIL: NAME: FILE:LINE: WHY (a format), count it */
void ldc_fail(const char *name, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

enum ldc_op { LDC_EQ, LDC_NE, LDC_LT, LDC_LE, LDC_GT, LDC_GE };

/* implementation of the macros below; 1 if the check passed (ldc_why: fails) */
int ldc_int(const char *file, int line, const char *name, enum ldc_op op,
	    const char *ta, int sa, uintmax_t a, const char *tb, int sb, uintmax_t b);
int ldc_true(const char *file, int line, const char *name, const char *text, int ok,
	     int want);
int ldc_why(const char *file, int line, const char *name, const char *text,
	    const char *fmt, ...) __attribute__((format(printf, 5, 6)));
int ldc_str_eq(const char *file, int line, const char *name, const char *ta,
	       const char *a, const char *tb, const char *b);
int ldc_str_contains(const char *file, int line, const char *name, const char *ta,
		     const char *a, const char *tb, const char *b);
int ldc_mem_eq(const char *file, int line, const char *name, const char *ta,
	       const void *a, const char *tb, const void *b, size_t len);

/* 1 if the type of @x is signed (x is not evaluated) */
#define LDC_SIGNED(x) (!!((__typeof__(x))-1 < (__typeof__(x))1))

#define LDC_INT(op, a, b, name)						\
	ldc_int(__FILE__, __LINE__, (name), (op), #a, LDC_SIGNED(a), (uintmax_t)(a), \
		#b, LDC_SIGNED(b), (uintmax_t)(b))

#define CHECK_EQ(a, b, name) LDC_INT(LDC_EQ, a, b, name)
#define CHECK_NE(a, b, name) LDC_INT(LDC_NE, a, b, name)
#define CHECK_LT(a, b, name) LDC_INT(LDC_LT, a, b, name)
#define CHECK_LE(a, b, name) LDC_INT(LDC_LE, a, b, name)
#define CHECK_GT(a, b, name) LDC_INT(LDC_GT, a, b, name)
#define CHECK_GE(a, b, name) LDC_INT(LDC_GE, a, b, name)

#define CHECK_TRUE(cond, name)  ldc_true(__FILE__, __LINE__, (name), #cond, !!(cond), 1)
#define CHECK_FALSE(cond, name) ldc_true(__FILE__, __LINE__, (name), #cond, !!(cond), 0)
#define CHECK_WHY(cond, name, ...)					\
	((cond) ? (ldc_pass(name), 1) : ldc_why(__FILE__, __LINE__, (name), #cond, __VA_ARGS__))

#define CHECK_STR_EQ(got, want, name)					\
	ldc_str_eq(__FILE__, __LINE__, (name), #got, (got), #want, (want))
#define CHECK_STR_CONTAINS(hay, needle, name)				\
	ldc_str_contains(__FILE__, __LINE__, (name), #hay, (hay), #needle, (needle))
#define CHECK_MEM_EQ(got, want, len, name)				\
	ldc_mem_eq(__FILE__, __LINE__, (name), #got, (got), #want, (want), (len))

#endif
