/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ldk_parse.h - the kernel helpers kernel/logdev_parse.c calls, for its
 * userspace build (fuzz_ctlparse.c; force-included before it), with the
 * kernel's semantics: isdigit() of a plain char (include/linux/ctype.h in
 * 6.1: '0' <= c <= '9', no table, so a byte above 0x7f is just not a
 * digit), kstrtou64() base 10 (lib/kstrtox.c: optional '+', one trailing
 * newline, -ERANGE on overflow, -EINVAL otherwise), is_power_of_2().
 */
#ifndef LDK_PARSE_H
#define LDK_PARSE_H
#include "logdev_shim.h"

#ifndef fallthrough
#define fallthrough __attribute__((__fallthrough__))
#endif

#define isdigit(c) ('0' <= (c) && (c) <= '9')

static inline int kstrtou64(const char *s, unsigned int base, u64 *res)
{
	u64 v = 0;
	int any = 0;

	if (base != 10)
		return -EINVAL;	/* the only base logdev uses */
	if (*s == '+')
		s++;
	for (; isdigit(*s); s++, any = 1) {
		if (v > (UINT64_MAX - (u64)(*s - '0')) / 10)
			return -ERANGE;
		v = v * 10 + (u64)(*s - '0');
	}
	if (*s == '\n')
		s++;
	if (!any || *s)
		return -EINVAL;
	*res = v;
	return 0;
}

static inline bool is_power_of_2(unsigned long n)
{
	return n != 0 && (n & (n - 1)) == 0;
}
#endif
