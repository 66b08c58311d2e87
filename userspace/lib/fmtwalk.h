/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fmtwalk.h - the one printf walker (include/linux/edprint_fmt.h,
 * edp_fmt_next()) for the library's files: the kernel type names it is
 * written with, then the walker.  Private to lib/ (bprintf.c renders with
 * it, meta.c asks a format for symbol pointers with it).
 */
#ifndef LGD_FMTWALK_H
#define LGD_FMTWALK_H

#include <stdint.h>

typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
#include <linux/edprint_slots.h>
#include <linux/edprint_fmt.h>

#endif
