/* SPDX-License-Identifier: GPL-2.0 */
/*
 * edprint_fmt.h - the one walker over logdev's printf grammar, as the
 * kernel's vsnprintf() reads a format (lib/vsprintf.c, format_decode()):
 * literal text, then per conversion flags "-+ #0", a width (digits or '*'),
 * a precision ('.' then digits or '*'), a length (h hh l ll L z t) and the
 * conversion, with what argument it takes.  edp_fmt_next() yields one piece
 * at a time, as format_decode() serves vbin_printf() and bstr_printf();
 * every reader of a format calls it: edprint()'s choice of encoding
 * (edp_fmt_slots_ok() below), the recording path's vbin packer
 * (kernel/logdev_vbin.c), the crash dump (kernel/logdev_dumpmsg.c) and
 * the userspace renderer (userspace/lib/bprintf.c).
 *
 * Portable (kernel module, userspace library, tests/decode): the includer
 * provides u16, u32.  edprint() calls edp_fmt_slots_ok() once per call
 * site, the first time the site records (logdev_site_enc()), and keeps the
 * answer in the site.
 */
#ifndef _LINUX_EDPRINT_FMT_H
#define _LINUX_EDPRINT_FMT_H

#include <linux/edprint_slots.h>	/* EDP_STR_MAX, EDP_MAX_ARGS */

#ifdef __KERNEL__
#include <linux/ctype.h>
#define edp_isalnum(c)	isalnum(c)	/* what the kernel's pointer() skips */
#else
/* the C locale's isalnum(), which the userspace tools run in */
#define edp_isalnum(c)	(((c) >= '0' && (c) <= '9') || ((c) >= 'a' && (c) <= 'z') || \
			 ((c) >= 'A' && (c) <= 'Z'))
#endif

/* Precision digits saturate here, as vsnprintf() clamps a precision
 * (lib/vsprintf.c, set_precision()); no string edprint stores is longer. */
#define EDP_PREC_MAX	32767
/* width digits saturate here: the kernel's FIELD_WIDTH_MAX */
#define EDP_WIDTH_MAX	((1 << 23) - 1)

/* struct edp_spec's flags, as lib/vsprintf.c's LEFT PLUS SPACE SPECIAL ZEROPAD */
#define EDP_F_LEFT	1	/* '-' */
#define EDP_F_PLUS	2	/* '+' */
#define EDP_F_SPACE	4	/* ' ' */
#define EDP_F_SPECIAL	8	/* '#' */
#define EDP_F_ZEROPAD	16	/* '0' */

/**
 * struct edp_spec - one conversion's flags, width, precision and length
 * @flags: EDP_F_* of the flags read
 * @width: the width's digits (at most EDP_WIDTH_MAX), -1 if none or '*'
 * @wstar: the width is '*': an int argument comes first
 * @pstar: the precision is '*': an int argument comes next (after @wstar's)
 * @prec:  the precision's digits (at most EDP_PREC_MAX), -1 if none (also a
 *         '.' with no digit: the kernel's format_decode(), not C's 0) or '*'
 * @qual:  the length: 0, 'h', 'H' (hh), 'l', 'L' (ll or L), 'z' or 't'
 */
struct edp_spec {
	int flags;
	int width;
	int wstar;
	int pstar;
	int prec;
	char qual;
};

/* decimal digits at *@fmt, saturating at @max */
static inline int edp_fmt_digits(const char **fmt, int max)
{
	int v = 0;

	for (; **fmt >= '0' && **fmt <= '9'; (*fmt)++)
		if (v < max)
			v = v * 10 + (**fmt - '0');
	return v > max ? max : v;
}

/**
 * edp_fmt_spec() - read a conversion up to its conversion character
 * @fmt: the format just after a '%'
 * @sp:  filled in
 *
 * Reads as the kernel's vsnprintf() does (lib/vsprintf.c, format_decode()):
 * flags "-+ #0", a width (digits or '*'), a precision ('.' then digits or
 * '*'), a length.  The head of every conversion edp_fmt_next() yields.
 *
 * Return: where the conversion character is (not consumed; '\0' at the
 * end of a format cut after the '%').
 */
static inline const char *edp_fmt_spec(const char *fmt, struct edp_spec *sp)
{
	sp->flags = 0;
	sp->width = -1;
	sp->wstar = 0;
	sp->pstar = 0;
	sp->prec = -1;
	sp->qual = 0;
	/* the common case, a bare conversion ("%d", "%s"): no flag, width,
	 * precision or length can start with a lowercase letter but h l z t */
	if (*fmt >= 'a' && *fmt != 'h' && *fmt != 'l' && *fmt != 'z' && *fmt != 't')
		return fmt;
	for (;; fmt++) {
		if (*fmt == '-')
			sp->flags |= EDP_F_LEFT;
		else if (*fmt == '+')
			sp->flags |= EDP_F_PLUS;
		else if (*fmt == ' ')
			sp->flags |= EDP_F_SPACE;
		else if (*fmt == '#')
			sp->flags |= EDP_F_SPECIAL;
		else if (*fmt == '0')
			sp->flags |= EDP_F_ZEROPAD;
		else
			break;
	}
	if (*fmt == '*') {
		sp->wstar = 1;
		fmt++;
	} else if (*fmt >= '0' && *fmt <= '9') {
		sp->width = edp_fmt_digits(&fmt, EDP_WIDTH_MAX);
	}
	if (*fmt == '.') {
		fmt++;
		if (*fmt == '*') {
			sp->pstar = 1;
			fmt++;
		} else if (*fmt >= '0' && *fmt <= '9') {
			sp->prec = edp_fmt_digits(&fmt, EDP_PREC_MAX);
		}
		/* a '.' with neither: no precision, as format_decode() (not C's 0) */
	}
	if (*fmt == 'h' || *fmt == 'l' || *fmt == 'L' || *fmt == 'z' ||
	    *fmt == 't') {
		sp->qual = *fmt++;
		if (sp->qual == *fmt && (sp->qual == 'l' || sp->qual == 'h'))
			sp->qual = *fmt++ == 'l' ? 'L' : 'H';
	}
	return fmt;
}

/* what a piece of a format is, and the argument a conversion takes */
enum edp_kind {
	EDP_END,	/* the end of the format: no piece */
	EDP_TEXT,	/* literal text, printed as it is */
	EDP_PCT,	/* a '%' conversion ("%%"): prints '%', no argument */
	EDP_INT,	/* %c %d %i %u %o %x %X: an integer of @size bytes */
	EDP_STR,	/* %s: a string */
	EDP_PTR,	/* %p, %pS %ps %px %pK %pe: a pointer kept, 8 bytes */
	EDP_PTR_TEXT,	/* %p with another extension (%pI4...): its text,
			 * made when recording (vbin_printf() does the same) */
	EDP_BAD,	/* what vsnprintf() refuses (%n, %j, a bare '%' at the
			 * end...): every walker stops here */
};

/**
 * struct edp_piece - one piece of a format (edp_fmt_next())
 * @kind:  enum edp_kind
 * @start: its first byte: the text's, or the conversion's '%'
 * @end:   one past its last byte (a %p's extension included)
 * @cv:    a conversion's conversion character (@end for EDP_TEXT)
 * @sp:    a conversion's head (also EDP_PCT's and EDP_BAD's): its '*'
 *         arguments, ints, come first (@sp.wstar, then @sp.pstar), before
 *         the argument of @kind
 * @conv:  the conversion character ('\0' for a format cut after the '%')
 * @ext:   EDP_PTR, EDP_PTR_TEXT: the character after the 'p'
 * @size:  EDP_INT: bytes of the integer in a LOGDEV_REC_PRINT payload, what
 *         vbin_printf() stored up to Linux 6.x (%c and %hh 1, %h 2, l ll L
 *         z t 8, else 4: docs/FORMAT.md); EDP_PTR: 8
 */
struct edp_piece {
	enum edp_kind kind;
	const char *start;
	const char *end;
	const char *cv;
	struct edp_spec sp;
	char conv;
	char ext;
	int size;
};

/* an integer of length @q of conversion @c in a LOGDEV_REC_PRINT payload */
static inline int edp_fmt_int_size(char q, char c)
{
	if (c == 'c' || q == 'H')
		return 1;
	if (q == 'h')
		return 2;
	if (q == 'l' || q == 'L' || q == 'z' || q == 't')
		return 8;
	return 4;
}

/**
 * edp_fmt_next() - the next piece of a format
 * @fmt: where the walk is; moved past the piece
 * @pc:  filled in
 *
 * Literal text is one piece up to the next '%'; a conversion is one piece
 * from its '%' to its conversion character, or to the end of a %p's
 * extension (the alphanumeric characters after the 'p', which the
 * kernel's pointer() consumes).  After EDP_BAD the walk is at the end of
 * the format: vsnprintf() and bstr_printf() stop there, and so does every
 * walker.
 *
 * Return: @pc->kind; EDP_END (0) at the end of the format.
 */
static inline __attribute__((__always_inline__)) enum edp_kind
edp_fmt_next(const char **fmt, struct edp_piece *pc)
{
	const char *f = *fmt;

	pc->start = f;
	pc->size = 0;
	pc->ext = 0;
	if (*f != '%') {
		while (*f && *f != '%')
			f++;
		pc->kind = f == pc->start ? EDP_END : EDP_TEXT;
		pc->cv = pc->end = *fmt = f;
		return pc->kind;
	}
	f = edp_fmt_spec(f + 1, &pc->sp);
	pc->cv = f;
	pc->conv = *f;
	switch (*f) {
	case '%':
		pc->kind = EDP_PCT;
		f++;
		break;
	case 'c': case 'd': case 'i': case 'u': case 'o': case 'x': case 'X':
		pc->kind = EDP_INT;
		pc->size = edp_fmt_int_size(pc->sp.qual, *f++);
		break;
	case 's':
		pc->kind = EDP_STR;
		f++;
		break;
	case 'p':
		pc->ext = *++f;
		pc->kind = !edp_isalnum(pc->ext) || pc->ext == 'S' || pc->ext == 's' ||
			   pc->ext == 'x' || pc->ext == 'K' || pc->ext == 'e' ?
			   EDP_PTR : EDP_PTR_TEXT;
		pc->size = pc->kind == EDP_PTR ? 8 : 0;
		while (edp_isalnum(*f))
			f++;
		break;
	default:
		pc->kind = EDP_BAD;
		while (*f)
			f++;
	}
	pc->end = *fmt = f;
	return pc->kind;
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
	struct edp_piece pc;
	unsigned int i = 0, p;
	enum edp_kind k;

	if (sprec)
		for (p = 0; p < EDP_MAX_ARGS; p++)
			sprec[p] = 0;
	while ((k = edp_fmt_next(&fmt, &pc)) != EDP_END) {
		u16 prec = 0;

		if (k == EDP_TEXT)
			continue;
		if (pc.sp.wstar && !edp_fmt_num_ok(i++, nargs, strmask, widemask, 0))
			return 0;
		if (pc.sp.pstar) {
			if (!edp_fmt_num_ok(i++, nargs, strmask, widemask, 0))
				return 0;
			prec = EDP_SPREC_STAR;
		} else if (pc.sp.prec >= 0) {
			prec = 1 + (pc.sp.prec > EDP_STR_MAX + 1 ? EDP_STR_MAX + 1 : pc.sp.prec);
		}
		switch (k) {
		case EDP_PCT:
			break;
		case EDP_INT:	/* %c: 4 bytes; an integer: 8 with l ll L z t */
			if (!edp_fmt_num_ok(i++, nargs, strmask, widemask,
					    pc.conv != 'c' && pc.size == 8))
				return 0;
			break;
		case EDP_STR:
			if (i >= nargs || i >= EDP_MAX_ARGS || !((strmask >> i) & 1))
				return 0;
			if (sprec)
				sprec[i] = prec;
			i++;
			break;
		default:	/* %p, or what vsnprintf() refuses */
			return 0;
		}
	}
	return i == nargs;
}

#endif /* _LINUX_EDPRINT_FMT_H */
