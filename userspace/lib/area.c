// SPDX-License-Identifier: GPL-2.0
/*
 * area.c: the flight recorder's area validated (lgd_area.h; layer: library).
 *
 * An area (include/uapi/linux/logdev.h) is a header, two formats text
 * slots and one block per CPU: a head, a commit counter and a seal per
 * sub-buffer slot, the slots.  Commit counter c of slot k counts the bytes
 * committed to it over all its laps (header, records, the closing tail):
 * 0 never used; c % subbuf_size == 0: lap c / subbuf_size - 1 is whole;
 * else lap c / subbuf_size is open with c % subbuf_size - 48 record bytes.
 * Lap L of slot k is sub-buffer seq L * nr_subbufs + k.  A whole one is
 * sealed when the seal of its slot names its seq (CRC-32 of its header and
 * data), corrupt when such a seal does not match, whole-unsealed when no
 * seal names it (a hard reset writes none); its header and every record
 * are checked against what the counter says either way (damaged if they
 * do not agree).  The open one keeps the records up to the first
 * malformed one (a writer interrupted mid-record).
 *
 * Hostile input: every offset is checked against the image's length before
 * it is read (a truncated image: what lies inside is validated); every
 * size is checked against the area's before it is multiplied or allocated
 * with (allocations are bounded by the image's length).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "lgd_area.h"
#include "subbuf.h"

#define AREA_MAX_CPUS	4096	/* as the capture reader's section CPU numbers */

const char *lgd_area_class_name(int cls)
{
	static const char *const n[LGD_AREA_NR_CLASSES] = {
		[LGD_AREA_EMPTY] = "empty", [LGD_AREA_SEALED] = "sealed",
		[LGD_AREA_CORRUPT] = "corrupt", [LGD_AREA_UNSEALED] = "whole-unsealed",
		[LGD_AREA_OPEN] = "open", [LGD_AREA_DAMAGED] = "damaged",
		[LGD_AREA_CUT] = "cut",
	};

	return cls >= 0 && cls < LGD_AREA_NR_CLASSES ? n[cls] : "?";
}

const char *lgd_area_why_text(int why)
{
	static const char *const t[LGD_AREA_W_NR] = {
		[LGD_AREA_W_NONE] = "",
		[LGD_AREA_W_COMMIT] = "impossible commit counter",
		[LGD_AREA_W_MAGIC] = "bad sub-buffer magic",
		[LGD_AREA_W_VERSION] = "format version not the area's",
		[LGD_AREA_W_CPU] = "header cpu not its block's",
		[LGD_AREA_W_SEQ] = "header seq not the commit counter's",
		[LGD_AREA_W_DATA_BYTES] = "data_bytes beyond the sub-buffer",
		[LGD_AREA_W_REC_LEN] = "bad record length",
		[LGD_AREA_W_REC_ARGS] = "record arg_bytes beyond its length",
		[LGD_AREA_W_TS_FIRST] = "record stamped before first_ts",
		[LGD_AREA_W_TS_BACK] = "record timestamp going backwards",
		[LGD_AREA_W_CRC] = "seal CRC-32 mismatch",
		[LGD_AREA_W_SEAL_BYTES] = "seal data_bytes not the header's",
		[LGD_AREA_W_NO_SEAL] = "no seal, though its boot sealed every whole sub-buffer at the end",
	};

	return why >= 0 && why < LGD_AREA_W_NR ? t[why] : "?";
}

uint32_t lgd_area_crc(const void *p, size_t n)
{
	const Bytef *b = p;
	uLong c = crc32(0L, Z_NULL, 0);

	while (n) {	/* zlib takes uInt lengths */
		uInt k = n > (1u << 30) ? (1u << 30) : (uInt)n;

		c = crc32(c, b, k);
		b += k;
		n -= k;
	}
	return (uint32_t)c;
}

int lgd_area_is_area(const void *buf, size_t n)
{
	return n >= 8 && !memcmp(buf, LOGDEV_AREA_MAGIC, 8);
}

/* one validation: the area, its warning callback, the sub-buffer decoder */
/*
 * How far a record's timestamp may lie before the one before it, or before
 * its sub-buffer's first_ts, in an unsealed sub-buffer before the walk
 * calls it damaged (ns).  The ring stamps in buffer order, but the "mono"
 * trace clock (ktime_get_mono_fast_ns()) may step back a little across a
 * timekeeping update: 2.57 us was seen in a sealed 6.1 sub-buffer under
 * QEMU.  Garbage jumps by far more; a sealed sub-buffer's are not checked.
 */
#define LGD_AREA_TS_SLACK_NS	1000000ull

struct actx {
	struct lgd_area *a;
	lgd_warn_fn warn;
	void *warn_arg;
	struct lgd_sb *dec;
	int sealed_end;	/* this CPU's boot sealed every whole sub-buffer */
};

static void awarn(struct actx *c, int err, int64_t off, int64_t cpu, int64_t seq,
		  const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static void awarn(struct actx *c, int err, int64_t off, int64_t cpu, int64_t seq,
		  const char *fmt, ...)
{
	struct lgd_diag d = { .err = err, .offset = off, .cpu = cpu, .seq = seq };
	va_list ap;

	if (!c->warn)
		return;
	va_start(ap, fmt);
	vsnprintf(d.msg, sizeof(d.msg), fmt, ap);
	va_end(ap);
	c->warn(c->warn_arg, &d);
}

/* does [off, off + n) lie inside [0, size)?  (no overflow) */
static int inside(uint64_t off, uint64_t n, uint64_t size)
{
	return off <= size && n <= size - off;
}

/* is @v a power of two in [lo, hi]? */
static int pow2_in(uint64_t v, uint64_t lo, uint64_t hi)
{
	return v >= lo && v <= hi && !(v & (v - 1));
}

/* the layout the header gives, checked against the area's size; 0 or -errno with @d */
static int layout_check(const struct logdev_area_hdr *h, struct lgd_diag *d)
{
	uint64_t ab = h->area_bytes;
	const char *bad = NULL;
	enum lgd_area_field f = LGD_AH_AREA_BYTES;

	if (lgd_sb_hdr_size(h->format_version) != LOGDEV_SUBBUF_HDR_SIZE)
		return lgd_diag_set(d, -EPROTO, lgd_area_field_off(LGD_AH_FORMAT_VERSION),
				"sub-buffer format version %u: this reader knows 2 and 3 here",
				h->format_version);
	if (ab < LOGDEV_AREA_HDR_SIZE)
		bad = "area_bytes below the header's size";
	else if (h->hdr_bytes < LOGDEV_AREA_HDR_SIZE || h->hdr_bytes > h->text_off)
		bad = "hdr_bytes below 368 or past text_off", f = LGD_AH_HDR_BYTES;
	else if (!pow2_in(h->subbuf_size, 256, 64u << 20))
		bad = "subbuf_size not a power of two from 256 to 64 MiB", f = LGD_AH_SUBBUF_SIZE;
	else if (!h->nr_subbufs)
		bad = "nr_subbufs 0", f = LGD_AH_NR_SUBBUFS;
	else if (!h->nr_cpus || h->nr_cpus > AREA_MAX_CPUS)
		bad = "nr_cpus not 1 to 4096", f = LGD_AH_NR_CPUS;
	else if (h->local_bytes != 4 && h->local_bytes != 8)
		bad = "local_bytes not 4 or 8", f = LGD_AH_LOCAL_BYTES;
	else if (h->text_bytes > ab / 2 || !inside(h->text_off, 2ull * h->text_bytes, ab))
		bad = "the text slots past the area's end", f = LGD_AH_TEXT_OFF;
	else if (h->cpu_off < h->text_off + 2ull * h->text_bytes || h->cpu_off > ab)
		bad = "cpu_off inside the text slots or past the area's end", f = LGD_AH_CPU_OFF;
	else if (h->cpu_stride < LOGDEV_AREA_CPU_SIZE ||
		 h->cpu_stride > (ab - h->cpu_off) / h->nr_cpus)
		bad = "the CPU blocks past the area's end", f = LGD_AH_CPU_STRIDE;
	if (bad)
		return lgd_diag_set(d, -EINVAL, lgd_area_field_off(f),
				"area header: %s (area_bytes %llu, nr_cpus %u, subbuf_size %u, "
				"nr_subbufs %u, text_off %llu, text_bytes %u, cpu_off %llu, "
				"cpu_stride %llu)", bad, (unsigned long long)ab, h->nr_cpus,
				h->subbuf_size, h->nr_subbufs, (unsigned long long)h->text_off,
				h->text_bytes, (unsigned long long)h->cpu_off,
				(unsigned long long)h->cpu_stride);
	return 0;
}

/* magic, version, byte order, CRC, layout: 0 or -errno with @d filled */
static int hdr_check(struct lgd_area *a, struct lgd_diag *d)
{
	struct logdev_area_hdr *h = &a->hdr;
	uint32_t crc;

	if (!lgd_area_is_area(a->img, a->len))
		return lgd_diag_set(d, -EINVAL, 0, "not a logdev flight-recorder area (no %s magic)",
				LOGDEV_AREA_MAGIC);
	if (lgd_area_hdr_get(a->img, a->len, h))
		return lgd_diag_set(d, -ENODATA, (int64_t)a->len,
				"the area's header has %zu of its %d bytes: nothing to read",
				a->len, LOGDEV_AREA_HDR_SIZE);
	if (h->version != LOGDEV_AREA_VERSION)
		return lgd_diag_set(d, -EPROTO, lgd_area_field_off(LGD_AH_VERSION),
				"area version %u: this reader knows version %d", h->version,
				LOGDEV_AREA_VERSION);
	if (h->endian == __builtin_bswap32(LOGDEV_AREA_ENDIAN))
		return lgd_diag_set(d, -EPROTO, lgd_area_field_off(LGD_AH_ENDIAN),
				"written by a big-endian kernel: this reader reads little-endian areas");
	if (h->endian != LOGDEV_AREA_ENDIAN)
		return lgd_diag_set(d, -EINVAL, lgd_area_field_off(LGD_AH_ENDIAN),
				"area header: endian 0x%08x is not 0x%08x", h->endian,
				LOGDEV_AREA_ENDIAN);
	crc = lgd_area_crc(a->img, LOGDEV_AREA_CRC_BYTES);
	if (crc != h->hdr_crc)
		return lgd_diag_set(d, -EINVAL, lgd_area_field_off(LGD_AH_HDR_CRC),
				"area header: hdr_crc 0x%08x, its bytes give 0x%08x: the header is "
				"damaged, and the layout it gives cannot be trusted", h->hdr_crc, crc);
	h->clock[sizeof(h->clock) - 1] = 0;
	h->osrelease[sizeof(h->osrelease) - 1] = 0;
	h->build_id[sizeof(h->build_id) - 1] = 0;
	h->end_msg[sizeof(h->end_msg) - 1] = 0;
	return layout_check(h, d);
}

/*
 * Is text slot @slot whole (inside its slot and the image, not empty) with
 * a matching CRC?  LGD_AREA_TEXT_OK, or why not; *@off: where it starts.
 */
static int text_slot(const struct lgd_area *a, uint32_t slot, uint64_t *off)
{
	const struct logdev_area_hdr *h = &a->hdr;
	uint32_t len = h->text_len[slot];

	*off = h->text_off + (uint64_t)slot * h->text_bytes;
	if (len > h->text_bytes)
		return LGD_AREA_TEXT_BAD;
	if (!inside(*off, len, a->limit))
		return LGD_AREA_TEXT_CUT;
	if (!len || lgd_area_crc(a->img + *off, len) != h->text_crc[slot])
		return LGD_AREA_TEXT_CRC;
	return LGD_AREA_TEXT_OK;
}

/*
 * The text of a slot (at image offset @off) is the formats, then, from a
 * kernel that keeps a module map, one NUL and the map: module_log format 2
 * text of the modules loaded when it was written (docs/FORMAT.md).  Split
 * at the first NUL; a map whose last line has no newline (or that holds
 * another NUL) is read up to its last whole line, warned with the byte.
 * The map is parsed once here (the resolver's own parser) for its counts.
 */
static int text_split(struct actx *c, uint64_t off)
{
	struct lgd_area *a = c->a;
	const char *nul = memchr(a->text_p, 0, a->text_len), *nul2;
	uint32_t whole, at;
	struct lgd_ksyms k = { 0 };
	unsigned out, n;
	int bad;

	if (!nul)
		return 0;	/* an older area: formats only */
	a->map = 1;
	a->mods_p = nul + 1;
	at = (uint32_t)(nul + 1 - a->text_p);
	a->mods_len = a->text_len - at;
	a->text_len = at - 1;
	nul2 = memchr(a->mods_p, 0, a->mods_len);
	whole = nul2 ? (uint32_t)(nul2 - a->mods_p) : a->mods_len;
	while (whole && a->mods_p[whole - 1] != '\n')
		whole--;
	if (whole < a->mods_len)
		awarn(c, -EINVAL, (int64_t)(off + at + whole), -1, -1,
		      "module map (text slot, %u bytes): %s: its last %u bytes are not read",
		      a->mods_len, nul2 ? "a NUL inside it" : "its last line has no end",
		      a->mods_len - whole);
	a->mods_len = whole;
	bad = lgd_ksyms_add_modlog(&k, a->mods_p, a->mods_len);
	if (bad < 0) {
		lgd_ksyms_free(&k);
		return bad;
	}
	a->map_bad = (uint32_t)bad;
	a->map_mods = (uint32_t)k.nr_mods;
	for (size_t i = 0; i < k.nr_mods; i++)
		a->map_bare += !k.mods[i].nr;
	if (bad)
		awarn(c, -EINVAL, (int64_t)(off + at), -1, -1,
		      "module map (at this byte): %d malformed lines, the first is line %u "
		      "(skipped, or their module's layout not read): what parses is used", bad,
		      k.modlog_bad_line);
	else if (a->mods_len && k.modlog_format != LGD_MODLOG_FORMAT)
		awarn(c, -EINVAL, (int64_t)(off + at), -1, -1,
		      "module map (at this byte): its first line is not \"# logdev module log: "
		      "format 2, ...\": module layouts not read");
	lgd_ksyms_free(&k);
	/* the kernel's closing line: modules that did not fit at all */
	for (const char *l = a->mods_p, *e = a->mods_p + a->mods_len; l && l < e;
	     l = memchr(l, '\n', (size_t)(e - l)), l = l ? l + 1 : NULL) {
		char line[160];

		snprintf(line, sizeof(line), "%.*s", (int)strcspn(l, "\n"), l);
		if (sscanf(line, "# logdev module map: %u modules, %*u without symbols, %u left out",
			   &n, &out) == 2)
			a->map_out = out;
	}
	return 0;
}

/*
 * The formats text: the current slot if it is whole and its CRC matches;
 * else the other slot, the text written before it (the kernel writes the
 * free slot, then switches: a crash in between leaves the older whole),
 * with a warning; else none, with a warning.
 */
static int text_check(struct actx *c)
{
	struct lgd_area *a = c->a;
	const struct logdev_area_hdr *h = &a->hdr;
	uint32_t cur = h->text_cur;
	uint64_t off = 0, off2 = 0;
	int st;

	if (cur == LOGDEV_AREA_NO_TEXT) {
		a->text = LGD_AREA_TEXT_NONE;
		return 0;
	}
	st = cur > 1 ? LGD_AREA_TEXT_BAD : text_slot(a, cur, &off);
	if (st == LGD_AREA_TEXT_OK) {
		a->text = LGD_AREA_TEXT_OK;
		a->text_p = (const char *)a->img + off;
		a->text_len = h->text_len[cur];
		return text_split(c, off);
	}
	a->text = st;
	if (cur <= 1 && text_slot(a, !cur, &off2) == LGD_AREA_TEXT_OK) {
		a->text = LGD_AREA_TEXT_OLDER;
		a->text_p = (const char *)a->img + off2;
		a->text_len = h->text_len[!cur];
	}
	/* the byte: the field at fault, where the image ends, or the slot */
	awarn(c, st == LGD_AREA_TEXT_CUT ? -ENODATA : -EINVAL,
	      cur > 1 ? (int64_t)lgd_area_field_off(LGD_AH_TEXT_CUR) :
	      st == LGD_AREA_TEXT_BAD ? (int64_t)lgd_area_field_off(LGD_AH_TEXT_LEN) + 4 * cur :
	      st == LGD_AREA_TEXT_CUT ? (int64_t)a->limit : (int64_t)off,
	      -1, -1, "formats text (slot %u, %u bytes): %s: %s", cur,
	      cur > 1 ? 0 : h->text_len[cur],
	      cur > 1 ? "text_cur is neither slot" :
	      st == LGD_AREA_TEXT_BAD ? "text_len beyond its slot" :
	      st == LGD_AREA_TEXT_CUT ? "it lies past the image's end" :
	      !h->text_len[cur] ? "it is empty (text_len 0)" :
	      "its CRC-32 does not match text_crc",
	      a->text == LGD_AREA_TEXT_OLDER ?
	      "the older text of the other slot is used (call sites first hit after it was "
	      "written are shown by call-site id)" :
	      "no formats, records are shown by call-site id");
	return a->text == LGD_AREA_TEXT_OLDER ? text_split(c, off2) : 0;
}

/* do [a, a + an) and [b, b + bn) overlap? */
static int overlap(uint64_t a, uint64_t an, uint64_t b, uint64_t bn)
{
	return a < b + bn && b < a + an;
}

/*
 * The block head of CPU @r->cpu: NULL if sound, else what is wrong with it,
 * *@f the offending field
 */
static const char *head_check(const struct lgd_area *a, const struct lgd_area_cpu_res *r,
			      enum lgd_area_field *f)
{
	const struct logdev_area_hdr *h = &a->hdr;
	const struct logdev_area_cpu *ac = &r->head;
	uint64_t nr = h->nr_subbufs, st = h->cpu_stride, cn = nr * h->local_bytes,
		 sn = nr * LOGDEV_AREA_SEAL_SIZE, dn = nr * h->subbuf_size;

	*f = LGD_AC_MAGIC;
	if (ac->magic != LOGDEV_AREA_CPU_MAGIC)
		return "no block magic";
	*f = LGD_AC_CPU;
	if (ac->cpu != r->cpu)
		return "the block names another CPU";
	*f = LGD_AC_COMMIT_OFF;
	if (ac->commit_off < LOGDEV_AREA_CPU_SIZE || !inside(ac->commit_off, cn, st))
		return "commit counters outside the block";
	*f = LGD_AC_SEAL_OFF;
	if (ac->seal_off < LOGDEV_AREA_CPU_SIZE || !inside(ac->seal_off, sn, st) ||
	    overlap(ac->seal_off, sn, ac->commit_off, cn))
		return "seals outside the block or on its counters";
	*f = LGD_AC_DATA_OFF;
	if (ac->data_off < LOGDEV_AREA_CPU_SIZE || !inside(ac->data_off, dn, st) ||
	    overlap(ac->data_off, dn, ac->commit_off, cn) ||
	    overlap(ac->data_off, dn, ac->seal_off, sn))
		return "sub-buffers outside the block or on its counters or seals";
	return NULL;
}

/*
 * The record walk of the loaded sub-buffer @s (its header @info, @open: the
 * walk ends at the first malformed record instead of failing).
 * Return: 0, or the enum lgd_area_why that damages it (s->bad_off set).
 */
static int walk(struct actx *c, struct lgd_area_sb *s, const struct lgd_sb_info *info, int open,
		int sealed)
{
	uint32_t hsz = lgd_sb_hdr_size(info->version);
	uint64_t prev = info->first_ts;
	struct lgd_sb_rec rec;
	int n;

	while ((n = lgd_sb_next(c->dec, &rec)) != LGD_SB_REC_END) {
		/* timestamps: only against garbage, never for sealed bytes */
		int why = n == LGD_SB_REC_BAD_ARGS ? LGD_AREA_W_REC_ARGS :
			  n != LGD_SB_REC ? LGD_AREA_W_REC_LEN :
			  sealed || rec.hdr.ts + LGD_AREA_TS_SLACK_NS >= prev ? LGD_AREA_W_NONE :
			  !s->records ? LGD_AREA_W_TS_FIRST : LGD_AREA_W_TS_BACK;

		if (why) {
			s->bad_off = s->off + (n == LGD_SB_REC ? rec.off : rec.bad_off);
			s->why = (uint8_t)why;
			return open ? 0 : why;
		}
		if (rec.hdr.ts > prev)
			prev = rec.hdr.ts;
		s->records++;
		s->data_bytes = rec.off + rec.hdr.len - hsz;
	}
	return 0;
}

/*
 * Slot @s's sub-buffer (@rem: its bytes in the open lap, 0 whole; @seal:
 * its slot's seal, NULL if not readable) on CPU @cpu: its class.
 */
static int sb_check(struct actx *c, struct lgd_area_sb *s, uint64_t rem,
		    const struct logdev_area_seal *seal, uint64_t seal_at, uint32_t cpu)
{
	uint32_t sbs = c->a->hdr.subbuf_size;
	const uint8_t *p = c->a->img + s->off;
	struct lgd_sb_info info;
	int st, why = 0, sealed = !rem && seal && seal->seq == s->seq;

	if (sealed && (seal->data_bytes > sbs - LOGDEV_SUBBUF_HDR_SIZE ||
		       lgd_area_crc(p, LOGDEV_SUBBUF_HDR_SIZE + seal->data_bytes) != seal->crc)) {
		s->bad_off = seal_at + lgd_area_field_off(LGD_AS_CRC);
		s->why = LGD_AREA_W_CRC;
		return LGD_AREA_CORRUPT;
	}
	st = rem ? lgd_sb_load_open(c->dec, p, sbs, sbs, (uint32_t)rem - LOGDEV_SUBBUF_HDR_SIZE,
				    &info) :
		   lgd_sb_load(c->dec, p, sbs, sbs, &info);
	if (sealed && st != LGD_SB_BAD_MAGIC && st != LGD_SB_BAD_VERSION &&
	    info.data_bytes != seal->data_bytes) {
		s->bad_off = seal_at + lgd_area_field_off(LGD_AS_DATA_BYTES);
		s->why = LGD_AREA_W_SEAL_BYTES;
		return LGD_AREA_CORRUPT;
	}
	s->committed = rem ? (uint32_t)rem - LOGDEV_SUBBUF_HDR_SIZE : info.data_bytes;
	if (st == LGD_SB_BAD_MAGIC)
		why = LGD_AREA_W_MAGIC, s->bad_off = s->off + lgd_sb_field_off(LGD_SB_F_MAGIC);
	else if (st == LGD_SB_BAD_VERSION || info.version != c->a->hdr.format_version)
		why = LGD_AREA_W_VERSION, s->bad_off = s->off + lgd_sb_field_off(LGD_SB_F_VERSION);
	else if (st == LGD_SB_BAD_DATA_BYTES)
		why = LGD_AREA_W_DATA_BYTES,
		s->bad_off = s->off + lgd_sb_field_off(LGD_SB_F_DATA_BYTES);
	else if (info.cpu != (cpu & 0xffff))
		why = LGD_AREA_W_CPU, s->bad_off = s->off + lgd_sb_field_off(LGD_SB_F_CPU);
	else if (info.seq != s->seq)
		why = LGD_AREA_W_SEQ, s->bad_off = s->off + lgd_sb_field_off(LGD_SB_F_SEQ);
	else
		why = walk(c, s, &info, rem != 0, sealed);
	if (why) {
		s->why = (uint8_t)why;
		s->records = 0;
		s->data_bytes = 0;
		return LGD_AREA_DAMAGED;
	}
	if (!sealed && !rem && c->sealed_end) {
		/* a panic, reboot or unload sealed every whole one: not this */
		s->bad_off = seal_at + lgd_area_field_off(LGD_AS_SEQ);
		s->why = LGD_AREA_W_NO_SEAL;
		s->records = 0;
		s->data_bytes = 0;
		return LGD_AREA_CORRUPT;
	}
	return sealed ? LGD_AREA_SEALED : rem ? LGD_AREA_OPEN : LGD_AREA_UNSEALED;
}

/* slot @k of CPU block @r at @boff (its counter inside the image): @s classed */
static void slot_check(struct actx *c, struct lgd_area_cpu_res *r, uint64_t boff, uint32_t k,
		       struct lgd_area_sb *s)
{
	const struct lgd_area *a = c->a;
	const struct logdev_area_hdr *h = &a->hdr;
	uint64_t cat = boff + r->head.commit_off + (uint64_t)k * h->local_bytes;
	uint64_t seal_at = boff + r->head.seal_off + (uint64_t)k * LOGDEV_AREA_SEAL_SIZE;
	uint64_t cnt = h->local_bytes == 8 ? lgd_cap_get_u64(a->img + cat) :
		       lgd_cap_get_u32(a->img + cat);
	uint64_t rem = cnt % h->subbuf_size, lap = cnt / h->subbuf_size - (rem == 0);
	struct logdev_area_seal seal;
	int have_seal;

	memset(s, 0, sizeof(*s));
	s->slot = k;
	s->off = boff + r->head.data_off + (uint64_t)k * h->subbuf_size;
	s->seq = UINT64_MAX;
	if (!cnt) {
		s->cls = LGD_AREA_EMPTY;
		return;
	}
	if (lap > (UINT64_MAX - k) / h->nr_subbufs || (rem && rem < LOGDEV_SUBBUF_HDR_SIZE)) {
		s->cls = LGD_AREA_DAMAGED;
		s->why = LGD_AREA_W_COMMIT;
		s->bad_off = cat;
		return;
	}
	s->seq = lap * h->nr_subbufs + k;
	if (!inside(s->off, h->subbuf_size, a->limit)) {
		s->cls = LGD_AREA_CUT;
		return;
	}
	have_seal = inside(seal_at, LOGDEV_AREA_SEAL_SIZE, a->limit) &&
		    !lgd_area_seal_get(a->img + seal_at, LOGDEV_AREA_SEAL_SIZE, &seal);
	s->cls = (uint8_t)sb_check(c, s, rem, have_seal ? &seal : NULL, seal_at, r->cpu);
}

/*
 * warn about slot @s of CPU @cpu if it is corrupt or damaged: each one, as
 * the reader warns each sub-buffer it skips (what is lost is named)
 */
static void slot_warn(struct actx *c, uint32_t cpu, const struct lgd_area_sb *s)
{
	/* the open one's walk stopped at a bad record: the rest left out, said */
	if (s->cls == LGD_AREA_OPEN && s->why && s->committed > s->data_bytes)
		awarn(c, -EINVAL, (int64_t)s->bad_off, cpu, (int64_t)s->seq,
		      "area slot %u (the open sub-buffer at byte %llu): %s; %u of its %u committed "
		      "bytes kept, the records after it left out", s->slot,
		      (unsigned long long)s->off, lgd_area_why_text(s->why), s->data_bytes,
		      s->committed);
	if (s->cls != LGD_AREA_CORRUPT && s->cls != LGD_AREA_DAMAGED)
		return;
	awarn(c, -EINVAL, (int64_t)s->bad_off, cpu, s->seq == UINT64_MAX ? -1 : (int64_t)s->seq,
	      "area slot %u (sub-buffer at byte %llu) is %s: %s; left out", s->slot,
	      (unsigned long long)s->off, lgd_area_class_name(s->cls), lgd_area_why_text(s->why));
}

static int sb_cmp(const void *x, const void *y)
{
	const struct lgd_area_sb *a = x, *b = y;
	int ea = a->cls == LGD_AREA_EMPTY, eb = b->cls == LGD_AREA_EMPTY;

	if (ea != eb)
		return ea - eb;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* CPU @cpu's block: its head, then every slot whose counter is inside the image */
static int cpu_check(struct actx *c, uint32_t cpu)
{
	struct lgd_area *a = c->a;
	const struct logdev_area_hdr *h = &a->hdr;
	struct lgd_area_cpu_res *r = &a->cpus[cpu];
	uint64_t boff = h->cpu_off + (uint64_t)cpu * h->cpu_stride, cat, nread;
	enum lgd_area_field f;
	const char *why;

	r->cpu = cpu;
	if (!inside(boff, LOGDEV_AREA_CPU_SIZE, a->limit)) {
		r->state = LGD_AREA_CPU_CUT;
		r->count[LGD_AREA_CUT] = h->nr_subbufs;	/* all of them lost */
		a->lost += h->nr_subbufs;
		a->cpus_unread++;
		return 0;
	}
	lgd_area_cpu_get(a->img + boff, LOGDEV_AREA_CPU_SIZE, &r->head);
	why = head_check(a, r, &f);
	if (why) {
		r->state = LGD_AREA_CPU_BAD;
		r->bad_off = boff + lgd_area_field_off(f);
		r->count[LGD_AREA_DAMAGED] = h->nr_subbufs;
		a->lost += h->nr_subbufs;
		a->cpus_unread++;
		awarn(c, -EINVAL, (int64_t)r->bad_off, cpu, -1,
		      "area CPU block head: %s: its %u sub-buffers are not read", why,
		      h->nr_subbufs);
		return 0;
	}
	cat = boff + r->head.commit_off;
	nread = cat >= a->limit ? 0 : (a->limit - cat) / h->local_bytes;
	if (nread > h->nr_subbufs)
		nread = h->nr_subbufs;
	r->count[LGD_AREA_CUT] = h->nr_subbufs - nread;
	r->sb = nread ? calloc(nread, sizeof(*r->sb)) : NULL;
	if (nread && !r->sb)
		return -ENOMEM;
	r->nr_sb = (uint32_t)nread;
	c->sealed_end = r->head.saved == 1 && (h->end_reason == LOGDEV_END_PANIC ||
					       h->end_reason == LOGDEV_END_REBOOT ||
					       h->end_reason == LOGDEV_END_UNLOAD);
	for (uint32_t k = 0; k < r->nr_sb; k++) {
		slot_check(c, r, boff, k, &r->sb[k]);
		slot_warn(c, cpu, &r->sb[k]);
		r->count[r->sb[k].cls]++;
		r->records += r->sb[k].records;
	}
	if (r->nr_sb)
		qsort(r->sb, r->nr_sb, sizeof(*r->sb), sb_cmp);
	a->lost += r->count[LGD_AREA_CORRUPT] + r->count[LGD_AREA_DAMAGED] +
		   r->count[LGD_AREA_CUT];
	/*
	 * With its counters saved, the records a wrapped ring overwrote are
	 * counted (overrun); without (a hard reset), only known to exist
	 */
	if (r->head.saved != 1 && r->nr_sb && r->sb[0].cls != LGD_AREA_EMPTY &&
	    r->sb[0].seq != UINT64_MAX && r->sb[0].seq > 0)
		awarn(c, -EOVERFLOW, (int64_t)r->sb[0].off, cpu, (int64_t)r->sb[0].seq,
		      "the ring had wrapped: the records of its %llu sub-buffers before this one "
		      "were overwritten (how many records is unknown: no end was noted, so no "
		      "counters were saved)", (unsigned long long)r->sb[0].seq);
	return 0;
}

int lgd_area_open(struct lgd_area *a, const uint8_t *img, size_t len, lgd_warn_fn warn,
		  void *warn_arg, struct lgd_diag *d)
{
	struct actx c = { .a = a, .warn = warn, .warn_arg = warn_arg };
	uint64_t records = 0;
	int ret;

	memset(a, 0, sizeof(*a));
	a->img = img;
	a->len = len;
	ret = hdr_check(a, d);
	if (ret)
		return ret;
	a->limit = a->hdr.area_bytes < len ? a->hdr.area_bytes : len;
	a->cut = len < a->hdr.area_bytes;
	if (a->cut)
		awarn(&c, -ENODATA, (int64_t)len, -1, -1,
		      "the image has %zu of the area's %llu bytes: what lies inside is read",
		      len, (unsigned long long)a->hdr.area_bytes);
	ret = text_check(&c);
	a->cpus = ret ? NULL : calloc(a->hdr.nr_cpus, sizeof(*a->cpus));
	c.dec = lgd_sb_alloc();
	if (!a->cpus || !c.dec) {
		ret = -ENOMEM;
		goto fail;
	}
	a->nr_cpus = a->hdr.nr_cpus;
	for (uint32_t cpu = 0; cpu < a->nr_cpus; cpu++) {
		ret = cpu_check(&c, cpu);
		if (ret)
			goto fail;
		records += a->cpus[cpu].records;
	}
	if (a->text == LGD_AREA_TEXT_NONE && records)
		awarn(&c, -ENOENT, lgd_area_field_off(LGD_AH_TEXT_CUR), -1, -1,
		      "the area has no formats text (text_cur: none): records are shown by "
		      "call-site id");
	lgd_sb_free(c.dec);
	return 0;
fail:
	lgd_sb_free(c.dec);
	lgd_area_close(a);
	return lgd_diag_set(d, ret, -1, "out of memory");
}

void lgd_area_close(struct lgd_area *a)
{
	for (uint32_t i = 0; a->cpus && i < a->nr_cpus; i++)
		free(a->cpus[i].sb);
	free(a->cpus);
	a->cpus = NULL;
	a->nr_cpus = 0;
}
