// SPDX-License-Identifier: GPL-2.0
/*
 * test_fmtspec.c - edp_fmt_spec() (include/linux/edprint_fmt.h, the one
 * parse of a conversion's head that edprint's slots encoder and the
 * module's format walkers share) against the rules of the kernel's
 * format_decode() (lib/vsprintf.c, 6.1 and 7.3 read alike here):
 *   - flags: any run of "-+ #0";
 *   - width: digits, or '*' (an int argument);
 *   - precision: '.' then digits (clamped), or '.' then '*' (an int
 *     argument); a '.' followed by neither leaves the precision unset (-1),
 *     where C's printf() takes 0 (issue 24 item 6: "%.s" stored an empty
 *     string);
 *   - length: h hh l ll L z t.
 * A generated table of every flag set x width form x precision form x
 * length x conversion (32 x 4 x 6 x 8 x 3 = 18,432 heads), then the %s bounds edp_fmt_slots_ok()
 * hands the encoder, then the text of the issue's own calls through the
 * encoder and lgd_bprintf_slots().  tests/vm's printf table checks the same
 * forms against the kernel's own vsnprintf() (kernel/test/logdev_test_printf.c,
 * lt_printf_forms()).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include "liblogdev.h"
#include "testlib.h"

typedef uint32_t u32;
typedef uint64_t u64;
typedef uint16_t u16;
#include <linux/edprint_slots.h>
#include <linux/edprint_fmt.h>

char tmpdir[] = "/tmp/logdev-fmtspec-XXXXXX";

struct form {
	const char *text;
	int star;	/* takes an int argument */
	int prec;	/* the precision format_decode() sets; -1: none */
};

static const struct form widths[] = {
	{ "", 0, 0 }, { "7", 0, 0 }, { "12", 0, 0 }, { "*", 1, 0 },
};

static const struct form precs[] = {
	{ "", 0, -1 },
	{ ".", 0, -1 },		/* not 0: format_decode() needs a digit */
	{ ".0", 0, 0 },
	{ ".3", 0, 3 },
	{ ".*", 1, -1 },	/* the argument's, at run time */
	{ ".99999", 0, EDP_PREC_MAX },
};

static const struct {
	const char *text;
	char qual;
} quals[] = {
	{ "", 0 }, { "h", 'h' }, { "hh", 'H' }, { "l", 'l' }, { "ll", 'L' },
	{ "L", 'L' }, { "z", 'z' }, { "t", 't' },
};

static void test_heads(void)
{
	static const char flagset[] = "-+ #0";
	static const char convs[] = "dsx";
	unsigned int nr = 0, bad = 0;
	char why[300] = "";

	for (unsigned int fm = 0; fm < 32; fm++)
		for (size_t w = 0; w < sizeof(widths) / sizeof(widths[0]); w++)
			for (size_t p = 0; p < sizeof(precs) / sizeof(precs[0]); p++)
				for (size_t q = 0; q < sizeof(quals) / sizeof(quals[0]); q++)
					for (const char *c = convs; *c; c++) {
		char f[40];
		size_t n = 0;
		struct edp_spec sp;
		const char *end;

		for (unsigned int b = 0; b < 5; b++)
			if (fm & (1u << b))
				f[n++] = flagset[b];
		n += (size_t)snprintf(f + n, sizeof(f) - n, "%s%s%s%c", widths[w].text,
				      precs[p].text, quals[q].text, *c);
		end = edp_fmt_spec(f, &sp);
		nr++;
		if (end == f + n - 1 && sp.wstar == widths[w].star &&
		    sp.pstar == precs[p].star && sp.prec == precs[p].prec &&
		    sp.qual == quals[q].qual)
			continue;
		if (!bad++)
			snprintf(why, sizeof(why),
				 "\"%%%s\": stopped at %td of %zu, wstar %d pstar %d prec %d qual %d; want wstar %d pstar %d prec %d qual %d",
				 f, end - f, n - 1, sp.wstar, sp.pstar, sp.prec, sp.qual,
				 widths[w].star, precs[p].star, precs[p].prec, quals[q].qual);
	}
	CHECK_WHY(bad == 0 && nr == 18432,
		  "edp_fmt_spec: every flag set, width, precision and length as format_decode() reads them",
		  "%u of %u heads wrong, first: %s", bad, nr, why);
}

/* the %s bounds of the slots encoder: 0 is none (the whole string) */
static void test_sprec(void)
{
	u16 sp[EDP_MAX_ARGS];
	const char *fmt = "[%.s] [%-3.s] [%.0s] [%.*s] [%.2s] [%6.s]";

	CHECK_WHY(edp_fmt_slots_ok(fmt, 7, 0x77, 0, sp) == 1 && sp[0] == 0 && sp[1] == 0 &&
		  sp[2] == 1 && sp[3] == 0 && sp[4] == EDP_SPREC_STAR && sp[5] == 3 && sp[6] == 0,
		  "sprec: \"%.s\" has no precision (reads the whole string), \"%.0s\" has 0",
		  "%u %u %u %u %u %u %u", sp[0], sp[1], sp[2], sp[3], sp[4], sp[5], sp[6]);
}

/* the report's calls, stored by the encoder and rendered by the reader */
static u16 bound_sp[EDP_MAX_ARGS];

#define STORE_RENDER(out, fmt, strmask, ...) do {				\
	uint8_t b_[512];							\
	long _edprev = 0;							\
	edp_fmt_slots_ok(fmt, EDP_NARGS(__VA_ARGS__), strmask, 0, bound_sp);	\
	EDP_MAP(EDP_DECLB, __VA_ARGS__)						\
	char *_edp = (char *)b_;						\
	EDP_MAP(EDP_STORE, __VA_ARGS__)						\
	(void)_edprev;								\
	lgd_bprintf_slots(out, sizeof(out), fmt, b_, (uint32_t)(_edp - (char *)b_), NULL); \
} while (0)

static void test_text(void)
{
	char got[300];

#define EDP_SBOUND(i, prev)	edp_sprec_bound(bound_sp[i], prev)
	STORE_RENDER(got, "%.s", 0x1, "123456");
	ldc_str_eq(__FILE__, __LINE__, "text: %.s prints the whole string, as the kernel",
		   "got", got, "expected", "123456");
	STORE_RENDER(got, "[%-3.s] [%.s|%.0s|%.*s]", 0x17, "ab", "x", "y", 1, "zz");
	ldc_str_eq(__FILE__, __LINE__, "text: %-3.s, %.s|%.0s|%.*s",
		   "got", got, "expected", "[ab ] [x||z]");
#undef EDP_SBOUND
}

/* lgd_fmt_has_symptr() walks with edp_fmt_next(): which formats need symbols */
static void test_symptr(void)
{
	static const struct { const char *fmt; int want; } t[] = {
		{ "%pS", 1 }, { "at %ps\n", 1 }, { "%pB", 1 }, { "%pF %d", 1 }, { "%pf", 1 },
		{ "%-20pS|", 1 }, { "%d %s %pS", 1 }, { "%p", 0 }, { "%pK %px", 0 },
		{ "%%pS", 0 }, { "100%%", 0 }, { "%", 0 }, { "%5.2pS", 1 }, { "", 0 },
		{ "%s%%%pI4 %pS", 1 }, { "%ld%pSR", 1 },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		CHECK_WHY(lgd_fmt_has_symptr(t[i].fmt) == t[i].want,
			  NAMEF("symptr: '%s' needs symbols: %d", t[i].fmt, t[i].want),
			  "got %d", lgd_fmt_has_symptr(t[i].fmt));
}

int main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	test_heads();
	test_sprec();
	test_text();
	test_symptr();
	printf("fmtspec: %d passed, %d failed\n", passes, failures);
	return ldc_exit_status();
}
