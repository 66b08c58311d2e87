/* SPDX-License-Identifier: GPL-2.0 */
/*
 * edprint_fmt.h - which encoding an edprint() call site may use, from a parse
 * of its format as the kernel's vsnprintf() (lib/vsprintf.c, format_decode())
 * reads it: flags "-+ #0", a width (digits or '*'), a precision ('.' then
 * digits or '*'), a length (h hh l ll L z t) and the conversion.
 *
 * Portable (kernel module, tests/decode): the includer provides u16, u32.
 * edprint() calls this once per call site, the first time the site records
 * (logdev_site_enc()), and keeps the answer in the site.
 */
#ifndef _LINUX_EDPRINT_FMT_H
#define _LINUX_EDPRINT_FMT_H

#include <linux/edprint_slots.h>	/* EDP_STR_MAX, EDP_MAX_ARGS */

/* Precision digits saturate here, as vsnprintf() clamps a precision
 * (lib/vsprintf.c, set_precision()); no string edprint stores is longer. */
#define EDP_PREC_MAX	32767

/**
 * struct edp_spec - one conversion's flags, width, precision and length
 * @wstar: the width is '*': an int argument comes first
 * @pstar: the precision is '*': an int argument comes next (after @wstar's)
 * @prec:  the precision's digits (at most EDP_PREC_MAX), -1 if none (also a
 *         '.' with no digit: the kernel's format_decode(), not C's 0) or '*'
 * @qual:  the length: 0, 'h', 'H' (hh), 'l', 'L' (ll or L), 'z' or 't'
 */
struct edp_spec {
	int wstar;
	int pstar;
	int prec;
	char qual;
};

/**
 * edp_fmt_spec() - read a conversion up to its conversion character
 * @fmt: the format just after a '%'
 * @sp:  filled in
 *
 * Reads as the kernel's vsnprintf() does (lib/vsprintf.c, format_decode()):
 * flags "-+ #0", a width (digits or '*'), a precision ('.' then digits or
 * '*'), a length.  The one parse of a conversion's head shared by every
 * format walker of logdev (edp_fmt_slots_ok(), and in the module the
 * vbin_printf() walkers of logdev_record.c and the crash dump's slots
 * reader), so that they agree on which arguments a format takes.
 *
 * Return: where the conversion character is (not consumed; '\0' at the
 * end of a format cut after the '%').
 */
static inline const char *edp_fmt_spec(const char *fmt, struct edp_spec *sp)
{
	int p;

	sp->wstar = 0;
	sp->pstar = 0;
	sp->prec = -1;
	while (*fmt == '-' || *fmt == '+' || *fmt == ' ' || *fmt == '#' ||
	       *fmt == '0')
		fmt++;
	if (*fmt == '*') {
		sp->wstar = 1;
		fmt++;
	} else {
		while (*fmt >= '0' && *fmt <= '9')
			fmt++;
	}
	if (*fmt == '.') {
		fmt++;
		if (*fmt == '*') {
			sp->pstar = 1;
			fmt++;
		} else if (*fmt >= '0' && *fmt <= '9') {
			for (p = 0; *fmt >= '0' && *fmt <= '9'; fmt++)
				if (p < EDP_PREC_MAX)
					p = p * 10 + (*fmt - '0');
			sp->prec = p > EDP_PREC_MAX ? EDP_PREC_MAX : p;
		}
		/* a '.' with neither: no precision, as format_decode() (not C's 0) */
	}
	sp->qual = 0;
	if (*fmt == 'h' || *fmt == 'l' || *fmt == 'L' || *fmt == 'z' ||
	    *fmt == 't') {
		sp->qual = *fmt++;
		if (sp->qual == *fmt && (sp->qual == 'l' || sp->qual == 'h'))
			sp->qual = *fmt++ == 'l' ? 'L' : 'H';
	}
	return fmt;
}

/* sprec[] entry of a %s whose precision is a '*' (the argument before it) */
#define EDP_SPREC_STAR	0xffff

/*
 * edp_sprec_bound() - most bytes the slots encoder reads of a string whose
 * sprec[] entry (edp_fmt_slots_ok()) is @c: its precision if it has one (a
 * literal, or '*': @prev, the argument before it), as vsnprintf() reads no
 * more; else EDP_STR_MAX + 1 (longer: cut).
 */
static inline u32 edp_sprec_bound(u16 c, long prev)
{
	if (c == 0)
		return EDP_STR_MAX + 1;
	if (c == EDP_SPREC_STAR)
		return prev < 0 || prev > EDP_STR_MAX ? EDP_STR_MAX + 1 : (u32)prev;
	return c - 1u;
}

/* one argument of a numeric conversion or of a '*': not a string, and
 * 8 bytes exactly when @wide */
static inline int edp_fmt_num_ok(unsigned int i, unsigned int nargs, u32 strmask,
				 u32 widemask, int wide)
{
	if (i >= nargs || i >= EDP_MAX_ARGS || (strmask >> i) & 1)
		return 0;
	return (int)((widemask >> i) & 1) == wide;
}

/**
 * edp_fmt_slots_ok() - may a site store its arguments as compile-time slots?
 * @fmt:      the site's format
 * @nargs:    number of arguments (at most EDP_MAX_ARGS)
 * @strmask:  bit i set: argument i is a char pointer, which the slots encode
 *            as a string (include/linux/edprint_slots.h, EDP_STRBIT)
 * @widemask: bit i set: argument i is not a char pointer and has more than
 *            4 bytes (EDP_WIDEBIT)
 * @sprec:    NULL, or EDP_MAX_ARGS entries filled in for the slots encoder:
 *            for a %s argument with a precision, EDP_SPREC_STAR for '*', else
 *            1 + the precision (at most EDP_STR_MAX + 2); 0 otherwise.  The
 *            encoder reads at most that many bytes of the string, as
 *            vsnprintf() does (a "%.4s" array need not be NUL-terminated).
 *
 * The slots (LOGDEV_REC_PRINT_SLOTS) are chosen from the arguments' types
 * only; they are right only if the format reads every argument as that type.
 * So: every conversion is one userspace renders exactly from slots (%c, %s,
 * %d %i %u %o %x %X with any flags, width, precision and length, %%), a
 * '*' width or precision and a %c or h/hh/no-length integer take a 4-byte
 * non-string, an l/ll/L/z/t integer an 8-byte non-string, a %s a char
 * pointer, and the format uses exactly @nargs arguments.  Any %p (pointer
 * extensions are rendered by the kernel at record time; the slots would
 * store a char pointer's target as a string) or a conversion the kernel
 * refuses (%n, %j, a bare '%' at the end) selects vbin_printf() instead.
 *
 * Return: 1 for slots, 0 for the vbin_printf() path.
 */
static inline int edp_fmt_slots_ok(const char *fmt, unsigned int nargs,
				   u32 strmask, u32 widemask, u16 *sprec)
{
	unsigned int i = 0, p;
	char q;

	if (sprec)
		for (p = 0; p < EDP_MAX_ARGS; p++)
			sprec[p] = 0;
	while (*fmt) {
		struct edp_spec sp;
		u16 prec = 0;

		if (*fmt++ != '%')
			continue;
		fmt = edp_fmt_spec(fmt, &sp);
		q = sp.qual;
		if (sp.wstar && !edp_fmt_num_ok(i++, nargs, strmask, widemask, 0))
			return 0;
		if (sp.pstar) {
			if (!edp_fmt_num_ok(i++, nargs, strmask, widemask, 0))
				return 0;
			prec = EDP_SPREC_STAR;
		} else if (sp.prec >= 0) {
			prec = 1 + (sp.prec > EDP_STR_MAX + 1 ? EDP_STR_MAX + 1 : sp.prec);
		}
		switch (*fmt++) {
		case '%':
			break;
		case 'c':
			if (!edp_fmt_num_ok(i++, nargs, strmask, widemask, 0))
				return 0;
			break;
		case 's':
			if (i >= nargs || i >= EDP_MAX_ARGS || !((strmask >> i) & 1))
				return 0;
			if (sprec)
				sprec[i] = prec;
			i++;
			break;
		case 'd': case 'i': case 'u': case 'o': case 'x': case 'X':
			if (!edp_fmt_num_ok(i++, nargs, strmask, widemask,
					    q == 'l' || q == 'L' || q == 'z' || q == 't'))
				return 0;
			break;
		default:	/* 'p', or what vsnprintf() refuses */
			return 0;
		}
	}
	return i == nargs;
}

#endif /* _LINUX_EDPRINT_FMT_H */
