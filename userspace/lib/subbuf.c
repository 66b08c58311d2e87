// SPDX-License-Identifier: GPL-2.0
/*
 * subbuf.c: the sub-buffer decoder and encoder (subbuf.h).  The only
 * userspace file that knows where a field of struct logdev_subbuf_hdr or
 * struct logdev_rec_hdr lies: every access goes through the SB_GET/REC_GET
 * (and _PUT) macros below, offsetof and sizeof on the uapi structs with
 * little-endian loads and stores (the byte order of the kernels logdev
 * supports; the capture's "header" names it and meta.c checks it).
 *
 * Two header layouts: format versions 3 and 2 (the uapi struct, 48 bytes;
 * 3 adds the LOGDEV_REC_COMM record type) and
 * version 1 (sbh1_t below, 40 bytes: the first 40 of version 2, so the
 * fields both have sit at the same offsets).  lgd_sb_load() decodes each
 * sub-buffer by its own version field.
 */
#define _DEFAULT_SOURCE
#include <endian.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "subbuf.h"

typedef struct logdev_subbuf_hdr sbh_t;
typedef struct logdev_rec_hdr rech_t;

/*
 * Format version 1's sub-buffer header (captures made before version 2):
 * its dropped_before counts dropped, nesting_lost and too_big records
 * together; decoded into lgd_sb_info.lost_before.
 */
struct logdev_subbuf_hdr_v1 {
	__u32 magic;
	__u16 version;
	__u16 cpu;
	__u64 seq;
	__u64 first_ts;
	__u32 data_bytes;
	__u32 flags;
	__u32 dropped_before;
	__u32 overrun_before;
};
typedef struct logdev_subbuf_hdr_v1 sbh1_t;

#define FSIZE(T, f)		sizeof(((T *)0)->f)

_Static_assert(sizeof(sbh_t) == LOGDEV_SUBBUF_HDR_SIZE, "sub-buffer header size");
_Static_assert(sizeof(sbh1_t) == 40, "version 1 sub-buffer header size");
_Static_assert(sizeof(rech_t) == LOGDEV_REC_HDR_SIZE, "record header size");
_Static_assert(LOGDEV_FORMAT_VERSION == 3, "a new format version: add its layout here");
/* version 1 is version 2's prefix: SB_GET works on both for these fields */
#define SAME_AS_V1(f)	_Static_assert(offsetof(sbh1_t, f) == offsetof(sbh_t, f) && \
				       FSIZE(sbh1_t, f) == FSIZE(sbh_t, f), "v1 field " #f)
SAME_AS_V1(magic);
SAME_AS_V1(version);
SAME_AS_V1(cpu);
SAME_AS_V1(seq);
SAME_AS_V1(first_ts);
SAME_AS_V1(data_bytes);
SAME_AS_V1(flags);
SAME_AS_V1(dropped_before);
SAME_AS_V1(overrun_before);

/* little-endian load of an @n-byte field (@n constant: the switch folds away) */
static inline uint64_t le_get(const uint8_t *p, size_t n)
{
	uint16_t v16;
	uint32_t v32;
	uint64_t v64;

	switch (n) {
	case 1:
		return p[0];
	case 2:
		memcpy(&v16, p, 2);
		return le16toh(v16);
	case 4:
		memcpy(&v32, p, 4);
		return le32toh(v32);
	default:
		memcpy(&v64, p, 8);
		return le64toh(v64);
	}
}

static inline void le_put(uint8_t *p, size_t n, uint64_t v)
{
	for (size_t i = 0; i < n; i++, v >>= 8)
		p[i] = (uint8_t)v;
}

#define GET(T, p, f)		le_get((const uint8_t *)(p) + offsetof(T, f), FSIZE(T, f))
#define PUT(T, p, f, v)		le_put((uint8_t *)(p) + offsetof(T, f), FSIZE(T, f), (v))
#define SB_GET(p, f)		GET(sbh_t, p, f)
#define SB_PUT(p, f, v)		PUT(sbh_t, p, f, v)
#define REC_GET(p, f)		GET(rech_t, p, f)
#define REC_PUT(p, f, v)	PUT(rech_t, p, f, v)

static const struct {
	const char *name;	/* as in the debugfs "header" field: lines */
	uint32_t off, size;
} fields[LGD_SB_F_NR] = {
#define SBF(e, f)	[e] = { "subbuf." #f, offsetof(sbh_t, f), FSIZE(sbh_t, f) }
#define RECF(e, f)	[e] = { "rec." #f, offsetof(rech_t, f), FSIZE(rech_t, f) }
	SBF(LGD_SB_F_MAGIC, magic),
	SBF(LGD_SB_F_VERSION, version),
	SBF(LGD_SB_F_CPU, cpu),
	SBF(LGD_SB_F_SEQ, seq),
	SBF(LGD_SB_F_FIRST_TS, first_ts),
	SBF(LGD_SB_F_DATA_BYTES, data_bytes),
	SBF(LGD_SB_F_FLAGS, flags),
	SBF(LGD_SB_F_DROPPED, dropped_before),
	SBF(LGD_SB_F_OVERRUN, overrun_before),
	SBF(LGD_SB_F_NESTING_LOST, nesting_lost_before),
	SBF(LGD_SB_F_TOO_BIG, too_big_before),
	RECF(LGD_REC_F_TS, ts),
	RECF(LGD_REC_F_SITE, site),
	RECF(LGD_REC_F_LEN, len),
	RECF(LGD_REC_F_TYPE, type),
	RECF(LGD_REC_F_CTX, ctx),
	RECF(LGD_REC_F_PID, pid),
	RECF(LGD_REC_F_ARG_BYTES, arg_bytes),
#undef SBF
#undef RECF
};

uint32_t lgd_sb_field_off(enum lgd_sb_field f)
{
	return (unsigned)f < LGD_SB_F_NR ? fields[f].off : 0;
}

int lgd_sb_layout_check(const char *name, uint32_t off, uint32_t size)
{
	for (int i = 0; i < LGD_SB_F_NR; i++)
		if (!strcmp(fields[i].name, name))
			return fields[i].off == off && fields[i].size == size;
	return -1;
}

uint32_t lgd_sb_hdr_size(uint32_t version)
{
	switch (version) {
	case 1:
		return sizeof(sbh1_t);
	case 2:
	case LOGDEV_FORMAT_VERSION:
		return sizeof(sbh_t);
	default:
		return 0;
	}
}

int lgd_sb_is_subbuf(const void *buf, size_t avail, uint16_t *cpu)
{
	const uint8_t *h = buf;

	if (avail < offsetof(sbh_t, cpu) + FSIZE(sbh_t, cpu))
		return -1;
	if (SB_GET(h, magic) != LOGDEV_SUBBUF_MAGIC ||
	    !lgd_sb_hdr_size((uint32_t)SB_GET(h, version)))
		return 0;
	if (cpu)
		*cpu = (uint16_t)SB_GET(h, cpu);
	return 1;
}

int lgd_sb_peek_seq(const void *buf, size_t avail, uint64_t *seq)
{
	int st = lgd_sb_is_subbuf(buf, avail, NULL);

	if (st != 1)
		return st;
	if (avail < offsetof(sbh_t, seq) + FSIZE(sbh_t, seq))
		return -1;
	*seq = SB_GET(buf, seq);
	return 1;
}

int lgd_sb_peek_before(const void *buf, size_t avail, uint64_t before[3])
{
	uint32_t v = avail >= sizeof(sbh1_t) ? (uint32_t)SB_GET(buf, version) : 0;

	if (v < 2 || !lgd_sb_hdr_size(v) || lgd_sb_hdr_size(v) > avail)
		return -1;
	before[0] = SB_GET(buf, dropped_before);
	before[1] = SB_GET(buf, nesting_lost_before);
	before[2] = SB_GET(buf, too_big_before);
	return 0;
}

struct lgd_sb {
	const uint8_t *b;	/* the loaded sub-buffer */
	uint32_t pos, end;	/* record walk: next record, end of data */
	uint32_t claimed;	/* end of data by the header's data_bytes (> end: cut) */
	uint16_t version;	/* the format version of its header */
};

struct lgd_sb *lgd_sb_alloc(void)
{
	return calloc(1, sizeof(struct lgd_sb));
}

void lgd_sb_free(struct lgd_sb *sb)
{
	free(sb);
}

int lgd_sb_load(struct lgd_sb *sb, const void *buf, size_t avail,
	       uint32_t subbuf_size, struct lgd_sb_info *info)
{
	const uint8_t *h = buf;
	struct lgd_sb_info i = { 0 };
	uint32_t hsz;

	sb->b = h;
	sb->pos = sb->end = sb->claimed = 0;
	sb->version = 0;
	if (avail < sizeof(sbh1_t))
		return LGD_SB_SHORT;
	/* the fields of every version (the first 40 bytes) */
	i.magic = (uint32_t)SB_GET(h, magic);
	i.version = (uint16_t)SB_GET(h, version);
	i.cpu = (uint16_t)SB_GET(h, cpu);
	i.seq = SB_GET(h, seq);
	i.first_ts = SB_GET(h, first_ts);
	i.data_bytes = (uint32_t)SB_GET(h, data_bytes);
	i.flags = (uint32_t)SB_GET(h, flags);
	i.overrun_before = (uint32_t)SB_GET(h, overrun_before);
	hsz = i.magic == LOGDEV_SUBBUF_MAGIC ? lgd_sb_hdr_size(i.version) : 0;
	if (hsz > avail)
		return LGD_SB_SHORT;
	if (i.version == 1) {
		i.lost_before = (uint32_t)GET(sbh1_t, h, dropped_before);
	} else if (hsz) {
		i.dropped_before = (uint32_t)SB_GET(h, dropped_before);
		i.nesting_lost_before = (uint32_t)SB_GET(h, nesting_lost_before);
		i.too_big_before = (uint32_t)SB_GET(h, too_big_before);
	}
	if (info)
		*info = i;
	if (i.magic != LOGDEV_SUBBUF_MAGIC)
		return LGD_SB_BAD_MAGIC;
	if (!hsz)
		return LGD_SB_BAD_VERSION;
	if (subbuf_size < hsz || i.data_bytes > subbuf_size - hsz)
		return LGD_SB_BAD_DATA_BYTES;
	sb->pos = hsz;
	sb->version = i.version;
	sb->end = sb->claimed = hsz + i.data_bytes;
	if (sb->end > avail) {
		sb->end = (uint32_t)avail;
		return LGD_SB_DATA_CUT;
	}
	return LGD_SB_OK;
}

int lgd_sb_load_open(struct lgd_sb *sb, const void *buf, size_t avail,
		     uint32_t subbuf_size, uint32_t committed, struct lgd_sb_info *info)
{
	struct lgd_sb_info i;
	int st = lgd_sb_load(sb, buf, avail, subbuf_size, &i);
	uint32_t hsz;

	if (st == LGD_SB_SHORT)
		return st;
	if (info)
		*info = i;
	if (st == LGD_SB_BAD_MAGIC || st == LGD_SB_BAD_VERSION)
		return st;
	hsz = lgd_sb_hdr_size(i.version);
	if (subbuf_size < hsz)
		return LGD_SB_BAD_DATA_BYTES;
	if (committed > subbuf_size - hsz)
		committed = subbuf_size - hsz;
	sb->pos = hsz;
	sb->version = i.version;
	sb->end = sb->claimed = hsz + committed;
	if (sb->end > avail) {
		sb->end = (uint32_t)avail;
		return LGD_SB_DATA_CUT;
	}
	return LGD_SB_OK;
}

int lgd_sb_set_data_bytes(void *buf, size_t size, uint32_t data_bytes)
{
	if (size < sizeof(sbh1_t) || !lgd_sb_hdr_size((uint32_t)SB_GET(buf, version)) ||
	    lgd_sb_hdr_size((uint32_t)SB_GET(buf, version)) > size)
		return -1;
	SB_PUT(buf, data_bytes, data_bytes);
	return 0;
}

int lgd_sb_add_before(void *buf, size_t size, const uint64_t add[3])
{
	uint32_t v = size >= sizeof(sbh1_t) ? (uint32_t)SB_GET(buf, version) : 0;
	uint64_t n;

	if (v < 2 || !lgd_sb_hdr_size(v) || lgd_sb_hdr_size(v) > size)
		return -1;
	n = SB_GET(buf, dropped_before) + add[0];
	SB_PUT(buf, dropped_before, n > UINT32_MAX ? UINT32_MAX : (uint32_t)n);
	n = SB_GET(buf, nesting_lost_before) + add[1];
	SB_PUT(buf, nesting_lost_before, n > UINT32_MAX ? UINT32_MAX : (uint32_t)n);
	n = SB_GET(buf, too_big_before) + add[2];
	SB_PUT(buf, too_big_before, n > UINT32_MAX ? UINT32_MAX : (uint32_t)n);
	return 0;
}

int lgd_sb_set_overrun(void *buf, size_t size, uint64_t overrun)
{
	if (size < sizeof(sbh1_t) || !lgd_sb_hdr_size((uint32_t)SB_GET(buf, version)) ||
	    lgd_sb_hdr_size((uint32_t)SB_GET(buf, version)) > size)
		return -1;
	SB_PUT(buf, overrun_before, overrun > UINT32_MAX ? UINT32_MAX : (uint32_t)overrun);
	return 0;
}

int lgd_sb_next(struct lgd_sb *sb, struct lgd_sb_rec *rec)
{
	for (;;) {
		const uint8_t *p;
		uint32_t len, arg_bytes;
		uint8_t ctx;

		/* before the first load sb->b is NULL: no arithmetic on it */
		if (sb->pos >= sb->end)
			return LGD_SB_REC_END;
		p = sb->b + sb->pos;
		/* every field set below, on each way out (no memset: once a record) */
		rec->off = sb->pos;
		rec->left = sb->end - sb->pos;
		rec->bad_off = 0;
		rec->flags = 0;
		rec->payload = NULL;
		if (sb->pos + sizeof(rech_t) > sb->end) {
			memset(&rec->hdr, 0, sizeof(rec->hdr));
			rec->bad_off = sb->pos;
			sb->pos = sb->end;
			/* the bytes end where the capture was cut, not where data_bytes says */
			return sb->end < sb->claimed ? LGD_SB_REC_CUT : LGD_SB_REC_TRAILING;
		}
		len = (uint32_t)REC_GET(p, len);
		if (len < sizeof(rech_t) || len % LOGDEV_REC_ALIGN || len > rec->left) {
			int cut = len >= sizeof(rech_t) && !(len % LOGDEV_REC_ALIGN) &&
				  sb->end < sb->claimed && len <= sb->claimed - sb->pos;

			memset(&rec->hdr, 0, sizeof(rec->hdr));
			rec->hdr.len = (uint16_t)len;
			rec->bad_off = sb->pos + (uint32_t)offsetof(rech_t, len);
			sb->pos = sb->end;
			return cut ? LGD_SB_REC_CUT : LGD_SB_REC_BAD_LEN;
		}
		sb->pos += len;
		arg_bytes = (uint32_t)REC_GET(p, arg_bytes);
		if (arg_bytes > len - sizeof(rech_t)) {
			memset(&rec->hdr, 0, sizeof(rec->hdr));
			rec->hdr.len = (uint16_t)len;
			rec->hdr.arg_bytes = arg_bytes;
			rec->bad_off = rec->off + (uint32_t)offsetof(rech_t, arg_bytes);
			return LGD_SB_REC_BAD_ARGS;
		}
		ctx = (uint8_t)REC_GET(p, ctx);
		rec->hdr.len = (uint16_t)len;	/* every field of the header: */
		rec->hdr.arg_bytes = arg_bytes;
		rec->hdr.ts = REC_GET(p, ts);
		rec->hdr.site = (uint32_t)REC_GET(p, site);
		rec->hdr.type = (uint8_t)REC_GET(p, type);
		rec->hdr.ctx = ctx & LOGDEV_CTX_MASK;
		rec->hdr.pid = (uint32_t)REC_GET(p, pid);
		rec->flags = ctx & (uint8_t)~LOGDEV_CTX_MASK;
		rec->payload = p + sizeof(rech_t);
		/*
		 * A task name record outside its rules (version 3 on, site 0,
		 * LOGDEV_COMM_LEN bytes) is damage, not a name: type 0, which
		 * no version has, so that every verb counts and warns it as a
		 * record of no known type (the fresh user's trial: a type-4
		 * byte in a version 2 capture renamed the task silently).
		 */
		if (rec->hdr.type == LOGDEV_REC_COMM &&
		    (sb->version < 3 || rec->hdr.site || arg_bytes != LOGDEV_COMM_LEN))
			rec->hdr.type = 0;
		return LGD_SB_REC;
	}
}

uint64_t lgd_sb_count_records(const void *buf, size_t n, uint32_t subbuf_size)
{
	const uint8_t *b = buf;
	uint64_t cnt = 0;
	struct lgd_sb sb;
	struct lgd_sb_rec rec;

	for (size_t o = 0; o + sizeof(sbh1_t) <= n && o + subbuf_size <= n; o += subbuf_size) {
		uint32_t db = (uint32_t)SB_GET(b + o, data_bytes);
		uint32_t hsz = lgd_sb_hdr_size((uint32_t)SB_GET(b + o, version));
		int st;

		/* progress only: the magic is the reader's business */
		if (!hsz || subbuf_size < hsz || db > subbuf_size - hsz)
			break;
		sb.b = b + o;
		sb.pos = hsz;
		sb.end = hsz + db;
		while ((st = lgd_sb_next(&sb, &rec)) != LGD_SB_REC_END &&
		       st != LGD_SB_REC_BAD_LEN && st != LGD_SB_REC_TRAILING &&
		       st != LGD_SB_REC_CUT)
			cnt++;
	}
	return cnt;
}

uint32_t lgd_sb_enc_begin(void *buf, size_t size, const struct lgd_sb_info *info)
{
	uint8_t *h = buf;
	uint32_t hsz = lgd_sb_hdr_size(info->version);

	if (!hsz || size < hsz)
		return 0;
	SB_PUT(h, magic, info->magic);
	SB_PUT(h, version, info->version);
	SB_PUT(h, cpu, info->cpu);
	SB_PUT(h, seq, info->seq);
	SB_PUT(h, first_ts, info->first_ts);
	SB_PUT(h, data_bytes, 0);
	SB_PUT(h, flags, info->flags);
	SB_PUT(h, overrun_before, info->overrun_before);
	if (info->version == 1) {
		PUT(sbh1_t, h, dropped_before, info->lost_before);
	} else {
		SB_PUT(h, dropped_before, info->dropped_before);
		SB_PUT(h, nesting_lost_before, info->nesting_lost_before);
		SB_PUT(h, too_big_before, info->too_big_before);
	}
	return hsz;
}

uint32_t lgd_sb_enc_rec(void *buf, size_t size, uint32_t pos,
		       const struct logdev_rec_hdr *hdr, const void *payload)
{
	uint8_t *b = buf, *r;
	size_t len = (sizeof(rech_t) + (size_t)hdr->arg_bytes + LOGDEV_REC_ALIGN - 1) &
		     ~(size_t)(LOGDEV_REC_ALIGN - 1);
	uint32_t hsz = size >= sizeof(sbh1_t) ? lgd_sb_hdr_size((uint32_t)SB_GET(b, version)) : 0;

	if (!hsz || pos < hsz || pos > size || len > size - pos || len > UINT16_MAX)
		return 0;
	r = b + pos;
	REC_PUT(r, ts, hdr->ts);
	REC_PUT(r, site, hdr->site);
	REC_PUT(r, len, len);
	REC_PUT(r, type, hdr->type);
	REC_PUT(r, ctx, hdr->ctx);
	REC_PUT(r, pid, hdr->pid);
	REC_PUT(r, arg_bytes, hdr->arg_bytes);
	memset(r + sizeof(rech_t), 0, len - sizeof(rech_t));
	if (hdr->arg_bytes)
		memcpy(r + sizeof(rech_t), payload, hdr->arg_bytes);
	pos += (uint32_t)len;
	SB_PUT(b, data_bytes, pos - hsz);
	return pos;
}

size_t lgd_sb_header_fields(char *buf, size_t size)
{
	size_t n = 0;

	if (size)
		buf[0] = 0;
	for (int i = 0; i < LGD_SB_F_NR; i++) {
		int w = snprintf(buf ? buf + (n < size ? n : size) : NULL,
				 n < size ? size - n : 0, "field: %s offset:%u size:%u\n",
				 fields[i].name, fields[i].off, fields[i].size);

		if (w > 0)
			n += (size_t)w;
	}
	return n;
}

/* ---- the flight recorder's area ---------------------------------------- */

typedef struct logdev_area_hdr ahdr_t;
typedef struct logdev_area_cpu acpu_t;
typedef struct logdev_area_seal aseal_t;

_Static_assert(sizeof(ahdr_t) == LOGDEV_AREA_HDR_SIZE, "area header size");
_Static_assert(offsetof(ahdr_t, hdr_crc) == LOGDEV_AREA_CRC_BYTES, "area header CRC span");
_Static_assert(sizeof(acpu_t) == LOGDEV_AREA_CPU_SIZE, "area CPU block head size");
_Static_assert(sizeof(aseal_t) == LOGDEV_AREA_SEAL_SIZE, "area seal size");

static const uint32_t area_off[LGD_AREA_F_NR] = {
	[LGD_AH_MAGIC] = offsetof(ahdr_t, magic),
	[LGD_AH_VERSION] = offsetof(ahdr_t, version),
	[LGD_AH_HDR_BYTES] = offsetof(ahdr_t, hdr_bytes),
	[LGD_AH_AREA_BYTES] = offsetof(ahdr_t, area_bytes),
	[LGD_AH_PAGE_SIZE] = offsetof(ahdr_t, page_size),
	[LGD_AH_ENDIAN] = offsetof(ahdr_t, endian),
	[LGD_AH_NR_CPUS] = offsetof(ahdr_t, nr_cpus),
	[LGD_AH_SUBBUF_SIZE] = offsetof(ahdr_t, subbuf_size),
	[LGD_AH_NR_SUBBUFS] = offsetof(ahdr_t, nr_subbufs),
	[LGD_AH_FORMAT_VERSION] = offsetof(ahdr_t, format_version),
	[LGD_AH_LOCAL_BYTES] = offsetof(ahdr_t, local_bytes),
	[LGD_AH_TEXT_BYTES] = offsetof(ahdr_t, text_bytes),
	[LGD_AH_TEXT_OFF] = offsetof(ahdr_t, text_off),
	[LGD_AH_CPU_OFF] = offsetof(ahdr_t, cpu_off),
	[LGD_AH_CPU_STRIDE] = offsetof(ahdr_t, cpu_stride),
	[LGD_AH_HDR_CRC] = offsetof(ahdr_t, hdr_crc),
	[LGD_AH_END_REASON] = offsetof(ahdr_t, end_reason),
	[LGD_AH_TEXT_CUR] = offsetof(ahdr_t, text_cur),
	[LGD_AH_TEXT_LEN] = offsetof(ahdr_t, text_len),
	[LGD_AH_TEXT_CRC] = offsetof(ahdr_t, text_crc),
	[LGD_AC_MAGIC] = offsetof(acpu_t, magic),
	[LGD_AC_CPU] = offsetof(acpu_t, cpu),
	[LGD_AC_COMMIT_OFF] = offsetof(acpu_t, commit_off),
	[LGD_AC_SEAL_OFF] = offsetof(acpu_t, seal_off),
	[LGD_AC_DATA_OFF] = offsetof(acpu_t, data_off),
	[LGD_AS_SEQ] = offsetof(aseal_t, seq),
	[LGD_AS_CRC] = offsetof(aseal_t, crc),
	[LGD_AS_DATA_BYTES] = offsetof(aseal_t, data_bytes),
};

uint32_t lgd_area_field_off(enum lgd_area_field f)
{
	return (unsigned)f < LGD_AREA_F_NR ? area_off[f] : 0;
}

/* the scalar fields of the area's structs, decoded or encoded in one list each */
#define AH_SCALARS(X) X(version) X(hdr_bytes) X(area_bytes) X(page_size) X(endian) \
	X(nr_cpus) X(subbuf_size) X(nr_subbufs) X(format_version) X(local_bytes) \
	X(text_bytes) X(text_off) X(cpu_off) X(cpu_stride) X(load_wall_ns) X(text_addr) \
	X(hdr_crc) X(end_reason) X(end_ts) X(end_wall_ns) X(text_cur) \
	X(text_len[0]) X(text_len[1]) X(text_crc[0]) X(text_crc[1])
#define AH_STRINGS(X) X(magic) X(clock) X(osrelease) X(build_id) X(reserved) X(end_msg)
#define AC_SCALARS(X) X(magic) X(cpu) X(commit_off) X(seal_off) X(data_off) X(saved) \
	X(reserved) X(write_off) X(read_sb) X(written) X(read) X(overrun) X(dropped) \
	X(nesting_lost) X(too_big)
#define AS_SCALARS(X) X(seq) X(crc) X(data_bytes)

int lgd_area_hdr_get(const void *buf, size_t avail, struct logdev_area_hdr *h)
{
	if (avail < sizeof(ahdr_t))
		return -1;
#define G(f)	h->f = GET(ahdr_t, buf, f);
#define S(f)	memcpy(h->f, (const uint8_t *)buf + offsetof(ahdr_t, f), sizeof(h->f));
	AH_SCALARS(G)
	AH_STRINGS(S)
#undef G
#undef S
	return 0;
}

void lgd_area_hdr_put(void *buf, const struct logdev_area_hdr *h)
{
#define P(f)	PUT(ahdr_t, buf, f, h->f);
#define S(f)	memcpy((uint8_t *)buf + offsetof(ahdr_t, f), h->f, sizeof(h->f));
	AH_SCALARS(P)
	AH_STRINGS(S)
#undef P
#undef S
}

int lgd_area_cpu_get(const void *buf, size_t avail, struct logdev_area_cpu *c)
{
	if (avail < sizeof(acpu_t))
		return -1;
#define G(f)	c->f = GET(acpu_t, buf, f);
	AC_SCALARS(G)
#undef G
	return 0;
}

void lgd_area_cpu_put(void *buf, const struct logdev_area_cpu *c)
{
#define P(f)	PUT(acpu_t, buf, f, c->f);
	AC_SCALARS(P)
#undef P
}

int lgd_area_seal_get(const void *buf, size_t avail, struct logdev_area_seal *s)
{
	if (avail < sizeof(aseal_t))
		return -1;
#define G(f)	s->f = GET(aseal_t, buf, f);
	AS_SCALARS(G)
#undef G
	return 0;
}

void lgd_area_seal_put(void *buf, const struct logdev_area_seal *s)
{
#define P(f)	PUT(aseal_t, buf, f, s->f);
	AS_SCALARS(P)
#undef P
}
