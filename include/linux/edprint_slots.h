/* SPDX-License-Identifier: GPL-2.0 */
/*
 * edprint_slots.h - compile-time argument encoding of edprint() records
 * (LOGDEV_REC_PRINT_SLOTS).  Portable: used by edprint.h in the kernel and
 * by the userspace benchmark (bench/host); the includer provides u32, u64,
 * memcpy, memset and strnlen.
 *
 * Payload ("slots"): the arguments in order, each
 *   - an integer or pointer of sizeof <= 4: 4 bytes (value converted to u32)
 *   - an integer or pointer of sizeof 8:    8 bytes (4-byte aligned)
 *   - a double:                             8 bytes (its bits; userspace only)
 *   - char *, signed/unsigned char * (const or not): the string,
 *     NUL-terminated, padded to 4, at most EDP_STR_MAX characters (a longer
 *     one is cut there and the record is marked LOGDEV_REC_F_CUT: EDP_CUT);
 *     a NULL pointer stores "(null)", an error or near-NULL one "(efault)",
 *     as vbin_printf() does
 * The types decide the encoding, so edprint() uses these slots only for a
 * format that reads every argument as its type says (edprint_fmt.h: no %p,
 * %s exactly for the char pointers); a string is read with strnlen() up to
 * EDP_STR_MAX + 1 bytes and never past its NUL.
 * How each argument is stored is chosen by _Generic and sizeof, so the
 * compiler emits straight-line stores; the format is not parsed when
 * recording.  This is vbin_printf()'s layout (8-byte values at 4-byte
 * alignment, strings NUL-terminated) except that 1- and 2-byte values take a
 * whole 4-byte slot: a reader renders it from the site's format, which the
 * compiler checked against the arguments (__printf), reading %c, %hh and %h
 * arguments as 4 bytes (userspace/lib/bprintf.c, lgd_bprintf_slots()).
 *
 *	EDP_MAP(EDP_DECL, args...)		evaluate each argument once
 *	n = 0 EDP_MAP(EDP_SIZE, args...);	payload bytes
 *	EDP_MAP(EDP_STORE, args...)		store at char *_edp
 *	0 EDP_MAP(EDP_BOUND, args...)		compile-time bound of n
 *	0 EDP_MAP(EDP_CUT, args...)		a string was cut (after EDP_DECL)
 *	0 EDP_MAP(EDP_STRBIT, args...)		constant: bit i = argument i is a string
 *	0 EDP_MAP(EDP_WIDEBIT, args...)		constant: bit i = argument i is 8 bytes
 */
#ifndef _LINUX_EDPRINT_SLOTS_H
#define _LINUX_EDPRINT_SLOTS_H

#ifndef EDP_STR_MAX
#define EDP_STR_MAX		255
#endif
#define EDP_MAX_ARGS		16	/* EDP_MAP's limit */

/* what vbin_printf() stores for a %s pointer it must not read */
static inline const char *edp_str_src(const char *s)
{
	if (!s)
		return "(null)";
	if ((unsigned long)s < 4096 || (unsigned long)s >= (unsigned long)-4095)
		return "(efault)";
	return s;
}

/*
 * strnlen() of a string argument: in the kernel on x86-64, logdev's
 * __logdev_strnlen() (kernel/logdev_record.c), which reads aligned words
 * where the kernel's strnlen() loops over bytes (a branch per byte: under
 * QEMU's TCG every one of them a translation-block exit); elsewhere
 * strnlen().  Both return the same.
 */
#if defined(__KERNEL__) && defined(CONFIG_X86_64)
u32 __logdev_strnlen(const char *s, u32 max);
#define edp_strnlen(s, max)	__logdev_strnlen((s), (max))
#else
#define edp_strnlen(s, max)	((u32)strnlen((s), (max)))
#endif

/* length of a string argument, EDP_STR_MAX + 1 meaning "longer: cut" */
static inline u32 edp_strlen(const char *s)
{
	return edp_strnlen(edp_str_src(s), EDP_STR_MAX + 1);
}

/* edp_strlen() reading at most @max bytes (a precision), @max <= EDP_STR_MAX + 1 */
static inline u32 edp_strlen_max(const char *s, u32 max)
{
	return edp_strnlen(edp_str_src(s), max);
}

/* characters stored of a string of edp_strlen() @l */
#define EDP_STORED(l)	((l) > EDP_STR_MAX ? EDP_STR_MAX : (l))

static inline char *edp_put_u(char *p, u64 v, unsigned int sz)
{
	u32 w = (u32)v;

	if (sz > 4) {
		memcpy(p, &v, 8);
		return p + 8;
	}
	memcpy(p, &w, 4);
	return p + 4;
}

#ifndef __KERNEL__
static inline char *edp_put_d(char *p, double v, unsigned int sz)
{
	(void)sz;
	memcpy(p, &v, 8);
	return p + 8;
}
#define EDP_FP_SLOT	float: 8u, double: 8u,
#define EDP_FP_PUT	float: edp_put_d, double: edp_put_d,
#define EDP_FP_NUM(x)	float: (x), double: (x),
#define EDP_FP_NOWORD	float: EDP_WORDS_MAX + 1u, double: EDP_WORDS_MAX + 1u,
#else	/* no floating point in the kernel */
#define EDP_FP_SLOT
#define EDP_FP_PUT
#define EDP_FP_NUM(x)
#define EDP_FP_NOWORD
#endif

/*
 * @len is edp_strlen() here (computed once, before the reservation).  The
 * NUL and padding (1 to 4 bytes, up to the slot's 4-byte end) are zeroed
 * by one 4-byte store of zero over the slot's last 4 bytes, before the
 * characters are copied over its first ones: a constant-size store where
 * a memset() of a variable 1 to 4 bytes was a call.  Never past the slot.
 */
static inline char *edp_put_s(char *p, const char *s, unsigned int len)
{
	const u32 zero = 0;
	unsigned int slot;

	len = EDP_STORED(len);
	slot = (len + 4) & ~3u;

	memcpy(p + slot - 4, &zero, 4);
	memcpy(p, edp_str_src(s), len);
	return p + slot;
}

#define EDP_ISSTR(x)	_Generic((x), char *: 1, const char *: 1, signed char *: 1,	\
				 const signed char *: 1, unsigned char *: 1,		\
				 const unsigned char *: 1, default: 0)
#define EDP_ASSTR(x)	_Generic((x), char *: (x), const char *: (x),		\
				 signed char *: (const char *)(unsigned long)(x),			\
				 const signed char *: (const char *)(unsigned long)(x),		\
				 unsigned char *: (const char *)(unsigned long)(x),			\
				 const unsigned char *: (const char *)(unsigned long)(x),		\
				 default: (const char *)0)
/* the argument for the non-string stores: integers and pointers as u64 */
#define EDP_ASNUM(x)	_Generic((x), EDP_FP_NUM(x) char *: 0, const char *: 0,	\
				 signed char *: 0, const signed char *: 0,		\
				 unsigned char *: 0, const unsigned char *: 0,		\
				 default: (u64)(unsigned long)(x))
/* string length if a string, else 0: a constant for non-strings */
#define EDP_LEN(x)	(EDP_ISSTR(x) ? edp_strlen(EDP_ASSTR(x)) : 0u)
/* payload bytes of one argument, given its string length */
#define EDP_SLOT(x, l)	(EDP_ISSTR(x) ? ((EDP_STORED(l) + 4) & ~3u) : \
			 _Generic((x), EDP_FP_SLOT default: (sizeof(x) > 4 ? 8u : 4u)))
#define EDP_PUTFN(x)	_Generic((x), EDP_FP_PUT default: edp_put_u)
#define EDP_PUT(p, x, l) ((p) = EDP_ISSTR(x) ? edp_put_s((p), EDP_ASSTR(x), (l)) :	\
			 EDP_PUTFN(x)((p), EDP_ASNUM(x), (unsigned int)sizeof(x)))

/*
 * Argument counting and an indexed map, up to EDP_MAX_ARGS (16) arguments.
 * 17 to 32 count as TOOMANY, whose map is empty, so that the one error a
 * caller sees is EDP_ARGS_CHECK()'s; past 32 the count is garbage and the
 * compiler's messages are too.
 */
#define EDP_N(...)		EDP_N_(0, ##__VA_ARGS__, EDP_N_TOOMANY_, 16, 15, 14, 13, 12, 11, \
				       10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define EDP_N_TOOMANY_		TOOMANY, TOOMANY, TOOMANY, TOOMANY, TOOMANY, TOOMANY, \
				TOOMANY, TOOMANY, TOOMANY, TOOMANY, TOOMANY, TOOMANY, \
				TOOMANY, TOOMANY, TOOMANY, TOOMANY
#define EDP_N_(...)		EDP_N__(__VA_ARGS__)
#define EDP_N__(_0, _1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, \
		_17, _18, _19, _20, _21, _22, _23, _24, _25, _26, _27, _28, _29, _30, _31, \
		_32, N, ...) N
/* the count as a number; TOOMANY is EDP_MAX_ARGS + 1 */
#define EDP_NARGS(...)		EDP_CAT(EDP_NUM_, EDP_N(__VA_ARGS__))
#define EDP_NUM_TOOMANY		(EDP_MAX_ARGS + 1)
#define EDP_NUM_0	0
#define EDP_NUM_1	1
#define EDP_NUM_2	2
#define EDP_NUM_3	3
#define EDP_NUM_4	4
#define EDP_NUM_5	5
#define EDP_NUM_6	6
#define EDP_NUM_7	7
#define EDP_NUM_8	8
#define EDP_NUM_9	9
#define EDP_NUM_10	10
#define EDP_NUM_11	11
#define EDP_NUM_12	12
#define EDP_NUM_13	13
#define EDP_NUM_14	14
#define EDP_NUM_15	15
#define EDP_NUM_16	16
/*
 * EDP_ARGS_CHECK(args...): a declaration that fails to compile, saying why,
 * when there are more than EDP_MAX_ARGS arguments (edprint() starts with it).
 */
#define EDP_ARGS_CHECK(...)						\
	_Static_assert(EDP_NARGS(__VA_ARGS__) <= EDP_MAX_ARGS,		\
		       "edprint(): at most 16 arguments after the format")
#define EDP_CAT(a, b)		EDP_CAT_(a, b)
#define EDP_CAT_(a, b)		a##b
#define EDP_MAP(M, ...)		EDP_CAT(EDP_MAP, EDP_N(__VA_ARGS__))(M, ##__VA_ARGS__)
#define EDP_MAP0(M)
#define EDP_MAPTOOMANY(M, ...)
#define EDP_MAP1(M, a0)	EDP_MAP0(M) M(0, a0)
#define EDP_MAP2(M, a0, a1)	EDP_MAP1(M, a0) M(1, a1)
#define EDP_MAP3(M, a0, a1, a2)	EDP_MAP2(M, a0, a1) M(2, a2)
#define EDP_MAP4(M, a0, a1, a2, a3)	EDP_MAP3(M, a0, a1, a2) M(3, a3)
#define EDP_MAP5(M, a0, a1, a2, a3, a4)	EDP_MAP4(M, a0, a1, a2, a3) M(4, a4)
#define EDP_MAP6(M, a0, a1, a2, a3, a4, a5)	EDP_MAP5(M, a0, a1, a2, a3, a4) M(5, a5)
#define EDP_MAP7(M, a0, a1, a2, a3, a4, a5, a6)	EDP_MAP6(M, a0, a1, a2, a3, a4, a5) M(6, a6)
#define EDP_MAP8(M, a0, a1, a2, a3, a4, a5, a6, a7)	EDP_MAP7(M, a0, a1, a2, a3, a4, a5, a6) M(7, a7)
#define EDP_MAP9(M, a0, a1, a2, a3, a4, a5, a6, a7, a8)	EDP_MAP8(M, a0, a1, a2, a3, a4, a5, a6, a7) M(8, a8)
#define EDP_MAP10(M, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9)	EDP_MAP9(M, a0, a1, a2, a3, a4, a5, a6, a7, a8) M(9, a9)
#define EDP_MAP11(M, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10)	EDP_MAP10(M, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9) M(10, a10)
#define EDP_MAP12(M, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11)	EDP_MAP11(M, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) M(11, a11)
#define EDP_MAP13(M, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12)	EDP_MAP12(M, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) M(12, a12)
#define EDP_MAP14(M, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13)	EDP_MAP13(M, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) M(13, a13)
#define EDP_MAP15(M, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14)	EDP_MAP14(M, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13) M(14, a14)
#define EDP_MAP16(M, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15)	EDP_MAP15(M, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14) M(15, a15)

/*
 * An argument as a value: (0 ? (x) : (x)) has x's type after the usual
 * conversions, so a bit-field becomes an int (or its declared type when
 * wider), which __auto_type and sizeof accept; arrays and functions decay
 * as in a call, and other types are unchanged in what is stored (a char
 * or short still takes a 4-byte slot).  x is evaluated once (one arm).
 */
#define EDP_RV(x)	(0 ? (x) : (x))

#define EDP_DECL(i, x)	__auto_type _edv##i = EDP_RV(x); unsigned int _edl##i = EDP_LEN(_edv##i);
/*
 * EDP_DECL with a bound on each string's length: EDP_SBOUND(i, prev) bytes
 * at most (the includer defines it; prev is the previous argument as a
 * long, for a '*' precision), keeping the previous argument in _edprev.
 */
#define EDP_DECLB(i, x)	__auto_type _edv##i = EDP_RV(x);				\
	unsigned int _edl##i = EDP_ISSTR(_edv##i) ?				\
		edp_strlen_max(EDP_ASSTR(_edv##i), EDP_SBOUND(i, _edprev)) : 0u;	\
	_edprev = (long)EDP_ASNUM(_edv##i);
/* compile-time upper bound of one argument's slot */
#define EDP_BOUND(i, x)	+ (EDP_ISSTR(EDP_RV(x)) ? EDP_STR_MAX + 4 : 8)
#define EDP_SIZE(i, x)	+ EDP_SLOT(_edv##i, _edl##i)
#define EDP_STORE(i, x)	EDP_PUT(_edp, _edv##i, _edl##i);
#define EDP_CUT(i, x)	| (_edl##i > EDP_STR_MAX)
/* argument kinds for edp_fmt_slots_ok() (edprint_fmt.h); types only, x is
 * not evaluated */
#define EDP_STRBIT(i, x)	| (EDP_ISSTR(EDP_RV(x)) ? 1u << (i) : 0u)
#define EDP_WIDEBIT(i, x)	| (!EDP_ISSTR(EDP_RV(x)) && sizeof(EDP_RV(x)) > 4 ? 1u << (i) : 0u)

/*
 * The word form of the same layout, for arguments without a string whose
 * slots take at most EDP_WORDS_MAX bytes (the sum is then a constant): the
 * payload is built in four u64 words, word k holding payload bytes 8k to
 * 8k + 7 as a little-endian load would see them, zero past the last slot,
 * so that edprint() hands it to the recording function in registers
 * (__logdev_words()): no payload stores at the call site and no reservation
 * handed back and forth.  After inlining every offset is a constant and
 * the words are a few shifts and ORs of the arguments.  Little-endian only
 * (EDP_WORDS_OK); tests/decode compares the bytes with EDP_STORE's.
 *
 *	u64 _edw[4] = { }; unsigned int _edo = 0;
 *	EDP_MAP(EDP_WDECL, args...) EDP_MAP(EDP_WSTORE, args...)
 *	0 EDP_MAP(EDP_WSIZE, args...)	constant: payload bytes, or more than
 *					EDP_WORDS_MAX if the words cannot hold it
 */
#define EDP_WORDS_MAX		32
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define EDP_WORDS_OK		1
#else
#define EDP_WORDS_OK		0
#endif
/* slot bytes of one argument; more than EDP_WORDS_MAX for a string or float */
#define EDP_WSLOT(x)	(EDP_ISSTR(x) ? EDP_WORDS_MAX + 1u :			\
			 _Generic((x), EDP_FP_NOWORD default: (sizeof(x) > 4 ? 8u : 4u)))

/* OR @v, a @slot-byte slot at payload byte @off, into the words @w */
static inline __attribute__((__always_inline__)) void edp_wput(u64 *w, unsigned int off,
							      u64 v, unsigned int slot)
{
	if (off + slot > EDP_WORDS_MAX)
		return;		/* not taken where the words are used */
	if (slot == 4)
		v = (u32)v;	/* as edp_put_u() */
	w[off / 8] |= v << (off % 8 * 8);
	if (off % 8 && slot == 8)
		w[off / 8 + 1] |= v >> 32;
}

#define EDP_WDECL(i, x)	__auto_type _edv##i = EDP_RV(x);
#define EDP_WSIZE(i, x)	+ EDP_WSLOT(EDP_RV(x))
#define EDP_WSTORE(i, x)						\
	edp_wput(_edw, _edo, EDP_ASNUM(_edv##i), EDP_WSLOT(_edv##i));		\
	_edo += EDP_WSLOT(_edv##i);

#endif /* _LINUX_EDPRINT_SLOTS_H */
