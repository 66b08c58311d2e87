/* SPDX-License-Identifier: GPL-2.0 */
/*
 * edprint.h - the logdev kernel API: cheap binary print probes.
 *
 *	edprint("in");
 *	edprint("got %d bytes from %s", len, name);
 *
 * A disabled edprint() costs one patched-out jump (a static key).  An enabled
 * one stores a binary record (timestamp, call-site id, arguments encoded at
 * compile time, or by vbin_printf() for %p formats) in the per-CPU buffer of
 * the logdev module; formatting happens in userspace.
 * See docs/DEBUGFS.md for the control files.
 */
#ifndef _LINUX_EDPRINT_H
#define _LINUX_EDPRINT_H

#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/jump_label.h>
#include <asm/barrier.h>
#include <linux/string.h>
#include <linux/edprint_slots.h>
#include <linux/edprint_fmt.h>
#include <uapi/linux/logdev.h>

/**
 * struct logdev_site - one edprint() call site
 * @fmt:  the printf format (a string literal)
 * @file: source file (__FILE__)
 * @func: function (__func__)
 * @line: source line (__LINE__)
 * @id:   call-site id written into records; 0 until the site first records,
 *        then assigned once by logdev_site_id() and never changed
 * @enc:  how edprint() stores the arguments: 0 until the site first records,
 *        then LOGDEV_SITE_SLOTS or LOGDEV_SITE_VBIN (logdev_site_enc())
 * @sprec: for the slots encoder, per argument: the precision of a %s
 *        (edp_fmt_slots_ok()), set before @enc
 *
 * One static instance per call site, placed in the ELF section
 * "__logdev_sites".  The debugfs "formats" file maps ids to these fields.
 */
struct logdev_site {
	const char *fmt;
	const char *file;
	const char *func;
	u32 line;
	u32 id;
	u32 enc;
	u16 sprec[EDP_MAX_ARGS];
} __aligned(8);

#define LOGDEV_SITE_SLOTS	1	/* compile-time slots (edprint_slots.h) */
#define LOGDEV_SITE_VBIN	2	/* vbin_printf() (__logdev_print()) */

/*
 * logdev_key - static key, true while logdev records; exported GPL by the
 * logdev module.  Only edprint() should test it.
 */
DECLARE_STATIC_KEY_FALSE(logdev_key);

/**
 * __logdev_print() - record one edprint() hit; use edprint() instead
 * @site: the call site (assigned an id on first use)
 * @fmt:  the site's format, the same pointer as @site->fmt
 *
 * Packs the arguments with vbin_printf() and stores a LOGDEV_REC_PRINT
 * record in this CPU's buffer.  Callable from any context, NMI included;
 * never sleeps, locks or allocates.  Does nothing while recording is off.
 */
__printf(2, 3) void __logdev_print(struct logdev_site *site, const char *fmt, ...);

/**
 * logdev_write_raw() - store an opaque record in this CPU's buffer
 * @site_id: call-site id for the record (from logdev_site_id(), or 0)
 * @payload: bytes to store
 * @bytes:   length of @payload in bytes
 *
 * Stores a LOGDEV_REC_RAW record.  Callable from any context, NMI included.
 *
 * Return: 0 on success, -ENODATA if recording is off, or the negative errno
 * of the ring core (buffer full in discard mode, nesting too deep, record
 * larger than a sub-buffer).
 */
int logdev_write_raw(u32 site_id, const void *payload, u32 bytes);

/**
 * logdev_site_id() - the id of a call site, registering it if needed
 * @site: the call site
 *
 * Assigns an id on the first call, lock-free and NMI-safe; later calls
 * return the same id.  The site then appears in the debugfs "formats" file.
 *
 * Return: the id (>= 1), or 0 (unknown) if the site table is full.
 */
u32 logdev_site_id(struct logdev_site *site);

/**
 * logdev_site_enc() - decide once how an edprint() site stores its arguments
 * @site:     the call site
 * @nargs:    number of arguments
 * @strmask:  bit i set: argument i is a char pointer (EDP_STRBIT)
 * @widemask: bit i set: argument i is 8 bytes and not a char pointer
 *            (EDP_WIDEBIT)
 *
 * Parses the site's format (edp_fmt_slots_ok()) and keeps the answer in
 * @site->enc.  Lock-free, any context; racing callers store the same value.
 *
 * Return: LOGDEV_SITE_SLOTS or LOGDEV_SITE_VBIN.
 */
u32 logdev_site_enc(struct logdev_site *site, u32 nargs, u32 strmask, u32 widemask);

/**
 * struct logdev_resv - a record reserved by __logdev_reserve(); opaque
 * @priv: the ring core's reservation
 */
struct logdev_resv {
	void *priv[4];
};

/**
 * __logdev_reserve() - reserve a LOGDEV_REC_PRINT_SLOTS record; edprint() only
 * @site:  the call site (assigned an id on first use)
 * @bytes: payload bytes (the slots of edprint_slots.h)
 * @r:     filled in for __logdev_commit()
 *
 * On success preemption stays disabled until __logdev_commit().
 *
 * Return: where the payload goes, or NULL (recording off, record lost).
 */
void *__logdev_reserve(struct logdev_site *site, u32 bytes, struct logdev_resv *r);

/**
 * __logdev_commit() - commit a record reserved by __logdev_reserve()
 * @r: the reservation
 */
void __logdev_commit(struct logdev_resv *r);

/**
 * __logdev_words() - record a LOGDEV_REC_PRINT_SLOTS record of at most 32
 * payload bytes given in registers; edprint() only
 * @site:  the call site (assigned an id on first use)
 * @bytes: payload bytes, at most EDP_WORDS_MAX (the slots of edprint_slots.h)
 * @w0: payload bytes 0-7, as a little-endian load of them; zero past @bytes
 * @w1: bytes 8-15
 * @w2: bytes 16-23
 * @w3: bytes 24-31
 *
 * One call instead of __logdev_reserve() + stores + __logdev_commit(), for
 * arguments without a string (EDP_WSTORE).  Any context, NMI included;
 * never sleeps, locks or allocates; does nothing while recording is off.
 */
void __logdev_words(struct logdev_site *site, u32 bytes, u64 w0, u64 w1, u64 w2, u64 w3);

/**
 * __logdev_words1() - __logdev_words() of at most 8 payload bytes
 * @site:  the call site
 * @bytes: payload bytes, at most 8
 * @w0:    the payload (a little-endian load of it); zero past @bytes
 */
void __logdev_words1(struct logdev_site *site, u32 bytes, u64 w0);

/* Largest slots payload edprint() builds inline (LOGDEV_MAX_PAYLOAD). */
#define __EDPRINT_SLOTS_MAX	512

/*
 * Arguments are encoded by their types (edprint_slots.h) when they cannot
 * exceed the payload limit (a compile-time constant) and the site's format
 * reads every argument as its type says, with no %p conversion (extensions
 * such as %pI4 or %20pM must be resolved at record time by vbin_printf()):
 * a real parse of the format (edprint_fmt.h), made once per site at its
 * first record and kept in the site, so later calls test one word.
 */
#define __edprint_slots_ok(_fmt, ...)					\
	((0 EDP_MAP(EDP_BOUND, ##__VA_ARGS__)) <= __EDPRINT_SLOTS_MAX)

static __always_inline bool __edprint_site_slots(struct logdev_site *site, u32 nargs,
						 u32 strmask, u32 widemask)
{
	u32 enc = smp_load_acquire(&site->enc);	/* then site->sprec */

	if (unlikely(!enc))
		enc = logdev_site_enc(site, nargs, strmask, widemask);
	return enc == LOGDEV_SITE_SLOTS;
}

#define __edprint_use_slots(_site, ...)					\
	__edprint_site_slots(_site, EDP_NARGS(__VA_ARGS__),			\
			     0 EDP_MAP(EDP_STRBIT, ##__VA_ARGS__),	\
			     0 EDP_MAP(EDP_WIDEBIT, ##__VA_ARGS__))

/* a %s longer than EDP_STR_MAX was cut: flag the record (@pl: its payload) */
static __always_inline void __edprint_mark_cut(void *pl)
{
	((struct logdev_rec_hdr *)pl - 1)->ctx |= LOGDEV_REC_F_CUT;
}

/*
 * Most bytes the slots encoder reads of string argument @i
 * (edp_sprec_bound() of its site's sprec[] entry).
 */
static __always_inline u32 __edprint_sbound(const struct logdev_site *site,
					    unsigned int i, long prev)
{
	u16 c = site->sprec[i];

	if (likely(!c))
		return EDP_STR_MAX + 1;
	return edp_sprec_bound(c, prev);
}

#define EDP_SBOUND(i, prev)	__edprint_sbound(_edsite, i, prev)

/*
 * The reservation is filled by __logdev_reserve() before anything reads it:
 * exempt from the kernel's automatic zeroing of stack variables
 * (CONFIG_INIT_STACK_ALL_ZERO, on in Debian's kernels: four stores per call).
 */
#if defined(__has_attribute)
#if __has_attribute(__uninitialized__)
#define __edprint_noinit	__attribute__((__uninitialized__))
#endif
#endif
#ifndef __edprint_noinit
#define __edprint_noinit
#endif

#define __edprint_slots(_site, ...)					\
do {									\
	struct logdev_resv __edr __edprint_noinit;			\
	const struct logdev_site *_edsite __maybe_unused = (_site);	\
	long _edprev __maybe_unused = 0;				\
	EDP_MAP(EDP_DECLB, ##__VA_ARGS__)				\
	char *_edp = __logdev_reserve(_site,				\
			0 EDP_MAP(EDP_SIZE, ##__VA_ARGS__), &__edr);	\
	if (_edp) {							\
		if (unlikely(0 EDP_MAP(EDP_CUT, ##__VA_ARGS__)))	\
			__edprint_mark_cut(_edp);			\
		EDP_MAP(EDP_STORE, ##__VA_ARGS__)			\
		__logdev_commit(&__edr);				\
	}								\
} while (0)

/*
 * No string argument and at most EDP_WORDS_MAX payload bytes (a constant):
 * the payload goes to __logdev_words() in four words, or to
 * __logdev_words1() in one if it takes at most 8 bytes.
 */
#define __edprint_words_ok(...)						\
	(EDP_WORDS_OK && (0 EDP_MAP(EDP_WSIZE, ##__VA_ARGS__)) <= EDP_WORDS_MAX)

#define __edprint_words(_site, ...)					\
do {									\
	u64 _edw[4] = { };						\
	unsigned int _edo __maybe_unused = 0;				\
	EDP_MAP(EDP_WDECL, ##__VA_ARGS__)				\
	EDP_MAP(EDP_WSTORE, ##__VA_ARGS__)				\
	if ((0 EDP_MAP(EDP_WSIZE, ##__VA_ARGS__)) <= sizeof(u64))	\
		__logdev_words1(_site, 0 EDP_MAP(EDP_WSIZE, ##__VA_ARGS__), \
				_edw[0]);				\
	else								\
		__logdev_words(_site, 0 EDP_MAP(EDP_WSIZE, ##__VA_ARGS__), \
			       _edw[0], _edw[1], _edw[2], _edw[3]);	\
} while (0)

/* Compile error unless @fmt is a string literal. */
#define __edprint_literal(fmt)	("" fmt "")

/*
 * Which edprint() a file gets.  A kernel tree that logdev was added to
 * (make kernel-tree; kernel/intree/Kconfig) has CONFIG_HAVE_LOGDEV=y: there
 * a file gets the real edprint() only if logdev is reachable from it
 * (CONFIG_LOGDEV=y, or =m and the file is part of a module), else the no-op
 * below.  Out-of-tree builds (kernel/Kbuild, kernel/test/Kbuild, any module
 * built against a logdev.ko) define LOGDEV_OUT_OF_TREE; a tree without
 * logdev (Debian's headers) has no CONFIG_HAVE_LOGDEV: both get the real one.
 */
#if defined(CONFIG_HAVE_LOGDEV) && !IS_REACHABLE(CONFIG_LOGDEV) && \
	!defined(LOGDEV_OUT_OF_TREE)
#define __EDPRINT_NOOP	1
#else
#define __EDPRINT_NOOP	0
#endif

#if __EDPRINT_NOOP
/* The arguments are checked against the format, as no_printk() does. */
static inline __printf(1, 2) void __edprint_check(const char *fmt, ...)
{
}

/**
 * edprint() - no-op: logdev is not built in this kernel (or is a module and
 * the caller is built in)
 * @_fmt: printf format, a string literal, checked against the arguments
 * @...: arguments for @_fmt, never evaluated
 *
 * Compiles to nothing: no site, no static key test, no call.
 */
#define edprint(_fmt, ...)						\
do {									\
	EDP_ARGS_CHECK(__VA_ARGS__);					\
	if (0)								\
		__edprint_check(__edprint_literal(_fmt), ##__VA_ARGS__); \
} while (0)

#else /* !__EDPRINT_NOOP */

/*
 * The sites go to their own section in modules (for tools that read a
 * module's sites from its file); built into vmlinux nothing collects that
 * section, and the linker would warn about an orphan: plain .data there.
 */
#ifdef MODULE
#define __edprint_site_section	__section("__logdev_sites")
#else
#define __edprint_site_section
#endif

/**
 * edprint() - record a binary print probe when logdev is enabled
 * @_fmt: printf format, must be a string literal (checked by the compiler,
 *        like the arguments)
 * @...: arguments for @fmt
 *
 * Declares a static struct logdev_site (in section "__logdev_sites" in a
 * module, in .data built in); when the
 * logdev_key static key is off the whole statement is one patched nop.
 * When on, the arguments are stored as LOGDEV_REC_PRINT_SLOTS (encoding
 * chosen at compile time, see edprint_slots.h) or, for formats with %p or
 * whose conversions do not match the argument types (edprint_fmt.h), as
 * LOGDEV_REC_PRINT through vbin_printf().  At most 16 arguments.  Arguments
 * that do not fit a record are cut and the record says so
 * (LOGDEV_REC_F_CUT).
 */
#define edprint(_fmt, ...)						\
do {									\
	EDP_ARGS_CHECK(__VA_ARGS__);					\
	static struct logdev_site __used				\
	__edprint_site_section __edprint_site = {			\
		.fmt = __edprint_literal(_fmt),				\
		.file = __FILE__,					\
		.func = __func__,					\
		.line = __LINE__,					\
	};								\
	if (static_branch_unlikely(&logdev_key)) {			\
		if (__edprint_slots_ok(_fmt, ##__VA_ARGS__) &&		\
		    likely(__edprint_use_slots(&__edprint_site, ##__VA_ARGS__))) { \
			if (__edprint_words_ok(__VA_ARGS__))		\
				__edprint_words(&__edprint_site, ##__VA_ARGS__); \
			else						\
				__edprint_slots(&__edprint_site, ##__VA_ARGS__); \
		} else							\
			__logdev_print(&__edprint_site, _fmt, ##__VA_ARGS__); \
	}								\
} while (0)

#endif /* __EDPRINT_NOOP */

#endif /* _LINUX_EDPRINT_H */
