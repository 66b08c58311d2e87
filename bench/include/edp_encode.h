/* SPDX-License-Identifier: GPL-2.0 */
/*
 * edp_encode.h - compile-time argument encoding for edprint-style records,
 * shared by the host benchmark (bench/host/edp.h, userspace) and the kernel
 * prototype in bench/kernel/logdev_bench.c.  The includer provides u32, u64
 * and memcpy/memset.
 *
 * Payload ("slots"): the arguments in order, each
 *   - an integer or pointer of sizeof <= 4: 4 bytes (value converted to u32)
 *   - an integer or pointer of sizeof 8:    8 bytes (4-byte aligned)
 *   - a double:                             8 bytes (its bits; userspace)
 *   - char * / const char *:                the string, NUL-terminated,
 *                                           padded to 4 (at most EDP_STR_MAX chars)
 * How each argument is stored is chosen by _Generic and sizeof, so the
 * compiler emits straight-line stores; the format is never parsed when
 * recording.  A reader renders a record from the site's format: with the
 * compiler's format check (__printf), %d/%u/%x/%c/%hd take 4 bytes, l/ll/z/t/j
 * and %p take 8, %s takes a string, %f/%g/%e take 8.
 *
 *	EDP_MAP(EDP_DECL, args...)		evaluate each argument once
 *	n = 0 EDP_MAP(EDP_SIZE, args...);	payload bytes
 *	EDP_MAP(EDP_STORE, args...)		store at char *_edp
 */
#ifndef EDP_ENCODE_H
#define EDP_ENCODE_H

#ifndef EDP_STR_MAX
#define EDP_STR_MAX		255
#endif

static inline u32 edp_strlen(const char *s)
{
	u32 n = s ? (u32)strnlen(s, EDP_STR_MAX) : 0;

	return n;
}

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
#else	/* no floating point in the kernel */
#define EDP_FP_SLOT
#define EDP_FP_PUT
#endif

static inline char *edp_put_p(char *p, const void *v, unsigned int sz)
{
	return edp_put_u(p, (u64)(unsigned long)v, sz);
}

/* @sz is the string length here (computed once, before the reservation) */
static inline char *edp_put_s(char *p, const char *s, unsigned int len)
{
	unsigned int slot = (len + 4) & ~3u;

	memcpy(p, s ? s : "", len);
	memset(p + len, 0, slot - len);
	return p + slot;
}

#define EDP_ISSTR(x)	_Generic((x), char *: 1, const char *: 1, default: 0)
#define EDP_ASSTR(x)	_Generic((x), char *: (x), const char *: (x), default: (const char *)0)
/* string length if a string, else 0: a constant for non-strings */
#define EDP_LEN(x)	(EDP_ISSTR(x) ? edp_strlen(EDP_ASSTR(x)) : 0u)
/* payload bytes of one argument, given its string length */
#define EDP_SLOT(x, l)	(EDP_ISSTR(x) ? (((l) + 4) & ~3u) : \
			 _Generic((x), EDP_FP_SLOT default: (sizeof(x) > 4 ? 8u : 4u)))
#define EDP_PUTFN(x)	_Generic((x), char *: edp_put_s, const char *: edp_put_s, \
				 EDP_FP_PUT \
				 void *: edp_put_p, const void *: edp_put_p, \
				 default: edp_put_u)
#define EDP_PUT(p, x, l) ((p) = EDP_PUTFN(x)((p), (x), EDP_ISSTR(x) ? (l) : (unsigned int)sizeof(x)))

/* argument counting and an indexed map, up to 6 arguments */
#define EDP_N(...)		EDP_N_(0, ##__VA_ARGS__, 6, 5, 4, 3, 2, 1, 0)
#define EDP_N_(_0, _1, _2, _3, _4, _5, _6, N, ...) N
#define EDP_CAT(a, b)		EDP_CAT_(a, b)
#define EDP_CAT_(a, b)		a##b
#define EDP_MAP(M, ...)		EDP_CAT(EDP_MAP, EDP_N(__VA_ARGS__))(M, ##__VA_ARGS__)
#define EDP_MAP0(M)
#define EDP_MAP1(M, a)		M(0, a)
#define EDP_MAP2(M, a, b)	M(0, a) M(1, b)
#define EDP_MAP3(M, a, b, c)	M(0, a) M(1, b) M(2, c)
#define EDP_MAP4(M, a, b, c, d)	M(0, a) M(1, b) M(2, c) M(3, d)
#define EDP_MAP5(M, a, b, c, d, e)	M(0, a) M(1, b) M(2, c) M(3, d) M(4, e)
#define EDP_MAP6(M, a, b, c, d, e, f)	M(0, a) M(1, b) M(2, c) M(3, d) M(4, e) M(5, f)

#define EDP_DECL(i, x)	__auto_type _edv##i = (x); unsigned int _edl##i = EDP_LEN(_edv##i);
/* compile-time upper bound of one argument's slot */
#define EDP_BOUND(i, x)	+ (EDP_ISSTR(x) ? EDP_STR_MAX + 4 : 8)
#define EDP_SIZE(i, x)	+ EDP_SLOT(_edv##i, _edl##i)
#define EDP_STORE(i, x)	EDP_PUT(_edp, _edv##i, _edl##i);

#endif /* EDP_ENCODE_H */
