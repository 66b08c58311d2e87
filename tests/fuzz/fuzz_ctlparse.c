// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_ctlparse.c - libFuzzer target: the control-value parsers of the
 * module (kernel/logdev_parse.c, built unchanged in userspace through
 * logdev_shim.h and kshim/ldk_parse.h): every ld_parse_*() and
 * ld_size_kb_subbufs(), as the debugfs files enable, mode, clock,
 * buffer_size_kb and subbuf_size and the module parameters of the same
 * names call them.
 *
 * Input: a control write, as written: ld_parse_write() reads it whole
 * (NULs included) as the debugfs files do; the word parsers get it cut at
 * its first NUL, as a C string is (a NUL-terminated buffer of its exact
 * size).  Checks beyond the sanitizers, for every parser: a refusal is
 * -EINVAL and leaves the output untouched; an acceptance is exactly what
 * the parser's comment promises (one trailing newline dropped, no NUL;
 * digits only, value equal to an independent reading, ranges, powers of
 * two, a name compared exactly; clear's word visible ASCII, flush's "1").
 *
 * On the first input, ctl_selftest(): every control file's write path
 * (ld_parse_write(), then the file's parser, as logdev_debugfs.c and
 * logdev_dump.c call them) against hand-written writes of the refused
 * class (empty, whitespace only, whitespace before or after the word, a
 * second newline, a NUL inside, junk after the word) and the accepted
 * ones (the word, the word and one newline); a wrong answer is printed and
 * aborts, so make check fails.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "logdev_parse.h"

#define POISON 0x5a5a5a5a5a5a5a5aULL

/* the value of an all-digit word, or -1 past UINT64_MAX (not the kernel's code) */
static int ref_u64(const char *s, u64 *v)
{
	unsigned __int128 x = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		x = x * 10 + (unsigned)(*s - '0');
		if (x > UINT64_MAX)
			return -1;
	}
	*v = (u64)x;
	return 0;
}

static const char * const names[] = { "overwrite", "discard", "local", "global", "mono" };
static const char * const mode_names[] = { "overwrite", "discard" };
static const char * const clock_names[] = { "local", "global", "mono" };

/* ---- the control files as the module reads a write (ctl_selftest()) */

enum { F_ENABLE, F_DUMP, F_MODE, F_CLOCK, F_KB, F_SUBBUF, F_CLEAR, F_FLUSH, F_NR };

static const struct {
	const char *file;
	const char *word;	/* one accepted word */
} files[F_NR] = {
	[F_ENABLE] = { "enable", "1" },
	[F_DUMP] = { "dump_on_oops", "1" },
	[F_MODE] = { "mode", "discard" },
	[F_CLOCK] = { "clock", "mono" },
	[F_KB] = { "buffer_size_kb", "64" },
	[F_SUBBUF] = { "subbuf_size", "4096" },
	[F_CLEAR] = { "clear", "1" },
	[F_FLUSH] = { "flush", "1" },
};

/* A write of @n bytes at @b to control file @f: 0 or the errno, as the
 * module's write handler would return it before acting. */
static int ctl_write(int f, const char *b, size_t n)
{
	char *buf = malloc(n + 1);
	u64 v;
	u32 sz;
	bool on;
	int r;

	if (!buf)
		abort();
	memcpy(buf, b, n);
	buf[n] = '\0';
	r = ld_parse_write(buf, n);
	if (!r) {
		switch (f) {
		case F_ENABLE:
		case F_DUMP:
			r = ld_parse_enable(buf, &on);
			break;
		case F_MODE:
			r = ld_parse_name(buf, mode_names, 2);
			break;
		case F_CLOCK:
			r = ld_parse_name(buf, clock_names, 3);
			break;
		case F_KB:
			r = ld_parse_size_kb(buf, &v);
			break;
		case F_SUBBUF:
			r = ld_parse_subbuf_size(buf, &sz);
			break;
		case F_CLEAR:
			r = ld_parse_clear(buf);
			break;
		default:
			r = ld_parse_flush(buf);
			break;
		}
	}
	free(buf);
	return r < 0 ? r : 0;
}

/* "a\0b" shown as a C string */
static void ctl_show(char *out, size_t size, const char *b, size_t n)
{
	size_t o = 0;

	for (size_t i = 0; i < n && o + 5 < size; i++) {
		unsigned char c = (unsigned char)b[i];

		if (c == '\n')
			o += snprintf(out + o, size - o, "\\n");
		else if (c == '\t')
			o += snprintf(out + o, size - o, "\\t");
		else if (c < 0x20 || c > 0x7e)
			o += snprintf(out + o, size - o, "\\x%02x", c);
		else
			out[o++] = (char)c;
	}
	out[o] = '\0';
}

static int ctl_failed;

static void ctl_expect(int f, const char *b, size_t n, int want)
{
	int r = ctl_write(f, b, n);
	char shown[128];

	if (r == want)
		return;
	ctl_show(shown, sizeof(shown), b, n);
	fprintf(stderr, "ctl_selftest: %s: write \"%s\" (%zu bytes): %d, want %d\n",
		files[f].file, shown, n, r, want);
	ctl_failed = 1;
}

#define B(s) s, sizeof(s) - 1

/* writes refused by every file, with no word in them */
static const struct { const char *b; size_t n; } no_word[] = {
	{ B("") }, { B("\n") }, { B(" ") }, { B("  ") }, { B("\t") }, { B(" \n") },
	{ B("\t\n") }, { B("\n\n") }, { B("\r\n") }, { B("\r") }, { B("\v") }, { B("\f") },
	{ B(" \t \n") }, { B("\0") }, { B("\0\n") }, { B("\n\0") },
};

/* refused around any accepted word W: before it, after it (glued junk is
 * per file: clear takes any word) */
static const struct { const char *pre, *suf; size_t pn, sn; } around[] = {
	{ "", "\n\n", 0, 2 }, { " ", "", 1, 0 }, { "\t", "", 1, 0 }, { "\n", "", 1, 0 },
	{ " ", "\n", 1, 1 }, { "", " ", 0, 1 }, { "", "\t", 0, 1 }, { "", " \n", 0, 2 },
	{ "", "\t\n", 0, 2 }, { "", "\r\n", 0, 2 }, { "", "\r", 0, 1 }, { "", "\0", 0, 1 },
	{ "", "\0\n", 0, 2 }, { "\0", "", 1, 0 }, { "", "\0x", 0, 2 }, { "", " x", 0, 2 },
	{ "", "\nx", 0, 2 }, { "", "\n\n\n", 0, 3 }, { " ", " ", 1, 1 },
};

static void ctl_around(int f, const char *w, const char *pre, size_t pn,
		       const char *suf, size_t sn, int want)
{
	char b[64];
	size_t wn = strlen(w);

	memcpy(b, pre, pn);
	memcpy(b + pn, w, wn);
	memcpy(b + pn + wn, suf, sn);
	ctl_expect(f, b, pn + wn + sn, want);
}

static void ctl_selftest(void)
{
	for (int f = 0; f < F_NR; f++) {
		const char *w = files[f].word;

		ctl_around(f, w, "", 0, "", 0, 0);
		ctl_around(f, w, "", 0, "\n", 1, 0);
		for (size_t i = 0; i < sizeof(no_word) / sizeof(no_word[0]); i++)
			ctl_expect(f, no_word[i].b, no_word[i].n, -EINVAL);
		for (size_t i = 0; i < sizeof(around) / sizeof(around[0]); i++)
			ctl_around(f, w, around[i].pre, around[i].pn, around[i].suf,
				   around[i].sn, -EINVAL);
		/* the word twice, junk glued to it */
		ctl_around(f, w, w, strlen(w), " ", 1, -EINVAL);
		ctl_around(f, w, "", 0, "x\n", 2, f == F_CLEAR ? 0 : -EINVAL);
	}
	/* the switches and flush: their one word, not a number equal to it */
	ctl_expect(F_ENABLE, B("0\n"), 0);
	ctl_expect(F_DUMP, B("0\n"), 0);
	ctl_expect(F_ENABLE, B("01\n"), -EINVAL);
	ctl_expect(F_DUMP, B("01\n"), -EINVAL);
	ctl_expect(F_FLUSH, B("01\n"), -EINVAL);
	ctl_expect(F_FLUSH, B("001"), -EINVAL);
	ctl_expect(F_FLUSH, B("0\n"), -EINVAL);
	ctl_expect(F_FLUSH, B("2\n"), -EINVAL);
	ctl_expect(F_FLUSH, B("+1\n"), -EINVAL);
	/* clear: any word of visible ASCII */
	ctl_expect(F_CLEAR, B("clear\n"), 0);
	ctl_expect(F_CLEAR, B("0\n"), 0);
	ctl_expect(F_CLEAR, B("!\n"), 0);
	ctl_expect(F_CLEAR, B("~"), 0);
	ctl_expect(F_CLEAR, B("a b\n"), -EINVAL);
	ctl_expect(F_CLEAR, B("\x7f\n"), -EINVAL);
	ctl_expect(F_CLEAR, B("caf\xe9\n"), -EINVAL);
	ctl_expect(F_CLEAR, B("\x1b[2J\n"), -EINVAL);
	/* numbers: digits only; names: exact */
	ctl_expect(F_KB, B("+64\n"), -EINVAL);
	ctl_expect(F_KB, B("0064\n"), 0);	/* decimal digits: leading zeros are digits */
	ctl_expect(F_SUBBUF, B("0x1000\n"), -EINVAL);
	ctl_expect(F_MODE, B("Discard\n"), -EINVAL);
	ctl_expect(F_CLOCK, B("local global\n"), -EINVAL);
	if (ctl_failed)
		abort();
}

/* the reading ld_parse_write() promises, of @n bytes at @d (not the kernel's code) */
static int ref_write(const uint8_t *d, size_t n, size_t *len)
{
	if (n && d[n - 1] == '\n')
		n--;
	if (!n || memchr(d, '\0', n))
		return -1;
	*len = n;
	return 0;
}

/* clear's word: one or more visible ASCII bytes, '!' to '~' */
static int ref_clear(const char *s)
{
	if (!*s)
		return -1;
	for (; *s; s++)
		if (*s < '!' || *s > '~')
			return -1;
	return 0;
}


/* persist's word, read another way: strtoull on checked spans */
static int ref_num(const char *b, const char *e, u64 *v)
{
	int hex = e - b > 2 && b[0] == '0' && (b[1] == 'x' || b[1] == 'X');
	const char *p = hex ? b + 2 : b;
	char *end;

	if (p == e)
		return -1;
	for (const char *q = p; q < e; q++)
		if (!(isdigit(*q) || (hex && strchr("abcdefABCDEF", *q) && *q)))
			return -1;
	errno = 0;
	*v = strtoull(p, &end, hex ? 16 : 10);
	return errno || end != e ? -1 : 0;
}

static int ref_persist(const char *s, struct ld_persist_spec *p)
{
	const char *at, *e;
	u64 sz, a, mul = 1;

	memset(p, 0, sizeof(*p));
	if (!strcmp(s, "off"))
		return 0;
	if (!strncmp(s, "reserve_mem:", 12)) {
		size_t n = strlen(s + 12);

		if (!n || n > LD_PERSIST_NAME_MAX ||
		    strspn(s + 12, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") != n)
			return -1;
		memcpy(p->name, s + 12, n);
		return 0;
	}
	if (strncmp(s, "memmap:", 7) || !(at = strchr(s, '@')))
		return -1;
	e = at;
	if (e > s + 7 && e[-1] && strchr("KMGkmg", e[-1])) {
		char u = e[-1] | 0x20;

		mul = u == 'k' ? 1024 : u == 'm' ? 1 << 20 : 1 << 30;
		e--;
	}
	if (ref_num(s + 7, e, &sz) || ref_num(at + 1, at + 1 + strlen(at + 1), &a))
		return -1;
	if (sz > UINT64_MAX / mul || !(sz *= mul) || (sz % 4096) || (a % 4096) ||
	    a + sz < a)
		return -1;
	p->size = sz;
	p->addr = a;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t n = strnlen((const char *)data, size), len = 0;
	char *w = malloc(n + 1), *wr = malloc(size + 1);
	u64 v = POISON, ref = 0, kb = POISON;
	u32 sz = 0x5a5a5a5a, nr = 0x5a5a5a5a;
	bool on = true;
	int r, good, good1;
	static int once;

	if (!once) {
		once = 1;
		ctl_selftest();
	}
	if (!w || !wr)
		abort();
	memcpy(w, data, n);
	w[n] = '\0';
	good = ref_u64(w, &ref) == 0;

	/* the whole write: one trailing newline dropped, no NUL, not empty */
	memcpy(wr, data, size);
	wr[size] = '\0';
	r = ld_parse_write(wr, size);
	good1 = ref_write(data, size, &len) == 0;
	if (r ? (r != -EINVAL || good1)
	      : (!good1 || strlen(wr) != len || memcmp(wr, data, len)))
		abort();
	free(wr);

	r = ld_parse_clear(w);
	if (r ? (r != -EINVAL || ref_clear(w) == 0) : ref_clear(w) != 0)
		abort();
	r = ld_parse_flush(w);
	if (r ? (r != -EINVAL || !strcmp(w, "1")) : strcmp(w, "1") != 0)
		abort();

	r = ld_parse_u64(w, &v);
	if (r ? (r != -EINVAL || v != POISON || good) : (!good || v != ref))
		abort();

	/* a switch: the one character 0 or 1, no leading zeros */
	on = true;
	r = ld_parse_enable(w, &on);
	good1 = !strcmp(w, "0") || !strcmp(w, "1");
	if (r ? (r != -EINVAL || !on || good1) : (!good1 || on != (w[0] == '1')))
		abort();

	r = ld_parse_subbuf_size(w, &sz);
	if (r ? (r != -EINVAL || sz != 0x5a5a5a5a ||
		 (good && ref >= LD_SUBBUF_MIN && ref <= LD_SUBBUF_MAX && !(ref & (ref - 1))))
	      : (!good || sz != ref || sz < LD_SUBBUF_MIN || sz > LD_SUBBUF_MAX || (sz & (sz - 1))))
		abort();

	r = ld_parse_size_kb(w, &kb);
	if (r ? (r != -EINVAL || kb != POISON || (good && ref >= 1 && ref <= LD_BUF_KB_MAX))
	      : (!good || kb != ref || !kb || kb > LD_BUF_KB_MAX))
		abort();

	r = ld_parse_name(w, names, (int)(sizeof(names) / sizeof(names[0])));
	if (r >= 0 ? strcmp(w, names[r]) != 0 : r != -EINVAL)
		abort();
	if (r < 0)
		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (!strcmp(w, names[i]))
				abort();

	/* every sub-buffer size with the number as KiB, as buffer_size_kb does */
	if (good)
		for (u32 s = 256; s <= 2 * LD_SUBBUF_MAX; s <<= 1) {
			nr = 0x5a5a5a5a;
			r = ld_size_kb_subbufs(ref, s, &nr);
			if (r ? (r != -EINVAL || nr != 0x5a5a5a5a)
			      : (s < 1024 || ref > LD_BUF_KB_MAX || nr < 2 ||
				 (u64)nr * (s / 1024) != ref))
				abort();
		}
	{
		struct ld_persist_spec ps, rs, poison;

		memset(&poison, 0x5a, sizeof(poison));
		ps = poison;
		r = ld_parse_persist(w, &ps);
		good1 = ref_persist(w, &rs) == 0;
		if (r ? (r != -EINVAL || memcmp(&ps, &poison, sizeof(ps)) || good1)
		      : (!good1 || memcmp(&ps, &rs, sizeof(ps))))
			abort();
	}
	free(w);
	return 0;
}
