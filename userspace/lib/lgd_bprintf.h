/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lgd_bprintf.h: binary printf: a vbin_printf / slots payload to text
 * (bprintf.c).
 * Part of liblogdev (layer: library; liblogdev.h includes every area).
 */
#ifndef LIBLOGDEV_BPRINTF_H
#define LIBLOGDEV_BPRINTF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <uapi/linux/logdev.h>
#include "lgd_meta.h"

/* ---- binary printf --------------------------------------------------- */

/**
 * lgd_bprintf() - render @fmt with the vbin_printf() argument buffer @args
 * (@nargs bytes) as the kernel's bstr_printf() would, for a 64-bit
 * little-endian kernel.  @ks may be NULL (symbol pointers print as hex).
 * An argument past @nargs prints "[missing]" and ends the output (never
 * read out of bounds).
 * Output is NUL-terminated and truncated to @size - 1 bytes.
 * Return: length the full output has (like snprintf).
 * See bprintf.c for the choices where the kernel's output cannot be
 * reproduced (plain %p).
 */
int lgd_bprintf(char *out, size_t size, const char *fmt, const void *args,
	       size_t nargs, const struct lgd_ksyms *ks);

/**
 * lgd_bprintf_slots() - lgd_bprintf() for a LOGDEV_REC_PRINT_SLOTS payload
 * (compile-time encoding, include/linux/edprint_slots.h): the same layout
 * except that %c, %hh and %h arguments take 4 bytes.
 */
int lgd_bprintf_slots(char *out, size_t size, const char *fmt, const void *args,
		     size_t nargs, const struct lgd_ksyms *ks);

/* lgd_bprintf_rec() flags */
#define LGD_BP_SLOTS	1	/* a LOGDEV_REC_PRINT_SLOTS payload */
#define LGD_BP_CUT	2	/* the record is flagged LOGDEV_REC_F_CUT */

/**
 * lgd_bprintf_rec() - lgd_bprintf() (or, with LGD_BP_SLOTS, lgd_bprintf_slots())
 * for a record whose arguments may have been cut (LGD_BP_CUT): "[cut]" follows
 * the text of the argument that was cut, or stands where the first argument
 * that was not stored would be (the output then ends there).  A conversion
 * a slots payload cannot render (a %p extension such as %pI4, from captures
 * made before edprint() sent those to vbin_printf()) prints
 * "[unrenderable %SPEC]" and ends the output.
 * A payload that ends before an argument the format needs, in a record not
 * flagged cut (or a slots record), prints "[missing]" there and ends the
 * output.  All lgd_bprintf*() functions do the same.
 * Return: length the full output has (like snprintf); it may hold NUL bytes
 * (%c of 0 prints one, as the kernel's vsnprintf() does).
 */
int lgd_bprintf_rec(char *out, size_t size, const char *fmt, const void *args,
		   size_t nargs, const struct lgd_ksyms *ks, uint64_t ts,
		   unsigned int flags);

/* lgd_bprintf_rec_status() status bits */
#define LGD_BP_ST_MISSING	1	/* "[missing]": an argument was not in the payload */

/**
 * lgd_bprintf_rec_status() - lgd_bprintf_rec(), and *@status (if not NULL)
 * set to LGD_BP_ST_MISSING when an argument was missing, else 0.
 */
int lgd_bprintf_rec_status(char *out, size_t size, const char *fmt, const void *args,
			  size_t nargs, const struct lgd_ksyms *ks, uint64_t ts,
			  unsigned int flags, unsigned int *status);

/**
 * lgd_bprintf_site() - lgd_bprintf_rec_status() of call site @s's format,
 * from the pieces it was walked into when it was read (@s->prog): the same
 * text without walking the format again.
 */
int lgd_bprintf_site(char *out, size_t size, const struct lgd_site *s, const void *args,
		    size_t nargs, const struct lgd_ksyms *ks, uint64_t ts,
		    unsigned int flags, unsigned int *status);

/* argument kinds (lgd_bprintf_args(), lgd_fmt_arg_kinds()) */
enum { LGD_ARG_S64 = 1, LGD_ARG_U64 = 2, LGD_ARG_STR = 3 };
#define LGD_BP_MAX_ARGS	32	/* arguments kept per record (more are not typed) */

/**
 * struct lgd_bp_args - the arguments of one record, one per conversion of
 * its format (%% none; a '*' width or precision is not one of them), in
 * format order: integers (%d %i signed, %u %x %X %o %c and pointers kept as
 * pointers unsigned; sign-extended or zero-extended to 64 bits), strings (%s
 * and %p extensions the kernel rendered at record time) pointing into the
 * payload (@len bytes, no NUL).  @nr: how many the payload held (arguments
 * cut or missing are not there).
 */
struct lgd_bp_args {
	unsigned int nr;
	int kind[LGD_BP_MAX_ARGS];
	uint64_t num[LGD_BP_MAX_ARGS];
	const char *str[LGD_BP_MAX_ARGS];
	size_t len[LGD_BP_MAX_ARGS];
};

/**
 * lgd_bprintf_args() - the arguments lgd_bprintf_rec() would render for @fmt
 * and the payload @args (@nargs bytes; @flags LGD_BP_SLOTS, LGD_BP_CUT), by
 * the same walk.  Return: @out->nr.
 */
int lgd_bprintf_args(const char *fmt, const void *args, size_t nargs, unsigned int flags,
		    struct lgd_bp_args *out);
/**
 * lgd_fmt_arg_kinds() - the kinds (LGD_ARG_*) of @fmt's arguments, as
 * lgd_bprintf_args() gives them, into @kinds (at most @max).
 * Return: their number (<= @max).
 */
int lgd_fmt_arg_kinds(const char *fmt, int *kinds, unsigned int max);

#endif /* LIBLOGDEV_BPRINTF_H */
