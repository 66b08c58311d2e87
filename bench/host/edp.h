/* SPDX-License-Identifier: GPL-2.0 */
/*
 * edp.h - userspace edprint-equivalent for the host benchmark, with the
 * argument encoding decided at compile time (the encoding proposed for the
 * kernel's edprint(); see docs/PERFORMANCE.md, "Compile-time encoding").
 *
 *	EDP(cb, "got %d bytes from %s", len, name);
 *
 * Payload ("slots"): the arguments in order, each
 *   - an integer or pointer of sizeof <= 4: 4 bytes (value converted to u32)
 *   - an integer or pointer of sizeof 8:    8 bytes (4-byte aligned)
 *   - a double:                             8 bytes (its bits)
 *   - char * / const char *:                the string, NUL-terminated,
 *                                           padded to 4 (at most 255 chars)
 * How each argument is stored is chosen by _Generic and sizeof, so the
 * compiler emits straight-line stores; the format is never parsed when
 * recording.  A reader renders a record from the site's format: with the
 * compiler's format check (__printf), %d/%u/%x/%c/%hd take 4 bytes, l/ll/z/t/j
 * and %p take 8, %s takes a string, %f/%g/%e take 8.
 */
#ifndef EDP_H
#define EDP_H

#include <string.h>
#include "logdev_ring.h"

#define LOGDEV_REC_PRINT_SLOTS	3	/* proposed record type */
#define EDP_STR_MAX		255

struct edp_site {
	const char *fmt;
	u32 id;
};

extern u32 edp_next_site;
extern __thread u32 edp_tid;
u32 edp_site_id(struct edp_site *s);

static inline u32 edp_strlen(const char *s)
{
	u32 n = s ? (u32)strnlen(s, EDP_STR_MAX) : 0;

	return n;
}

static inline char *edp_put_u(char *p, u64 v, unsigned int sz)
{
	if (sz > 4) {
		memcpy(p, &v, 8);
		return p + 8;
	}
	u32 w = (u32)v;

	memcpy(p, &w, 4);
	return p + 4;
}

static inline char *edp_put_d(char *p, double v, unsigned int sz)
{
	(void)sz;
	memcpy(p, &v, 8);
	return p + 8;
}

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
			 _Generic((x), float: 8u, double: 8u, default: (sizeof(x) > 4 ? 8u : 4u)))
#define EDP_PUTFN(x)	_Generic((x), char *: edp_put_s, const char *: edp_put_s, \
				 float: edp_put_d, double: edp_put_d, \
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
#define EDP_SIZE(i, x)	+ EDP_SLOT(_edv##i, _edl##i)
#define EDP_STORE(i, x)	EDP_PUT(_edp, _edv##i, _edl##i);

/*
 * EDP(cb, fmt, args...) - record one edprint-equivalent into ring @cb.
 * Header as the kernel writes it; payload as described above.
 */
#define EDP(cb, _fmt, ...)						\
do {									\
	static struct edp_site _eds = { .fmt = "" _fmt "" };		\
	struct ld_resv _edr;						\
	u32 _edid = _eds.id ? _eds.id : edp_site_id(&_eds);		\
	EDP_MAP(EDP_DECL, ##__VA_ARGS__)				\
	const u32 _edn = 0 EDP_MAP(EDP_SIZE, ##__VA_ARGS__);		\
	if (__builtin_expect(!ld_reserve((cb), _edn, &_edr), 1)) {	\
		char *_edp = (char *)(_edr.rec + 1);			\
		_edr.rec->site = _edid;					\
		_edr.rec->type = LOGDEV_REC_PRINT_SLOTS;		\
		_edr.rec->ctx = 0;					\
		_edr.rec->pid = edp_tid;				\
		_edr.rec->arg_bytes = _edn;				\
		EDP_MAP(EDP_STORE, ##__VA_ARGS__)			\
		if (_edn & 4)						\
			memset(_edp, 0, 4);				\
		(void)_edp;						\
		ld_commit((cb), &_edr);					\
	}								\
} while (0)

#endif /* EDP_H */
