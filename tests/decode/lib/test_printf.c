// SPDX-License-Identifier: GPL-2.0
/*
 * test_printf.c: rendering of recorded messages (library): vbin_printf payloads
 * rendered like the kernel's printf, the compile-time slots encoding of
 * edprint(), which encoding a format gets, cut and unrenderable arguments,
 * string precision bounds
 * Captures are built byte by byte (testlib.h, fixture.h), written to
 * temporary files, decoded by the library in-process and by the CLI given
 * as argv[1].
 * Usage: test_printf PATH-TO-logdev.  Output: PASS/FAIL lines (ldcheck.h).
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

/* the kernel's edprint() encoder, for LOGDEV_REC_PRINT_SLOTS goldens */
typedef uint32_t u32;
typedef uint64_t u64;
typedef uint16_t u16;
#include <linux/edprint_slots.h>
#include <linux/edprint_fmt.h>

char tmpdir[] = "/tmp/logdev-printf-XXXXXX";

/* ---- printf rendering ---------------------------------------------- */

static struct lgd_ksyms test_ksyms;

static void check_render(const char *name, const char *fmt, const struct pl *p,
			 const char *exp, const struct lgd_ksyms *ks)
{
	char got[512];
	int n = lgd_bprintf(got, sizeof(got), fmt, p->b, p->n, ks);

	CHECK_WHY(!strcmp(got, exp) && n == (int)strlen(exp),
		  name,
		  "fmt \"%s\": expected \"%s\" got \"%s\" (ret %d)", fmt, exp, got, n);
}

/* expected string from the host's snprintf where kernel and glibc agree */
#define HOST(fmt, types, ...) do {					\
	char exp_[512], nm_[600];					\
	struct pl p_;							\
	snprintf(exp_, sizeof(exp_), fmt, __VA_ARGS__);			\
	enc(&p_, types, __VA_ARGS__);					\
	snprintf(nm_, sizeof(nm_), "bprintf host-agrees \"%s\"", fmt);	\
	check_render(nm_, fmt, &p_, exp_, NULL);			\
} while (0)

#define KERN(fmt, exp, types, ...) do {					\
	char nm_[600];							\
	struct pl p_;							\
	enc(&p_, types, __VA_ARGS__);					\
	snprintf(nm_, sizeof(nm_), "bprintf kernel \"%s\"", fmt);	\
	check_render(nm_, fmt, &p_, exp, &test_ksyms);			\
} while (0)

static void test_bprintf(void)
{
	static const char ks[] =
		"ffffffff81000000 T _stext\n"
		"ffffffff81000100 T kfree_skbmem\n"
		"ffffffff81000140 t skb_free_head\n"
		"ffffffff81001000 T _etext\n"
		"ffffffffc0001000 t foo_xmit\t[foo]\n"
		"ffffffffc0001080 t foo_rx\t[foo]\n";
	struct pl p;

	lgd_ksyms_parse(&test_ksyms, ks, strlen(ks));

	HOST("%d", "i", 42);
	HOST("%d|%i|%u", "iii", -7, 2147483647, 3000000000u);
	HOST("%5d|%-5d|%05d|%+d|% d", "iiiii", 42, 42, 42, 42, 42);
	HOST("%x %X %#x %#X %o %#o", "iiiiii", 255, 255, 255, 255, 8, 8);
	HOST("%08x|%-8x|%.3x", "iii", 0xbeef, 0xbeef, 0xa);
	HOST("%hhd %hhu %hd %hu", "cchh", -1, 255, -2, 65535);
	HOST("%c%hhd%hd%d", "cchi", 'A', 5, -300, 70000);
	HOST("%ld %lu %lx", "lll", -1234567890123L, 1234567890123UL, 0xdeadbeefcafeUL);
	HOST("%lld %llu %llx", "LLL", -1LL, 18446744073709551615ULL, 0x123456789abcdefULL);
	HOST("%c%lld", "cL", 'z', 1LL << 40);
	HOST("%zu %zd %zx", "zzz", (size_t)12345, (size_t)-3, (size_t)0xabc);
	HOST("%s|%10s|%-10s|%.2s|%5.1s", "sssss", "eth0", "eth0", "eth0", "eth0", "eth0");
	HOST("%s%d %s%hd", "sish", "ab", 7, "xyz", 3);
	HOST("%c|%3c|%-3c|", "ccc", 'a', 'b', 'c');
	HOST("%*d|%-*d|%.*d", "iiiiii", 6, 42, 6, 42, 4, 7);
	HOST("100%% %d%%", "i", 5);
	HOST("%s", "s", "");
	HOST("%d %d %d %d", "iiii", 0, 1, -2147483647 - 1, 99);

	/* kernel-specific behaviour (differs from C printf) */
	KERN("%.0d", "0", "i", 0);
	KERN("%#x", "0x0", "i", 0);
	KERN("%05.3d", "00007", "i", 7);
	KERN("%*d", "7   ", "ii", -4, 7);
	KERN("%.*d", "3", "ii", -1, 3);
	KERN("%p", "0000000000000000", "p", (void *)0);
	KERN("%px", "ffff888012345678", "p", (void *)0xffff888012345678ull);
	KERN("%p|", "ffff888012345678|", "p", (void *)0xffff888012345678ull);
	KERN("%pS", "kfree_skbmem+0x10/0x40", "p", (void *)0xffffffff81000110ull);
	KERN("%ps", "kfree_skbmem", "p", (void *)0xffffffff81000110ull);
	KERN("%pS", "foo_xmit+0x4/0x80 [foo]", "p", (void *)0xffffffffc0001004ull);
	/* the last text symbol ends at _etext, not at the next module's symbol */
	KERN("%pSR", "skb_free_head+0x0/0xec0", "p", (void *)0xffffffff81000140ull);
	KERN("%pS", "0x1234", "p", (void *)0x1234);
	KERN("%20ps|", "        kfree_skbmem|", "p", (void *)0xffffffff81000100ull);
	KERN("%pI4 up", "10.0.0.1 up", "s", "10.0.0.1");
	KERN("%pI4%d", "10.0.0.1!5", "si", "10.0.0.1!", 5);
	KERN("%pe", "-ENOMEM", "p", (void *)(intptr_t)-12);
	KERN("%pe", "-EPROBE_DEFER", "p", (void *)(intptr_t)-517);
	/* plain %p holds the kernel's hash (docs/SECURITY.md): printed as is */
	KERN("%p|%20p|%-12p|%pK", "0000000075f33ab9|            75f33ab9|75f33ab9    |0000000075f33ab9",
	     "pppp", (void *)0x75f33ab9ull, (void *)0x75f33ab9ull, (void *)0x75f33ab9ull,
	     (void *)0x75f33ab9ull);
	/* no hash key yet when recorded (LOGDEV_PTR_NOKEY): as the kernel printed */
	KERN("%p|%20p|%pK|%pe|%px", "(____ptrval____)|(____ptrval____)|(____ptrval____)|(____ptrval____)|7fffffffffffffff",
	     "ppppp", (void *)LOGDEV_PTR_NOKEY, (void *)LOGDEV_PTR_NOKEY,
	     (void *)LOGDEV_PTR_NOKEY, (void *)LOGDEV_PTR_NOKEY, (void *)LOGDEV_PTR_NOKEY);
	KERN("%d %jd %d", "1 ", "iLi", 1, 2LL, 3);
	KERN("%d %n", "1 ", "ii", 1, 2);
	KERN("end%", "end", "i", 0);
	/* without kallsyms: hex like a kernel without CONFIG_KALLSYMS */
	enc(&p, "p", (void *)0xffffffff81000110ull);
	check_render("bprintf %pS without kallsyms", "%pS", &p, "0xffffffff81000110", NULL);
	/* reading past the payload never reads out of bounds: marked, ends there */
	enc(&p, "i", 1);
	check_render("bprintf missing args marked [missing]", "%d %d %s|%lld", &p, "1 [missing]",
		     NULL);
	p.n = 2;
	memcpy(p.b, "ab", 2);	/* string without NUL at the end */
	check_render("bprintf unterminated string bounded", "%s|", &p, "ab|", NULL);
	{
		char small[8];
		int n;

		enc(&p, "s", "abcdefghijkl");
		n = lgd_bprintf(small, sizeof(small), "%s", p.b, p.n, NULL);
		CHECK_WHY(n == 12 && !strcmp(small, "abcdefg"),
			  "bprintf truncates output, returns full length",
			  "n=%d '%s'", n, small);
	}
	{
		const struct lgd_ksym *k;
		uint64_t off, size;

		k = lgd_ksyms_lookup(&test_ksyms, 0xffffffffc0001090ull, &off, &size);
		CHECK_WHY(!k,
			  "ksyms: last symbol has no size, no match",
			  "matched %s", k->name);
	}
	lgd_ksyms_free(&test_ksyms);
}

/* ---- LOGDEV_REC_PRINT_SLOTS: edprint()'s compile-time encoding ------- */

/*
 * Encode the arguments with include/linux/edprint_slots.h (the code the
 * kernel's edprint() expands to), render with lgd_bprintf_slots(), compare
 * with @exp; also check the size edprint() reserves equals what it stores.
 */
#define SLOTS(fmt, exp, ...) do {					\
	struct pl p_;							\
	char got_[512], nm_[600];					\
	EDP_MAP(EDP_DECL, ##__VA_ARGS__)				\
	u32 want_ = 0 EDP_MAP(EDP_SIZE, ##__VA_ARGS__);			\
	char *_edp = (char *)p_.b;					\
	EDP_MAP(EDP_STORE, ##__VA_ARGS__)				\
	p_.n = (uint32_t)(_edp - (char *)p_.b);				\
	int n_ = lgd_bprintf_slots(got_, sizeof(got_), fmt, p_.b, p_.n, NULL); \
	snprintf(nm_, sizeof(nm_), "slots \"%s\"", fmt);		\
	CHECK_WHY(!strcmp(got_, exp) && n_ == (int)strlen(exp) && p_.n == want_ && \
		  p_.n % 4 == 0, nm_,					\
		  "expected \"%s\" got \"%s\" (ret %d, %u bytes stored, %u reserved)", \
		  exp, got_, n_, p_.n, want_);				\
	if (EDP_WORDS_OK && (0 EDP_MAP(EDP_WSIZE, ##__VA_ARGS__)) <= EDP_WORDS_MAX) \
		WORDS_SAME(nm_, p_, ##__VA_ARGS__);			\
} while (0)

/*
 * The word form (EDP_WSTORE, what edprint() hands __logdev_words()) of the
 * same arguments: the bytes of the slot stores in @p_, zero after them to
 * the end of the last word (the record's padding).
 */
static unsigned int slots_as_words;
#define WORDS_SAME(nm_, p_, ...) do {					\
	u64 _edw[4] = { 0 };						\
	unsigned int _edo = 0;						\
	uint8_t wb_[4 * sizeof(u64)], zero_[4 * sizeof(u64)] = { 0 };	\
	u32 wn_ = 0 EDP_MAP(EDP_WSIZE, ##__VA_ARGS__);			\
	EDP_MAP(EDP_WDECL, ##__VA_ARGS__)				\
	EDP_MAP(EDP_WSTORE, ##__VA_ARGS__)				\
	memcpy(wb_, _edw, sizeof(wb_));					\
	slots_as_words++;						\
	CHECK_WHY(wn_ == (p_).n && _edo == wn_ &&			\
		  !memcmp(wb_, (p_).b, (p_).n) &&			\
		  !memcmp(wb_ + wn_, zero_, sizeof(wb_) - wn_),		\
		  nm_, "words: %u bytes (%u placed) against %u slot bytes, or they differ", \
		  wn_, _edo, (p_).n);					\
} while (0)

static void test_slots(void)
{
	const char *nullstr = NULL;
	const unsigned char ustr[] = "uchar";
	char buf[8] = "arr";
	struct {
		unsigned int u3:3;
		int s5:5;
		unsigned long long w40:40;
		_Bool b:1;
	} bf = { 5, -3, 0x123456789aULL, 1 };
	unsigned int bf_bytes;
	int nargs;

	/* (no arguments: an empty payload; not expressible here, the tests
	 * build with -std=c11, where `, ##__VA_ARGS__` keeps its comma) */
	SLOTS("%d %d %d", "0 1 -1", 0, 1, -1);
	SLOTS("int min %d max %d", "int min -2147483648 max 2147483647", INT_MIN, INT_MAX);
	SLOTS("hh %hhd %hhu %hhx", "hh -5 250 ab", (signed char)-5, (unsigned char)250,
	      (unsigned char)0xab);
	SLOTS("h %hd %hu %hx", "h -12345 65535 beef", (short)-12345, (unsigned short)65535,
	      (unsigned short)0xbeef);
	SLOTS("l %ld %lu %lx", "l -9223372036854775808 18446744073709551615 deadbeefcafe",
	      LONG_MIN, ULONG_MAX, 0xdeadbeefcafeUL);
	SLOTS("ll %lld %llx", "ll -1 123456789abcdef", -1LL, 0x0123456789abcdefULL);
	SLOTS("z %zu %zd", "z 4096 -4096", (size_t)4096, (ssize_t)-4096);
	SLOTS("star [%*d] [%-*d] [%.*d]", "star [     3] [3     ] [0009]", 6, 3, 6, 3, 4, 9);
	SLOTS("char [%c] [%3c] [%-3c]", "char [A] [  b] [c  ]", 'A', 'b', 'c');
	SLOTS("str [%s] [%10s] [%-5s|]", "str [abc] [     right] [left |]", "abc", "right",
	      "left");
	SLOTS("str null [%s]", "str null [(null)]", nullstr);
	SLOTS("str empty [%s] then %d", "str empty [] then 5", "", 5);
	SLOTS("%s=%d, %s=%u, %s=%llx", "a=-1, b=2, c=3", "a", -1, "b", 2U, "c", 3ULL);
	SLOTS("after str %s %c %hd %lld", "after str xyz q -2 -3", "xyz", 'q', (short)-2, -3LL);
	SLOTS("uchar %s array %s", "uchar uchar array arr", ustr, buf);
	SLOTS("many %d %d %d %d %d %d %d %d %d %d", "many 1 2 3 4 5 6 7 8 9 10",
	      1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
	/* the word form's edges: an 8-byte value across two words, 32 bytes
	 * exactly (the most __logdev_words() takes), one word, 36 bytes (too
	 * many: the slots path) */
	SLOTS("straddle %d %llx %d %lx", "straddle -7 1122334455667788 9 99aabbccddeeff00",
	      -7, 0x1122334455667788ULL, 9, 0x99aabbccddeeff00UL);
	SLOTS("full %u %lld %d %lld %d %d", "full 4294967295 -2 3 -4 5 6",
	      UINT_MAX, -2LL, 3, -4LL, 5, 6);
	SLOTS("eight %d %d %d %d %d %d %d %d", "eight 1 -2 3 -4 5 -6 7 -8",
	      1, -2, 3, -4, 5, -6, 7, -8);
	SLOTS("one %hd", "one -1", (short)-1);
	SLOTS("one %lx", "one ffffffff00000001", 0xffffffff00000001UL);
	SLOTS("one %c%c", "one ab", 'a', 'b');
	SLOTS("nine %d %d %d %d %d %d %d %d %d", "nine 1 2 3 4 5 6 7 8 9",
	      1, 2, 3, 4, 5, 6, 7, 8, 9);
	/*
	 * bit-fields (EDP_RV()): narrow ones take an int's 4-byte slot, one
	 * wider than int its declared type's 8; in the word form and, with a
	 * string, in the slots form
	 */
	SLOTS("bits %u %d %llx %d", "bits 5 -3 123456789a 1", bf.u3, bf.s5, bf.w40, bf.b);
	SLOTS("bits %d [%s] %d", "bits 5 [str] -3", bf.u3, "str", bf.s5);
	/* every case above without a string, but "many" and "nine" (> 32 bytes) */
	check("slots: the no-string cases also took the word form", slots_as_words == 16,
	      "%u of 16", slots_as_words);
	bf_bytes = 0 EDP_MAP(EDP_WSIZE, bf.u3, bf.s5, bf.w40, bf.b);
	check("slots: a 40-bit bit-field is 8 bytes, the narrow ones 4 (20 in all)",
	      bf_bytes == 20, "%u", bf_bytes);
	nargs = EDP_NARGS(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16);
	check("slots: EDP_NARGS counts 16 arguments", nargs == 16, "%d", nargs);
}

/* ---- cut arguments, encodings chosen by a parse, unrenderable ---- */

/* render @p (flags LGD_BP_*) and compare @expn bytes (NULs allowed) */
static void check_rec(const char *name, const char *fmt, const uint8_t *pl, size_t n,
		      unsigned int flags, const char *exp, size_t expn)
{
	char got[1024];
	int r = lgd_bprintf_rec(got, sizeof(got), fmt, pl, n, NULL, LGD_TS_END, flags);

	CHECK_WHY(r == (int)expn && !memcmp(got, exp, expn) && got[expn] == 0,
		  name,
		  "fmt \"%s\": expected \"%.*s\" (%zu) got \"%.*s\" (ret %d)", fmt, (int)expn, exp,
		  expn, r > 0 && r < (int)sizeof(got) ? r : 0, got, r);
}

/* which encoding edprint() picks for fmt and these arguments: 1 slots */
#define ENC(fmt, ...)							\
	edp_fmt_slots_ok(fmt, EDP_NARGS(__VA_ARGS__),			\
			 0 EDP_MAP(EDP_STRBIT, ##__VA_ARGS__),		\
			 0 EDP_MAP(EDP_WIDEBIT, ##__VA_ARGS__), NULL)
#define EXPECT_ENC(want, fmt, ...)					\
	check("encoding of \"" fmt "\" is " #want,			\
	      ENC(fmt, ##__VA_ARGS__) == (want), "got %d", ENC(fmt, ##__VA_ARGS__))

static void test_cut_and_unrenderable_args(void)
{
	static uint8_t pl[512];
	static char exp[1024];
	const unsigned long bitmap[1] = { 0xf0f0f };
	const unsigned char mac[6] = { 0 }, b3[3] = { 1, 2, 3 };
	void *dentry = (void *)bitmap;
	char *cp = (char *)"x";
	size_t n;

	/* fault 2: the encoding comes from a parse of the format */
	EXPECT_ENC(0, "[%20pb]", bitmap);
	EXPECT_ENC(0, "[%*pb]", 20, bitmap);
	EXPECT_ENC(0, "[%-12pd2]", dentry);
	EXPECT_ENC(0, "[%3ph]", b3);
	EXPECT_ENC(0, "[%20pM]", mac);
	EXPECT_ENC(0, "[%-20pI4]", b3);
	EXPECT_ENC(0, "[%40pUb]", mac);
	EXPECT_ENC(0, "%p", cp);
	EXPECT_ENC(0, "%px %s", cp, "s");
	EXPECT_ENC(0, "%d", cp);		/* a char pointer read as a number */
	EXPECT_ENC(0, "%s", 5);			/* a number read as a string */
	EXPECT_ENC(0, "%d", 5L);		/* 8 bytes read as 4 */
	EXPECT_ENC(0, "%ld", 5);		/* 4 bytes read as 8 */
	EXPECT_ENC(0, "%d %d", 5);		/* too few arguments */
	EXPECT_ENC(0, "%d", 5, 6);		/* too many */
	EXPECT_ENC(0, "%n", 5);			/* refused by the kernel */
	EXPECT_ENC(0, "50%", 5);
	/* (no arguments: -std=c11 keeps the comma of ", ##__VA_ARGS__") */
	check("encoding of \"plain 100%%\" is 1", edp_fmt_slots_ok("plain 100%%", 0, 0, 0, NULL) == 1,
	      "got 0");
	check("encoding of \"%d\" with no argument is 0", edp_fmt_slots_ok("%d", 0, 0, 0, NULL) == 0,
	      "got 1");
	EXPECT_ENC(1, "%d %s %c", 1, "a", 'c');
	EXPECT_ENC(1, "[%-+ #012.5d] %5% [%.3s]", 1, "abcdef");
	EXPECT_ENC(1, "%*d %-*.*s", 6, 3, 6, 2, "abc");
	EXPECT_ENC(1, "%hhx %hd %lu %llx %zu %td %Lx", (unsigned char)1, (short)2, 3UL,
		   4ULL, (size_t)5, (ptrdiff_t)6, 7ULL);

	/* fault 1: a cut vbin_printf() record: string cut at the payload end */
	memset(pl, 'Z', 511);
	pl[511] = 0;
	memset(exp, 'Z', 511);
	memcpy(exp + 511, "[cut]", 5);
	check_rec("cut: vbin string cut at 512 bytes is marked", "%s%s", pl, 512, LGD_BP_CUT,
		  exp, 516);
	check_rec("cut: same with text after it", "<%s> and %d", pl, 512, LGD_BP_CUT,
		  (memcpy(exp, "<", 1), memset(exp + 1, 'Z', 511),
		   memcpy(exp + 512, "[cut]", 5), exp), 517);
	/* cut before a number: the stored data ends where it would start */
	memcpy(pl, "abc\0\0\0\0\0\5\0\0\0", 12);
	check_rec("cut: a number left out is marked where it would be", "%s %d %d|", pl, 8,
		  LGD_BP_CUT, "abc 0 [cut]", 11);
	check_rec("cut: nothing marked without the flag", "%s %d|", pl, 8, 0, "abc 0|", 6);
	/* slots: a %s of 255 characters in a record flagged cut */
	memset(pl, 'y', 255);
	pl[255] = 0;
	memcpy(pl + 256, "\x2a\0\0\0", 4);
	memset(exp, 'y', 255);
	memcpy(exp, "[", 1);
	memset(exp + 1, 'y', 255);
	memcpy(exp + 256, "[cut]] 42", 9);
	check_rec("cut: slots %s cut at 255 is marked, the rest follows", "[%s] %d", pl, 260,
		  LGD_BP_SLOTS | LGD_BP_CUT, exp, 265);
	memcpy(exp + 256, "] 42", 4);
	check_rec("cut: a 255-character %s in a record not cut is not marked", "[%s] %d", pl,
		  260, LGD_BP_SLOTS, exp, 260);

	/* fault 2: a conversion a slots payload cannot render is marked */
	memset(pl, 0xaa, 16);
	check_rec("unrenderable: slots %20pM", "mac [%20pM] then %d", pl, 12, LGD_BP_SLOTS,
		  "mac [[unrenderable %20pM]", 25);
	check_rec("unrenderable: slots %3ph", "[%3ph]", pl, 8, LGD_BP_SLOTS,
		  "[[unrenderable %3ph]", 20);
	/* the vbin_printf() path stores the kernel's text: printed as is */
	memcpy(pl, "   00:11:22:33:44:5a\0\0\0\0", 24);
	check_rec("vbin %20pM is the kernel's text", "[%20pM]", pl, 24, 0,
		  "[   00:11:22:33:44:5a]", 22);

	/* %c of 0 prints a NUL byte and goes on, as the kernel's vsnprintf() */
	memset(pl, 0, 8);
	check_rec("%c of 0: slots", "xxx%cyyy", pl, 4, LGD_BP_SLOTS, "xxx\0yyy", 7);
	check_rec("%c of 0: vbin", "xxx%cyyy", pl, 4, 0, "xxx\0yyy", 7);

	/* through the CLI: report --raw escapes the NUL, marks the cut */
	{
		struct buf b = { 0 };
		struct sbuf s;
		char args[700], *out, *err;
		const char *path;

		cap_meta(&b, "# id\tfile\tline\tfunc\tformat\n"
			 "1\ta.c\t1\tf\txxx%cyyy\n"
			 "2\ta.c\t2\tf\t%s|%d\n");
		sb_begin(&s, 0, 0, 1000, 0, 0);
		sb_rec(&s, 1000, 1, LOGDEV_REC_PRINT_SLOTS, 0, 1, "\0\0\0\0", 4);
		sb_rec(&s, 1001, 2, LOGDEV_REC_PRINT, LOGDEV_CTX_HARDIRQ | LOGDEV_REC_F_CUT, 1,
		       "abc\0", 4);
		cap_sect(&b, LGD_SECT_CPU_DATA, 0, s.b, SBS);
		cap_sect(&b, LGD_SECT_END, LGD_CAP_NO_CPU, NULL, 0);
		path = write_tmp("cutargs.cap", b.p, b.n);
		snprintf(args, sizeof(args), "report --raw %s", path);
		run_cli(args, &out, &err);
		expect_text("report --raw: %c of 0 and a cut record", out,
			    "1000\t0\t1\ttask\t1\tf\t1\txxx\\0yyy\n"
			    "1001\t0\t1\thardirq\t2\tf\t2\tabc|[cut]\n");
		free(out);
		free(err);
		snprintf(args, sizeof(args), "%s report --by cpu %s > %s", cli, path,
			 tmp_path("cutargs.txt"));
		if (system(args))
			fail("report: %c of 0", "report failed");
		out = slurp_n(tmp_path("cutargs.txt"), &n);
		check("report: %c of 0 prints as \\0 (terminal-safe), and the rest",
		      memmem(out, n, "f:1 xxx\\0yyy\n", 13) != NULL &&
		      memmem(out, n, "hardirq f:2 abc|[cut]  +", 24) != NULL,
		      "got %zu bytes \"%s\"", n, out);
		free(out);
		free(b.p);
	}
}

/* the slots encoder reads a "%.Ns" / "%.*s" string no further than vsnprintf() */
static u16 test_sprec[EDP_MAX_ARGS];

static void test_prec_bound(void)
{
	/* not NUL-terminated: ASan stops the test if anything reads past */
	const char arr4[4] = { 'a', 'b', 'c', 'd' };
	const char arr2[2] = { 'e', 'f' };
	const char *fmt = "[%.4s] [%.*s] [%s] [%.300s] [%.0s]";
	struct pl p;
	char got[600];

	check("sprec: precisions of the %s arguments",
	      edp_fmt_slots_ok(fmt, 6, 0x3d, 0, test_sprec) == 1 && test_sprec[0] == 5 &&
	      test_sprec[1] == 0 && test_sprec[2] == EDP_SPREC_STAR && test_sprec[3] == 0 &&
	      test_sprec[4] == EDP_STR_MAX + 2 && test_sprec[5] == 1,
	      "got %u %u %u %u %u %u", test_sprec[0], test_sprec[1], test_sprec[2],
	      test_sprec[3], test_sprec[4], test_sprec[5]);
#define EDP_SBOUND(i, prev)	edp_sprec_bound(test_sprec[i], prev)
	{
		long _edprev = 0;
		EDP_MAP(EDP_DECLB, arr4, 2, arr2, "xyz", "long", arr2)
		char *_edp = (char *)p.b;

		EDP_MAP(EDP_STORE, arr4, 2, arr2, "xyz", "long", arr2)
		p.n = (uint32_t)(_edp - (char *)p.b);
	}
#undef EDP_SBOUND
	lgd_bprintf_slots(got, sizeof(got), fmt, p.b, p.n, NULL);
	expect_text("slots: %.4s and %.*s of arrays without a NUL read only the precision",
		    got, "[abcd] [ef] [xyz] [long] []");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: test_printf PATH-TO-logdev\n");
		return 2;
	}
	cli = argv[1];
	if (tmpdir_make())
		return 1;
	test_bprintf();
	test_slots();
	test_cut_and_unrenderable_args();
	test_prec_bound();
	tmpdir_remove();
	printf("printf: %d passed, %d failed\n", ldc_passes, ldc_failures);
	return ldc_exit_status();
}
