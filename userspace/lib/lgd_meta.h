/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lgd_meta.h: the capture's metadata as the library reads it: a problem
 * found in the input (struct lgd_diag), the header, the call sites (formats)
 * and probes lines, kallsyms and module symbols (meta.c, ksyms.c, modlog.c).
 * Part of liblogdev (layer: library; liblogdev.h includes every area).
 */
#ifndef LIBLOGDEV_META_H
#define LIBLOGDEV_META_H

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

/**
 * lgd_diag_set() - fill *@d (if not NULL): @err, @off (or -1), no CPU or
 * seq, the message printf'd from @fmt.  Return: @err, for
 * "return lgd_diag_set(d, -EINVAL, ...);".
 */
int lgd_diag_set(struct lgd_diag *d, int err, int64_t off, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

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

/**
 * lgd_clock_name() - the trace clock that stamped a capture's records: its
 * header's "clock" ("local", "global", "mono"), or "local", logdev's
 * default, for a header without the line.  Never NULL.
 */
const char *lgd_clock_name(const struct lgd_header *h);

/**
 * lgd_clock_ftrace() - the ftrace trace_clock (tracing/trace_clock) that
 * stamps as logdev's @clock does: "local" (trace_clock_local()), "global"
 * (trace_clock_global()), "mono" (ktime_get_mono_fast_ns()); NULL for a
 * name logdev does not know.
 */
const char *lgd_clock_ftrace(const char *clock);

/**
 * lgd_clock_desc() - "CLOCK (ftrace clock FTRACE)", or "CLOCK (no ftrace
 * clock matches)", of @h's clock in @buf (@size bytes, cut to fit).
 * Return: @buf.
 */
char *lgd_clock_desc(const struct lgd_header *h, char *buf, size_t size);

/* ---- call sites ------------------------------------------------------ */

/**
 * struct lgd_site - one line of debugfs "formats"; @fmt unescaped.
 * @label_file: another site of the capture has the same @func and @line in
 *              another @file, so its label names the file (lgd_site_label())
 * @label_seq:  0, or N >= 1 where other sites of the capture have the same
 *              @file, @func and @line: the label ends "#N", N numbering
 *              those sites in @fmt order (strcmp), then id order.  Probe
 *              sites (@file "probe") are numbered by format: the sites of
 *              one probe definition are one site (@canon), and a probe
 *              name has "#N" only where it stands for two definitions
 * @twin:       another site of the capture has the same @file, @func, @line
 *              and @fmt (registered twice, an inline function of a header
 *              in two modules): only the id tells them apart; never set
 *              on probe sites (they are one site)
 * @canon:      0, or the id of the site this one is (a probe site with the
 *              @func, @line and @fmt of an earlier id: the probe removed and
 *              added again by a module that gave it a new id); the merge
 *              hands out its records with that id
 * @unused:     a probe definition no record of the capture has, where its
 *              name has another that one has (lgd_sites_mark_used()): left
 *              out of the labels' numbering and of the lookups by label, so
 *              an old definition kept in the module's formats does not put
 *              "#N" on the one recorded
 * @prog:       @fmt walked once (lgd_fmt_compile()): what the renderer
 *              (bprintf.c) reads instead of the text; NULL only for a site
 *              made outside lgd_sites_parse(), which then renders from @fmt
 */
struct lgd_fmtprog;
struct lgd_site {
	uint32_t id;
	uint32_t line;
	char *file;
	char *func;
	char *fmt;
	int label_file;
	uint32_t label_seq;
	int twin;
	uint32_t canon;
	int unused;
	struct lgd_fmtprog *prog;
};

/** struct lgd_sites - call sites indexed by id (@by_id[id] may be NULL). */
struct lgd_sites {
	struct lgd_site **by_id;
	uint32_t nr;		/* size of by_id */
	uint32_t nr_merged;	/* sites with a @canon */
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

/** lgd_sites_get() - site @id or NULL (inline: once or more per record). */
static inline const struct lgd_site *lgd_sites_get(const struct lgd_sites *s, uint32_t id)
{
	return id < s->nr ? s->by_id[id] : NULL;
}
void lgd_sites_free(struct lgd_sites *s);
/**
 * lgd_sites_mark_labels() - set every site's @label_file, @label_seq, @twin
 * and @canon, and @nr_merged (lgd_sites_parse() does it after each text).
 * Return: 0 or -ENOMEM.
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
 * @modlog_bad_line: the first malformed line of the last module log added
 *               (1-based, counted as lgd_ksyms_add_modlog() counts), 0: none
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
	uint32_t modlog_bad_line;
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
 * Call after lgd_ksyms_parse() (or on a zeroed @k).  A last line without
 * its newline is read as a whole one.  @k->modlog_bad_line: the first
 * malformed line's number (1-based), 0 if none.
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

#endif /* LIBLOGDEV_META_H */
