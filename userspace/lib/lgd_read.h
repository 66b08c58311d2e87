/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lgd_read.h: an open capture (reader.c, resync.c): filters (filter.c), the
 * reader, task names (comm.c).
 * Part of liblogdev (layer: library; liblogdev.h includes every area).
 */
#ifndef LIBLOGDEV_READ_H
#define LIBLOGDEV_READ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <uapi/linux/logdev.h>
#include "lgd_meta.h"

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
struct lgd_comm_task;	/* comm.h (library-private) */

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
 * @last_boot: text of the LAST_BOOT section (NUL-terminated; capture.h:
 *              a capture converted from a previous boot's flight-recorder
 *              area) or NULL
 * @cost, @have_cost: the PROBE_COST section (lgd_cost_check()), if the
 *              capture has one this reader can use (the last one wins)
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
 *              far by a merge of this reader, or all of them once a
 *              merge went to the end (@comms_all; lgd_comm_load(), or a
 *              verb's own earlier pass): a hash table of @comm_tab_cap
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
	char *last_boot;
	struct logdev_probe_cost cost;
	int have_cost;
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
	int filter_on;		/* lgd_filter_active(@filter) when it was set */
	uint8_t *filter_sites;	/* per site id: 1 kept by filter's --site */
	uint32_t nr_filter_sites;
	int filter_base_set;
	uint64_t filter_base;	/* ns: first record's ts (relative --from/--to) */
	struct lgd_sect_fix *fixes;	/* corrupt section headers found at open and
				 * how they are read (reader.c), by offset */
	uint32_t nr_fixes;
	uint64_t no_hdr_from;	/* resync.c: a scan from here found no section
				 * header up to the end of the file (0: none
				 * finished yet); later scans from here on stop */
	uint32_t no_hdr_sbs;	/* the sub-buffer size that scan judged with */
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
 * only with LGD_ITEMS_FILTERED; @f (NULL: none) must outlive @r.
 * The recorder's own records (RECORDER section) are left out unless
 * @f->include_recorder, with or without a filter.  With --comm the next
 * merge reads the task names first, if no merge has met them all yet
 * (lgd_merge_open()).  Return: 0 or -ENOMEM.
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

#define LGD_COMM_UNORDERED_MAX	256

/**
 * lgd_reader_comm_matches() - does a task name the reader knows (the names
 * met so far, all of them after a merge went to the end) match one of its filter's
 * --comm patterns?  Return: 1 yes, 0 no (or no --comm pattern).
 */
int lgd_reader_comm_matches(const struct lgd_reader *r);

/**
 * lgd_comm_load() - read every comm record of the capture (one pass over
 * its data, without warnings; none if a merge of @r went to the end, as
 * that met them all), so that lgd_comm_at() knows all names, also of
 * records before their task's first comm record that was kept.  A merge
 * adds the names as it meets them, and calls this before it starts when
 * its filter needs them (lgd_merge_open()).
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

#endif /* LIBLOGDEV_READ_H */
