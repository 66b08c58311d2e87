// SPDX-License-Identifier: GPL-2.0
/*
 * test_render_ref.c - the readers' hand-written formatters against a
 * reference, on random values (seeded, so a failure repeats):
 *   - lgd_fmt_u64() against snprintf("%" PRIu64) on edge values (every
 *     power of ten and its neighbours, 0, UINT64_MAX) and 1,000,000 random
 *     ones of every length;
 *   - lgd_bprintf() and lgd_bprintf_slots() (the binary printf of report,
 *     export, convert) against the C library's snprintf() for every integer
 *     conversion (d i u x X o), with random flags (- + space # 0), width,
 *     precision and length (hh h l ll z), three conversions a format with
 *     text between them (so argument alignment is exercised), and for %c
 *     and %s with width and precision: 200,000 formats.  Left out where the
 *     kernel's vsnprintf() differs from C on purpose (bprintf.c's file
 *     comment: %.0d of 0, # of 0, the 0 flag with a precision, #o with a
 *     precision), which tests/decode/lib/test_printf.c checks by hand.
 * The fast paths (plain %d %u in number(), the one-load get_arg(), the
 * memcpy runs of puts_n()) must give the bytes the general code gave; so
 * must a call site's format walked once (lgd_bprintf_site(): the pieces of
 * lgd_fmt_compile(), its plain integers straight into the output), on the
 * same 200,000 formats and at every output size.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "liblogdev.h"
#include "testlib.h"

char tmpdir[] = "/tmp/logdev-render-ref-XXXXXX";

static uint64_t rng = 0x9e3779b97f4a7c15ull;

/* xorshift64*: the same sequence on every run */
static uint64_t rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545f4914f6cdd1dull;
}

/* a value of a random number of bits (small values as likely as large) */
static uint64_t rnd_val(void)
{
	unsigned bits = (unsigned)(rnd() % 65);

	return bits == 64 ? rnd() : rnd() & ((1ull << bits) - 1);
}

static void test_fmt_u64(void)
{
	char got[LGD_U64_DEC_MAX + 1], want[32];
	uint64_t bad = 0, n = 0, first = 0;
	int have_first = 0;
	uint64_t p = 1;

	for (int k = 0; k < 22; k++) {
		uint64_t v[3] = { p - 1, p, p + 1 };

		for (int j = 0; j < 3; j++) {
			size_t len = lgd_fmt_u64(got, v[j]);

			got[len] = 0;
			snprintf(want, sizeof(want), "%" PRIu64, v[j]);
			n++;
			if (strcmp(got, want) && !have_first++)
				first = v[j], bad++;
			else if (strcmp(got, want))
				bad++;
		}
		if (p > UINT64_MAX / 10)
			p = UINT64_MAX;
		else
			p *= 10;
	}
	for (int i = 0; i < 1000000; i++) {
		uint64_t v = rnd_val();
		size_t len = lgd_fmt_u64(got, v);

		got[len] = 0;
		snprintf(want, sizeof(want), "%" PRIu64, v);
		n++;
		if (strcmp(got, want)) {
			if (!have_first++)
				first = v;
			bad++;
		}
	}
	CHECK_WHY(!bad, "lgd_fmt_u64 equals printf on edges and 1,000,000 random values",
		  "%" PRIu64 " of %" PRIu64 " differ, first %" PRIu64, bad, n, first);
}

/* payload being built: vbin_printf()'s layout (bprintf.c), or slots' */
struct pl {
	uint8_t b[512];
	size_t n;
	int slots;
};

static void pl_put(struct pl *p, uint64_t v, unsigned size)
{
	unsigned align;

	if (p->slots && size < 4)
		size = 4;
	align = size == 8 ? 4 : size;
	p->n = (p->n + align - 1) & ~(size_t)(align - 1);
	for (unsigned i = 0; i < size; i++)
		p->b[p->n + i] = (uint8_t)(v >> (8 * i));
	p->n += size;
}

static void pl_str(struct pl *p, const char *s)
{
	size_t n = strlen(s) + 1;

	memcpy(p->b + p->n, s, n);
	p->n += n;
	if (p->slots)
		while (p->n % 4)
			p->b[p->n++] = 0;
}

/*
 * One random integer conversion appended to @fmt, its value to @p and its
 * C rendering to @ref (the reference: snprintf with the argument cast to
 * the conversion's type).
 */
static void one_int(char *fmt, struct pl *p, char *ref, size_t refsz)
{
	static const char convs[] = "diuxXo";
	static const char *const quals[] = { "", "hh", "h", "l", "ll", "z" };
	char conv = convs[rnd() % 6], spec[64], *s = spec;
	const char *q = quals[rnd() % 6];
	int sign = conv == 'd' || conv == 'i';
	int width = rnd() % 3 ? -1 : (int)(rnd() % 26);
	int prec = rnd() % 3 ? -1 : (int)(rnd() % 26);
	uint64_t v = rnd_val();
	int zero, left = rnd() % 4 == 0, plus = rnd() % 4 == 0, space = rnd() % 4 == 0;
	int alt = rnd() % 4 == 0, zpad = rnd() % 4 == 0;
	unsigned size = !strcmp(q, "hh") ? 1 : !strcmp(q, "h") ? 2 : *q ? 8 : 4;

	if (size < 8)	/* the value as the callee sees it */
		v &= (1ull << (8 * size)) - 1;
	zero = v == 0;
	if (zero && prec == 0)
		prec = 1;		/* kernel: "0", C: "" */
	if (alt && (sign || conv == 'u' || zero || (conv == 'o' && prec >= 0)))
		alt = 0;		/* # of d/u undefined in C; # of 0 and #.No differ */
	if (zpad && prec >= 0)
		zpad = 0;		/* the kernel keeps the 0 flag with a precision */
	*s++ = '%';
	if (left)
		*s++ = '-';
	if (plus)
		*s++ = '+';
	if (space)
		*s++ = ' ';
	if (alt)
		*s++ = '#';
	if (zpad)
		*s++ = '0';
	if (width >= 0)
		s += sprintf(s, "%d", width);
	if (prec >= 0)
		s += sprintf(s, ".%d", prec);
	s += sprintf(s, "%s%c", q, conv);
	strcat(fmt, spec);
	pl_put(p, v, size);
	if (size == 1 && sign)
		snprintf(ref, refsz, spec, (signed char)v);
	else if (size == 1)
		snprintf(ref, refsz, spec, (unsigned char)v);
	else if (size == 2 && sign)
		snprintf(ref, refsz, spec, (short)v);
	else if (size == 2)
		snprintf(ref, refsz, spec, (unsigned short)v);
	else if (size == 4 && sign)
		snprintf(ref, refsz, spec, (int)v);
	else if (size == 4)
		snprintf(ref, refsz, spec, (unsigned int)v);
	else if (sign)
		snprintf(ref, refsz, spec, (long long)v);
	else
		snprintf(ref, refsz, spec, (unsigned long long)v);
}

/* %c or %s with random width and precision, as one_int() */
static void one_chr_str(char *fmt, struct pl *p, char *ref, size_t refsz)
{
	char spec[64], *s = spec, str[40];
	int width = rnd() % 2 ? -1 : (int)(rnd() % 30);
	int prec = rnd() % 2 ? -1 : (int)(rnd() % 30);
	int left = rnd() % 3 == 0, isstr = rnd() % 2;
	size_t n = rnd() % 32;

	for (size_t i = 0; i < n; i++)
		str[i] = (char)(' ' + 1 + rnd() % 94);	/* printable, no '%' worry: data */
	str[n] = 0;
	*s++ = '%';
	if (left)
		*s++ = '-';
	if (width >= 0)
		s += sprintf(s, "%d", width);
	if (isstr && prec >= 0)
		s += sprintf(s, ".%d", prec);
	*s++ = isstr ? 's' : 'c';
	*s = 0;
	strcat(fmt, spec);
	if (isstr) {
		pl_str(p, str);
		snprintf(ref, refsz, spec, str);
	} else {
		char c = (char)('!' + rnd() % 90);

		pl_put(p, (uint8_t)c, 1);
		snprintf(ref, refsz, spec, c);
	}
}

/* @fmt as call site 1 of a fresh site table (lgd_sites_parse(): walked once) */
static const struct lgd_site *site_of(struct lgd_sites *st, const char *fmt)
{
	char line[512];
	int n = snprintf(line, sizeof(line), "1\tt.c\t1\tfn\t%s\n", fmt);

	lgd_sites_free(st);
	if (lgd_sites_parse(st, line, (size_t)n))
		return NULL;
	return lgd_sites_get(st, 1);
}

static void test_bprintf(int slots)
{
	uint64_t bad = 0, bad_site = 0;
	char first[600] = "", first_site[600] = "";
	struct lgd_sites st = { 0 };

	for (int i = 0; i < 100000; i++) {
		char fmt[400] = "", want[2048] = "", ref[512], got[2048];
		struct pl p = { .n = 0, .slots = slots };
		int len;

		for (int k = 0; k < 3; k++) {
			static const char *const lits[] = { "", "x=", " ", "bench ", "a,b: " };
			const char *lit = lits[rnd() % 5];

			strcat(fmt, lit);
			strcat(want, lit);
			if (rnd() % 4)
				one_int(fmt, &p, ref, sizeof(ref));
			else
				one_chr_str(fmt, &p, ref, sizeof(ref));
			strcat(want, ref);
		}
		len = slots ? lgd_bprintf_slots(got, sizeof(got), fmt, p.b, p.n, NULL) :
			      lgd_bprintf(got, sizeof(got), fmt, p.b, p.n, NULL);
		if (len != (int)strlen(want) || strcmp(got, want)) {
			if (!bad++)
				snprintf(first, sizeof(first), "fmt \"%.150s\": got \"%.200s\", want \"%.200s\"",
					 fmt, got, want);
		}
		{
			const struct lgd_site *s = site_of(&st, fmt);
			char gs[2048];
			int ls = s ? lgd_bprintf_site(gs, sizeof(gs), s, p.b, p.n, NULL, LGD_TS_END,
						      slots ? LGD_BP_SLOTS : 0, NULL) : -1;

			if (ls != len || strcmp(gs, got)) {
				if (!bad_site++)
					snprintf(first_site, sizeof(first_site), "fmt \"%.150s\": site \"%.200s\", walk \"%.200s\"",
						 fmt, s ? gs : "(no site)", got);
			}
		}
	}
	lgd_sites_free(&st);
	CHECK_WHY(!bad, slots ? "lgd_bprintf_slots equals snprintf on 100,000 random formats" :
				"lgd_bprintf equals snprintf on 100,000 random formats",
		  "%" PRIu64 " differ; first: %s", bad, first);
	CHECK_WHY(!bad_site, slots ? "lgd_bprintf_site (a site's format walked once) equals lgd_bprintf_slots on the same formats" :
				     "lgd_bprintf_site (a site's format walked once) equals lgd_bprintf on the same formats",
		  "%" PRIu64 " differ; first: %s", bad_site, first_site);
}

/* the output buffer's edge: a result cut at every size is snprintf's prefix */
static void test_cut(void)
{
	struct pl p = { .n = 0 };
	const char *fmt = "bench %d %u %lld %s %x";
	char full[256], got[256];
	int n, bad = 0;

	pl_put(&p, (uint64_t)-123456789, 4);
	pl_put(&p, 4000000000u, 4);
	pl_put(&p, (uint64_t)-9000000000000000000ll, 8);
	pl_str(&p, "a string");
	pl_put(&p, 0xdeadbeef, 4);
	n = lgd_bprintf(full, sizeof(full), fmt, p.b, p.n, NULL);
	for (size_t size = 1; size <= (size_t)n + 1; size++) {
		int m = lgd_bprintf(got, size, fmt, p.b, p.n, NULL);

		if (m != n || strlen(got) != size - 1 || memcmp(got, full, size - 1))
			bad++;
	}
	CHECK_STR_EQ(full, "bench -123456789 4000000000 -9000000000000000000 a string deadbeef",
		     "lgd_bprintf plain conversions");
	CHECK_WHY(!bad, "lgd_bprintf cut at every buffer size: a NUL-terminated prefix, full length returned",
		  "%d sizes wrong", bad);
	{
		struct lgd_sites st = { 0 };
		const struct lgd_site *s = site_of(&st, fmt);

		bad = !s;
		for (size_t size = 1; s && size <= (size_t)n + 1; size++) {
			int m = lgd_bprintf_site(got, size, s, p.b, p.n, NULL, LGD_TS_END, 0, NULL);

			if (m != n || strlen(got) != size - 1 || memcmp(got, full, size - 1))
				bad++;
		}
		/* a payload short of the last argument: the walk's "[missing]" */
		if (s && (lgd_bprintf_site(got, sizeof(got), s, p.b, p.n - 2, NULL, LGD_TS_END, 0, NULL) < 0 ||
			  lgd_bprintf(full, sizeof(full), fmt, p.b, p.n - 2, NULL) < 0 || strcmp(got, full)))
			bad++;
		lgd_sites_free(&st);
		CHECK_WHY(!bad, "lgd_bprintf_site cut at every buffer size and on a short payload: lgd_bprintf's bytes",
			  "%d sizes wrong", bad);
	}
}

/*
 * lgd_ascii_run() (8 bytes at a time, the tail overlapping) against a byte
 * loop: random strings of 0..40 bytes, mostly printable, one in eight bytes
 * anything, at every offset of a buffer, for lgd_escape()'s and CSV's sets
 */
static void test_ascii_run(void)
{
	static const char xy[][2] = { { '\\', '\\' }, { '"', ',' } };
	uint64_t bad = 0;
	char first[200] = "";

	for (int i = 0; i < 200000; i++) {
		unsigned char b[48];
		size_t n = rnd() % 41, want = 0;
		const char *x = xy[i & 1];

		for (size_t k = 0; k < n; k++)
			b[k] = rnd() % 8 ? (unsigned char)(0x20 + rnd() % 95) : (unsigned char)rnd();
		while (want < n && b[want] >= 0x20 && b[want] < 0x7f && b[want] != (unsigned char)x[0] &&
		       b[want] != (unsigned char)x[1])
			want++;
		if (lgd_ascii_run((const char *)b, n, x[0], x[1]) != want && !bad++)
			snprintf(first, sizeof(first), "%zu bytes, run %zu, got %zu", n, want,
				 lgd_ascii_run((const char *)b, n, x[0], x[1]));
	}
	CHECK_WHY(!bad, "lgd_ascii_run equals a byte loop on 200,000 random strings",
		  "%" PRIu64 " differ; first: %s", bad, first);
}

int main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	test_ascii_run();
	test_fmt_u64();
	test_bprintf(0);
	test_bprintf(1);
	test_cut();
	printf("render_ref: %d passed, %d failed\n", passes, failures);
	return ldc_exit_status();
}
