/* SPDX-License-Identifier: GPL-2.0 */
/*
 * reader_int.h: what the read files of the library share (library-private:
 * reader.c, resync.c, comm.c, stream.c, merge.c, live.c): limits, warnings,
 * the corrupt-section notes and the per-CPU stream a merge heaps (the one
 * decoder of a CPU's sub-buffers, from a capture file or read live).
 */
#ifndef LGD_READER_INT_H
#define LGD_READER_INT_H

#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include "liblogdev.h"

#define LGD_MAX_CPU	4096	/* section CPU numbers accepted: 0..4095 */
#define LGD_WARN_BURST	10	/* warnings of one kind before summing up */

enum { RL_TS_BACK, RL_CPU_MISMATCH, RL_SEQ_BACK, RL_NR };
extern const char *const lgd_rl_name[RL_NR];	/* stream.c */

#define LGD_MISSING_IDS	16	/* missing call sites warned about one by one */

/* state shared by the CPU streams of one merge */
struct lgd_merge_shared {
	uint64_t nwarn[RL_NR];
	uint64_t missing_sites;	/* records whose site is not in the formats */
	struct {		/* the first LGD_MISSING_IDS such sites, in merge order */
		uint32_t site, cpu;
		uint64_t n;	/* records of it */
		uint64_t off, seq;	/* the first one's file offset, sub-buffer seq */
	} miss[LGD_MISSING_IDS];
	uint32_t nr_miss;
	uint64_t miss_other;	/* records of missing sites beyond those */
	int summed_up;
};

/*
 * Sections lie back to back (capture.h), each found from the length of the
 * one before, so one wrong length field would hide every section after it.
 * A section is damaged when its length runs past the end of the file or
 * its end is no section header (hdr_plausible()) while a section header
 * does follow further on (resync_scan()): the open's walk then warns and
 * notes how to read that stretch of the file, and the CPU streams, which
 * walk the section headers again, read it the same way (fix_at()):
 *   - the section's length is corrupt (past the end of the file, the next
 *     header before its end, or its sub-buffers or text, bytes without a
 *     NUL, going on past its end): its data are the bytes up to the next
 *     section header;
 *   - the section is whole but the header after it is corrupt: the bytes
 *     from there to the next header are read as a CPU_DATA section of the
 *     CPU its sub-buffers name, or, if they are no sub-buffers, skipped.
 * A file that ends inside a section and has no section header after its
 * start is cut short, and said to be (truncated), as before.
 */
struct lgd_sect_fix {
	uint64_t off;		/* the section header at this offset */
	uint64_t next;		/* is followed by the one at this offset */
	uint64_t len;		/* bytes of data read for it, from off + 16 */
	uint32_t type;		/* read as a section of this type (0: skipped) */
	uint32_t cpu;		/* and, for CPU_DATA, of this CPU */
};

/* ---- per-CPU stream ------------------------------------------------ */

struct lgd_cpu_stream;

/*
 * Where a stream's sub-buffers come from when not from the capture file's
 * sections (live.c: the sub-buffers read from trace_pipe_raw, queued).
 * @next: make the next sub-buffer current (s->sb, s->sb_off, s->sb_avail);
 *        0 if there is none (yet: a live stream goes on after more data)
 * @peek_seq: the seq of the sub-buffer after the current one, if known
 *        (1 with *@seq, else 0); the stream is not moved
 */
struct lgd_stream_src {
	int (*next)(struct lgd_cpu_stream *s);
	int (*peek_seq)(const struct lgd_cpu_stream *s, uint64_t *seq);
};

struct lgd_cpu_stream {
	const struct lgd_stream_src *src;	/* NULL: the capture file */
	void *src_arg;		/* the source's own state */
	struct lgd_reader *r;
	struct lgd_merge_shared *sh;
	uint32_t cpu;
	uint32_t idx;		/* index in r->cpus and the merge's lost counts */
	uint64_t scan_off;	/* next section header to look at */
	uint64_t sect_off;	/* next unread byte of the current section */
	uint64_t sect_left;	/* bytes left in the current section */
	int eof;

	uint8_t *sb;		/* current sub-buffer (in @ra) */
	uint8_t *ra;		/* read-ahead: whole sub-buffers, one pread() */
	uint32_t ra_cap;	/* its size (bytes, a multiple of subbuf_size) */
	uint32_t ra_len;	/* bytes in it */
	uint64_t ra_off;	/* file offset of its first byte */
	uint64_t sb_off;	/* its file offset (live: offset in the data fed) */
	uint32_t sb_avail;	/* bytes of it present */
	struct lgd_sb *dec;	/* its decoder: header and record walk */
	uint64_t seq;
	int have_prev_seq;
	uint64_t prev_seq;	/* the previous sub-buffer's seq (as read: lgd_seq_step()) */
	uint64_t prev_first_ts;	/* and its first_ts */
	uint64_t last_ts;	/* ts of the CPU's previous record */

	struct lgd_item pending[LGD_SB_GAPS_MAX];	/* gaps waiting before the records */
	int npending, ipending;

	struct lgd_item head;	/* next item to hand out (valid if has_head) */
	int has_head;
	uint8_t *payload;	/* copy of head's payload (a live source's; a file's stays in @ra) */
};

/* resync.c: a warning to @r's callback, if any */
void lgd_rd_warn(struct lgd_reader *r, int err, int64_t off, int64_t cpu,
		 int64_t seq, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
void lgd_rd_vwarn(struct lgd_reader *r, int err, int64_t off, int64_t cpu,
		  int64_t seq, const char *fmt, va_list ap);
/* pread exactly @len bytes at @off; returns bytes read (short at EOF) or -errno */
ssize_t lgd_rd_pread(int fd, void *buf, size_t len, uint64_t off);
/* resync.c: the fix noted for the section header at @off, or NULL */
const struct lgd_sect_fix *lgd_rd_fix_at(const struct lgd_reader *r, uint64_t off);
/*
 * resync.c: check the section header at @off (@type, @cpu, @len; @sbs the
 * sub-buffer size, 0 if not known yet); a corrupt one is warned and noted
 * in r->fixes.  Return: 0 or -ENOMEM.
 */
int lgd_rd_check_sect(struct lgd_reader *r, uint64_t off, uint32_t type, uint32_t cpu,
		      uint64_t len, uint32_t sbs);
/* stream.c: the next item of @s into s->head.  Return: 1, 0 at the end, or -errno */
int lgd_stream_advance(struct lgd_cpu_stream *s);
/* comm.c: lgd_comm_add() */
int lgd_comm_put(struct lgd_reader *r, uint32_t pid, uint64_t ts,
		 const uint8_t *payload, uint32_t bytes);

#endif /* LGD_READER_INT_H */
