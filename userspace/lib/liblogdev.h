/* SPDX-License-Identifier: GPL-2.0 */
/*
 * liblogdev: read logdev captures and render records.
 *
 * Shapes:
 *   lgd_reader       an open capture file: metadata (header, call sites,
 *                   kallsyms, stats) loaded at open; CPU data read lazily.
 *   lgd_merge        streaming k-way merge of every CPU of a reader by
 *                   timestamp; yields struct lgd_item one at a time.  Memory:
 *                   a read-ahead of whole sub-buffers per CPU (up to
 *                   LGD_READ_AHEAD_CPU, LGD_READ_AHEAD_ALL in all, at least one
 *                   sub-buffer), independent of the capture size.
 *   lgd_filter       which records the analyses see (--cpu --pid --comm --site
 *                   --context --from --to; the recorder's own records): one
 *                   parser and one predicate (filter.c), applied by the merge.
 *   lgd_streams      which record pairs with which: the previous record of
 *                   the same CPU and context level (or CPU, or task).
 *   lgd_deltas       per (from site, to site) statistics of the time between
 *                   a record and the previous one of its stream, in a
 *                   log-linear histogram per pair (lgd_hist: memory bounded
 *                   per pair, independent of the number of records).
 *
 *   lgd_render       an item to text: site label, message by record type,
 *                   duration marks, +delta; report lines (render.c).
 *
 * Layers, bottom up (docs/DEVELOPING.md): capture.c (file sections),
 * subbuf.c (sub-buffer and record bytes: subbuf.h, the only place that
 * knows their layout), meta.c (header, formats), ksyms.c and modlog.c
 * (symbols), reader.c (per-CPU streams and merge), streams.c (which
 * records pair), bprintf.c and render.c (text), deltas.c, durations.c,
 * diff.c (analyses).
 *
 * Nothing here prints or exits.  Errors are negative errno values; problems
 * in the data (corruption, truncation) are reported to an optional warning
 * callback as struct lgd_diag and decoding goes on.
 *
 * Units: timestamps and deltas in ns; sizes and offsets in bytes.
 */
#ifndef LIBLOGDEV_H
#define LIBLOGDEV_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <uapi/linux/logdev.h>
#include "capture.h"

/**
 * struct lgd_diag - one problem found in the input
 * @err:      negative errno class (-EINVAL corrupt, -ENODATA truncated, ...)
 * @offset:   file offset (bytes) of the bad byte/structure, or -1
 * @cpu:      CPU concerned, or -1
 * @seq:      sub-buffer seq concerned (from its header), or -1 if unknown
 * @msg:      human readable text without position (the caller adds it)
 */
struct lgd_diag {
	int err;
	int64_t offset;
	int64_t cpu;
	int64_t seq;
	char msg[320];
};

typedef void (*lgd_warn_fn)(void *arg, const struct lgd_diag *d);

/* ---- header ---------------------------------------------------------- */

/**
 * struct lgd_header - parsed debugfs "header" text
 * All sizes in bytes.  @clock and @mode are "" when absent.
 */
struct lgd_header {
	uint32_t version;
	uint32_t subbuf_size;
	uint32_t nr_subbufs;
	uint32_t subbuf_hdr_size;
	uint32_t rec_hdr_size;
	char clock[32];
	char mode[32];
};

/**
 * lgd_header_parse() - parse and check header text (@len bytes, need not be
 * NUL-terminated).  Checks version: 3 (LOGDEV_FORMAT_VERSION), 2 or 1 (older
 * captures, read too), endian little, header sizes 48/24 (version 1:
 * 40/24), subbuf_size a power of two in [256, 64 MiB], and any
 * "field:" lines against struct logdev_subbuf_hdr / logdev_rec_hdr.
 * Return: 0, or -EINVAL / -EPROTO with @d->msg saying why.
 */
int lgd_header_parse(struct lgd_header *h, const char *text, size_t len,
		    struct lgd_diag *d);

/* ---- call sites ------------------------------------------------------ */

/**
 * struct lgd_site - one line of debugfs "formats"; @fmt unescaped.
 * @label_file: another site of the capture has the same @func and @line in
 *              another @file, so its label names the file (lgd_site_label())
 * @label_seq:  0, or N >= 1 where other sites of the capture have the same
 *              @file, @func and @line: the label ends "#N", N numbering
 *              those sites in @fmt order (strcmp), then id order
 * @twin:       another site of the capture has the same @file, @func, @line
 *              and @fmt (registered twice, an inline function of a header
 *              in two modules): only the id tells them apart
 */
struct lgd_site {
	uint32_t id;
	uint32_t line;
	char *file;
	char *func;
	char *fmt;
	int label_file;
	uint32_t label_seq;
	int twin;
};

/** struct lgd_sites - call sites indexed by id (@by_id[id] may be NULL). */
struct lgd_sites {
	struct lgd_site **by_id;
	uint32_t nr;		/* size of by_id */
};

/**
 * lgd_sites_parse() - add the lines of a "formats" text to @s (a later line
 * for an id replaces an earlier one).  Malformed lines are skipped and
 * counted.  Return: number of malformed lines (>= 0) or -ENOMEM.
 */
int lgd_sites_parse(struct lgd_sites *s, const char *text, size_t len);
/**
 * lgd_probe_missed() - the kernel's miss count (kprobe/kretprobe nmissed,
 * since the probe was attached) of the run-time probe whose records come
 * from @site (file "probe", func NAME or NAME%return), from @probes, the
 * text of a capture's PROBES section (lines "p:[GRP/]NAME ... missed=N").
 * Returns N, or 0 if @site is not a probe's, the probe is not listed, or
 * @probes is NULL.
 */
uint64_t lgd_probe_missed(const char *probes, const struct lgd_site *site);
/**
 * struct lgd_probe_info - one line of a PROBES section, as the probes file
 * lists a probe ("p:[GRP/]NAME SYM ... hits=H [returns=R] missed=M
 * [missed_maxactive=I] [counted=recording]")
 * @name:      the probe's NAME (after any GRP/), not NUL-terminated
 * @len:       its bytes
 * @missed:    hits the kprobes core skipped (0 if the line has none)
 * @missed_maxactive: of a return probe, the entries of those whose return
 *             could not be caught for want of a free instance (maxactive)
 * @recording: the counts are of one recording (lgd_probes_since() made
 *             them so), not since the probe was added
 */
struct lgd_probe_info {
	const char *name;
	size_t len;
	uint64_t missed, missed_maxactive;
	int recording;
};

/** lgd_probe_line() - parse @line into @pi.  Returns 1, or 0 if @line is not a probe line. */
int lgd_probe_line(const char *line, struct lgd_probe_info *pi);
/**
 * lgd_probes_since() - the probes file text @end (NUL-terminated) with
 * each probe's miss counts made relative to @start (the same file read
 * when recording began; NULL: none): a probe listed in both with counts
 * not smaller gets the differences, one added since keeps its own; every
 * line gets " counted=recording".  Returns a malloc'd NUL-terminated text
 * (*@len bytes), or NULL: out of memory.
 */
char *lgd_probes_since(const char *start, const char *end, size_t *len);

/** lgd_sites_get() - site @id or NULL. */
const struct lgd_site *lgd_sites_get(const struct lgd_sites *s, uint32_t id);
void lgd_sites_free(struct lgd_sites *s);
/**
 * lgd_sites_mark_labels() - set every site's @label_file, @label_seq and
 * @twin (lgd_sites_parse() does it after each text).  Return: 0 or -ENOMEM.
 */
int lgd_sites_mark_labels(struct lgd_sites *s);
/**
 * lgd_site_place_cmp() - qsort() comparator of two `const struct lgd_site *`
 * by func, then line, then file (strcmp order).
 */
int lgd_site_place_cmp(const void *pa, const void *pb);
/**
 * lgd_site_order_cmp() - lgd_site_place_cmp(), then by format (strcmp) and id:
 * the order of the "#N" of sites at one place (@label_seq).
 */
int lgd_site_order_cmp(const void *pa, const void *pb);
/** lgd_fmt_has_symptr() - does @fmt use %pS %ps %pB %pF or %pf? */
int lgd_fmt_has_symptr(const char *fmt);

/* ---- kallsyms -------------------------------------------------------- */

/*
 * The longest names the kernel makes, with their NUL: a symbol
 * (KSYM_NAME_LEN, 512 since Linux 6.1, for Rust's mangled names) and a
 * module (MODULE_NAME_LEN, 64 - sizeof(long) = 56; room for 128 kept).  A
 * symbol line (/proc/kallsyms, the module log) is at most LGD_KSYM_LINE_MAX
 * bytes: address, type, name, "[module]" and separators.
 */
#define LGD_KSYM_NAME_LEN	512
#define LGD_KMOD_NAME_LEN	128
#define LGD_KSYM_LINE_MAX	(20 + 3 + LGD_KSYM_NAME_LEN + LGD_KMOD_NAME_LEN + 4)

struct lgd_ksym {
	uint64_t addr;
	char *name;
	char *mod;		/* NULL for the core kernel */
	char type;		/* kallsyms type letter ('T', 'd', ...) */
};

/**
 * enum lgd_kmem - the memory regions of a module, as the module log names
 * them (docs/DEBUGFS.md): the kernel's mod_mem_type of Linux 6.4+, and
 * 6.1's core and init layouts split at text_size, ro_size,
 * ro_after_init_size and size.  LGD_KMEM_INIT_TEXT and later: init
 * memory, freed when the module's init finished.
 */
enum lgd_kmem {
	LGD_KMEM_TEXT, LGD_KMEM_RODATA, LGD_KMEM_RO_AFTER_INIT, LGD_KMEM_DATA,
	LGD_KMEM_INIT_TEXT, LGD_KMEM_INIT_RODATA, LGD_KMEM_INIT_DATA, LGD_KMEM_NR
};

/**
 * enum lgd_ksize - how the kernel that wrote a module log sized a module
 * symbol in %pS (its find_kallsyms_symbol(); docs/FORMAT.md)
 * @LGD_KSIZE_TEXT:    up to the module's next symbol or the end of its text
 *                     (of its init text for an address in init memory),
 *                     any symbol of the module at or below the address
 *                     (Linux 6.1; 6.4+ before the fix for data symbols)
 * @LGD_KSIZE_REGION:  up to the next symbol or the end of the region that
 *                     holds the address, symbols of that region only
 *                     (Debian's 6.12.118, 7.x)
 * @LGD_KSIZE_UNKNOWN: the module log could not tell (format 2, "sizes
 *                     unknown"): read as LGD_KSIZE_TEXT
 */
enum lgd_ksize { LGD_KSIZE_TEXT, LGD_KSIZE_REGION, LGD_KSIZE_UNKNOWN };

/**
 * struct lgd_kmod - the symbols of one module while it was loaded
 * @name:      module name
 * @from_ts:   loaded from this time (ns, record clock; 0: before the log)
 * @live_ts:   its init finished (init memory freed) at this time
 * @to_ts:     unloaded at this time (UINT64_MAX: still loaded at the end)
 * @has_layout: @mem, @text_end and @init_text_end are known (from the
 *             module log); without them the module's extent is its
 *             symbols' span
 * @sizes:     how the kernel sized its symbols (with @has_layout)
 * @mem:       its regions: start and bytes (0: none); a format 1 log's
 *             core layout is LGD_KMEM_TEXT and LGD_KMEM_DATA (the rest),
 *             its init layout LGD_KMEM_INIT_TEXT and LGD_KMEM_INIT_DATA
 * @text_end, @init_text_end: the end of its text and of its init text, as
 *             the kernel computes them (start + text bytes)
 * @syms, @nr: its symbols, sorted by address (stable: file order kept)
 */
struct lgd_kmod {
	char *name;
	uint64_t from_ts, live_ts, to_ts;
	int has_layout;
	enum lgd_ksize sizes;
	struct {
		uint64_t base, size;
	} mem[LGD_KMEM_NR];
	uint64_t text_end, init_text_end;
	struct lgd_ksym *syms;
	size_t nr;
};

/**
 * struct lgd_ksyms - the symbol tables of a capture
 * @syms, @nr:   the KALLSYMS snapshot, sorted by address (stable)
 * @vm, @nr_vm:  indexes in @syms of the core kernel's symbols
 * @stext, @etext, @end, @sinittext, @einittext: vmlinux bounds from the
 *               snapshot (0 if absent)
 * @all:         the snapshot has vmlinux data symbols (CONFIG_KALLSYMS_ALL:
 *               the kernel names any address in [_stext, _end))
 * @mods, @nr_mods: module tables: those of the snapshot, then those of the
 *               module log (lgd_ksyms_add_modlog()), each valid for a time
 * @modlog_format: the module log's format (its first line, "format N"; 1
 *               without), 0 if none was added; above LGD_MODLOG_FORMAT (or
 *               unreadable: UINT32_MAX) its layouts were not read
 * @modlog_sizes: its size rule (format 2's "sizes"; LGD_KSIZE_TEXT before)
 */
struct lgd_ksyms {
	struct lgd_ksym *syms;
	size_t nr;
	size_t *vm;
	size_t nr_vm;
	uint64_t stext, etext, end, sinittext, einittext;
	int all;
	struct lgd_kmod *mods;
	size_t nr_mods;
	uint32_t modlog_format;
	enum lgd_ksize modlog_sizes;
};

/** LGD_MODLOG_FORMAT: the newest module log format this reader knows. */
#define LGD_MODLOG_FORMAT 2

/** LGD_TS_END: a lookup time after every record (the snapshot's state). */
#define LGD_TS_END UINT64_MAX

/**
 * lgd_ksyms_parse() - parse /proc/kallsyms text ("addr type name [mod]").
 * Return: number of symbols (0 if all addresses are 0, i.e. hidden), or
 * -ENOMEM.
 */
int lgd_ksyms_parse(struct lgd_ksyms *k, const char *text, size_t len);
/**
 * lgd_ksyms_add_modlog() - add the debugfs "module_log" text (capture
 * section MODLOG; docs/DEBUGFS.md, docs/FORMAT.md), format 1 or 2: module
 * tables valid from load to unload, the snapshot's tables cut at their
 * module's first logged event; sets @k->modlog_format and @modlog_sizes.
 * Call after lgd_ksyms_parse() (or on a zeroed @k).
 * Return: number of malformed lines (>= 0: lines skipped, load and unload
 * lines whose regions are unreadable, their module then read without
 * layout, and a first line naming a format it cannot read), or -ENOMEM.
 */
int lgd_ksyms_add_modlog(struct lgd_ksyms *k, const char *text, size_t len);
/**
 * lgd_ksyms_modlog_note() - what a reader must say about the module log
 * lgd_ksyms_add_modlog() read into @k, or NULL: its format is newer than
 * this reader's or unreadable (module layouts not read), or format 2 did
 * not know the kernel's size rule ("sizes unknown") and a module has a
 * layout.  Return: a static sentence without newline, or NULL.
 */
const char *lgd_ksyms_modlog_note(const struct lgd_ksyms *k);
/**
 * lgd_ksyms_lookup_at() - the symbol the kernel's %pS named for @addr at
 * time @ts (ns, the records' clock): in a module loaded then with a region
 * holding @addr (an init region only before its init finished), the last
 * symbol of that module at or below @addr (of that region, with
 * LGD_KSIZE_REGION), size to the module's next symbol or the end of its
 * text (of that region); in vmlinux ([_stext, _end), or only text without
 * CONFIG_KALLSYMS_ALL), the last vmlinux symbol, size to the next one;
 * else none.  A module without known layout (snapshot only) matches only
 * between two of its symbols.
 * Return: symbol or NULL (print the address in hex); *@off, *@size bytes.
 */
const struct lgd_ksym *lgd_ksyms_lookup_at(const struct lgd_ksyms *k, uint64_t addr,
					 uint64_t ts, uint64_t *off, uint64_t *size);
/** lgd_ksyms_lookup() - lgd_ksyms_lookup_at() at LGD_TS_END. */
const struct lgd_ksym *lgd_ksyms_lookup(const struct lgd_ksyms *k, uint64_t addr,
				      uint64_t *off, uint64_t *size);
void lgd_ksyms_free(struct lgd_ksyms *k);

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

/* ---- filters (filter.c) ---------------------------------------------- */

/*
 * Which records the analyses see (report, deltas, diff, convert: --cpu,
 * --pid, --comm, --site, --context, --from, --to).  Kinds of conditions
 * combine with AND, the values of one kind with OR (--cpu 0 --cpu 2 is
 * --cpu 0,2).  Pairs (streams.c) are made on every record, then kept only
 * where both records pass: a filter chooses rows, it never changes a
 * number (a record left out cuts its stream's pair, never joins the
 * records on either side of it).  filter.c's file comment has the syntax.
 */
struct lgd_item;

struct lgd_range {
	uint64_t lo, hi;	/* inclusive */
};

/**
 * struct lgd_filter - parsed filter options (lgd_filter_set())
 * @cpus, @nr_cpus; @pids, @nr_pids: ranges (none: any)
 * @comms, @nr_comms; @sites, @nr_sites: fnmatch(3) patterns (none: any)
 * @ctx_mask:  bits 1 << enum logdev_ctx (0: any)
 * @has_from, @from_rel, @from_ns; @has_to, @to_rel, @to_ns: the window
 *             from <= ts < to (ns; @*_rel: from the capture's first record)
 * @include_recorder: keep the records of the recorder's own pid
 */
struct lgd_filter {
	struct lgd_range *cpus, *pids;
	size_t nr_cpus, nr_pids;
	char **comms, **sites;
	size_t nr_comms, nr_sites;
	unsigned int ctx_mask;
	int has_from, from_rel, has_to, to_rel;
	uint64_t from_ns, to_ns;
	int include_recorder;
};

/**
 * lgd_filter_set() - add option @name ("cpu", "pid", "comm", "site",
 * "context", "from", "to") with value @value to @f.  On -EINVAL @why
 * (@why_size bytes) says what was expected.  @f must start zeroed.
 * Return: 0, -EINVAL (bad value; @f unchanged), -ENOENT (no such filter
 * name), -ENOMEM.
 */
int lgd_filter_set(struct lgd_filter *f, const char *name, const char *value,
		  char *why, size_t why_size);
/** lgd_filter_active() - does @f leave any record out (the recorder aside)? */
int lgd_filter_active(const struct lgd_filter *f);
/**
 * lgd_filter_sites() - *@keep: per site id of @s (@s->nr entries), 1 where
 * the site's "func:line", "file:func:line" or func (a probe's name)
 * matches a --site pattern; NULL when @f has none.  Return: 0 or -ENOMEM.
 */
int lgd_filter_sites(const struct lgd_filter *f, const struct lgd_sites *s, uint8_t **keep);
/**
 * lgd_filter_match() - does @f keep the item @it (a record, or a gap: gaps
 * only by CPU and time)?  @site_ok: the --site verdict of its site (1 if no
 * --site); @comm: its task name or NULL (not known: --comm leaves it out);
 * @base: ns of the capture's first record (relative times).  Return: 1/0.
 */
int lgd_filter_match(const struct lgd_filter *f, const struct lgd_item *it, int site_ok,
		    const char *comm, uint64_t base);
/** lgd_filter_free() - free @f's lists, zero it. */
void lgd_filter_free(struct lgd_filter *f);

/* ---- reader ---------------------------------------------------------- */

struct lgd_sect_fix;

/**
 * struct lgd_reader - an open capture
 * @fd:         file, owned (closed by lgd_reader_close)
 * @file_size:  bytes
 * @hdr:        parsed header
 * @sites:      merged FORMATS sections
 * @ksyms:      KALLSYMS section (nr == 0 if none), with the module tables
 *              of the MODLOG section if there is one
 * @has_ksyms:  a KALLSYMS or MODLOG section was present
 * @stats:      text of the last STATS section (NUL-terminated) or NULL
 * @probes:     text of the last PROBES section (debugfs "probes" at the end
 *              of recording; lgd_probe_missed()) or NULL
 * @cpus:       distinct CPUs with CPU_DATA, ascending; @nr_cpus of them
 * @complete:   an END section was seen, and the capture is not marked
 *              incomplete: no SALVAGED section, and not END after CPU_DATA
 *              and RECORDER with no STATS (capture.h; both warned)
 * @sites_final: complete, and a FORMATS section comes after the last
 *              CPU_DATA section (logdev record writes one last, after
 *              draining): every call site of a record is listed, and a
 *              record naming one that is not is damage (warned, -EINVAL)
 * @warn, @warn_arg: warning callback (may be NULL)
 * @comm_tab:   task names from the comm records (LOGDEV_REC_COMM) seen so
 *              far by a merge of this reader, or all of them after
 *              lgd_comm_load() (@comms_all): a hash table of @comm_tab_cap
 *              slots (a power of two, or 0), a slot in use has n > 0; each
 *              holds one pid's names sorted by ts.  @nr_comms entries in
 *              all.  Read them with lgd_comm_at(), or walk the table (all
 *              the (pid, name) pairs of a capture, e.g. for cmdlines).
 */
struct lgd_reader {
	int fd;
	uint64_t file_size;
	struct lgd_header hdr;
	struct lgd_sites sites;
	struct lgd_ksyms ksyms;
	int has_ksyms;
	char *stats;
	char *probes;
	uint32_t *cpus;
	uint32_t nr_cpus;
	int complete;
	int sites_final;
	uint64_t first_sect_off;
	lgd_warn_fn warn;
	void *warn_arg;
	struct lgd_comm_task *comm_tab;
	size_t comm_tab_cap, nr_comm_tasks, nr_comms;
	int comms_all;
	int64_t recorder_pid;	/* pid of the recorder (RECORDER section), or -1 */
	const struct lgd_filter *filter;	/* lgd_reader_set_filter(), or NULL */
	uint8_t *filter_sites;	/* per site id: 1 kept by filter's --site */
	uint32_t nr_filter_sites;
	int filter_base_set;
	uint64_t filter_base;	/* ns: first record's ts (relative --from/--to) */
	uint64_t nr_recorder_out;	/* recorder's records left out by the last merge */
	uint64_t nr_recs_seen, nr_recs_kept;	/* records met / kept by the filter
				 * in the last merge (task names and the
				 * recorder's records not counted) */
	uint64_t nr_bad_type;	/* records kept by the last merge whose type
				 * no version of the format has (damage): they
				 * print as "<type? ...>", and the verbs warn */
	uint64_t nr_absurd_ts;	/* records with an absurd timestamp met by the
				 * last merge (lgd_merge_init() zeroes it); its end
				 * warns once with the count */
	struct lgd_lost *lost;	/* per CPU index of the last merge (file or
				 * live): the lost events of the gaps it kept */
	uint32_t nr_lost;
	struct lgd_sect_fix *fixes;	/* corrupt section headers found at open and
				 * how they are read (reader.c), by offset */
	uint32_t nr_fixes;
};

/**
 * lgd_reader_open_fd() - take ownership of @fd (a seekable capture), check
 * the file header, scan section headers (payloads of CPU_DATA are not read)
 * and load metadata.  Truncation is warned and the scan stops there.  A
 * corrupt section header (a length past the end of the file, or whose end
 * is no section header) is warned with its offset (-EINVAL), and the scan
 * goes on at the next section header found after it (by type, CPU and the
 * sub-buffer magic after a CPU_DATA header): the damaged section is read
 * up to there (reader.c, struct lgd_sect_fix); only when none follows is
 * the rest of the file taken as cut short.
 * Return: 0, or negative errno (-EINVAL not a capture / no usable header,
 * -EPROTO unsupported version, -ENOMEM, or from pread) with @d filled.
 * On error @fd is closed.
 */
int lgd_reader_open_fd(struct lgd_reader *r, int fd, lgd_warn_fn warn,
		      void *warn_arg, struct lgd_diag *d);
/** lgd_reader_open() - open @path and call lgd_reader_open_fd(). */
int lgd_reader_open(struct lgd_reader *r, const char *path, lgd_warn_fn warn,
		   void *warn_arg, struct lgd_diag *d);
void lgd_reader_close(struct lgd_reader *r);

/**
 * lgd_reader_set_filter() - from the next lgd_merge_init() on, every merge
 * of @r marks the items @f leaves out (lgd_item.filtered) and hands them out
 * only if lgd_merge.filtered_items is set; @f (NULL: none) must outlive @r.
 * The recorder's own records (RECORDER section) are left out unless
 * @f->include_recorder, with or without a filter.  Loads every task name
 * (lgd_comm_load()) when @f has --comm.  Return: 0 or -ENOMEM, -EIO.
 */
int lgd_reader_set_filter(struct lgd_reader *r, const struct lgd_filter *f);
/**
 * lgd_reader_keep() - would @r's filter keep item @it?  (The merge's test,
 * without counting; a record of the recorder is not kept unless
 * include_recorder.)  Relative times need the merge to have met the first
 * record.  Return: 1 kept, 0 left out.
 */
int lgd_reader_keep(const struct lgd_reader *r, const struct lgd_item *it);

/* ---- task names ------------------------------------------------------ */

/**
 * struct lgd_comm - task @pid had name @comm from @ts (ns) on: the first of
 * a run of comm records of @pid with this name (renames and pid reuse start
 * a new entry)
 */
struct lgd_comm {
	uint32_t pid;
	uint64_t ts;
	char comm[LOGDEV_COMM_LEN + 1];
};

/**
 * struct lgd_comm_task - the names of one pid, @n of them in @v sorted by ts
 * (@cap allocated).  Entries that arrive out of time order (a clock that went
 * back) are kept only while the pid has fewer than LGD_COMM_UNORDERED_MAX,
 * so that a hostile capture cannot make the insertions quadratic.
 */
struct lgd_comm_task {
	uint32_t pid;
	uint32_t n, cap;
	struct lgd_comm *v;
};

#define LGD_COMM_UNORDERED_MAX	256

/**
 * lgd_reader_comm_matches() - does a task name the reader knows (the names
 * met so far, all of them after lgd_comm_load()) match one of its filter's
 * --comm patterns?  Return: 1 yes, 0 no (or no --comm pattern).
 */
int lgd_reader_comm_matches(const struct lgd_reader *r);

/**
 * lgd_comm_load() - read every comm record of the capture (one pass over
 * its data, without warnings), so that lgd_comm_at() knows all names, also
 * of records before their task's first comm record that was kept.
 * Without it, a merge (lgd_merge_next()) adds the names as it meets them,
 * which is enough for items given in merge order.
 * Return: 0 or -ENOMEM / -EIO.
 */
int lgd_comm_load(struct lgd_reader *r);

/**
 * lgd_comm_add() - add the task name of a comm record (LOGDEV_REC_COMM) of
 * @pid at @ts (ns), its @bytes of payload (need not end in NUL), to @r's
 * task names: what a merge does with the comm records it meets, for a
 * reader fed by other means (lgd_live).  Return: 0 or -ENOMEM.
 */
int lgd_comm_add(struct lgd_reader *r, uint32_t pid, uint64_t ts, const uint8_t *payload,
		 uint32_t bytes);
/**
 * lgd_comm_at() - the name of task @pid at time @ts (ns): the name of the
 * latest comm record of @pid at or before @ts; if there is none (it was
 * lost), the first one after @ts.
 * Pid 0, the idle task of every CPU (swapper/N), is "<idle>" as in ftrace.
 * Return: a NUL-terminated name (at most 15 characters, owned by @r, valid
 * until the reader is closed or a merge adds names), or NULL if the
 * capture has no comm record of @pid (format versions 1 and 2 have none).
 */
const char *lgd_comm_at(const struct lgd_reader *r, uint32_t pid, uint64_t ts);

/* ---- items and merge ------------------------------------------------- */

enum lgd_item_kind {
	LGD_ITEM_REC = 1,
	LGD_ITEM_GAP = 2,
};

/*
 * Lost events: one kind per cause, named as the header fields and the
 * stats file's counters (docs/FORMAT.md, "Lost events").  @count is
 * records unless said otherwise.
 */
enum lgd_gap_kind {
	LGD_GAP_DROPPED = 1,	/* dropped_before: discard mode, buffer full */
	LGD_GAP_OVERRUN = 2,	/* overrun_before: overwritten records */
	LGD_GAP_SUBBUFS = 3,	/* seq jump not explained by overrun_before:
				 * @count is sub-buffers, not records */
	LGD_GAP_CORRUPT = 4,	/* rest of a sub-buffer skipped as corrupt;
				 * @count is bytes skipped */
	LGD_GAP_NESTING_LOST = 5,/* nesting_lost_before: nesting too deep, or
				 * the sub-buffer to enter still being written */
	LGD_GAP_TOO_BIG = 6,	/* too_big_before: larger than a sub-buffer */
	LGD_GAP_LOST = 7,	/* v1 capture's dropped_before: dropped,
				 * nesting_lost or too_big, not told apart */
	LGD_GAP_BAD_TS = 8,	/* a record with an absurd timestamp (0 or
				 * 2^64-1, lgd_ts_absurd()) stands here, left
				 * out (lgd_merge.absurd_items not set); @count 1 */
};

#define LGD_GAP_NR	9	/* by_kind[] arrays: indexed by enum lgd_gap_kind */

/**
 * struct lgd_lost - the lost events one CPU's kept gaps told of
 * @cpu:     the CPU number
 * @by_kind: per enum lgd_gap_kind (records; LGD_GAP_SUBBUFS sub-buffers,
 *           LGD_GAP_CORRUPT bytes; [0] unused)
 */
struct lgd_lost {
	uint32_t cpu;
	uint64_t by_kind[LGD_GAP_NR];
};

/**
 * lgd_add_sat() - @a + @b, or UINT64_MAX if that does not fit: a count
 * summed from untrusted headers never wraps to a small number.
 */
static inline uint64_t lgd_add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/**
 * lgd_ts_absurd() - is @ts a timestamp no trace clock gives: 0 (before the
 * clock started) or 2^64-1 (all ones: a field never written)?  Such a
 * record is kept out of every statistic (lgd_merge).
 */
static inline int lgd_ts_absurd(uint64_t ts)
{
	return ts == 0 || ts == UINT64_MAX;
}

/**
 * lgd_gap_kind_name() - "dropped", "overrun", "subbufs", "corrupt",
 * "nesting_lost", "too_big", "lost", "bad_ts" (or "?").
 */
const char *lgd_gap_kind_name(int kind);
/** lgd_ctx_name() - "task", "softirq", "hardirq", "nmi" or "ctx?". */
const char *lgd_ctx_name(int ctx);

/**
 * struct lgd_item - one record or one lost-events gap, in stream position
 * @kind:     enum lgd_item_kind
 * @cpu:      CPU the item belongs to
 * @ts:       ns; for gaps the sub-buffer's first_ts (never less than the
 *            previous item's ts on that CPU)
 * @rec:      record header (copy) for LGD_ITEM_REC; @rec.ctx holds the
 *            enum logdev_ctx only (bits 0-1 of the stored byte)
 * @rec_flags: the other bits of that byte: LOGDEV_REC_F_CUT
 * @payload:  @rec.arg_bytes bytes, valid until the next call on the merge
 * @gap_kind, @gap_count: for LGD_ITEM_GAP (see enum lgd_gap_kind)
 * @seq:      seq of the sub-buffer the item came from
 * @file_off: file offset of the record / sub-buffer (bytes)
 */
struct lgd_item {
	int kind;
	uint32_t cpu;
	uint64_t ts;
	struct logdev_rec_hdr rec;
	uint8_t rec_flags;
	const uint8_t *payload;
	int gap_kind;
	uint64_t gap_count;
	uint64_t seq;
	uint64_t file_off;
	int filtered;		/* left out by the reader's filter or as the
				 * recorder's record (lgd_reader_set_filter()):
				 * only seen with lgd_merge.filtered_items */
	int ts_absurd;		/* a record whose own timestamp (@rec.ts) is absurd
				 * (lgd_ts_absurd()); @ts is then its CPU's previous
				 * record's, to keep it in place in the merge */
};

struct lgd_cpu_stream;

/* the merge's read-ahead (bytes): per CPU, and in all (split between CPUs) */
#define LGD_READ_AHEAD_CPU	(256u << 10)
#define LGD_READ_AHEAD_ALL	(4u << 20)

/** struct lgd_merge - k-way merge state (heap of CPU streams). */
struct lgd_merge {
	struct lgd_reader *r;
	struct lgd_cpu_stream **heap;
	uint32_t nr;
	struct lgd_cpu_stream *last;	/* stream of the item last returned */
	struct lgd_cpu_stream **all;
	uint32_t nr_all;
	int comm_items;		/* set after lgd_merge_init(): return comm records too */
	int absurd_items;	/* set after lgd_merge_init(): return records with an
				 * absurd timestamp (ts_absurd set) instead of a
				 * LGD_GAP_BAD_TS gap in their place (report marks them) */
	int filtered_items;	/* set after lgd_merge_init(): return the items the
				 * filter leaves out too, marked .filtered (for
				 * lgd_streams_add(): no pair across them) */
};

/**
 * lgd_merge_init() - one stream per CPU of @r, merged by (ts, cpu); the
 * lost-events counts of @r (lgd_reader_lost()) start at 0.
 * Return: 0 or -ENOMEM.
 */
int lgd_merge_init(struct lgd_merge *m, struct lgd_reader *r);
/**
 * lgd_merge_next() - next item in time order (within a CPU: stream order).
 * Comm records (LOGDEV_REC_COMM) go to the reader's task names
 * (lgd_comm_at()) and are items only if @m->comm_items is set (report
 * --raw shows them; text, deltas and durations never see them).
 * Return: 1 with *@it filled, 0 at the end.  Data problems go to the
 * reader's warning callback; -ENOMEM/-EIO only for system failures.
 */
int lgd_merge_next(struct lgd_merge *m, struct lgd_item *it);
void lgd_merge_free(struct lgd_merge *m);
/**
 * lgd_reader_lost() - the lost events of CPU index @i (0 to @r->nr_lost - 1)
 * in the gaps the last merge of @r kept (file or live; a filter keeps or
 * leaves out a gap by CPU and time only): @by_kind filled (struct
 * lgd_lost), *@cpu its CPU number (if @cpu is not NULL).  Return: the
 * records lost (the kinds counted in records: all but SUBBUFS, CORRUPT and
 * BAD_TS).
 */
uint64_t lgd_reader_lost(const struct lgd_reader *r, uint32_t i, uint64_t by_kind[LGD_GAP_NR],
			 uint32_t *cpu);

/*
 * Items from sub-buffers, one way for both merges (reader.c for a capture
 * file, live.c for the live buffers); the decoder's structs (subbuf.h)
 * are only named here.
 */
struct lgd_sb_info;
struct lgd_sb_rec;
#define LGD_SB_GAPS_MAX	6	/* gaps one sub-buffer header can tell of */
/**
 * lgd_gap_item() - *@g: a gap of @kind (enum lgd_gap_kind) and @count of
 * CPU @cpu at @ts, never before @last_ts (ns), from sub-buffer @seq at @off.
 */
void lgd_gap_item(struct lgd_item *g, int kind, uint64_t count, uint32_t cpu, uint64_t ts,
		  uint64_t last_ts, uint64_t seq, uint64_t off);
/**
 * lgd_sb_gaps() - the lost-events gaps sub-buffer header @h of CPU @cpu
 * tells of, in order: @subbufs sub-buffers missing by a seq jump
 * (lgd_seq_step()'s count; not when an overrun count explains it),
 * overrun, dropped, nesting_lost, too_big, lost (version 1); stamped at
 * h->first_ts, never before @last_ts (ns), sub-buffer @off (bytes).
 * Return: how many gaps are in @g (at most LGD_SB_GAPS_MAX).
 */
int lgd_sb_gaps(struct lgd_item g[LGD_SB_GAPS_MAX], const struct lgd_sb_info *h, uint32_t cpu,
		uint64_t subbufs, uint64_t last_ts, uint64_t off);

/* lgd_seq_step() verdicts on a sub-buffer's seq */
enum lgd_seq {
	LGD_SEQ_OK,		/* the next one after the previous (or the first) */
	LGD_SEQ_JUMP,		/* sub-buffers missing before it: *lost of them */
	LGD_SEQ_BACK,		/* not after the previous: the buffer reset, or damage */
	LGD_SEQ_DAMAGED,	/* out of line between neighbours that agree: damaged,
				 * read as the one between them */
	LGD_SEQ_IMPOSSIBLE,	/* a jump of more sub-buffers than could be opened in
				 * the time between them: damaged, not a loss */
};

/* lgd_seq_ctx.slack of both merges: the ring's sub-buffers and this many */
#define LGD_SEQ_SLACK	64

/**
 * struct lgd_seq_ctx - what lgd_seq_step() judges a CPU's next sub-buffer by
 * @have_prev, @prev: the base: the seq the CPU's previous sub-buffer had (or
 *            was read as)
 * @have_next, @next: the seq of the CPU's sub-buffer after this one, when
 *            it is at hand (a capture file; a live read if already queued)
 * @prev_ts, @ts: first_ts (ns) of the previous and of this sub-buffer
 * @slack:    sub-buffers a jump may exceed the ns between them by
 */
struct lgd_seq_ctx {
	int have_prev, have_next;
	uint64_t prev, next;
	uint64_t prev_ts, ts;
	uint64_t slack;
};

/**
 * lgd_seq_step() - judge sub-buffer seq @seq against @c, the one rule of
 * both merges (file and live).  A seq that goes back below the previous
 * one, or jumps, while the next one follows the previous one's
 * (prev < next < seq, or next <= prev + 2): LGD_SEQ_DAMAGED, read as
 * prev + 1 (or prev).  Else back: LGD_SEQ_BACK, the new base.  Else a jump
 * of k = seq - prev - 1 sub-buffers: LGD_SEQ_IMPOSSIBLE if k exceeds the ns
 * from @c->prev_ts to @c->ts (a sub-buffer opens at most once per ns; when
 * both stamps are known) plus @c->slack, else LGD_SEQ_JUMP.  Never wraps.
 * @lost: sub-buffers to count missing (LGD_SEQ_JUMP only, else 0);
 * @base: the seq to judge the next one against; @why (@n bytes, if not
 * NULL): for BACK, DAMAGED and IMPOSSIBLE, a sentence for the warning.
 * Return: enum lgd_seq.
 */
int lgd_seq_step(const struct lgd_seq_ctx *c, uint64_t seq, uint64_t *lost, uint64_t *base,
		 char *why, size_t n);
/**
 * lgd_item_of_rec() - *@it from record @rec of CPU @cpu, sub-buffer @seq, at
 * byte @off: a record with an absurd timestamp takes @last_ts (the CPU's
 * previous record's) as its @ts, marked @ts_absurd; the payload is copied to
 * @payload (room for a sub-buffer).
 */
void lgd_item_of_rec(struct lgd_item *it, uint32_t cpu, const struct lgd_sb_rec *rec,
		     uint64_t last_ts, uint64_t seq, uint64_t off, uint8_t *payload);
/**
 * lgd_reader_settle() - a record or gap of CPU index @i just taken by a
 * merge (comm records already handled): a record with an absurd timestamp
 * counted (nr_absurd_ts) and, unless @absurd_items, turned into an
 * LGD_GAP_BAD_TS gap in its place; the first record's time kept for
 * relative --from/--to; the filter's verdict in @it->filtered; the counts
 * nr_recs_seen, nr_recs_kept, nr_recorder_out and the lost events of kept
 * gaps (lgd_reader_lost()).
 */
void lgd_reader_settle(struct lgd_reader *r, struct lgd_item *it, uint32_t i, int absurd_items);
/**
 * lgd_reader_lost_init() - lost-events counts at 0 for the @n CPUs @cpus
 * (indexes as given).  Return: 0 or -ENOMEM.
 */
int lgd_reader_lost_init(struct lgd_reader *r, const uint32_t *cpus, uint32_t n);

/* ---- live follow (live.c): sub-buffers as they arrive, merged ---------- */

/*
 * A live merge: the bytes read from each CPU's trace_pipe_raw go in
 * (lgd_live_feed()), items come out merged by time (lgd_live_next()) once
 * no CPU can still deliver an older one, or once they are old enough: a
 * bounded reorder window.  An item is handed out when
 *   - every CPU has an item waiting (the plain k-way merge: each CPU's data
 *     is in time order, so nothing older can come), or
 *   - it is older than the newest record seen by @window_ns of trace clock,
 *   - it has waited @window_ns of wall time (CLOCK_MONOTONIC, given by the
 *     caller as @now_ns) since its sub-buffer was fed, or
 *   - the sub-buffers held exceed @max_bytes (the reorder buffer is full:
 *     handed out early, LGD_LIVE_EARLY), or the caller drains (@drain).
 * A record older than one already handed out (its CPU's data came after
 * the window) is handed out with LGD_LIVE_LATE, never dropped or moved.
 * Memory: the sub-buffers held (at most @max_bytes plus what one
 * lgd_live_feed() adds before the caller calls lgd_live_next() again),
 * and per CPU one partial sub-buffer, one payload copy and a decoder.
 * Items are as lgd_merge_next() gives them: comm records go to the
 * reader's task names (items only with @comm_items), absurd timestamps
 * become LGD_GAP_BAD_TS gaps unless @absurd_items, filtered items are
 * skipped unless @filtered_items (then marked .filtered), the reader's
 * filter and recorder pid apply.  @file_off is the byte offset in the
 * CPU's stream of data fed.
 */
#define LGD_LIVE_LATE	1	/* older than an item already handed out */
#define LGD_LIVE_EARLY	2	/* handed out before its window: buffer full */

struct lgd_live_cpu;

/**
 * struct lgd_live - a live merge of @nr_cpus CPUs of reader @r (metadata:
 * header, sites, symbols; task names added as comm records arrive)
 * @window_ns:  reorder window, trace clock and wall time (ns)
 * @max_bytes:  bound of the sub-buffers held (bytes)
 * @held_bytes: sub-buffers held now (bytes)
 * @newest_ts:  newest record timestamp fed (ns)
 * @last_ts:    timestamp of the last record handed out (ns)
 * @late, @early: records handed out with LGD_LIVE_LATE / LGD_LIVE_EARLY
 * @records:    records handed out (comm records not counted)
 * @on_unknown_site: if set, called with a record's site id when the reader
 *              does not know it, before the filter decides (re-read the
 *              formats there: sites register when they first fire)
 */
struct lgd_live {
	struct lgd_reader *r;
	struct lgd_live_cpu **cpu;
	uint32_t nr_cpus;
	uint64_t window_ns, max_bytes, held_bytes;
	uint64_t newest_ts, last_ts;
	int have_last;
	uint64_t late, early, records;
	int comm_items, absurd_items, filtered_items;
	void (*on_unknown_site)(void *arg, struct lgd_reader *r, uint32_t site);
	void *arg;
};

/**
 * lgd_live_init() - a live merge of the CPUs @cpus[0..@nr-1] of @r (which
 * gives subbuf_size), window @window_ns, sub-buffers held at most
 * @max_bytes (raised to 2 sub-buffers per CPU if lower); the lost-events
 * counts of @r (lgd_reader_lost(): index i is @cpus[i]) start at 0.
 * Return: 0 or -ENOMEM / -EINVAL (@nr 0).
 */
int lgd_live_init(struct lgd_live *lv, struct lgd_reader *r, const uint32_t *cpus,
		 uint32_t nr, uint64_t window_ns, uint64_t max_bytes);
/**
 * lgd_live_feed() - @len bytes read from CPU index @i (into @cpus of
 * lgd_live_init()) at wall time @now_ns; a read may end inside a
 * sub-buffer (a pipe), the rest comes with the next call.  Never refuses
 * data: call lgd_live_next() after it (it hands out early when over
 * @max_bytes).  Return: 0 or -ENOMEM / -EINVAL.
 */
int lgd_live_feed(struct lgd_live *lv, uint32_t i, const void *data, size_t len,
		 uint64_t now_ns);
/**
 * lgd_live_next() - the next item that may be handed out at wall time
 * @now_ns (everything held if @drain), *@flags its LGD_LIVE_* bits.
 * Data problems go to the reader's warning callback.
 * Return: 1 with *@it filled (payload valid until the next call), 0 if
 * none may go out now, -ENOMEM.
 */
int lgd_live_next(struct lgd_live *lv, uint64_t now_ns, int drain, struct lgd_item *it,
		 unsigned int *flags);
/**
 * lgd_live_deadline() - the wall time (ns, as the @now_ns given to
 * lgd_live_feed()) at which the oldest-fed item held becomes due by the
 * window, UINT64_MAX if nothing is held: how long a caller may wait.
 */
uint64_t lgd_live_deadline(const struct lgd_live *lv);
/** lgd_live_cpu_id() - the CPU number of index @i. */
uint32_t lgd_live_cpu_id(const struct lgd_live *lv, uint32_t i);
void lgd_live_free(struct lgd_live *lv);

/*
 * The largest step (ns) between two consecutive records of one CPU that is
 * taken as real: 2^62 ns (146 years; every trace clock counts from boot).
 */
#define LGD_STEP_MAX_NS	(1ULL << 62)

enum lgd_step {
	LGD_STEP_OK,	/* ts >= prev, at most LGD_STEP_MAX_NS later */
	LGD_STEP_BACK,	/* ts < prev: the clock went back */
	LGD_STEP_HUGE,	/* more than LGD_STEP_MAX_NS later: impossible */
};

/**
 * lgd_ts_step() - classify the step from timestamp @prev to @ts (ns) of two
 * consecutive records of one CPU; *@ns: its size (prev - ts for
 * LGD_STEP_BACK), never wrapped.  The one rule of the renderer's "+D us"
 * (lgd_render_item()), of lgd_deltas_add() and so of diff: only LGD_STEP_OK
 * steps are deltas.
 */
enum lgd_step lgd_ts_step(uint64_t prev, uint64_t ts, uint64_t *ns);

/* ---- pairing streams (streams.c) -------------------------------------- */

/*
 * Which records pair (report's "+D us", deltas, diff): a record with the
 * previous record of its stream.  streams.c's file comment has the rule
 * and the exact definition of nested time.
 */
enum lgd_by {
	LGD_BY_CONTEXT = 0,	/* (CPU, context level): the default */
	LGD_BY_CPU = 1,		/* CPU, any context (before issue 11) */
	LGD_BY_TASK = 2,	/* task context: pid across CPUs (pid 0 and
				 * interrupts: as LGD_BY_CONTEXT) */
};

/** lgd_by_parse() - "context", "cpu", "task" -> LGD_BY_*, else -EINVAL. */
int lgd_by_parse(const char *name);
/** lgd_by_name() - the name of LGD_BY_* @by ("?" if none). */
const char *lgd_by_name(int by);

/* CPUs from this on are not paired (the reader gives none: LGD_MAX_CPU) */
#define LGD_STREAMS_MAX_CPU	4096u

/**
 * struct lgd_stream - a stream's previous record (@valid), and what its
 * deeper contexts did since: @nested_ns (sum of run spans, saturating),
 * @nested_recs (records in those runs).  @used, @pid: task hash slot;
 * @gap_seen: its CPU's gap count at that record (LGD_BY_TASK).
 */
struct lgd_stream {
	uint64_t ts;		/* ns */
	uint64_t nested_ns;
	uint64_t nested_recs;
	uint64_t gap_seen;
	uint32_t site, cpu, pid;
	uint8_t valid, used;
	uint8_t kept;		/* the previous record was not .filtered */
};

/** struct lgd_run - a run of records deeper than one level on one CPU. */
struct lgd_run {
	uint64_t first, last;	/* ns */
	uint64_t n;		/* records; 0: no run */
	uint32_t pid;		/* of its first record */
};

/**
 * struct lgd_stream_step - a record's pair with its stream's previous one
 * @has_prev:  0: the first record of its stream (or the first after a gap,
 *             or after a record the filter left out: lgd_item.filtered)
 * @kind, @ns: lgd_ts_step() of the two timestamps (only LGD_STEP_OK is a
 *             delta)
 * @from_site, @from_cpu: the previous record's site and CPU
 * @nested_ns, @nested_recs: nested time between the two (streams.c): sum of
 *             the spans of the runs of deeper-context records, ns; records
 */
struct lgd_stream_step {
	int has_prev;
	enum lgd_step kind;
	uint64_t ns;
	uint32_t from_site, from_cpu;
	uint64_t nested_ns, nested_recs;
};

/**
 * struct lgd_streams - every stream's previous record (streams.c)
 * @cut:    pairs cut by lost-events gaps (a stream with a previous record
 *          forgotten at a gap), also given one by one to @on_cut if set
 */
struct lgd_streams {
	int by;
	uint32_t nr_cpu;
	struct lgd_stream *cs;		/* per CPU, 4 levels */
	struct lgd_run *runs;		/* per CPU, 3 levels */
	uint64_t *gaps;			/* per CPU: gaps seen */
	uint32_t *cur_pid;		/* per CPU: pid of its latest task-context record */
	struct lgd_stream *tasks;	/* LGD_BY_TASK: hash of pids */
	size_t tasks_cap, nr_tasks;
	uint64_t cut;
	uint64_t left_back, left_huge;	/* pairs whose step is no delta (lgd_ts_step()) */
	void (*on_cut)(void *arg, const struct lgd_stream *st);
	void *cut_arg;
};

/** lgd_streams_init() - no stream yet, pairing by @by (LGD_BY_*). */
void lgd_streams_init(struct lgd_streams *s, int by);
/**
 * lgd_streams_add() - feed items in merge order: a record fills *@step with
 * its pair (if it has one); a gap forgets its CPU's streams.  A pair whose
 * step is LGD_STEP_BACK or LGD_STEP_HUGE is counted in @left_back or
 * @left_huge (no delta: every verb says so, lgd_fmt_left_out_n()).
 * Return: 0 or -ENOMEM.
 */
int lgd_streams_add(struct lgd_streams *s, const struct lgd_item *it,
		   struct lgd_stream_step *step);
/** lgd_streams_finish() - after the last item: count the cut task streams. */
void lgd_streams_finish(struct lgd_streams *s);
/** lgd_streams_free() - free the state, keep @by and @on_cut (ready again). */
void lgd_streams_free(struct lgd_streams *s);

/* ---- log-linear histograms (deltas.c) --------------------------------- */

/*
 * A distribution in bounded memory (HDR-histogram style; our own code):
 * values of magnitude below 256 ns have one bucket each; above, each power
 * of two [2^e, 2^(e+1)) is split into 128 buckets of width 2^(e-7).  A
 * bucket is shown by its middle, so a percentile read from the histogram
 * is within 2^-8 (< 0.4 %) of the exact nearest-rank value (relative to
 * it), and exact below 256 ns.  Negative values (durations) have buckets
 * of their own.  Up to LGD_HIST_EXACT_MAX values are also kept as they
 * are, and while a histogram holds no more than that its percentiles are
 * exact.  count, min, max and the sum are always exact.
 * Memory: 1 KB per power of two in use (2 KB for values below 256 ns), per
 * sign: at most 116 KB, plus up to LGD_HIST_EXACT_MAX * 8 bytes, whatever
 * the number of values.
 */
#define LGD_HIST_SUB_BITS	7
#define LGD_HIST_CHUNKS		57	/* chunk 0: 0..255; chunk k: [2^(k+7), 2^(k+8)) */
#define LGD_HIST_EXACT_MAX	1024
/* the stated bound of a histogram percentile's relative error */
#define LGD_HIST_REL_ERROR	"2^-8 (0.39 %)"

/**
 * struct lgd_hist - @count values, @min, @max (ns, valid if @count),
 * @sum (exact: 128 bits), @chunk[0] non-negative values, @chunk[1]
 * magnitudes of negative ones, @exact (the values while @count <=
 * LGD_HIST_EXACT_MAX, else NULL; @exact_cap allocated, grown by doubling)
 */
struct lgd_hist {
	uint64_t count;
	int64_t min, max;
	__int128 sum;
	uint64_t *chunk[2][LGD_HIST_CHUNKS];
	int64_t *exact;
	uint32_t exact_cap;
};

/** lgd_hist_add() - add value @v (ns).  Return: 0 or -ENOMEM. */
int lgd_hist_add(struct lgd_hist *h, int64_t v);
/** lgd_hist_merge() - add every value of @src to @dst.  0 or -ENOMEM. */
int lgd_hist_merge(struct lgd_hist *dst, const struct lgd_hist *src);
/**
 * lgd_hist_quantile() - nearest-rank percentile @q (0 < @q <= 100): the
 * ceil(q/100 * count)-th smallest value; exact while @exact holds every
 * value (count <= LGD_HIST_EXACT_MAX), else the middle of its bucket
 * clamped to [min, max] (error bound above).  0 for an empty histogram.
 * Sorts @exact in place.
 */
int64_t lgd_hist_quantile(struct lgd_hist *h, unsigned int q);
/*
 * Log2 buckets (logdev hist, like bpftrace's hist()): bucket 0 holds the
 * value 0, bucket k (1..64) the values in [2^(k-1), 2^k); for negative
 * values the same by magnitude.
 */
#define LGD_HIST_LOG2_N		65
/**
 * lgd_hist_log2() - the count of @h's values in each log2 bucket: @pos[k]
 * non-negative values, @neg[k] negative ones by magnitude (@neg[0] is 0).
 * Exact: a log2 bucket is a whole number of log-linear buckets.
 */
void lgd_hist_log2(const struct lgd_hist *h, uint64_t pos[LGD_HIST_LOG2_N],
		   uint64_t neg[LGD_HIST_LOG2_N]);
/**
 * lgd_log2_label() - the label of log2 bucket @k (@neg: of negative values)
 * into @b (snprintf): "[0]", "[1]", "[2, 4)", "[1K, 2K)" with binary
 * suffixes K M G T P E (2^10 ... 2^60) where a bound is a multiple of one;
 * negative: "[-1]", "(-4, -2]".  Return: as snprintf.
 */
int lgd_log2_label(char *b, size_t n, unsigned int k, int neg);

/**
 * struct lgd_svg_series - one distribution of a histogram chart
 * @name:   legend text (raw capture text allowed: it is escaped)
 * @pos, @neg: log2 bucket counts (lgd_hist_log2())
 * @count, @min, @median, @max: records and ns, for the legend
 * @marks:  a note printed after the legend line ("" or NULL: none), e.g.
 *          "! pairs cut by lost events"
 */
struct lgd_svg_series {
	const char *name;
	const uint64_t *pos, *neg;
	uint64_t count;
	int64_t min, median, max;
	const char *marks;
};

/**
 * lgd_svg_hist() - write a self-contained SVG 1.1 chart of @n (1 or 2)
 * series' log2 histograms to @f (hist.c: our own code): title @title, x
 * axis the buckets (ns), y axis the count (records), bars side by side per
 * bucket in two colours, a legend line per series with count, min, median
 * and max (us).  All text is lgd_escape()d, then XML-escaped: the file is
 * well-formed XML whatever bytes the names hold.
 * Return: 0, -EINVAL (@n not 1 or 2), or -EIO (a write failed).
 */
int lgd_svg_hist(FILE *f, const char *title, const struct lgd_svg_series *s, int n);
/** lgd_hist_is_exact() - are @h's percentiles exact (all values kept)? */
int lgd_hist_is_exact(const struct lgd_hist *h);
/** lgd_hist_total() - the sum, saturated to [INT64_MIN, INT64_MAX] ns. */
int64_t lgd_hist_total(const struct lgd_hist *h);
void lgd_hist_free(struct lgd_hist *h);

/* ---- deltas ---------------------------------------------------------- */

/**
 * struct lgd_pair - deltas between site @from and the next record @to of its
 * stream (lgd_streams: by context, CPU or task).
 * Values are signed: a return-probe duration (lgd_deltas_add_value()) is
 * negative when the CPUs' clocks disagree; deltas between records are not.
 * @h:          the distribution (lgd_hist: bounded memory)
 * @min, @max, @median, @p99, @total: ns, after lgd_deltas_finish()
 * @approx:     median and p99 come from the histogram (more than
 *              LGD_HIST_EXACT_MAX values): within LGD_HIST_REL_ERROR
 * @nested_n:   deltas of this pair with deeper-context records between
 *              their two records; @nested_ns the sum of their nested time
 *              (lgd_stream_step, saturating), @nested_recs their records
 * @unmatched:  --durations: entries of @from's probe left without return
 *              (the row's count is short of them); else 0
 * @parent:     --durations with @by_parent: the entry site of the innermost
 *              enclosing open entry of the same task and context when this
 *              one began (LGD_NO_SITE: none)
 * @self_ns:    --durations: sum of self times (a duration minus the
 *              durations of the pairs directly nested in it; saturating)
 * @inside_n, @inside_ns: --durations with @inside_site: durations of this
 *              pair that ran inside an entry of that site (at any depth;
 *              the outermost call of the pair's probe only), and their sum
 */
struct lgd_pair {
	uint32_t from, to;
	uint32_t parent;	/* LGD_NO_SITE unless split by parent */
	uint64_t count;
	struct lgd_hist h;
	int64_t min, max, median, p99, total;
	int approx;
	uint64_t nested_n, nested_ns, nested_recs;
	uint64_t unmatched;
	int64_t self_ns;
	uint64_t inside_n;
	int64_t inside_ns;
};

#define LGD_NO_SITE	UINT32_MAX

/** struct lgd_site_count - @n (> 0: the slot is used) for site @site. */
struct lgd_site_count {
	uint32_t site;
	uint64_t n;
};

/*
 * struct lgd_deltas - @left_back, @left_huge: pairs of consecutive records
 * of a stream left out because the timestamp went back, or jumped by more
 * than LGD_STEP_MAX_NS (lgd_ts_step()).
 * @by:       LGD_BY_* (set before the first lgd_deltas_add(); 0: context)
 * @cut:      pairs cut by lost-events gaps (lgd_streams.cut); how many of
 *            them started at a site: lgd_deltas_cut_at() (@cut_tab: a hash
 *            table of @cut_cap slots, @cut_nr in use)
 * @lost:     records lost (gap counts of kinds counted in records) and
 *            @lost_gaps gaps of any kind
 */
struct lgd_deltas {
	struct lgd_pair *pairs;
	size_t nr, cap;
	uint32_t *pair_hash;		/* index + 1 of each pair by (from, to, parent) */
	size_t pair_hash_cap, pair_hash_nr;
	int pairs_moved;		/* sorted since indexed */
#define LGD_PAIR_MEMO 64
	uint32_t pair_memo[LGD_PAIR_MEMO];	/* by to site % 64: the pair last found */
	int by;
	struct lgd_streams st;
	int st_ready;
	uint64_t left_back, left_huge;
	uint64_t cut;
	struct lgd_site_count *cut_tab;
	size_t cut_cap, cut_nr;
	uint64_t lost, lost_gaps, lost_unknown;
	uint64_t records;	/* records fed (items of kind LGD_ITEM_REC) */
	int cut_err;
	/* --durations options, set before lgd_deltas_collect() */
	uint32_t (*user_pairs)[2];	/* edprint (entry, return) site pairs */
	size_t nr_user_pairs;
	int by_parent;
	uint32_t inside_site;		/* LGD_NO_SITE: none (0 in a zeroed struct: set it) */
	int inside_set;
};

enum lgd_sort { LGD_SORT_TOTAL, LGD_SORT_MAX, LGD_SORT_P99, LGD_SORT_MEDIAN,
	       LGD_SORT_COUNT };

/**
 * lgd_deltas_add() - feed items in merge order (pairs across a step that is
 * not LGD_STEP_OK are counted in @left_back / @left_huge, not kept).
 * Return: 0 or -ENOMEM.
 */
int lgd_deltas_add(struct lgd_deltas *ds, const struct lgd_item *it);
/**
 * lgd_deltas_add_value() - add one value of @ns (may be negative) to pair
 * (@from, @to), e.g. a return-probe duration (entry site, return site).
 * Return: 0 or -ENOMEM.
 */
int lgd_deltas_add_value(struct lgd_deltas *ds, uint32_t from, uint32_t to,
			int64_t ns);
/** lgd_deltas_cut_at() - pairs from @site cut by lost events (@ds->cut_tab). */
uint64_t lgd_deltas_cut_at(const struct lgd_deltas *ds, uint32_t site);
/**
 * lgd_deltas_finish() - compute min/median/p99/max/total (saturating at
 * INT64_MIN/INT64_MAX ns, never overflowing) per pair and sort
 * pairs by @key descending (ties: count desc, then from, to ascending).
 * median and p99 are nearest-rank: sorted[ceil(q*n)-1].
 */
void lgd_deltas_finish(struct lgd_deltas *ds, enum lgd_sort key);
void lgd_deltas_free(struct lgd_deltas *ds);

/* ---- return-probe durations ------------------------------------------ */

#define LGD_DUR_DEPTH	32	/* open entries (and early returns) kept per key */
/*
 * How far (ns) a return may come before its entry in merged time, when the
 * two are on different CPUs (the return's CPU clock behind): a task's
 * return with no open entry waits that long for an entry on another CPU.
 */
#define LGD_DUR_SKEW_NS	1000000

enum { LGD_DUR_NONE = 0, LGD_DUR_ENTRY = 1, LGD_DUR_RETURN = 2 };

/** struct lgd_dur_open - one entry, or one return seen before its entry. */
struct lgd_dur_open {
	uint64_t ts;		/* ns */
	uint64_t off;		/* file offset of the record */
	uint32_t site, cpu;
};

/**
 * struct lgd_dur_slot - open entries of one probe for one task/context, and
 * its returns still waiting for an entry (another CPU's clock ahead).
 */
struct lgd_dur_slot {
	uint32_t pid, ctx;
	int64_t cpu;		/* -1: any CPU (a task) */
	const char *name;	/* interned probe name */
	uint32_t depth, nearly;
	struct lgd_dur_open open[LGD_DUR_DEPTH];	/* entries, innermost last */
	struct lgd_dur_open early[LGD_DUR_DEPTH];	/* returns, oldest first */
};

/**
 * struct lgd_dur_pair - a return paired with its entry
 * @entry_site, @ret_site: site ids
 * @entry_cpu, @ret_cpu:   CPUs of the two records
 * @entry_off: file offset of the entry record
 * @ret_off:  file offset of the return record (identifies it: the pair can
 *            come after records that follow the return in merge order)
 * @ret_ts:   ns
 * @ns:       return ts - entry ts; negative when the clocks disagree (the
 *            return on a CPU whose clock is behind the entry's)
 */
struct lgd_dur_pair {
	uint32_t entry_site, ret_site;
	uint32_t entry_cpu, ret_cpu;
	uint64_t entry_off, ret_off, ret_ts;
	int64_t ns;
};

/**
 * struct lgd_dur_stats - every entry and return accounted for (records)
 * After lgd_dur_finish(): entries == paired + huge + entries_unmatched and
 * returns == paired + huge + returns_unmatched.  @huge: an entry and its
 * return more than LGD_STEP_MAX_NS (2^62 ns) apart, either way: damaged
 * stamps, no duration (left out of every statistic; the CLI warns).
 */
struct lgd_dur_stats {
	uint64_t entries, returns;
	uint64_t paired, negative;	/* negative: of the paired */
	uint64_t entries_unmatched, returns_unmatched;
	uint64_t huge;
};

/**
 * struct lgd_durations - pairs return-probe records with their entries
 * (durations.c: sites of file "probe" named NAME and NAME%return).
 */
struct lgd_durations {
	uint32_t nr_sites;
	uint8_t *role;		/* per site id: LGD_DUR_* */
	char **name;		/* per site id: probe name, or NULL */
	struct lgd_dur_slot *slots;
	size_t nr, cap;
	struct lgd_dur_stats stats;
	uint64_t *unmatched;	/* per site id: entries left without return */
};

/**
 * lgd_dur_init() - classify the sites of @s.  Return: 0 or -ENOMEM.
 * lgd_dur_has_returns() then says whether any return site exists.
 */
int lgd_dur_init(struct lgd_durations *du, const struct lgd_sites *s);
int lgd_dur_has_returns(const struct lgd_durations *du);
/**
 * lgd_dur_pair_sites() - after lgd_dur_init(): records of site @entry are
 * entries and records of site @ret their returns (edprint in/out pairs,
 * "--pair FROM,TO"), paired as return probes are (same task and context).
 * Return: 0, -EINVAL (a site unknown, the same, or already a probe's), or
 * -ENOMEM.
 */
int lgd_dur_pair_sites(struct lgd_durations *du, const struct lgd_sites *s,
		       uint32_t entry, uint32_t ret);
/**
 * lgd_dur_add() - feed items in merge order.  A return pairs with the
 * innermost open entry of its probe, task and context; a task's return
 * with none waits up to LGD_DUR_SKEW_NS for an entry on another CPU (and
 * pairs with a negative duration).  What cannot pair is counted unmatched
 * (also entries forgotten at a lost-events gap, or beyond LGD_DUR_DEPTH).
 * Return: 1 if *@out holds a pair (of this record, or of an earlier
 * return this entry completes), 0 otherwise, -ENOMEM.
 */
int lgd_dur_add(struct lgd_durations *du, const struct lgd_item *it,
	       struct lgd_dur_pair *out);
/**
 * lgd_dur_finish() - after the last item: count what is still open as
 * unmatched (@stats is then complete).
 */
void lgd_dur_finish(struct lgd_durations *du);
void lgd_dur_free(struct lgd_durations *du);

/**
 * struct lgd_dur_mark - a return-probe record paired with its entry
 * @off:  file offset of the return record (identifies it)
 * @ns:   its duration (signed, lgd_dur_pair.ns)
 * @entry_cpu, @ret_cpu: CPUs of the entry and the return
 */
struct lgd_dur_mark {
	uint64_t off;
	int64_t ns;
	uint32_t entry_cpu, ret_cpu;
};

/** struct lgd_dur_marks - every pair of a capture, sorted by @off. */
struct lgd_dur_marks {
	struct lgd_dur_mark *v;
	size_t nr;
};

/**
 * lgd_dur_collect() - a whole pass over @r pairing every return with its
 * entry (@du from lgd_dur_init(), finished here: @du->stats complete).  A
 * return on a CPU whose clock is behind comes before its entry in merge
 * order, so a printer needs them all first.  The reader's warnings are
 * silenced during this pass (the printing pass gives them).
 * Return: 0 or -ENOMEM; @mk freed with lgd_dur_marks_free().
 */
int lgd_dur_collect(struct lgd_reader *r, struct lgd_durations *du,
		   struct lgd_dur_marks *mk);
/** lgd_dur_mark_find() - the mark of the record at file offset @off, or NULL. */
const struct lgd_dur_mark *lgd_dur_mark_find(const struct lgd_dur_marks *mk, uint64_t off);
void lgd_dur_marks_free(struct lgd_dur_marks *mk);

/**
 * lgd_deltas_collect() - merge every item of @r into @ds: the time between
 * a record and the previous one of its stream (@ds->by), or with
 * @durations only return-probe durations and the edprint pairs of
 * @ds->user_pairs (pair: entry site, return site; signed), with their self
 * time, split by parent (@ds->by_parent) and the time inside
 * @ds->inside_site (if @ds->inside_set): deltas.c's "nesting" comment.  *@st (if not NULL):
 * how many entries and returns were paired, negative, unmatched.
 * Return: 0, -ENOMEM, or a read error from lgd_merge_next().
 */
int lgd_deltas_collect(struct lgd_reader *r, struct lgd_deltas *ds, int durations,
		      struct lgd_dur_stats *st);

/* ---- diff of two captures' delta tables ------------------------------ */

/**
 * struct lgd_diff_side - one capture's numbers for a pair (ns, records)
 * @approx:    median and p99 from the histogram (lgd_pair.approx)
 * @cut:       pairs starting at its first site were cut by lost events
 * @unmatched: --durations: entries of its probe left without return
 */
struct lgd_diff_side {
	uint64_t count;
	int64_t median, p99;
	int approx, cut;
	uint64_t unmatched;
};

enum { LGD_DIFF_IN_A = 1, LGD_DIFF_IN_B = 2, LGD_DIFF_BOTH = 3 };

/**
 * struct lgd_diff_row - one call-site pair, matched by file, func and line
 *              (and format, where a capture has several sites there)
 * @from, @to:  the pair's labels: "func:line", or "file:func:line" where
 *              the two captures hold that func:line in two files; "#N"
 *              appended where a capture has several sites at that
 *              file:func:line (N: rank of the format among the formats
 *              both captures have there)
 * @present:    LGD_DIFF_IN_A, LGD_DIFF_IN_B or LGD_DIFF_BOTH
 * @a, @b:      each side's numbers (zero where absent); pairs of one
 *              capture at the same places are merged
 * @ratio:      b.median / a.median (both sides only; INFINITY if
 *              a.median is 0 and b.median is not, 1 if both are 0)
 * @change_pct: (b.median - a.median) / a.median * 100, same cases
 * @warn:       LGD_DIFF_W_* bits: the row could not be matched one to one
 */
struct lgd_diff_row {
	char *from, *to;
	int present;
	struct lgd_diff_side a, b;
	double ratio, change_pct;
	unsigned int warn;
};

/* an end's site shares file, func, line and format with another site of
 * its capture: diff cannot tell them apart, their pairs are merged */
#define LGD_DIFF_W_MERGED	1
/* a site left unmatched: matched only by its file name or without a file,
 * it could be any of several sites of the other capture */
#define LGD_DIFF_W_AMBIGUOUS	2

struct lgd_diff {
	struct lgd_diff_row *rows;
	size_t nr;
};

/**
 * lgd_diff_build() - match the pairs of two finished delta tables (@a with
 * sites @sa, @b with @sb) by the file, function and line of their sites,
 * and their format where a capture has several sites at one place; what
 * the same file path left unmatched then by file name (the path's last
 * component: one module built in two trees), then a site with an empty
 * file with that func:line in any file, each only where no other could be
 * meant (one candidate on each side).  Rows that cannot be
 * matched one to one carry LGD_DIFF_W_* bits in @warn.  Rows: pairs of both
 * sides first,
 * largest median increase (b - a, ns) first, so the worst regressions lead
 * and improvements come last; then pairs only in A, then only in B (each
 * by label).  Return: 0 or -ENOMEM.
 */
int lgd_diff_build(struct lgd_diff *df, const struct lgd_deltas *a,
		  const struct lgd_sites *sa, const struct lgd_deltas *b,
		  const struct lgd_sites *sb);
/**
 * lgd_diff_min_count() - drop the rows of @df with fewer than @min deltas
 * (records) on a side where they are present (rare pairs are noise).
 */
void lgd_diff_min_count(struct lgd_diff *df, uint64_t min);
void lgd_diff_free(struct lgd_diff *df);
/**
 * lgd_site_match() - the site of capture @s at the place of @x (a site of
 * another capture), by lgd_diff_build()'s rule: same file path, func, line
 * (and format where a capture has several sites there); else the same file
 * name in another directory; else an empty file on either side.
 * Return: its id; -1 none; -2 several could be meant (not the same path).
 */
int64_t lgd_site_match(const struct lgd_sites *s, const struct lgd_site *x);

/* ---- rendering (render.c): an item to text, for every front end ------- */

/**
 * DOC: terminal-safe text.  Every text a front end prints from a capture
 * (messages, task names, site names from the formats) goes through
 * lgd_escape(), one rule for all: printable ASCII as is but for the
 * backslash (\\); \n \t \r and NUL (\0) as those two-character escapes;
 * every other control byte (0x00-0x1f, DEL 0x7f) as \xHH; valid UTF-8 kept
 * as it is (the terminal is assumed to speak UTF-8) except the C1 controls
 * U+0080-U+009F (an 8-bit CSI is one) and the bidirectional overrides
 * U+202A-U+202E, U+2066-U+2069 ("Trojan source"), whose bytes become \xHH;
 * each byte outside valid UTF-8 (0x80-0xff alone, overlong, surrogate, cut
 * short) as \xHH.  The result is printable, one line, and reversible.
 */
/**
 * lgd_escape() - the @n bytes of @s (NULs included) escaped as above into
 * @dst (@size bytes, NUL-terminated; cut at an escape's edge, never inside).
 * @dst may be NULL with @size 0 to measure.
 * Return: the length of the whole escaped text, bytes (>= @size: cut).
 */
size_t lgd_escape(char *dst, size_t size, const char *s, size_t n);
/** lgd_escape_alloc() - NUL-terminated @s escaped, malloc'd (NULL: no memory). */
char *lgd_escape_alloc(const char *s);
/**
 * lgd_utf8_len() - length (1-4 bytes) of the valid UTF-8 character at @s,
 * looking at no more than @avail bytes, with its code point in *@cp if not
 * NULL; 0 if the bytes there are none (stray continuation, overlong form,
 * surrogate, above U+10FFFF, cut short or by a NUL).  RFC 3629, section 4.
 */
int lgd_utf8_len(const unsigned char *s, size_t avail, uint32_t *cp);
/**
 * lgd_site_label() - the label of site @id in @s: "func:line", or
 * "file:func:line" when another site of @s has the same func and line in
 * another file (@label_file), either followed by "#N" when other sites of
 * @s have the same file, func and line (@label_seq: numbered in format
 * order, then id order), or "site#ID:?" for an unknown id.  Labels are
 * unique within a capture.
 * Written like snprintf() into @buf (@size bytes, NUL-terminated).
 * Return: the length of the whole label (>= @size: it was cut).
 */
int lgd_site_label(const struct lgd_sites *s, uint32_t id, char *buf,
		  size_t size);
/**
 * lgd_site_label_alloc() - lgd_site_label() whole, malloc'd (NULL: no memory).
 */
char *lgd_site_label_alloc(const struct lgd_sites *s, uint32_t id);
/**
 * lgd_site_label_text() - lgd_site_label() escaped for a terminal
 * (lgd_escape()): the label every text table and report line prints (csv
 * and json take the raw lgd_site_label() and escape it per their formats).
 * Return: as lgd_site_label(), or -ENOMEM.
 */
int lgd_site_label_text(const struct lgd_sites *s, uint32_t id, char *buf, size_t size);
/** lgd_site_label_text_alloc() - lgd_site_label_text() whole, malloc'd (NULL: no memory). */
char *lgd_site_label_text_alloc(const struct lgd_sites *s, uint32_t id);
/**
 * lgd_site_label_place() - malloc'd label of site @st (NULL: unknown site
 * @id, "site#ID:?"), naming the file if @with_file and it is known (diff:
 * where two captures together hold the func:line in two files), and ending
 * "#@seq" if @seq is not 0 (diff: the rank of its format at its place).
 */
char *lgd_site_label_place(const struct lgd_site *st, uint32_t id, int with_file,
			  uint32_t seq);

/** LGD_U64_DEC_MAX: bytes lgd_fmt_u64() may write (20 digits; no NUL). */
#define LGD_U64_DEC_MAX 20
/**
 * lgd_fmt_u64() - @v in decimal into @b (at least LGD_U64_DEC_MAX bytes), no
 * NUL, as printf's "%" PRIu64 (two digits per division: no printf on the
 * readers' hot paths; in bprintf.c, used by it and the layers above).
 * Return: the number of digits written (1..20).
 */
size_t lgd_fmt_u64(char *b, uint64_t v);
/** lgd_fmt_us() - @ns as microseconds with 3 decimals, "-" when negative. */
void lgd_fmt_us(char *b, size_t n, int64_t ns);
/**
 * lgd_fmt_dur_summary() - the line "durations: P paired (N negative), E
 * entries without return, R returns without entry\n" into @b (snprintf).
 */
int lgd_fmt_dur_summary(char *b, size_t n, const struct lgd_dur_stats *st);
/**
 * lgd_fmt_left_out() - "N pairs left out: clock went backwards (K), step over
 * 2^62 ns (J)" (no newline) into @b (snprintf) for @ds's @left_back and
 * @left_huge (lgd_ts_step()).  Return: as snprintf; 0 (@b "") when none was.
 */
int lgd_fmt_left_out(char *b, size_t n, const struct lgd_deltas *ds);
/** lgd_fmt_left_out_n() - the same for counts @back and @huge (lgd_streams). */
int lgd_fmt_left_out_n(char *b, size_t n, uint64_t back, uint64_t huge);

/**
 * lgd_render_msg() - message text of record item @it of @r into @buf (@size
 * bytes): the site's format rendered with its payload (LOGDEV_REC_PRINT,
 * LOGDEV_REC_PRINT_SLOTS; one trailing newline removed; "[cut]" marks
 * arguments that were cut, "[missing]" one a payload not flagged cut lacks,
 * lgd_bprintf_rec()), "<unknown site N: M arg bytes>", or "<raw N bytes:
 * xx ...>" (other types: "<type? ...>").  *@status (if not NULL): the
 * LGD_BP_ST_* bits of lgd_bprintf_rec_status(), 0 for the other kinds.
 * The text is terminal-safe: escaped by lgd_escape() (DOC: terminal-safe
 * text), cut at an escape's edge to fit @size, and a text cut to fit
 * ends in "[cut]" (a '*' width of INT_MIN asks for 8 MiB).
 * Return: bytes of text in @buf (no NULs, no control bytes).
 */
size_t lgd_render_msg(const struct lgd_reader *r, const struct lgd_item *it,
		     char *buf, size_t size, unsigned int *status);
/**
 * lgd_render_msg_bytes() - lgd_render_msg() before escaping: the bytes the
 * kernel would have printed (control bytes and NULs included), for writers
 * that escape per their own format (json, csv); a text longer than @size
 * ends in "[cut]".  Return: bytes in @buf.
 */
size_t lgd_render_msg_bytes(const struct lgd_reader *r, const struct lgd_item *it,
			   char *buf, size_t size, unsigned int *status);
/**
 * lgd_render_dur() - append " duration=D us" (3 decimals, signed) for the
 * pair @dm to the @n bytes of @msg (@size bytes); a negative one is marked
 * "(negative: entry on cpu N, clocks disagree)" or "(negative: clock went
 * back on cpu N)".  Return: the new length (cut to fit).
 */
size_t lgd_render_dur(char *msg, size_t size, size_t n, const struct lgd_dur_mark *dm);

enum { LGD_RENDER_TEXT = 0, LGD_RENDER_RAW = 1 };

/**
 * struct lgd_render - line renderer of one capture (render.c's file comment
 * shows the two styles).  Keeps each stream's previous record (@st,
 * streams.c: by CPU and context level unless lgd_render_by()) for the
 * "+D us" delta (none for a stream's first record and after a gap).
 * @missing:  records rendered so far whose payload lacked an argument
 *            their format needs ("[missing]", LGD_BP_ST_MISSING): a front
 *            end warns once per capture with this count
 */
struct lgd_render {
	const struct lgd_reader *r;
	int style;		/* LGD_RENDER_TEXT or LGD_RENDER_RAW */
	struct lgd_streams st;
	char *label;		/* lgd_render_label()'s buffer */
	size_t label_cap;
	char **labels;		/* per site id: its label text, made once */
	uint32_t *label_len;	/* their lengths (bytes) */
	const struct lgd_site **label_site;	/* the site each was made from */
	uint32_t nr_labels;	/* size of the three (the reader's sites.nr) */
	char *line;		/* the line being built */
	size_t len, cap;
	int err;
	uint64_t missing;
	char msg[8192];		/* a message is cut at 8191 bytes */
};

/** lgd_render_init() - for items of @r in @style.  Return: 0 or -ENOMEM. */
int lgd_render_init(struct lgd_render *rd, const struct lgd_reader *r, int style);
/**
 * lgd_render_by() - "+D us" pairs records by @by (LGD_BY_*; default
 * LGD_BY_CONTEXT), from the next item on; call before the first.
 */
void lgd_render_by(struct lgd_render *rd, int by);
/**
 * lgd_render_item() - the line (ending in a newline) of item @it, given in
 * merge order; @dur the duration mark of this record (lgd_dur_mark_find())
 * or NULL.  *@text points to it, valid until the next call.
 * Return: its length in bytes (it may hold NULs: write it with fwrite), or
 * -ENOMEM.
 */
long lgd_render_item(struct lgd_render *rd, const struct lgd_item *it,
		    const struct lgd_dur_mark *dur, const char **text);
/**
 * lgd_render_label() - the whole label of site @id (lgd_site_label()), in a
 * buffer of @rd valid until the next call.  Never cut unless out of memory.
 */
const char *lgd_render_label(struct lgd_render *rd, uint32_t id);
/**
 * lgd_render_forget_labels() - drop the labels lgd_render_item() keeps per
 * site (made once per site id, remade when the site's struct or the number
 * of sites changes); call it after changing the reader's sites in place
 * (lgd_sites_parse(), lgd_sites_mark_labels()) while rendering.
 */
void lgd_render_forget_labels(struct lgd_render *rd);
void lgd_render_free(struct lgd_render *rd);

/* ---- trace.dat (trace-cmd file format v6) writer: tracedat.c ---------- */

#define LGD_TDW_MAX_CPUS	4096

struct lgd_tdw_cpu;

/*
 * Bytes of one CPU's data a trace.dat may hold by default: trace-cmd 3.1.6
 * and 3.3.1 read a CPU's data of 2^31 bytes or more cut short, at about
 * 65,400 pages, and exit 0 (issue 24; its page_map_size is an int: past
 * 2^31 it maps one page at a time until vm.max_map_count), so the writer
 * refuses to pass 2 GiB less one page.  docs/TRACE-CMD.md has the
 * measurements.
 */
#define LGD_TDW_CPU_MAX		((1ull << 31) - 4096)

/**
 * struct lgd_tdw - a trace.dat v6 being written (tracedat.c's file comment
 * has the layout): events are added per CPU in time order into 4096-byte
 * pages kept in temporary files; lgd_tdw_finish() writes the file.
 * @cpu_max: bytes of data one CPU may reach (lgd_tdw_init(): 0 is
 *           LGD_TDW_CPU_MAX); beyond, adding returns -EOVERFLOW
 * @full_cpu: the CPU that reached @cpu_max (after -EOVERFLOW)
 * @events: events added
 */
struct lgd_tdw {
	uint64_t cpu_max;
	uint32_t full_cpu;
	struct lgd_tdw_cpu **cpus;
	uint32_t nr_cpus;
	char **formats;
	size_t nr_formats;
	uint8_t *opts;
	size_t opts_len;
	uint64_t events;
};

/* trace.dat option ids (trace-cmd's enum tracecmd_option_id) */
#define LGD_TDW_OPT_CPUSTAT	2
#define LGD_TDW_OPT_TRACECLOCK	4
#define LGD_TDW_OPT_VERSION	9

/**
 * lgd_tdw_init() - an empty writer whose CPUs may hold @cpu_max bytes of
 * data each (0: LGD_TDW_CPU_MAX; whole 4096-byte pages: below 4096 no CPU
 * may have data).  Return: 0.
 */
int lgd_tdw_init(struct lgd_tdw *w, uint64_t cpu_max);
/**
 * lgd_tdw_event() - add an event of CPU @cpu (< LGD_TDW_MAX_CPUS) at @ts
 * (ns; a time before the previous event of @cpu starts a new page) whose
 * payload (common header first) is @len bytes (padded to 4).
 * Return: 0, -E2BIG (longer than a page holds), -EINVAL, -ENOMEM, -EIO.
 */
int lgd_tdw_event(struct lgd_tdw *w, uint32_t cpu, uint64_t ts, const void *payload,
		  uint32_t len);
/**
 * lgd_tdw_missed() - @count events of @cpu were lost here (< 0: an unknown
 * number); the next event of @cpu starts a page marked with the losses
 * (counts of several calls add up; one unknown makes the sum unknown).
 * Return: 0 or negative errno.
 */
int lgd_tdw_missed(struct lgd_tdw *w, uint32_t cpu, int64_t count);
/** lgd_tdw_option() - add option @id with @size bytes of @data.  0 or -ENOMEM. */
int lgd_tdw_option(struct lgd_tdw *w, uint16_t id, const void *data, uint32_t size);
/** lgd_tdw_format() - add an event format text (of the one system).  0 or -ENOMEM. */
int lgd_tdw_format(struct lgd_tdw *w, const char *text);
/**
 * lgd_tdw_finish() - write the whole file to @out (seekable or not: only
 * ftell() is used): headers, the formats under @system, the @kallsyms text
 * (@kallsyms_len bytes, may be 0), the @cmdlines text ("pid comm" lines),
 * the options, then every CPU's pages.  Return: 0 or negative errno.
 */
int lgd_tdw_finish(struct lgd_tdw *w, FILE *out, const char *system,
		   const char *kallsyms, size_t kallsyms_len,
		   const char *cmdlines, size_t cmdlines_len);
void lgd_tdw_free(struct lgd_tdw *w);

/* ---- capture -> trace.dat: convert.c ---------------------------------- */

/**
 * struct lgd_convert_stats - what lgd_convert_tracedat() wrote
 * @records: events written (one per record)
 * @gaps:    lost-events gaps marked on pages (@gaps_unknown of them without
 *           a count: sub-buffers lost, or corrupt data skipped)
 * @sites:   events defined (call sites, and unknown sites seen)
 * @too_big: records left out because they do not fit a page (never with
 *           records of at most LOGDEV_MAX_PAYLOAD bytes of arguments)
 * @dur_huge: return-probe pairs without a duration (lgd_dur_stats.huge)
 * @full_cpu: after -EOVERFLOW, the CPU whose data reached the limit
 * @cpu_max:  the limit that applied (bytes of one CPU's data)
 */
struct lgd_convert_stats {
	uint64_t records, gaps, gaps_unknown, too_big;
	uint64_t dur_huge;	/* return-probe pairs over 2^62 ns apart: no duration */
	uint32_t sites;
	uint32_t full_cpu;
	uint64_t cpu_max;
};

/**
 * lgd_convert_tracedat() - write capture @r as a trace.dat v6 file to @out,
 * one event per call site in system "logdev", laid out as the file comment
 * of convert.c says (fields site, file, line, ctx, delta_ns, msg, arg0...;
 * the message rendered by lgd_render_msg() with return-probe durations, as
 * logdev report prints it).  Lost events mark the next page of their CPU;
 * the clock, per-CPU stats and kallsyms of the capture go into the file.
 * @cpu_max: bytes of one CPU's data the file may hold (0: LGD_TDW_CPU_MAX,
 * what trace-cmd reads whole; UINT64_MAX: no limit).
 * Return: 0, -ENOMEM, -EOVERFLOW (a CPU's data would pass @cpu_max:
 * @st->full_cpu; nothing is written to @out), a write's -errno (-ENOSPC,
 * -EFBIG, -EIO...), or a read error of lgd_merge_next(); @st filled.
 */
int lgd_convert_tracedat(struct lgd_reader *r, FILE *out, uint64_t cpu_max,
			 struct lgd_convert_stats *st);

#endif /* LIBLOGDEV_H */
