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

/*
 * What the renderer does with a piece (struct lgd_fpiece): copy its text, a
 * plain integer (no flag, width, precision or '*': %d %i %u of 4 or 8
 * bytes, signed or not), or the general conversion.
 */
enum lgd_fp_op { LGD_FP_TEXT, LGD_FP_S32, LGD_FP_U32, LGD_FP_S64, LGD_FP_U64, LGD_FP_CONV };

/* one piece of a struct lgd_fmtprog: the walker's, and its enum lgd_fp_op */
struct lgd_fpiece {
	struct edp_piece pc;
	int op;
};

/**
 * struct lgd_fmtprog - a format walked once: its pieces (edp_fmt_next()) in
 * order, the last an EDP_BAD one if the walk stopped at one (EDP_END is not
 * stored), pointing into the format text, which must outlive it.  A call
 * site's is made when its format is read (lgd_fmt_compile(), meta.c), so
 * that rendering a record (bprintf.c) does not walk the text again.
 * @n:     pieces in @fp
 * @plain: every piece is text lgd_escape() keeps as it is or a plain
 *         integer (LGD_FP_S32..LGD_FP_U64): the output needs no escape
 * @fp:    the pieces
 */
struct lgd_fmtprog {
	uint32_t n;
	int plain;
	struct lgd_fpiece fp[];
};

/*
 * lgd_fmt_compile() - @fmt walked into a new struct lgd_fmtprog (free()
 * it); NULL when out of memory.
 */
struct lgd_fmtprog *lgd_fmt_compile(const char *fmt);

#endif
