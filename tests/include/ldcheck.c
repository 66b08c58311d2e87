// SPDX-License-Identifier: GPL-2.0
/* ldcheck.c - the assertion helper of the C tests: see ldcheck.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ldcheck.h"

int ldc_passes, ldc_failures;

int ldc_exit_status(void)
{
	return ldc_failures ? 1 : 0;
}

const char *NAMEF(const char *fmt, ...)
{
	static char names[8][1024];
	static unsigned int k;
	char *p = names[k++ % 8];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p, sizeof(names[0]), fmt, ap);
	va_end(ap);
	return p;
}

void ldc_pass(const char *name)
{
	printf("PASS: %s\n", name);
	fflush(stdout);
	ldc_passes++;
}

void ldc_skip(const char *name, const char *why)
{
	printf("SKIP: %s: %s\n", name, why);
	fflush(stdout);
}

void ldc_fail(const char *name, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	printf("FAIL: %s: %s:%d: ", name, file, line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	ldc_failures++;
}

static const char *const op_text[] = {
	[LDC_EQ] = "==", [LDC_NE] = "!=", [LDC_LT] = "<",
	[LDC_LE] = "<=", [LDC_GT] = ">", [LDC_GE] = ">=",
};

/* -1, 0, 1 as a < b, a == b, a > b, by value whatever the signedness */
static int cmp_int(int sa, uintmax_t a, int sb, uintmax_t b)
{
	int an = sa && (intmax_t)a < 0, bn = sb && (intmax_t)b < 0;

	if (an != bn)
		return an ? -1 : 1;
	if (an)
		return (intmax_t)a < (intmax_t)b ? -1 : (intmax_t)a > (intmax_t)b;
	return a < b ? -1 : a > b;
}

static void int_text(char *s, size_t n, int sgn, uintmax_t v)
{
	if (sgn)
		snprintf(s, n, "%jd", (intmax_t)v);
	else if (v > 0xffff)
		snprintf(s, n, "%ju (%#jx)", v, v);
	else
		snprintf(s, n, "%ju", v);
}

int ldc_int(const char *file, int line, const char *name, enum ldc_op op,
	    const char *ta, int sa, uintmax_t a, const char *tb, int sb, uintmax_t b)
{
	int c = cmp_int(sa, a, sb, b), ok;
	char va[64], vb[64], got[400];

	switch (op) {
	case LDC_EQ: ok = c == 0; break;
	case LDC_NE: ok = c != 0; break;
	case LDC_LT: ok = c < 0; break;
	case LDC_LE: ok = c <= 0; break;
	case LDC_GT: ok = c > 0; break;
	default: ok = c >= 0; break;
	}
	if (ok) {
		ldc_pass(name);
		return 1;
	}
	int_text(va, sizeof(va), sa, a);
	int_text(vb, sizeof(vb), sb, b);
	/* a side whose text is its value (a literal) needs no "= value" */
	got[0] = 0;
	if (strcmp(ta, va))
		snprintf(got, sizeof(got), "%.150s = %s", ta, va);
	if (strcmp(tb, vb))
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%.150s = %s",
			 got[0] ? ", " : "", tb, vb);
	ldc_fail(name, file, line, "expected %s %s %s, got %s", ta, op_text[op], tb,
		 got[0] ? got : "false");
	return 0;
}

int ldc_true(const char *file, int line, const char *name, const char *text, int ok,
	     int want)
{
	if (ok == want) {
		ldc_pass(name);
		return 1;
	}
	ldc_fail(name, file, line, "expected %s%s%s, got %s", want ? "" : "!(", text,
		 want ? "" : ")", want ? "false" : "true");
	return 0;
}

int ldc_why(const char *file, int line, const char *name, const char *text,
	    const char *fmt, ...)
{
	char why[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	ldc_fail(name, file, line, "expected %s, got %s", text, why);
	return 0;
}

/*
 * Append @n bytes of @p to @out (size @cap) as a C string literal, escaped,
 * starting at byte @from ("..." before it if @from > 0) and cut after @max
 * bytes ("..." after).
 */
static void quote(char *out, size_t cap, const char *p, size_t n, size_t from, size_t max)
{
	size_t o = strlen(out), i;

#define PUT(...) do { if (o < cap) o += snprintf(out + o, cap - o, __VA_ARGS__); } while (0)
	if (!p) {
		PUT("NULL");
		return;
	}
	if (from)
		PUT("...");
	PUT("\"");
	for (i = from; i < n && i < from + max; i++) {
		unsigned char ch = (unsigned char)p[i];

		if (ch == '\n')
			PUT("\\n");
		else if (ch == '\t')
			PUT("\\t");
		else if (ch == '"' || ch == '\\')
			PUT("\\%c", ch);
		else if (ch < 0x20 || ch >= 0x7f)
			PUT("\\x%02x", ch);
		else
			PUT("%c", ch);
	}
	PUT("\"");
	if (i < n)
		PUT("...");
#undef PUT
}

/* where to start showing a long text so that byte @d is in view */
static size_t view_from(size_t d)
{
	return d > 40 ? d - 40 : 0;
}

/* append "TEXT = VALUE" to @msg, or nothing if TEXT is VALUE (a literal) */
static void show(char *msg, size_t cap, const char *t, const char *p, size_t n, size_t from,
		 size_t max)
{
	char v[1024] = "";
	size_t o = strlen(msg);

	quote(v, sizeof(v), p, n, from, max);
	if (!strcmp(t, v))
		return;
	snprintf(msg + o, cap - o, "%s%s = %s", o ? ", " : "", t, v);
}

static int bytes_differ(const char *file, int line, const char *name, const char *ta,
			const char *a, size_t na, const char *tb, const char *b,
			size_t nb)
{
	char msg[2048] = "";
	size_t d = 0, from;

	if (a && b)
		while (d < na && d < nb && a[d] == b[d])
			d++;
	from = view_from(d);
	show(msg, sizeof(msg), ta, a, na, from, 200);
	show(msg, sizeof(msg), tb, b, nb, from, 200);
	if (a && b)
		snprintf(msg + strlen(msg), sizeof(msg) - strlen(msg),
			 " (differ at byte %zu; %zu and %zu bytes)", d, na, nb);
	ldc_fail(name, file, line, "expected %s == %s, got %s", ta, tb, msg);
	return 0;
}

int ldc_str_eq(const char *file, int line, const char *name, const char *ta,
	       const char *a, const char *tb, const char *b)
{
	if (a && b && !strcmp(a, b)) {
		ldc_pass(name);
		return 1;
	}
	return bytes_differ(file, line, name, ta, a, a ? strlen(a) : 0, tb, b,
			    b ? strlen(b) : 0);
}

int ldc_mem_eq(const char *file, int line, const char *name, const char *ta,
	       const void *a, const char *tb, const void *b, size_t len)
{
	if (a && b && !memcmp(a, b, len)) {
		ldc_pass(name);
		return 1;
	}
	return bytes_differ(file, line, name, ta, a, len, tb, b, len);
}

int ldc_str_contains(const char *file, int line, const char *name, const char *ta,
		     const char *a, const char *tb, const char *b)
{
	char msg[2048] = "";

	if (a && b && strstr(a, b)) {
		ldc_pass(name);
		return 1;
	}
	show(msg, sizeof(msg), ta, a, a ? strlen(a) : 0, 0, 300);
	show(msg, sizeof(msg), tb, b, b ? strlen(b) : 0, 0, 200);
	ldc_fail(name, file, line, "expected %s to contain %s, got %s", ta, tb, msg);
	return 0;
}
