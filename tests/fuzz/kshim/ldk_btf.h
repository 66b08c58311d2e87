/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ldk_btf.h - what kernel/logdev_btf.c takes from the kernel, for its
 * userspace builds (tests/btf/test_btf.c, tests/fuzz/fuzz_btf.c; included
 * before it): the fixed-width types, ARRAY_SIZE(), kvcalloc() (NULL on an
 * overflowing product, as the kernel's) and kvfree().  fuzz_probespec gets the same
 * from ldk_kernel.h.
 */
#ifndef LDK_BTF_H
#define LDK_BTF_H
#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef int32_t s32;
typedef unsigned long long u64;
#define GFP_KERNEL 0
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static inline void *kvcalloc(size_t n, size_t size, int gfp)
{
	(void)gfp;
	if (size && n > SIZE_MAX / size)
		return NULL;
	return calloc(n, size);
}
static inline void kvfree(const void *p) { free((void *)p); }
#endif
