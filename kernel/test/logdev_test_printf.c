// SPDX-License-Identifier: GPL-2.0
/*
 * logdev_test_printf.c - logdev_test.ko: the printf table: one edprint() per entry of a
 * table of formats (every conversion, flag, width, precision, length,
 * pointer extension, cut records), and the kernel's own vsnprintf() text of
 * each (printf_ref), for tests/vm/check-printf.sh
 */
#include "logdev_test.h"

#define LT_PF_MAX	160
#define LD_TEST_RAW_BIG	(64 * 1024 + 8)	/* more than the largest sub-buffer */
#define LT_PF_LINE	1024	/* longest entry: 600 characters */
#define LT_PF_TEXT	700
static char *lt_pf_ref;		/* LT_PF_MAX lines of LT_PF_LINE bytes */
static int lt_pf_count;

/* @len bytes of @src (NULs included: %c of 0 prints one) */
static void lt_escape(char *dst, size_t size, const char *src, size_t len)
{
	const char *lim = src + len;
	size_t n = 0;

	for (; src < lim && n + 5 < size; src++) {
		unsigned char ch = *src;

		if (ch == '\0') {
			dst[n++] = '\\';
			dst[n++] = '0';
		} else if (ch == '\\') {
			dst[n++] = '\\';
			dst[n++] = '\\';
		} else if (ch == '\n') {
			dst[n++] = '\\';
			dst[n++] = 'n';
		} else if (ch == '\t') {
			dst[n++] = '\\';
			dst[n++] = 't';
		} else if (ch < 0x20 || ch == 0x7f) {
			n += scnprintf(dst + n, size - n, "\\x%02x", ch);
		} else {
			dst[n++] = ch;
		}
	}
	dst[n] = '\0';
}

/*
 * The kernel's own text for fmt+args (vsnprintf(), what printk would print)
 * as entry lt_pf_count.  @keep >= 0: logdev cannot store all of it (payload
 * limits); the expected text is then the first @keep characters, the cut
 * mark, and unless @skip < 0 the text after the next @skip characters (the
 * part of the argument that was cut); the line reads
 * "cut=KEEP,SKIP<TAB>TEXT".
 */
static __printf(3, 4) void lt_pf_ref_add(int keep, int skip, const char *fmt, ...)
{
	char *text, *line;
	va_list ap;
	int n, len;

	if (lt_pf_count >= LT_PF_MAX)
		return;
	text = kmalloc(LT_PF_TEXT, GFP_ATOMIC);
	if (!text)
		return;
	va_start(ap, fmt);
	len = vsnprintf(text, LT_PF_TEXT, fmt, ap);
	va_end(ap);
	len = min(len, LT_PF_TEXT - 1);
	line = lt_pf_ref + lt_pf_count * LT_PF_LINE;
	n = keep >= 0 ? scnprintf(line, LT_PF_LINE, "cut=%d,%d\t", keep, skip) : 0;
	lt_escape(line + n, LT_PF_LINE - n, text, len);
	kfree(text);
	lt_pf_count++;
}

/* Each entry: one edprint() call site with a literal format, same args. */
#define LT_PF(fmt, ...) do {				\
	edprint(fmt, ##__VA_ARGS__);			\
	lt_pf_ref_add(-1, 0, fmt, ##__VA_ARGS__);	\
} while (0)


/* An entry whose arguments logdev must cut (see lt_pf_ref_add()). */
#define LT_PF_CUT(keep, skip, fmt, ...) do {		\
	edprint(fmt, ##__VA_ARGS__);			\
	lt_pf_ref_add(keep, skip, fmt, ##__VA_ARGS__);	\
} while (0)

/* arguments of the issue 7 entries */
static const u8 lt_mac[6] = { 0x00, 0x11, 0x22, 0x33, 0x44, 0x5a };
static const u8 lt_bytes3[3] = { 0x01, 0x02, 0xfe };
static const u8 lt_uuid[16] = { 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
				0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f };
static const unsigned long lt_bitmap[1] = { 0xf0f0fUL };
static const char lt_bytes3_s[3] = { 'a', 'b', 'c' };	/* no NUL */
static const char lt_mac_s[2] = { 'd', 'e' };
static char lt_s600[601];
static u8 lt_raw_big[LD_TEST_RAW_BIG];
static int lt_raw_big_ret;
static char lt_s300[301];
/* a string of @n (<= 600) characters: the tail of lt_s600 */
#define LT_S(n)	(lt_s600 + sizeof(lt_s600) - 1 - (n))

static void lt_oddfiles(int i);

/*
 * Every width and precision form of a conversion, as the kernel's
 * format_decode() reads them (issue 24 item 6: "%.s" is no precision there,
 * not C's 0): each row one precision form P of one conversion C, with no
 * width, a width, '-' and a width, a '*' width and '-' with a '*' width.
 * The forms gcc's format check refuses (0 with - or with a precision, #
 * of %d, any flag but - of %s) are left out.
 */
#define LT_PF_FORMS(P, C, v)						\
	LT_PF("[%" P C "][%6" P C "][%-6" P C "][%*" P C "][%-*" P C "]",	\
	      v, v, v, 6, v, 6, v)
#define LT_PF_FORMS_STAR(C, p, v)					\
	LT_PF("[%.*" C "][%6.*" C "][%-6.*" C "][%*.*" C "][%-*.*" C "]",	\
	      p, v, p, v, p, v, 6, p, v, 6, p, v)
#define LT_PF_FORMS_ALL(C, v) do {					\
	LT_PF_FORMS("", C, v);						\
	LT_PF_FORMS(".", C, v);						\
	LT_PF_FORMS(".0", C, v);					\
	LT_PF_FORMS(".2", C, v);					\
	LT_PF_FORMS(".9", C, v);					\
	LT_PF_FORMS_STAR(C, 2, v);					\
	LT_PF_FORMS_STAR(C, 0, v);					\
	LT_PF_FORMS_STAR(C, -1, v);					\
} while (0)

static noinline void lt_printf_forms(void)
{
	LT_PF_FORMS_ALL("s", "abcdef");
	LT_PF_FORMS_ALL("d", -42);
	LT_PF_FORMS_ALL("d", 0);
	LT_PF_FORMS_ALL("x", 0x2aU);
	LT_PF_FORMS_ALL("x", 0U);
	/* the forms of the report (issue 24 item 6) */
	LT_PF("[%.s] [%-3.s] [%.s|%.0s|%.*s]", "123456", "ab", "x", "y", 1, "zz");
	/* the sign, space and # flags with every precision form, of 0 and not */
	LT_PF("[%+.d][% .d][%+.0d][% .0d][%+.2d][%+.*d]", 0, 0, 0, 0, 0, -1, 0);
	LT_PF("[%+.d][% .d][%+.0d][% .0d][%+.2d][%+.*d]", 5, 5, 5, 5, 5, -1, 5);
	LT_PF("[%#.x][%#.0x][%#.2x][%#6.x][%#-6.0x][%#.*x]", 0U, 0U, 0U, 0U, 0U, 0, 0U);
	LT_PF("[%#.x][%#.0x][%#.2x][%#6.x][%#-6.0x][%#.*x]", 9U, 9U, 9U, 9U, 9U, 0, 9U);
	LT_PF("[%#.o][%#.0o][%.o][%.0o]", 0U, 0U, 0U, 0U);
}

/* the table, part 1: integers, strings, flags, the word form */
static noinline void lt_printf_basic(const char *nullstr, void *ptr, const u8 *ip)
{
	LT_PF("plain text, no args");
	LT_PF("%d %d %d", 0, 1, -1);
	LT_PF("int min %d max %d", INT_MIN, INT_MAX);
	LT_PF("%u %u", 0U, UINT_MAX);
	LT_PF("hh %hhd %hhu %hhx", (signed char)-5, (unsigned char)250, (unsigned char)0xab);
	LT_PF("h %hd %hu %hx", (short)-12345, (unsigned short)65535, (unsigned short)0xbeef);
	LT_PF("l %ld %lu %lx", LONG_MIN, ULONG_MAX, 0xdeadbeefcafeUL);
	LT_PF("ll %lld %llu %llx", LLONG_MIN, ULLONG_MAX, 0x0123456789abcdefULL);
	LT_PF("z %zu %zd t %td", (size_t)4096, (ssize_t)-4096, (ptrdiff_t)-77);
	LT_PF("width [%5d] [%-5d] [%05d]", 42, 42, 42);
	LT_PF("sign [%+d] [% d] [%+d]", 7, 7, -7);
	LT_PF("prec [%.3d] [%8.3d] [%-8.3d|]", 5, 5, -5);
	LT_PF("star [%*d] [%-*d] [%.*d]", 6, 3, 6, 3, 4, 9);
	LT_PF("hex %x %X %#x %#X %08x", 0xabcdefU, 0xabcdefU, 255U, 255U, 0x1fU);
	LT_PF("oct %o %#o %lo", 8U, 8U, 0777UL);
	LT_PF("llhex %016llx %#llx", 0xfedcba9876543210ULL, 1ULL);
	LT_PF("neg as hex %x %lx %hx", -1, -1L, (short)-1);
	LT_PF("char [%c] [%3c] [%-3c]", 'A', 'b', 'c');
	LT_PF("str [%s] [%10s] [%-10s]", "abc", "right", "left");
	LT_PF("str prec [%.2s] [%8.3s] [%-8.1s]", "abcdef", "xyzw", "qq");
	LT_PF("str null [%s]", nullstr);
	LT_PF("str empty [%s] then %d", "", 5);
	LT_PF("%s=%d, %s=%u, %s=%llx", "a", -1, "b", 2U, "c", 3ULL);
	LT_PF("escapes: tab\there \\ back newline\nend");
	LT_PF("string with newline [%s]", "two\nlines");
	LT_PF("percent 100%% and %d%%", 50);
	LT_PF("ptr %px", ptr);
	LT_PF("ptr null %px", (void *)NULL);
	LT_PF("ipv4 %pI4", ip);
	LT_PF("mix %c%c%c %d %s %lu", 'x', 'y', 'z', 123, "mid", 456UL);
	LT_PF("many %d %d %d %d %d %d %d %d %d %d", 1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
	/*
	 * the word form (__logdev_words()): an 8-byte value across two
	 * words, 32 bytes exactly, 28 (padding in the last word), 8 (one word)
	 */
	LT_PF("words straddle %d %llx %d %lx", -7, 0x1122334455667788ULL, 9,
	      0x99aabbccddeeff00UL);
	LT_PF("words 32 %u %lld %d %lld %d %d", UINT_MAX, -2LL, 3, -4LL, 5, 6);
	LT_PF("words 28 %d %d %d %d %d %d %d", 1, -2, 3, -4, 5, -6, 7);
	LT_PF("words 8 %lx", 0xffffffff00000001UL);
	LT_PF("long string [%s]",
	      "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789");
}

/* part 2: symbols, every byte from its own call, pointer extensions */
static noinline void lt_printf_symbols(struct dentry *dentry, char *pg, void *ptr,
				   const u8 *ip, unsigned long in_target)
{
	/* symbols: what the kernel prints for each kind of address */
	LT_PF("sym null %pS|%ps|%pB", NULL, NULL, NULL);
	LT_PF("sym percpu %pS", (void *)0x10UL);
	LT_PF("sym vmlinux text %pS|%ps", (void *)kmem_cache_free + 3, (void *)kmem_cache_free);
	LT_PF("sym vmlinux data %pS|%ps", (void *)&jiffies, (void *)&jiffies);
	LT_PF("sym module text %pS|%ps|%pB", (void *)in_target,
	      (void *)lt_addr_of_probe_target(), (void *)in_target);
	LT_PF("sym module data %pS", (void *)&lt_probe_sink);
	/* module_log format 2: data and rodata are regions of their own (6.4+) */
	LT_PF("sym module data %ps|%pS rodata %pS", (void *)&lt_probe_sink,
	      (char *)&lt_probe_sink + 4, (void *)lt_bytes3_s);
	LT_PF("sym heap %pS", (void *)lt_pf_ref);

	/* issue 7, fault 1: every byte of a record comes from its own call */
	memset(lt_s600, 'Z', sizeof(lt_s600) - 1);
	memset(lt_s300, 'y', sizeof(lt_s300) - 1);
	LT_PF("%s%s", "secret-from-previous-record", "");
	LT_PF_CUT(511, -1, "%s%s", lt_s600, "");	/* vbin: the rest is lost */
	LT_PF("%c %d %px|%s", 'q', 7, ptr, "ok");
	LT_PF_CUT(7 + 255, 45, "slots [%s]", lt_s300);	/* slots: the rest follows */
	LT_PF_CUT(7 + 255, 45, "slots [%s] %d", lt_s300, 42);
	LT_PF("exact 255 [%s]", lt_s300 + 45);
	/* issue 7, fault 2: pointer extensions with width and flags */
	LT_PF("[%20pb]", lt_bitmap);
	LT_PF("[%*pb]", 20, lt_bitmap);
	LT_PF("[%-12pd2]", dentry);
	LT_PF("[%3ph]", lt_bytes3);
	LT_PF("[%20pM]", lt_mac);
	LT_PF("[%-20pI4]", ip);
	LT_PF("[%40pUb]", lt_uuid);
	LT_PF("[%px] [%s]", lt_bytes3, "after");
	LT_PF("xxx%cyyy", '\0');
	/* a precision bounds what is read of a %s (arrays without a NUL) */
	LT_PF("[%.3s] [%.*s] [%.0s]", lt_bytes3_s, 2, lt_mac_s, lt_bytes3_s);
	/*
	 * ... even at the end of a page with nothing mapped after it
	 * (vmalloc's guard page): vbin_printf()'s strlen() faulted there
	 * (ld_vbin_pack()); and every kind of argument around such a %s,
	 * which is packed by logdev's own code then
	 */
	if (pg) {	/* a vmalloc page (lt_printf_write()) */
		memcpy(pg + PAGE_SIZE - 3, "xyz", 3);
		LT_PF("edge [%.3s] [%.*s]", pg + PAGE_SIZE - 3, 2, pg + PAGE_SIZE - 2);
	}
	LT_PF("mixed [%.3s] %d %lld %hhx %hd %c [%*.*s] %pI4 [%-6.2s] %u %s",
	      lt_bytes3_s, -7, -8LL, (unsigned char)0xab, (short)-3, 'Z', 6, 2, lt_mac_s,
	      ip, "abcdef", 9U, "end");
}

/* part 3: arguments at the end of a record (cut), %hh and %h, hashed %p */
static noinline void lt_printf_edges(void *ptr, const u8 *ip)
{
	/*
	 * issue 7 follow-up: arguments ending at the last bytes of a
	 * vbin_printf() record (LOGDEV_MAX_PAYLOAD 512; vbin layout: %px 8
	 * bytes, a string and a pointer text each with its NUL, numbers
	 * aligned to their size up to 4).  A string ending at byte 511, 512,
	 * 513 of the record (two strings: more than one slots record holds, so
	 * vbin_printf(); %px: vbin_printf())...
	 */
	LT_PF("A [%s][%s]", LT_S(255), LT_S(254));
	LT_PF("A [%s][%s]", LT_S(255), LT_S(255));
	LT_PF_CUT(3 + 255 + 2 + 255, -1, "A [%s][%s]", LT_S(255), LT_S(256));
	LT_PF("B %px [%s] end", ptr, LT_S(502));
	LT_PF("B %px [%s] end", ptr, LT_S(503));
	LT_PF_CUT(2 + 16 + 2 + 503, -1, "B %px [%s] end", ptr, LT_S(504));
	LT_PF("%px [%s] %c", ptr, LT_S(502), 'c');
	LT_PF_CUT(16 + 2 + 503, -1, "%px [%s] %c", ptr, LT_S(503), 'c');
	LT_PF("%px [%s] %d", ptr, LT_S(499), -3);
	/*
	 * ...a %pI4 text ("192.168.7.42", 12 characters after a string of
	 * N) ending at byte 510, 511, 512, then a 1-byte (%c, %hhd) or a
	 * 4-byte (%d) number: what does not fit is cut and marked.
	 */
	LT_PF("v0 %s%pI4%c", LT_S(497), ip, 'Q');
	LT_PF_CUT(3 + 498 + 12, -1, "v0 %s%pI4%c", LT_S(498), ip, 'Q');
	LT_PF_CUT(3 + 499 + 11, -1, "v0 %s%pI4%c", LT_S(499), ip, 'Q');
	LT_PF("v1 %s%pI4%hhd", LT_S(497), ip, (signed char)-7);
	LT_PF_CUT(3 + 498 + 12, -1, "v1 %s%pI4%hhd", LT_S(498), ip, (signed char)-7);
	LT_PF_CUT(3 + 499 + 11, -1, "v1 %s%pI4%hhd", LT_S(499), ip, (signed char)-7);
	LT_PF_CUT(3 + 497 + 12, -1, "v2 %s%pI4%d", LT_S(497), ip, 123456);
	LT_PF_CUT(3 + 498 + 12, -1, "v2 %s%pI4%d", LT_S(498), ip, 123456);
	LT_PF_CUT(3 + 499 + 11, -1, "v2 %s%pI4%d", LT_S(499), ip, 123456);
	/*
	 * %hh and %h in a record packed at run time (a %p: not the slots), at
	 * every alignment after a string: Linux 7.x's vbin_printf() stores
	 * them as ints, logdev's records as 1 and 2 bytes (ld_vbin_pack())
	 */
	LT_PF("narrow %pI4 %s|%hhd %hd %hhu %hx %c %hhx %hu|%s", ip, "a", (signed char)-7,
	      (short)-300, (unsigned char)200, (unsigned short)0xbeef, 'k',
	      (unsigned char)0x5a, (unsigned short)65000, "end");
	LT_PF("narrow %pI4 %s|%hd %hhd %hd|%s", ip, "ab", (short)-2, (signed char)-128,
	      (short)32767, "end");
	LT_PF("narrow %pI4 %s|%hhx %hd|%s", ip, "abc", (unsigned char)0xff, (short)-1, "end");
	LT_PF("v3 %s%pI4", LT_S(498), ip);
	LT_PF_CUT(3 + 499 + 11, -1, "v3 %s%pI4", LT_S(499), ip);
	/* slots: a %s of 256 characters is cut at 255 and marked */
	LT_PF_CUT(7 + 255, 1, "slots [%s]", LT_S(256));
	/*
	 * issue 13 item 5: plain %p, %pK and %pe of a non-error pointer print
	 * what the kernel's "%p" prints (a hash of its boot key), NULL and
	 * error pointers as they are, %px raw; also in a cut record
	 */
	LT_PF("hashed %p|%20p|%-18p|%pK|%pe", ptr, ptr, ptr, ptr, ptr);
	LT_PF("hashed null %p err %p %pe", NULL, ERR_PTR(-ENOMEM), ERR_PTR(-ENOMEM));
	LT_PF("hashed %p then %px %d", lt_bytes3, lt_bytes3, 5);
	LT_PF_CUT(2 + 16 + 2 + 503, -1, "C %p [%s] end", ptr, LT_S(504));
}

/*
 * issue 29: a %s's length is taken a word at a time (__logdev_strnlen(),
 * aligned 8-byte words): strings starting at each of the 8 offsets of a
 * word, ending at each byte of the first, second and third word, and
 * precisions ending inside a word and at its end
 */
static noinline void lt_printf_align(void)
{
	static const char al16[24] __aligned(8) = "0123456789abcdef";
	static const char al7[16] __aligned(8) = "0123456";
	const char *a = al16, *b = al7;

	OPTIMIZER_HIDE_VAR(a);
	OPTIMIZER_HIDE_VAR(b);
	LT_PF("al16 [%s|%s|%s|%s|%s|%s|%s|%s]", a, a + 1, a + 2, a + 3, a + 4, a + 5,
	      a + 6, a + 7);
	LT_PF("al16 [%s|%s|%s|%s|%s|%s|%s|%s|%s]", a + 8, a + 9, a + 10, a + 11,
	      a + 12, a + 13, a + 14, a + 15, a + 16);
	LT_PF("al7 [%s|%s|%s|%s|%s|%s|%s|%s]", b, b + 1, b + 2, b + 3, b + 4, b + 5,
	      b + 6, b + 7);
	LT_PF("alp [%.5s|%.8s|%.9s|%.3s|%.13s|%.0s|%.16s]", a + 3, a, a + 7, a + 5,
	      a + 3, a + 1, a);
}

/* part 4: bit-fields, the forms of every conversion, odd file names */
static noinline void lt_printf_rest(void)
{
	struct {
		unsigned int u3:3;
		int s5:5;
		u64 w40:40;
		bool b:1;
	} bf = { 5, -3, 0x123456789aULL, true };

	/*
	 * bit-fields as arguments (EDP_RV(): the value after the usual
	 * conversions, as a call passes it): the word form, then the slots
	 * form (a string), then one wider than int (cast, as printf's check
	 * wants for a u64:40)
	 */
	LT_PF("bits %u %d %d", bf.u3, bf.s5, bf.b);
	LT_PF("bits %u [%s] %d", bf.u3, "str", bf.s5);
	LT_PF("bits wide %llx %d", (unsigned long long)bf.w40, bf.s5);
	lt_printf_forms();
	lt_printf_align();
	/* sites in files whose names hold a tab, a quote, a newline */
	lt_oddfiles(7);
	/* a raw record larger than a sub-buffer: refused, counted as too_big */
	lt_raw_big_ret = logdev_write_raw(0, lt_raw_big, sizeof(lt_raw_big));
}

static noinline void lt_printf_table(struct dentry *dentry, char *pg)
{
	/* hidden from the compiler: a NULL it sees is a -Wformat-overflow */
	const char *nullstr = NULL;
	/*
	 * lt_probe_target + 4, computed at run time: a constant would be a
	 * relocation to the middle of a function, which objtool refuses
	 * under IBT (not an ENDBR)
	 */
	unsigned long in_target = lt_addr_of_probe_target();
	static const u8 ip[4] = { 192, 168, 7, 42 };
	void *ptr = (void *)0xffff888012345678UL;

	OPTIMIZER_HIDE_VAR(nullstr);
	OPTIMIZER_HIDE_VAR(in_target);
	in_target += 4;
	lt_pf_count = 0;
	lt_printf_basic(nullstr, ptr, ip);
	lt_printf_symbols(dentry, pg, ptr, ip, in_target);
	lt_printf_edges(ptr, ip);
	lt_printf_rest();
}

static ssize_t lt_printf_write(struct file *f, const char __user *ubuf,
			       size_t len, loff_t *ppos)
{
	/* allocated here: the table runs with preemption off */
	char *pg = vmalloc(PAGE_SIZE);

	mutex_lock(&lt_lock);
	preempt_disable();	/* one CPU, table order */
	lt_printf_table(f->f_path.dentry, pg);
	preempt_enable();
	mutex_unlock(&lt_lock);
	vfree(pg);
	return len;
}

static const struct file_operations lt_printf_fops = {
	.owner = THIS_MODULE,
	.write = lt_printf_write,
	.llseek = noop_llseek,
};

static int lt_printf_ref_show(struct seq_file *m, void *v)
{
	int i;

	mutex_lock(&lt_lock);
	for (i = 0; i < lt_pf_count; i++)
		seq_printf(m, "%d\t%s\n", i, lt_pf_ref + i * LT_PF_LINE);
	seq_printf(m, "# raw_big=%d\n", lt_raw_big_ret);
	mutex_unlock(&lt_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(lt_printf_ref);


/* module init: the reference lines */
int lt_printf_init(void)
{
	lt_pf_ref = kvcalloc(LT_PF_MAX, LT_PF_LINE, GFP_KERNEL);
	return lt_pf_ref ? 0 : -ENOMEM;
}

void lt_printf_exit(void)
{
	kvfree(lt_pf_ref);
}

void lt_printf_files(struct dentry *dir)
{
	debugfs_create_file("printf", 0200, dir, NULL, &lt_printf_fops);
	debugfs_create_file("printf_ref", 0444, dir, NULL, &lt_printf_ref_fops);
}

/*
 * Two sites at one func:line in two files with a tab, a quote and a newline
 * in their names (issue 7 follow-up, class 9): "formats" must escape them,
 * and reports name both sites with their files.  Last in this file: the
 * #line directives change __FILE__ for everything after them.
 */
static noinline void lt_oddfiles(int i)
{
#line 500 "dir\twith tab/we\"ird,name.c"
	edprint("oddfile %d", i);
#line 500 "new\nline.c"
	edprint("nlfile %d", i);
}
