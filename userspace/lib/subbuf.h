/* SPDX-License-Identifier: GPL-2.0 */
/*
 * subbuf.h: the sub-buffer decoder (and its encoder, for tests and tools).
 *
 * subbuf.c is the one userspace file that knows the byte layout of a
 * sub-buffer and of a record (struct logdev_subbuf_hdr, struct
 * logdev_rec_hdr in include/uapi/linux/logdev.h: offsetof/sizeof and
 * little-endian loads).  Everything above it (the capture reader, the
 * merge, record counting, the test builders) goes through this API, in the
 * manner of libtraceevent's kbuffer: load a sub-buffer, check it, walk its
 * records, read its losses and timestamps.
 *
 * Format versions: 3 (LOGDEV_FORMAT_VERSION: version 2 plus the comm record
 * type) and 2 (a 48-byte header with one
 * loss count per cause) and 1 (older captures: a 40-byte header whose
 * dropped_before counts dropped, nesting_lost and too_big records
 * together); lgd_sb_load() reads the version of each sub-buffer and decodes
 * its layout, so nothing above this file depends on the version.
 *
 * It also knows the byte layout of the flight recorder's area structs
 * (struct logdev_area_hdr, _cpu, _seal: decoded and encoded below), which
 * area.c validates.
 *
 * Shapes: struct lgd_sb is opaque (lgd_sb_alloc()); it points into the
 * caller's bytes, which must stay valid until the next lgd_sb_load().
 * Offsets are bytes from the start of the sub-buffer; timestamps ns.
 * Nothing here prints, allocates (except lgd_sb_alloc) or exits.
 */
#ifndef LGD_SUBBUF_H
#define LGD_SUBBUF_H

#include <stddef.h>
#include <stdint.h>
#include <uapi/linux/logdev.h>

struct lgd_sb;

/**
 * struct lgd_sb_info - a sub-buffer header, decoded (fields as in the uapi)
 *
 * Losses before the sub-buffer, in records, one count per cause: the four
 * *_before of version 2; a version 1 header has only @overrun_before and
 * @lost_before (its dropped_before: dropped, nesting_lost or too_big, not
 * told apart), and @dropped_before, @nesting_lost_before and
 * @too_big_before are 0.  A version 2 header has @lost_before 0.  The
 * encoder (lgd_sb_enc_begin()) writes them the same way by @version.
 */
struct lgd_sb_info {
	uint32_t magic;
	uint16_t version;
	uint16_t cpu;
	uint64_t seq;
	uint64_t first_ts;	/* ns */
	uint32_t data_bytes;	/* bytes of records after the header */
	uint32_t flags;		/* LOGDEV_SB_* */
	uint32_t dropped_before;	/* v2: discard mode, buffer full */
	uint32_t overrun_before;	/* records of overwritten sub-buffers */
	uint32_t nesting_lost_before;	/* v2: nesting too deep, sub-buffer busy */
	uint32_t too_big_before;	/* v2: larger than a sub-buffer */
	uint32_t lost_before;		/* v1: the three above, together */
};

/* a header field, for the offset of a diagnostic (lgd_sb_field_off()) */
enum lgd_sb_field {
	LGD_SB_F_MAGIC, LGD_SB_F_VERSION, LGD_SB_F_CPU, LGD_SB_F_SEQ,
	LGD_SB_F_FIRST_TS, LGD_SB_F_DATA_BYTES, LGD_SB_F_FLAGS,
	LGD_SB_F_DROPPED, LGD_SB_F_OVERRUN, LGD_SB_F_NESTING_LOST, LGD_SB_F_TOO_BIG,
	LGD_REC_F_TS, LGD_REC_F_SITE, LGD_REC_F_LEN, LGD_REC_F_TYPE, LGD_REC_F_CTX,
	LGD_REC_F_PID, LGD_REC_F_ARG_BYTES,
	LGD_SB_F_NR
};

/** lgd_sb_field_off() - offset (bytes) of @f in its header (sub-buffer or record). */
uint32_t lgd_sb_field_off(enum lgd_sb_field f);

/**
 * lgd_sb_layout_check() - does the debugfs "header" line "field: NAME
 * offset:OFF size:SIZE" agree with this reader?  Return: 1 yes, 0 the
 * field is known and differs, -1 unknown name (accepted: a new field).
 * Every version's fields sit at the same offsets (version 1's header is the
 * first 40 bytes of version 2's), so the answer does not depend on it.
 */
int lgd_sb_layout_check(const char *name, uint32_t off, uint32_t size);

/** lgd_sb_alloc() - a decoder, or NULL (out of memory); lgd_sb_free() it. */
struct lgd_sb *lgd_sb_alloc(void);
void lgd_sb_free(struct lgd_sb *sb);

/* lgd_sb_load() results */
enum lgd_sb_status {
	LGD_SB_OK = 0,
	LGD_SB_SHORT,		/* fewer bytes than a header (of its version):
				 * nothing decoded */
	LGD_SB_BAD_MAGIC,	/* not a sub-buffer: skip it */
	LGD_SB_BAD_VERSION,	/* a format version this reader does not know */
	LGD_SB_BAD_DATA_BYTES,	/* data_bytes > subbuf_size - header: skip it */
	LGD_SB_DATA_CUT,		/* usable, but fewer data bytes present than
				 * data_bytes says (records walked up to there) */
};

/**
 * lgd_sb_load() - decode the header of the sub-buffer at @buf (@avail bytes
 * present, of a sub-buffer of @subbuf_size bytes) and start the record
 * walk.  *@info (if not NULL) gets the header (also for bad magic, version
 * or data_bytes, except for LGD_SB_SHORT; for bad magic or version, only the
 * fields every version has, the first 40 bytes).  The bytes are not copied.
 * Return: enum lgd_sb_status; lgd_sb_next() yields records only after
 * LGD_SB_OK or LGD_SB_DATA_CUT.
 */
int lgd_sb_load(struct lgd_sb *sb, const void *buf, size_t avail,
	       uint32_t subbuf_size, struct lgd_sb_info *info);

/**
 * lgd_sb_is_subbuf() - does a sub-buffer start at @buf (@avail bytes
 * present): its magic and a format version this reader knows?  *@cpu (if
 * not NULL) gets its header's CPU.  For the capture reader's
 * resynchronisation after a corrupt section header.
 * Return: 1 yes, 0 no, -1 too few bytes to tell (fewer than the 8 of
 * magic, version and cpu).
 */
int lgd_sb_is_subbuf(const void *buf, size_t avail, uint16_t *cpu);

/**
 * lgd_sb_peek_seq() - *@seq of the sub-buffer at @buf (@avail bytes) if it
 * has the magic and a known version.  Return: 1, 0 (no sub-buffer), -1 too
 * few bytes (its seq ends at byte 16).
 */
int lgd_sb_peek_seq(const void *buf, size_t avail, uint64_t *seq);
/**
 * lgd_sb_peek_before() - the dropped, nesting_lost and too_big counts
 * (records) of the version 2+ sub-buffer header at @buf (@avail bytes).
 * Return: 0, or -1 (too small, or version 1 or unknown).
 */
int lgd_sb_peek_before(const void *buf, size_t avail, uint64_t before[3]);

/**
 * lgd_sb_hdr_size() - bytes of a sub-buffer header of format @version (the
 * data start there): 48 for 2, 40 for 1; 0 for a version this reader does
 * not know (so also: "is @version readable?").
 */
uint32_t lgd_sb_hdr_size(uint32_t version);

/**
 * struct lgd_sb_rec - one record, or why the walk stopped
 * @hdr:      record header; @hdr.ctx holds the enum logdev_ctx only
 * @flags:    the other bits of the stored ctx byte (LOGDEV_REC_F_CUT)
 * @payload:  @hdr.arg_bytes bytes inside the loaded sub-buffer
 * @off:      offset of the record in the sub-buffer
 * @bad_off:  for an error: offset of the offending field or bytes
 * @left:     for LGD_SB_REC_BAD_LEN / LGD_SB_REC_TRAILING: bytes of data left
 *            from @off to the end of the data (skipped)
 */
struct lgd_sb_rec {
	struct logdev_rec_hdr hdr;
	uint8_t flags;
	const uint8_t *payload;
	uint32_t off;
	uint32_t bad_off;
	uint32_t left;
};

/* lgd_sb_next() results */
enum lgd_sb_next_status {
	LGD_SB_REC_END = 0,	/* no more records */
	LGD_SB_REC = 1,		/* *@rec holds a record */
	LGD_SB_REC_BAD_LEN = -1,	/* length below the header, not a multiple of
				 * 8, or past the data: rest of data skipped */
	LGD_SB_REC_BAD_ARGS = -2,/* arg_bytes beyond the record: record skipped
				 * (the walk goes on after it) */
	LGD_SB_REC_TRAILING = -3,/* bytes left too short for a record header */
	LGD_SB_REC_CUT = -4,	/* the sub-buffer was cut (LGD_SB_DATA_CUT) inside
				 * this record: truncation, not corruption (a
				 * length that fits data_bytes, or a header cut) */
};

/**
 * lgd_sb_next() - the next record of the loaded sub-buffer.
 * Return: enum lgd_sb_next_status; after BAD_LEN, TRAILING or CUT the next
 * call returns LGD_SB_REC_END.
 */
int lgd_sb_next(struct lgd_sb *sb, struct lgd_sb_rec *rec);

/**
 * lgd_sb_count_records() - records in @n bytes of whole sub-buffers of
 * @subbuf_size bytes (for progress: stops at the first sub-buffer that is
 * cut short or whose data_bytes is impossible, and at a bad record length).
 */
uint64_t lgd_sb_count_records(const void *buf, size_t n, uint32_t subbuf_size);

/* ---- encoder (tests, tools): the same layout, written ---------------- */

/**
 * lgd_sb_enc_begin() - write the header @info into @buf (@size bytes) in the
 * layout of @info->version (1 or 2; see struct lgd_sb_info for the loss
 * counts each has) with data_bytes 0 (@info->data_bytes is ignored).
 * Return: the offset of the first record (the header size), or 0 if @size
 * is too small or the version unknown.
 */
uint32_t lgd_sb_enc_begin(void *buf, size_t size, const struct lgd_sb_info *info);

/**
 * lgd_sb_enc_rec() - append a record at @pos (as returned by the previous
 * call) with header fields from @hdr (@hdr->len is computed: header plus
 * @hdr->arg_bytes rounded up to 8; @hdr->ctx is stored as given, flags
 * included) and @hdr->arg_bytes bytes of @payload, zero padded; data_bytes
 * in the sub-buffer header follows.  Return: the offset after the record,
 * or 0 if it does not fit in @size bytes (nothing written).
 */
uint32_t lgd_sb_enc_rec(void *buf, size_t size, uint32_t pos,
		       const struct logdev_rec_hdr *hdr, const void *payload);

/**
 * lgd_sb_load_open() - lgd_sb_load() of a sub-buffer still being written
 * (the flight recorder's open one): its header's data_bytes is not yet
 * meaningful, so the record walk covers the @committed record bytes after
 * the header instead (the commit counter's; cut to @avail and to the
 * sub-buffer).  Return: as lgd_sb_load(), never LGD_SB_BAD_DATA_BYTES.
 */
int lgd_sb_load_open(struct lgd_sb *sb, const void *buf, size_t avail,
		     uint32_t subbuf_size, uint32_t committed, struct lgd_sb_info *info);

/**
 * lgd_sb_set_data_bytes() - store @data_bytes into the header of the
 * sub-buffer at @buf (@size bytes, at least a header of its version), as a
 * converter does once it validated that many bytes of records.
 * Return: 0, or -1 (too small, or a version this reader does not know).
 */
int lgd_sb_set_data_bytes(void *buf, size_t size, uint32_t data_bytes);

/**
 * lgd_sb_set_overrun() - store @overrun (records, saturated at 2^32 - 1)
 * into the overrun_before of the sub-buffer header at @buf (@size bytes),
 * as a consuming read does for the records overwritten before it.
 * Return: 0, or -1 (too small, or a version this reader does not know).
 */
int lgd_sb_set_overrun(void *buf, size_t size, uint64_t overrun);
/**
 * lgd_sb_add_before() - add @add (records: dropped, nesting_lost, too_big)
 * to those counts of the version 2+ sub-buffer header at @buf (@size
 * bytes), saturated at 2^32 - 1: the losses an area's saved counters hold
 * that no kept sub-buffer's header does (their notes were overwritten).
 * Return: 0, or -1 (too small, or version 1 or unknown).
 */
int lgd_sb_add_before(void *buf, size_t size, const uint64_t add[3]);

/* ---- the flight recorder's area (struct logdev_area_*) --------------- */

/*
 * The area's header, CPU block heads and seals (include/uapi/linux/logdev.h)
 * decoded from and encoded to their little-endian bytes: the layout is
 * here, what the values mean is checked by area.c.  Strings are copied as
 * the bytes are (NUL-terminated only if they are).
 */
enum lgd_area_field {
	LGD_AH_MAGIC, LGD_AH_VERSION, LGD_AH_HDR_BYTES, LGD_AH_AREA_BYTES,
	LGD_AH_PAGE_SIZE, LGD_AH_ENDIAN, LGD_AH_NR_CPUS, LGD_AH_SUBBUF_SIZE,
	LGD_AH_NR_SUBBUFS, LGD_AH_FORMAT_VERSION, LGD_AH_LOCAL_BYTES, LGD_AH_TEXT_BYTES,
	LGD_AH_TEXT_OFF, LGD_AH_CPU_OFF, LGD_AH_CPU_STRIDE, LGD_AH_HDR_CRC,
	LGD_AH_END_REASON, LGD_AH_TEXT_CUR, LGD_AH_TEXT_LEN, LGD_AH_TEXT_CRC,
	LGD_AC_MAGIC, LGD_AC_CPU, LGD_AC_COMMIT_OFF, LGD_AC_SEAL_OFF, LGD_AC_DATA_OFF,
	LGD_AS_SEQ, LGD_AS_CRC, LGD_AS_DATA_BYTES,
	LGD_AREA_F_NR
};

/** lgd_area_field_off() - offset (bytes) of @f in its struct (for diagnostics). */
uint32_t lgd_area_field_off(enum lgd_area_field f);

/**
 * lgd_area_hdr_get() - decode the LOGDEV_AREA_HDR_SIZE bytes at @buf into
 * *@h (host order); lgd_area_cpu_get() the LOGDEV_AREA_CPU_SIZE of a CPU
 * block's head, lgd_area_seal_get() the LOGDEV_AREA_SEAL_SIZE of a seal.
 * Return: 0, or -1 if @avail bytes are fewer (nothing decoded).
 * The _put() forms encode (tests, tools): the same bytes from the struct.
 */
int lgd_area_hdr_get(const void *buf, size_t avail, struct logdev_area_hdr *h);
void lgd_area_hdr_put(void *buf, const struct logdev_area_hdr *h);
int lgd_area_cpu_get(const void *buf, size_t avail, struct logdev_area_cpu *c);
void lgd_area_cpu_put(void *buf, const struct logdev_area_cpu *c);
int lgd_area_seal_get(const void *buf, size_t avail, struct logdev_area_seal *s);
void lgd_area_seal_put(void *buf, const struct logdev_area_seal *s);

/**
 * lgd_sb_header_fields() - the "field: NAME offset:OFF size:SIZE" lines of
 * the debugfs "header" (one per field this reader checks, in its order)
 * into @buf (@size bytes, NUL-terminated, cut to fit), for a header made
 * without the module (a flight-recorder area's).  Return: the length the
 * whole text needs (as snprintf()).
 */
size_t lgd_sb_header_fields(char *buf, size_t size);

#endif /* LGD_SUBBUF_H */
