// SPDX-License-Identifier: GPL-2.0
/*
 * bprintf.c: render a format with a vbin_printf() argument buffer, the way
 * the kernel's bstr_printf() (lib/vsprintf.c, Linux 6.1) does, for a 64-bit
 * little-endian kernel (long, size_t, ptrdiff_t and pointers are 8 bytes).
 *
 * Argument buffer layout (what vbin_printf() stores), offsets relative to
 * the start of the payload:
 *   - 8-byte values (long long, long, size_t, ptrdiff_t, pointers kept as
 *     pointers) are aligned to 4 bytes;
 *   - 1-, 2- and 4-byte values (char, short, int, '*' width/precision) are
 *     aligned to their size;
 *   - %s, and %p with an alphanumeric extension other than S s x K e, are
 *     NUL-terminated text (the pointer was formatted at record time); the
 *     next argument just gets its own alignment.
 * LOGDEV_REC_PRINT_SLOTS (lgd_bprintf_slots(), edprint()'s compile-time
 * encoding): the same, except that 1- and 2-byte values take 4 bytes at
 * 4-byte alignment and strings are padded with NULs to a multiple of 4.
 *
 * Kernel behaviour reproduced (differs from C99 printf):
 *   - %.0d of 0 prints "0"; %#x of 0 prints "0x0";
 *   - the 0 flag still pads with zeros when a precision is given;
 *   - a negative '*' precision is 0;
 *   - %j, %n, %L with a non-integer, or any unknown conversion ends the
 *     output there (bstr_printf stops at FORMAT_TYPE_INVALID);
 *   - %pS: "func+0xoff/0xsize [mod]", %ps: "func [mod]" from the symbols
 *     valid when the record was taken (lgd_ksyms_lookup_at(): the kallsyms
 *     snapshot and the module log); with no symbol table "0x" and 16 hex
 *     digits (the kernel without CONFIG_KALLSYMS), an address the kernel
 *     names no symbol for (NULL, per-CPU offsets, heap, unloaded module)
 *     "0x%lx";
 *   - %pe of an error pointer: "-ENOMEM" etc. (decimal if unknown).
 *   - widths are clamped to 8388607 and precisions to 32767 (the kernel's
 *     FIELD_WIDTH_MAX and PRECISION_MAX, which it applies to '*' arguments;
 *     we clamp digits in the format too, where the kernel truncates them
 *     to its bit fields); padding stops being written once the output
 *     buffer is full (only counted), so huge widths cost no time.
 * Records whose arguments the kernel cut (LOGDEV_REC_F_CUT, lgd_bprintf_rec()
 * with LGD_BP_CUT): "[cut]" follows the cut argument's text, or stands where
 * the first argument not stored would be (vbin_printf() records end there).
 * A payload that ends before an argument the format needs, in any other
 * record (slots, or not flagged cut: damaged), prints "[missing]" there and
 * ends the output (never bytes from past the payload).
 * A %p extension in a slots payload (old captures) prints
 * "[unrenderable %SPEC]" and ends the output.  %c of 0 puts a NUL byte in
 * the output and goes on, as vsnprintf() does.
 * Plain %p (and %pK, and %pe of a non-error pointer): the kernel stores
 * what its own "%p" prints (the 32-bit siphash of its boot key, NULL and
 * error pointers as they are, the raw value only under no_hash_pointers:
 * include/uapi/linux/logdev.h), so printing the stored value as %px does
 * (16 zero-padded lowercase hex digits) gives the kernel's text;
 * LOGDEV_PTR_NOKEY prints "(____ptrval____)" as the kernel did then.
 * Captures made before logdev hashed (tools before 2026-12) hold the raw
 * value there, printed the same way.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "liblogdev.h"

#include "fmtwalk.h"	/* the one walker over the printf grammar */

/* output accumulator with snprintf semantics */
struct out {
	char *buf;
	size_t size;
	size_t len;
};

static void put(struct out *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

/* @n bytes of @s: copied while they fit (one memcpy), then counted */
static inline void puts_n(struct out *o, const char *s, size_t n)
{
	if (n <= 16 && o->len + n < o->size) {	/* nearly always */
		lgd_copy_small(o->buf + o->len, s, n);
	} else if (o->len + n < o->size) {	/* the whole run fits */
		memcpy(o->buf + o->len, s, n);
	} else if (o->len + 1 < o->size) {
		memcpy(o->buf + o->len, s, o->size - 1 - o->len);
	}
	o->len += n;
}

/* @n copies of @c (none if n <= 0): written while they fit, then counted */
static void pad(struct out *o, char c, long n)
{
	if (n <= 0)
		return;
	while (n > 0 && o->len + 1 < o->size) {
		o->buf[o->len++] = c;
		n--;
	}
	o->len += (size_t)n;
}

#define WIDTH_MAX	EDP_WIDTH_MAX	/* the kernel's FIELD_WIDTH_MAX */
#define PREC_MAX	EDP_PREC_MAX	/* the kernel's PRECISION_MAX */

/* argument reader over the binary buffer, bounds-checked */
struct args {
	const uint8_t *p;
	size_t n;
	size_t off;
	int slots;	/* LOGDEV_REC_PRINT_SLOTS: 1- and 2-byte values take 4 */
	int cut;	/* LOGDEV_REC_F_CUT: the record's arguments were cut */
};

/* what a cut argument is followed by (docs/FORMAT.md) */
#define CUT_MARK	"[cut]"
/* where an argument is missing from a payload not flagged cut */
#define MISSING_MARK	"[missing]"
/* longest %s a slots record stores (include/linux/edprint_slots.h) */
#define SLOTS_STR_MAX	255

/*
 * Is the next argument, of @size bytes (0: a string), missing: does the
 * payload end before it (before its last byte)?  A cut vbin_printf() record
 * (LOGDEV_REC_F_CUT, not slots) ends where its stored arguments end ("[cut]");
 * in any other record the argument should be there ("[missing]").
 */
static int arg_missing(const struct args *a, unsigned size)
{
	unsigned align;
	size_t off;

	if (a->slots && size && size < 4)
		size = 4;	/* slots: 1- and 2-byte values take 4 */
	align = size >= 4 ? 4 : size ? size : 1;
	off = (a->off + align - 1) & ~(size_t)(align - 1);
	return size ? off + size > a->n : off >= a->n;
}

/*
 * Was the string of @len bytes that ended at the current offset cut?  In a
 * vbin_printf() record the kernel cuts a string so that its NUL is the last
 * byte of a full LOGDEV_MAX_PAYLOAD payload (a stored one never ends there);
 * in a slots record it keeps SLOTS_STR_MAX characters.
 */
static int str_was_cut(const struct args *a, size_t len)
{
	if (!a->cut)
		return 0;
	if (a->slots)
		return len == SLOTS_STR_MAX;
	return a->n == LOGDEV_MAX_PAYLOAD && a->off >= a->n;
}

static uint64_t get_arg(struct args *a, unsigned size)
{
	unsigned want = size, align;
	uint64_t v = 0;

	if (a->slots && size < 4)
		size = 4;
	align = size == 8 ? 4 : size;

	a->off = (a->off + align - 1) & ~(size_t)(align - 1);
	if (a->off + 8 <= a->n) {	/* 8 bytes readable: one load, little-endian */
		uint64_t le;

		memcpy(&le, a->p + a->off, 8);
		v = le64toh(le);
		a->off += size;
		return size == 8 ? v : v & ((1ULL << (8 * want)) - 1);
	}
	for (unsigned i = 0; i < size; i++)
		if (a->off + i < a->n)
			v |= (uint64_t)a->p[a->off + i] << (8 * i);
	a->off += size;
	if (want < size)
		v &= (1ULL << (8 * want)) - 1;
	return v;
}

/* NUL-terminated text at the current offset; *len excludes the NUL */
static const char *get_str(struct args *a, size_t *len)
{
	const char *s;
	const uint8_t *nul;

	if (a->off >= a->n) {
		*len = 0;
		a->off++;
		return "";
	}
	s = (const char *)a->p + a->off;
	nul = memchr(s, 0, a->n - a->off);
	*len = nul ? (size_t)((const char *)nul - s) : a->n - a->off;
	a->off += *len + 1;
	if (a->slots)	/* slots: strings are padded to 4 bytes */
		a->off = (a->off + 3) & ~(size_t)3;
	return s;
}

enum {
	F_LEFT = EDP_F_LEFT, F_PLUS = EDP_F_PLUS, F_SPACE = EDP_F_SPACE,
	F_SPECIAL = EDP_F_SPECIAL, F_ZEROPAD = EDP_F_ZEROPAD, F_SMALL = 32, F_SIGN = 64,
};

struct spec {
	int flags;
	int width;	/* -1: none */
	int prec;	/* -1: none */
	int base;
};

/* the kernel's number(): see file comment for where it differs from C */
static void number(struct out *o, uint64_t num, struct spec sp)
{
	char tmp[66];
	const char *digits = (sp.flags & F_SMALL) ? "0123456789abcdef" :
						    "0123456789ABCDEF";
	char sign = 0;
	int pfx = (sp.flags & F_SPECIAL) && sp.base != 10;
	int zero = num == 0;
	int width = sp.width, prec = sp.prec, i = 0;

	if (sp.base == 10 && sp.width < 0 && sp.prec < 0 &&
	    !(sp.flags & (F_LEFT | F_PLUS | F_SPACE | F_SPECIAL | F_ZEROPAD)) &&
	    o->len + LGD_U64_DEC_MAX + 1 < o->size) {
		/* a plain %d %u %ld...: digits (and a minus) straight into the output */
		if ((sp.flags & F_SIGN) && (int64_t)num < 0) {
			o->buf[o->len++] = '-';
			num = 0 - num;
		}
		o->len += lgd_fmt_u64(o->buf + o->len, num);
		return;
	}
	if (sp.flags & F_LEFT)
		sp.flags &= ~F_ZEROPAD;
	if (sp.flags & F_SIGN) {
		if ((int64_t)num < 0) {
			sign = '-';
			num = 0 - num;
			width--;
		} else if (sp.flags & F_PLUS) {
			sign = '+';
			width--;
		} else if (sp.flags & F_SPACE) {
			sign = ' ';
			width--;
		}
	}
	if (pfx) {
		if (sp.base == 16)
			width -= 2;
		else if (!zero)
			width--;
	}
	/* constant divisors: the compiler turns them into multiplications */
	switch (sp.base) {
	case 10:
		do {
			tmp[i++] = (char)('0' + num % 10);
			num /= 10;
		} while (num);
		break;
	case 16:
		do {
			tmp[i++] = digits[num & 15];
			num >>= 4;
		} while (num);
		break;
	default:	/* 8 */
		do {
			tmp[i++] = (char)('0' + (num & 7));
			num >>= 3;
		} while (num);
	}
	if (!sign && !pfx && width <= i && prec <= i) {
		/* no sign, prefix or padding (a plain %d %u %x): the digits only */
		char *d = tmp + sizeof(tmp) - i;

		for (int k = 0; k < i; k++)
			d[k] = tmp[i - 1 - k];
		puts_n(o, d, (size_t)i);
		return;
	}
	if (i > prec)
		prec = i;
	width -= prec;
	if (!(sp.flags & (F_ZEROPAD | F_LEFT))) {
		pad(o, ' ', width);
		width = 0;
	}
	if (sign)
		put(o, sign);
	if (pfx) {
		if (sp.base == 16 || !zero)
			put(o, '0');
		if (sp.base == 16)
			put(o, (sp.flags & F_SMALL) ? 'x' : 'X');
	}
	if (!(sp.flags & F_LEFT)) {
		pad(o, (sp.flags & F_ZEROPAD) ? '0' : ' ', width);
		width = 0;
	}
	pad(o, '0', prec - i);
	while (--i >= 0)
		put(o, tmp[i]);
	pad(o, ' ', width);
}

/* string with precision (max chars) and width, as the kernel's string() */
static void string(struct out *o, const char *s, size_t n, struct spec sp)
{
	size_t len = n;
	long npad;

	if (sp.prec >= 0 && (size_t)sp.prec < len)
		len = (size_t)sp.prec;
	npad = (size_t)sp.width > len && sp.width > 0 ? sp.width - (long)len : 0;
	if (!(sp.flags & F_LEFT)) {
		pad(o, ' ', npad);
		npad = 0;
	}
	puts_n(o, s, len);
	pad(o, ' ', npad);
}

/* pointer_string(): hex, default width 16 zero-padded */
static void ptr_hex(struct out *o, uint64_t v, struct spec sp)
{
	sp.base = 16;
	sp.flags |= F_SMALL;
	if (sp.width == -1) {
		sp.width = 16;
		sp.flags |= F_ZEROPAD;
	}
	number(o, v, sp);
}

static const struct { int e; const char *n; } kerr[] = {
	{ 512, "ERESTARTSYS" }, { 513, "ERESTARTNOINTR" },
	{ 514, "ERESTARTNOHAND" }, { 515, "ENOIOCTLCMD" },
	{ 516, "ERESTART_RESTARTBLOCK" }, { 517, "EPROBE_DEFER" },
	{ 518, "EOPENSTALE" }, { 519, "ENOPARAM" }, { 521, "EBADHANDLE" },
	{ 522, "ENOTSYNC" }, { 523, "EBADCOOKIE" }, { 524, "ENOTSUPP" },
	{ 525, "ETOOSMALL" }, { 526, "ESERVERFAULT" }, { 527, "EBADTYPE" },
	{ 528, "EJUKEBOX" }, { 529, "EIOCBQUEUED" }, { 530, "ERECALLCONFLICT" },
};

static const char *errname(int e)
{
	for (size_t i = 0; i < sizeof(kerr) / sizeof(kerr[0]); i++)
		if (kerr[i].e == e)
			return kerr[i].n;
	if (e > 0 && e < 512) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 32)
		return strerrorname_np(e);
#endif
	}
	return NULL;
}

static void symbol(struct out *o, uint64_t v, char kind,
		   const struct lgd_ksyms *ks, uint64_t ts, struct spec sp)
{
	/* NAME+0xOFF/0xSIZE [MOD], as the kernel's KSYM_SYMBOL_LEN */
	char b[LGD_KSYM_NAME_LEN + LGD_KMOD_NAME_LEN + 48];
	const struct lgd_ksym *s;
	uint64_t off, size;

	if (!ks || (!ks->nr && !ks->nr_mods)) {
		snprintf(b, sizeof(b), "0x%016llx", (unsigned long long)v);
	} else if (!(s = lgd_ksyms_lookup_at(ks, v, ts, &off, &size))) {
		snprintf(b, sizeof(b), "0x%llx", (unsigned long long)v);
	} else if (kind == 's') {
		snprintf(b, sizeof(b), "%s%s%s%s", s->name, s->mod ? " [" : "",
			 s->mod ? s->mod : "", s->mod ? "]" : "");
	} else {
		snprintf(b, sizeof(b), "%s+0x%llx/0x%llx%s%s%s", s->name,
			 (unsigned long long)off, (unsigned long long)size,
			 s->mod ? " [" : "", s->mod ? s->mod : "", s->mod ? "]" : "");
	}
	string(o, b, strlen(b), sp);
}

static int is_err_ptr(uint64_t v)
{
	return v >= (uint64_t)-4095;
}

/* a pointer kept as a pointer: %p %pS %ps %px %pK %pe */
static void pointer(struct out *o, char ext, uint64_t v,
		    const struct lgd_ksyms *ks, uint64_t ts, struct spec sp)
{
	switch (ext) {
	case 'S':
	case 's':
		symbol(o, v, ext, ks, ts, sp);
		return;
	case 'e':
		if (is_err_ptr(v)) {
			int e = -(int)(int64_t)v;
			const char *n = errname(e);

			if (n) {
				char b[40];

				snprintf(b, sizeof(b), "-%s", n);
				string(o, b, strlen(b), sp);
			} else {
				sp.flags |= F_SIGN;
				sp.base = 10;
				number(o, (uint64_t)(int64_t)-e, sp);
			}
			return;
		}
		break;
	default:
		break;
	}
	/* 'x': raw value; 'K', plain %p: the kernel's hash (file comment) */
	if (ext != 'x' && v == LOGDEV_PTR_NOKEY) {
		const char *t = "(____ptrval____)";

		sp.width = 16;	/* lib/vsprintf.c ptr_to_id() */
		string(o, t, strlen(t), sp);
		return;
	}
	ptr_hex(o, v, sp);
}

/* the value of conversion number @sk->nr (lgd_bprintf_args()) */
static void sink_num(struct lgd_bp_args *sk, int kind, uint64_t v)
{
	if (sk && sk->nr < LGD_BP_MAX_ARGS) {
		sk->kind[sk->nr] = kind;
		sk->num[sk->nr] = v;
		sk->str[sk->nr] = NULL;
		sk->len[sk->nr] = 0;
	}
	if (sk)
		sk->nr++;
}

static void sink_str(struct lgd_bp_args *sk, const char *s, size_t n)
{
	if (sk && sk->nr < LGD_BP_MAX_ARGS) {
		sk->kind[sk->nr] = LGD_ARG_STR;
		sk->num[sk->nr] = 0;
		sk->str[sk->nr] = s;
		sk->len[sk->nr] = n;
	}
	if (sk)
		sk->nr++;
}

/* what a conversion's renderer asks of the walk */
enum { R_NEXT, R_CUT, R_OUT };

/* a conversion's '*' width and precision arguments, before its own */
static int render_stars(struct args *a, const struct edp_piece *pc, struct spec *sp)
{
	if (pc->sp.wstar) {
		int32_t w;

		if (arg_missing(a, 4))
			return R_CUT;
		w = (int32_t)get_arg(a, 4);
		if (w < 0) {
			sp->flags |= F_LEFT;
			sp->width = w < -WIDTH_MAX ? WIDTH_MAX : -w;
		} else {
			sp->width = w > WIDTH_MAX ? WIDTH_MAX : w;
		}
	}
	if (pc->sp.pstar) {
		int32_t p;

		if (arg_missing(a, 4))
			return R_CUT;
		p = (int32_t)get_arg(a, 4);
		sp->prec = p < 0 ? 0 : p > PREC_MAX ? PREC_MAX : p;
	}
	return R_NEXT;
}

/* %c %d %i %u %o %x %X: an integer of pc->size bytes */
static int render_int(struct out *o, struct args *a, const struct edp_piece *pc,
		      struct spec sp, struct lgd_bp_args *sk)
{
	uint64_t num;

	if (arg_missing(a, (unsigned)pc->size))
		return R_CUT;
	num = get_arg(a, (unsigned)pc->size);
	if (pc->conv == 'c') {
		sink_num(sk, LGD_ARG_U64, (uint8_t)num);
		if (!(sp.flags & F_LEFT)) {
			pad(o, ' ', (long)sp.width - 1);
			sp.width = 0;
		}
		put(o, (char)num);
		pad(o, ' ', (long)sp.width - 1);
		return R_NEXT;
	}
	if (pc->conv == 'o')
		sp.base = 8;
	else if (pc->conv == 'x' || pc->conv == 'X')
		sp.base = 16;
	if (pc->conv == 'x')
		sp.flags |= F_SMALL;
	if (pc->conv == 'd' || pc->conv == 'i') {
		sp.flags |= F_SIGN;
		if (pc->size == 1)
			num = (uint64_t)(int64_t)(int8_t)num;
		else if (pc->size == 2)
			num = (uint64_t)(int64_t)(int16_t)num;
		else if (pc->size == 4)
			num = (uint64_t)(int64_t)(int32_t)num;
	}
	sink_num(sk, sp.flags & F_SIGN ? LGD_ARG_S64 : LGD_ARG_U64, num);
	number(o, num, sp);
	return R_NEXT;
}

/* %s, and a %p extension's text (no width: as bstr_printf) */
static int render_text(struct out *o, struct args *a, const struct edp_piece *pc,
		       struct spec sp, struct lgd_bp_args *sk)
{
	const char *s;
	size_t n;

	if (pc->kind == EDP_PTR_TEXT && a->slots) {
		/*
		 * An extension the kernel renders at record time (%pI4,
		 * %20pM...): a slots record (made before edprint() sent these
		 * to vbin_printf()) holds a pointer or the bytes it points at,
		 * not the text, and where the next argument starts is unknown.
		 */
		puts_n(o, "[unrenderable %", 15);
		puts_n(o, pc->start + 1, (size_t)(pc->end - pc->start - 1));
		put(o, ']');
		return R_OUT;
	}
	if (arg_missing(a, 0))
		return R_CUT;
	s = get_str(a, &n);
	sink_str(sk, s, n);
	if (pc->kind == EDP_STR)
		string(o, s, n, sp);
	else
		puts_n(o, s, n);
	if (str_was_cut(a, n)) {
		puts_n(o, CUT_MARK, strlen(CUT_MARK));
		if (!a->slots || pc->kind != EDP_STR)
			return R_OUT;	/* nothing was stored after it */
	}
	return R_NEXT;
}

/* one conversion of the format (pc->kind not EDP_TEXT) */
static __attribute__((noinline)) int
render_conv(struct out *o, struct args *a, const struct edp_piece *pc,
	    const struct lgd_ksyms *ks, uint64_t ts, struct lgd_bp_args *sk)
{
	struct spec sp = { pc->sp.flags, pc->sp.width, pc->sp.prec, 10 };
	uint64_t pv;
	int r = render_stars(a, pc, &sp);

	if (r != R_NEXT)
		return r;
	switch (pc->kind) {
	case EDP_PCT:
		put(o, '%');
		return R_NEXT;
	case EDP_INT:
		return render_int(o, a, pc, sp, sk);
	case EDP_STR:
	case EDP_PTR_TEXT:
		return render_text(o, a, pc, sp, sk);
	case EDP_PTR:
		if (arg_missing(a, 8))
			return R_CUT;
		pv = get_arg(a, 8);
		sink_num(sk, LGD_ARG_U64, pv);
		pointer(o, pc->ext, pv, ks, ts, sp);
		return R_NEXT;
	default:
		return R_OUT;	/* invalid conversion: the kernel stops */
	}
}

/*
 * A plain integer (enum lgd_fp_op LGD_FP_S32..LGD_FP_U64) that the payload
 * holds, straight into the output: nearly every conversion of every
 * record.  Return: 0 when the payload or the output is short of it
 * (render_conv() does it then, with its marks).
 */
static inline __attribute__((always_inline)) int render_plain_int(struct out *o, struct args *a,
								  int op)
{
	size_t off = (a->off + 3) & ~(size_t)3, size = op >= LGD_FP_S64 ? 8 : 4;
	uint64_t v;

	if (off + size > a->n || o->len + LGD_U64_DEC_MAX + 1 >= o->size)
		return 0;
	if (size == 4) {
		uint32_t w;

		memcpy(&w, a->p + off, 4);
		w = le32toh(w);
		v = op == LGD_FP_U32 ? w : (uint64_t)(int64_t)(int32_t)w;
	} else {
		memcpy(&v, a->p + off, 8);
		v = le64toh(v);
	}
	a->off = off + size;
	if ((op == LGD_FP_S32 || op == LGD_FP_S64) && (int64_t)v < 0) {
		o->buf[o->len++] = '-';
		v = 0 - v;
	}
	o->len += lgd_fmt_u64(o->buf + o->len, v);
	return 1;
}

/* piece @fp of a struct lgd_fmtprog; Return: R_NEXT, or R_CUT / R_OUT to stop */
static inline __attribute__((always_inline)) int
render_piece(struct out *o, struct args *a, const struct lgd_fpiece *fp,
	     const struct lgd_ksyms *ks, uint64_t ts)
{
	if (fp->op == LGD_FP_TEXT) {
		puts_n(o, fp->pc.start, (size_t)(fp->pc.end - fp->pc.start));
		return R_NEXT;
	}
	if (fp->op != LGD_FP_CONV && render_plain_int(o, a, fp->op))
		return R_NEXT;
	return render_conv(o, a, &fp->pc, ks, ts, NULL);
}

/* @fmt, or its pieces @prog when not NULL (a call site's: lgd_fmt_compile()) */
static int render(char *buf, size_t size, const char *fmt, const struct lgd_fmtprog *prog,
		  const void *argbuf, size_t nargs, const struct lgd_ksyms *ks, uint64_t ts,
		  unsigned int flags, unsigned int *status, struct lgd_bp_args *sk)
{
	struct out o = { buf, size, 0 };
	struct args a = { argbuf, nargs, 0, !!(flags & LGD_BP_SLOTS), !!(flags & LGD_BP_CUT) };
	struct edp_piece pc;
	enum edp_kind k;
	int r = R_NEXT;

	if (prog && !sk) {
		for (uint32_t i = 0; r == R_NEXT && i < prog->n; i++)
			r = render_piece(&o, &a, &prog->fp[i], ks, ts);
	} else {
		while (r == R_NEXT && (k = edp_fmt_next(&fmt, &pc)) != EDP_END)
			r = k == EDP_TEXT ? (puts_n(&o, pc.start, (size_t)(pc.end - pc.start)), R_NEXT)
					  : render_conv(&o, &a, &pc, ks, ts, sk);
	}
	if (r == R_CUT) {	/* this argument and all after it are not in the payload */
		if (a.cut && !a.slots) {	/* the kernel cut them */
			puts_n(&o, CUT_MARK, strlen(CUT_MARK));
		} else {			/* a short payload: damaged */
			puts_n(&o, MISSING_MARK, strlen(MISSING_MARK));
			if (status)
				*status |= LGD_BP_ST_MISSING;
		}
	}
	if (size)
		buf[o.len < size ? o.len : size - 1] = 0;
	return o.len > 0x7fffffff ? 0x7fffffff : (int)o.len;
}

int lgd_bprintf(char *buf, size_t size, const char *fmt, const void *argbuf,
	       size_t nargs, const struct lgd_ksyms *ks)
{
	return render(buf, size, fmt, NULL, argbuf, nargs, ks, LGD_TS_END, 0, NULL, NULL);
}

int lgd_bprintf_slots(char *buf, size_t size, const char *fmt, const void *argbuf,
		     size_t nargs, const struct lgd_ksyms *ks)
{
	return render(buf, size, fmt, NULL, argbuf, nargs, ks, LGD_TS_END, LGD_BP_SLOTS, NULL, NULL);
}

int lgd_bprintf_rec(char *buf, size_t size, const char *fmt, const void *argbuf,
		   size_t nargs, const struct lgd_ksyms *ks, uint64_t ts, unsigned int flags)
{
	return render(buf, size, fmt, NULL, argbuf, nargs, ks, ts, flags, NULL, NULL);
}

int lgd_bprintf_rec_status(char *buf, size_t size, const char *fmt, const void *argbuf,
			  size_t nargs, const struct lgd_ksyms *ks, uint64_t ts,
			  unsigned int flags, unsigned int *status)
{
	if (status)
		*status = 0;
	return render(buf, size, fmt, NULL, argbuf, nargs, ks, ts, flags, status, NULL);
}

int lgd_bprintf_site(char *buf, size_t size, const struct lgd_site *s, const void *argbuf,
		    size_t nargs, const struct lgd_ksyms *ks, uint64_t ts, unsigned int flags,
		    unsigned int *status)
{
	if (status)
		*status = 0;
	return render(buf, size, s->fmt, s->prog, argbuf, nargs, ks, ts, flags, status, NULL);
}

int lgd_bprintf_args(const char *fmt, const void *argbuf, size_t nargs, unsigned int flags,
		    struct lgd_bp_args *out)
{
	char b[1];

	out->nr = 0;
	render(b, sizeof(b), fmt, NULL, argbuf, nargs, NULL, LGD_TS_END, flags, NULL, out);
	if (out->nr > LGD_BP_MAX_ARGS)
		out->nr = LGD_BP_MAX_ARGS;
	return (int)out->nr;
}

/*
 * The argument kinds of @fmt without a payload: the same walk as render()
 * (edp_fmt_next()), stopping where it stops.
 */
int lgd_fmt_arg_kinds(const char *fmt, int *kinds, unsigned int max)
{
	unsigned int n = 0;
	struct edp_piece pc;
	enum edp_kind k;
	int kind;

	while ((k = edp_fmt_next(&fmt, &pc)) != EDP_END) {
		switch (k) {
		case EDP_TEXT:
		case EDP_PCT:
			continue;
		case EDP_INT:
			kind = pc.conv == 'd' || pc.conv == 'i' ? LGD_ARG_S64 : LGD_ARG_U64;
			break;
		case EDP_PTR:
			kind = LGD_ARG_U64;
			break;
		case EDP_STR:
		case EDP_PTR_TEXT:
			kind = LGD_ARG_STR;
			break;
		default:
			goto out;	/* render() stops here too */
		}
		if (n < max)
			kinds[n] = kind;
		n++;
	}
out:
	/* never more than @max: callers index arrays of @max by the result */
	return (int)(n < max ? n : max);
}
