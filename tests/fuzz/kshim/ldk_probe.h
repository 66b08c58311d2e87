/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ldk_probe.h - the kernel helpers kernel/logdev_probe_parse.c and
 * logdev_probe_log.c call, for their userspace build (fuzz_probespec.c;
 * force-included before each), with the kernel's semantics: kstrtol(),
 * kstrtoul(), kstrtouint() (lib/kstrtox.c: base 0 takes 0x and 0, an
 * optional '+', '-' only for the signed one, one trailing newline, -ERANGE
 * on overflow, -EINVAL otherwise), strscpy(), strlcat(), scnprintf(),
 * skip_spaces(), isdigit() of a plain char (include/linux/ctype.h),
 * kmalloc()/kfree(); the sizes of include/linux (KSYM_NAME_LEN of 6.1 and
 * later, MODULE_NAME_LEN of 64-bit) and the config of an x86-64 kernel
 * with tracepoints.
 */
#ifndef LDK_PROBE_H
#define LDK_PROBE_H
#include <stdio.h>
#include <stdarg.h>
#include <limits.h>
#include <ctype.h>
#include <sys/types.h>
#include "ldk_btf.h"			/* u8..u64, GFP_KERNEL, ARRAY_SIZE */
#include "uapi/linux/logdev.h"		/* LOGDEV_MAX_PAYLOAD */

#define CONFIG_X86_64		1
#define CONFIG_TRACEPOINTS	1
#define IS_ENABLED(c)		(c)	/* only of the CONFIG_s above */

#define KSYM_NAME_LEN		512
#define MODULE_NAME_LEN		(64 - sizeof(unsigned long))

#define __printf(a, b)		__attribute__((format(printf, a, b)))
#define noinline_for_stack	__attribute__((noinline))
#define max(a, b)		((a) > (b) ? (a) : (b))
#define min_t(t, a, b)		((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#undef isdigit
#define isdigit(c)		('0' <= (c) && (c) <= '9')
#define lockdep_assert_held(l)	do { } while (0)

static inline void *kmalloc(size_t n, int gfp) { (void)gfp; return malloc(n); }
static inline void *kzalloc(size_t n, int gfp) { (void)gfp; return calloc(1, n); }
static inline void kfree(const void *p) { free((void *)p); }

/* ns of a fake clock that only moves forward */
static inline u64 local_clock(void)
{
	static u64 t;

	return t += 1000;
}

static inline ssize_t strscpy(char *dst, const char *src, size_t size)
{
	size_t n = strnlen(src, size);

	if (!size)
		return -E2BIG;
	if (n == size) {
		memcpy(dst, src, size - 1);
		dst[size - 1] = '\0';
		return -E2BIG;
	}
	memcpy(dst, src, n + 1);
	return n;
}

#define strlcat ldk_strlcat	/* glibc 2.38 has its own */
static inline size_t ldk_strlcat(char *dst, const char *src, size_t size)
{
	size_t d = strnlen(dst, size), s = strlen(src);

	if (d == size)
		abort();	/* the kernel's BUG()s too */
	if (s >= size - d) {
		memcpy(dst + d, src, size - d - 1);
		dst[size - 1] = '\0';
	} else {
		memcpy(dst + d, src, s + 1);
	}
	return d + s;
}

static inline int vscnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	int n = vsnprintf(buf, size, fmt, ap);

	if (n < 0 || !size)
		return 0;
	return (size_t)n < size ? n : (int)size - 1;
}

static inline __printf(3, 4) int scnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vscnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

static inline char *skip_spaces(const char *s)
{
	while (*s == ' ' || (*s >= '\t' && *s <= '\r'))
		s++;
	return (char *)s;
}

/* lib/kstrtox.c's _kstrtoull(): the prefix and digits of @base at @s */
static inline int ldk_kstrtoull(const char *s, unsigned int base, unsigned long long *res)
{
	unsigned long long v = 0;
	int any = 0;

	if (!base) {
		if (s[0] == '0' && (s[1] | 0x20) == 'x' && isxdigit((unsigned char)s[2]))
			base = 16;
		else
			base = s[0] == '0' ? 8 : 10;
	}
	if (base == 16 && s[0] == '0' && (s[1] | 0x20) == 'x')
		s += 2;
	for (;; s++, any = 1) {
		unsigned int d;

		if (isdigit(*s))
			d = *s - '0';
		else if ((*s | 0x20) >= 'a' && (*s | 0x20) <= 'f')
			d = (*s | 0x20) - 'a' + 10;
		else
			break;
		if (d >= base)
			break;
		if (v > (ULLONG_MAX - d) / base)
			return -ERANGE;
		v = v * base + d;
	}
	if (*s == '\n')
		s++;
	if (!any || *s)
		return -EINVAL;
	*res = v;
	return 0;
}

/* kstrtoull(): one '+' first is allowed */
static inline int ldk_kstrtoull_plus(const char *s, unsigned int base, unsigned long long *res)
{
	return ldk_kstrtoull(*s == '+' ? s + 1 : s, base, res);
}

static inline int kstrtoul(const char *s, unsigned int base, unsigned long *res)
{
	unsigned long long v;
	int ret = ldk_kstrtoull_plus(s, base, &v);

	if (!ret)
		*res = v;
	return ret;
}

static inline int kstrtouint(const char *s, unsigned int base, unsigned int *res)
{
	unsigned long long v;
	int ret = ldk_kstrtoull_plus(s, base, &v);

	if (ret)
		return ret;
	if (v > UINT_MAX)
		return -ERANGE;
	*res = v;
	return 0;
}

static inline int kstrtol(const char *s, unsigned int base, long *res)
{
	unsigned long long v;
	int ret;

	if (*s == '-') {
		ret = ldk_kstrtoull(s + 1, base, &v);
		if (ret)
			return ret;
		if ((long long)-v > 0)
			return -ERANGE;
		*res = -v;
		return 0;
	}
	ret = ldk_kstrtoull_plus(s, base, &v);
	if (ret)
		return ret;
	if ((long long)v < 0)
		return -ERANGE;
	*res = v;
	return 0;
}
#endif
