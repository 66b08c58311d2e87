// SPDX-License-Identifier: GPL-2.0
/*
 * areaconv.c: a validated flight-recorder area (area.c) written as a
 * normal capture (lgd_area.h; layer: library): the debugfs "header" text
 * its rings had, a LAST_BOOT section saying where the image came from, how
 * the boot ended and what was lost (capture.h), the formats of its current
 * text slot, the usable sub-buffers of each CPU in seq order, the counters
 * the CPUs saved, END.  Text only through a FILE * of open_memstream().
 * A sub-buffer goes out as a consuming read gives it: its header and
 * validated records, the rest zeroed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "lgd_area.h"
#include "subbuf.h"

#define LIST_MAX	16	/* seqs listed per class and CPU */

/* @s as one line of printable ASCII: \\, \", controls and bytes >= 0x7f as \xHH */
static void put_esc(FILE *f, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '\\' || *p == '"')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20 || *p >= 0x7f)
			fprintf(f, "\\x%02x", *p);
		else
			fputc(*p, f);
	}
}

/* @ns of CLOCK_REALTIME as "2026-12-08 10:05:00.123456789 UTC" */
static void put_wall(FILE *f, uint64_t ns)
{
	time_t t = (time_t)(ns / 1000000000u);
	struct tm tm;

	if (!ns || !gmtime_r(&t, &tm)) {
		fprintf(f, "an unknown time");
		return;
	}
	fprintf(f, "%04d-%02d-%02d %02d:%02d:%02d.%09u UTC", tm.tm_year + 1900, tm.tm_mon + 1,
		tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, (unsigned)(ns % 1000000000u));
}

/* FILE * on a growing buffer; the text and its length at the end (NULL: no memory) */
struct mtext {
	char *p;
	size_t n;
	FILE *f;
};

static FILE *mt_open(struct mtext *m)
{
	m->p = NULL;
	m->n = 0;
	m->f = open_memstream(&m->p, &m->n);
	return m->f;
}

static char *mt_close(struct mtext *m, size_t *len)
{
	int err = ferror(m->f);

	if (fclose(m->f) || err) {
		free(m->p);
		return NULL;
	}
	*len = m->n;
	return m->p;
}

char *lgd_area_header_text(const struct lgd_area *a, size_t *len)
{
	const struct logdev_area_hdr *h = &a->hdr;
	size_t fl = lgd_sb_header_fields(NULL, 0) + 1;
	char *fields = malloc(fl);
	struct mtext m;

	if (!fields || !mt_open(&m)) {
		free(fields);
		return NULL;
	}
	lgd_sb_header_fields(fields, fl);
	fprintf(m.f, "version: %u\nendian: little\nsubbuf_size: %u\nnr_subbufs: %u\n"
		"subbuf_hdr_size: %u\nrec_hdr_size: %u\n", h->format_version, h->subbuf_size,
		h->nr_subbufs, lgd_sb_hdr_size(h->format_version), LOGDEV_REC_HDR_SIZE);
	if (h->clock[0]) {
		fprintf(m.f, "clock: ");
		put_esc(m.f, h->clock);
		fputc('\n', m.f);
	}
	fputs(fields, m.f);
	free(fields);
	return mt_close(&m, len);
}

/* the "ended:" line */
static void put_end(FILE *f, const struct logdev_area_hdr *h)
{
	static const char *const reason[] = {
		[LOGDEV_END_PANIC] = "panic", [LOGDEV_END_REBOOT] = "reboot",
		[LOGDEV_END_OOPS] = "oops", [LOGDEV_END_UNLOAD] = "module unloaded",
	};

	if (h->end_reason == LOGDEV_END_UNKNOWN) {
		fprintf(f, "ended: unknown (no end seen: hard reset, power loss or hang)\n");
		return;
	}
	if (h->end_reason < sizeof(reason) / sizeof(reason[0]))
		fprintf(f, "ended: %s", reason[h->end_reason]);
	else
		fprintf(f, "ended: reason %u (unknown to this reader)", h->end_reason);
	/* the message, unless it only repeats the reason (a reboot's "reboot") */
	if (h->end_msg[0] && (h->end_reason >= sizeof(reason) / sizeof(reason[0]) ||
			      strcmp(h->end_msg, reason[h->end_reason]))) {
		fputs(" \"", f);
		put_esc(f, h->end_msg);
		fputc('"', f);
	}
	fputs(" at ", f);
	put_wall(f, h->end_wall_ns);
	fprintf(f, " (trace ts %" PRIu64 ".%06" PRIu64 ")\n", (uint64_t)h->end_ts / 1000000000u,
		(uint64_t)h->end_ts % 1000000000u / 1000u);
}

/* ", corrupt N (seq a b ...)" for class @cls of @r; with the why of each damaged one */
static void put_class(FILE *f, const struct lgd_area_cpu_res *r, int cls)
{
	uint64_t listed = 0;

	fprintf(f, ", %s %" PRIu64, lgd_area_class_name(cls), r->count[cls]);
	if (!r->count[cls] || (cls != LGD_AREA_CORRUPT && cls != LGD_AREA_DAMAGED))
		return;
	fputs(" (seq", f);
	for (uint32_t i = 0; i < r->nr_sb; i++) {
		const struct lgd_area_sb *s = &r->sb[i];

		if (s->cls != cls)
			continue;
		if (listed++ == LIST_MAX)
			break;
		fputs(listed > 1 ? ", " : " ", f);
		if (s->seq == UINT64_MAX)
			fprintf(f, "? (slot %u)", s->slot);
		else
			fprintf(f, "%" PRIu64, s->seq);
		if (cls == LGD_AREA_DAMAGED)
			fprintf(f, ": %s", lgd_area_why_text(s->why));
	}
	if (listed > LIST_MAX)
		fprintf(f, " and %" PRIu64 " more", r->count[cls] - LIST_MAX);
	fputc(')', f);
}

/* the "cpu N:" line of @r */
static void put_cpu(FILE *f, const struct lgd_area_cpu_res *r)
{
	static const int order[] = { LGD_AREA_SEALED, LGD_AREA_UNSEALED, LGD_AREA_OPEN,
				     LGD_AREA_EMPTY, LGD_AREA_CORRUPT, LGD_AREA_DAMAGED,
				     LGD_AREA_CUT };
	const struct logdev_area_cpu *c = &r->head;

	fprintf(f, "cpu %u:", r->cpu);
	if (r->state == LGD_AREA_CPU_CUT) {
		fputs(" past the image's end: not read\n", f);
		return;
	}
	if (r->state == LGD_AREA_CPU_BAD) {
		fprintf(f, " block head damaged (byte %" PRIu64 "): not read\n", r->bad_off);
		return;
	}
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		if (i)
			put_class(f, r, order[i]);
		else
			fprintf(f, " %s %" PRIu64, lgd_area_class_name(order[i]), r->count[order[i]]);
	}
	fprintf(f, "; records %" PRIu64, r->records);
	for (uint32_t i = 0; i < r->nr_sb; i++)
		if (r->sb[i].cls == LGD_AREA_OPEN && r->sb[i].committed > r->sb[i].data_bytes)
			fprintf(f, "; open seq %" PRIu64 ": %u of %u committed bytes kept (%s)",
				(uint64_t)r->sb[i].seq, r->sb[i].data_bytes, r->sb[i].committed,
				lgd_area_why_text(r->sb[i].why));
	if (c->saved == 1)
		fprintf(f, "; counters: written=%llu read=%llu overrun=%llu dropped=%llu "
			"nesting_lost=%llu too_big=%llu write_off=%llu read_sb=%llu\n",
			(unsigned long long)c->written, (unsigned long long)c->read,
			(unsigned long long)c->overrun, (unsigned long long)c->dropped,
			(unsigned long long)c->nesting_lost, (unsigned long long)c->too_big,
			(unsigned long long)c->write_off, (unsigned long long)c->read_sb);
	else
		fputs("; counters unknown\n", f);
}

/*
 * the "overwritten:" line: records the ring wrapped over before the end,
 * from the counters the CPUs saved (the reader shows them as lost events,
 * overrun); nothing when none did or none was overwritten.  A CPU's count
 * above the sub-buffer header's 32-bit overrun field shows as 4294967295 in
 * its lost-events line (lgd_sb_set_overrun()): said here, with the count.
 */
static void put_overwritten(FILE *f, const struct lgd_area *a)
{
	uint64_t n = 0;
	uint32_t big = 0;

	for (uint32_t i = 0; i < a->nr_cpus; i++)
		if (a->cpus[i].state == LGD_AREA_CPU_OK && a->cpus[i].head.saved == 1) {
			n += a->cpus[i].head.overrun;
			big += a->cpus[i].head.overrun > UINT32_MAX;
		}
	if (!n)
		return;
	fprintf(f, "overwritten: %" PRIu64 " records before the end, as the ring wrapped "
		"(overrun: lost events at each CPU's start)", n);
	if (big)
		fprintf(f, "; on %" PRIu32 " CPU(s) more than 4294967295: their lost-events line "
			"says 4294967295 (a sub-buffer header's 32 bits), this count is exact", big);
	fputc('\n', f);
}

/* the "lost:" line */
static void put_lost(FILE *f, const struct lgd_area *a)
{
	uint64_t n[LGD_AREA_NR_CLASSES] = { 0 };

	for (uint32_t i = 0; i < a->nr_cpus; i++)
		for (int k = 0; k < LGD_AREA_NR_CLASSES; k++)
			n[k] += a->cpus[i].count[k];
	if (!a->lost && !a->cpus_unread) {
		fputs("lost: none\n", f);
		return;
	}
	fprintf(f, "lost: %" PRIu64 " sub-buffer%s (corrupt %" PRIu64 ", damaged %" PRIu64
		", past the image's end %" PRIu64 ")", a->lost, a->lost == 1 ? "" : "s",
		n[LGD_AREA_CORRUPT],
		n[LGD_AREA_DAMAGED], n[LGD_AREA_CUT]);
	if (a->cpus_unread)
		fprintf(f, "; %u CPU block%s not read", a->cpus_unread,
			a->cpus_unread == 1 ? "" : "s");
	fputc('\n', f);
}

/*
 * the "symbols:" line: where %pS of vmlinux and of modules are named from,
 * or why they print as hex; "none needed" when no format prints a symbol
 */
static void put_syms(FILE *f, const struct lgd_area *a, const struct lgd_area_syms *sy)
{
	if (!lgd_area_needs_syms(a)) {
		fputs("symbols: none needed (no format prints a symbol)\n", f);
		return;
	}
	fputs("symbols: vmlinux ", f);
	if (sy && sy->text) {
		fputs("from ", f);
		put_esc(f, sy->from[0] ? sy->from : "a symbol file");
		fprintf(f, ", shifted by %s0x%" PRIx64 " (%zu symbols)", sy->shift < 0 ? "-" : "+",
			sy->shift < 0 ? -(uint64_t)sy->shift : (uint64_t)sy->shift, sy->nr);
	} else {
		fputs("none (", f);
		put_esc(f, sy && sy->none_why[0] ? sy->none_why : "no symbol file given");
		fputs("): its addresses print as hex", f);
	}
	if (!a->map)
		fputs("; modules none (an older area: no module map): their addresses print as "
		      "hex\n", f);
	else if (!a->map_mods)
		fprintf(f, "; modules: the area's map lists none%s\n",
			a->map_out ? " (its text was full): their addresses print as hex" : "");
	else {
		fprintf(f, "; modules from the area's map (%u module%s", a->map_mods,
			a->map_mods == 1 ? "" : "s");
		if (a->map_bare)
			fprintf(f, ", %u without symbols: their addresses print as hex",
				a->map_bare);
		if (a->map_out)
			fprintf(f, ", %u left out: the area's text was full", a->map_out);
		fputs(")\n", f);
	}
}

char *lgd_area_last_boot_text(const struct lgd_area *a, const char *source,
			      const struct lgd_area_syms *syms, size_t *len)
{
	const struct logdev_area_hdr *h = &a->hdr;
	static const char *const text[] = {
		[LGD_AREA_TEXT_NONE] = "none (text_cur: none)",
		[LGD_AREA_TEXT_BAD] = "damaged (text_cur or text_len)",
		[LGD_AREA_TEXT_CRC] = "damaged (CRC-32 mismatch)",
		[LGD_AREA_TEXT_CUT] = "past the image's end",
		[LGD_AREA_TEXT_OLDER] = "the current slot damaged",
	};
	struct mtext m;

	if (!mt_open(&m))
		return NULL;
	fputs("source: ", m.f);
	put_esc(m.f, source ? source : "unknown");
	fputs("\nosrelease: ", m.f);
	put_esc(m.f, h->osrelease[0] ? h->osrelease : "unknown");
	fputs("\nbuild-id: ", m.f);
	put_esc(m.f, h->build_id[0] ? h->build_id : "unknown");
	if (h->text_addr)
		fprintf(m.f, "\ntext_addr: 0x%llx\n", (unsigned long long)h->text_addr);
	else
		fputs("\ntext_addr: unknown\n", m.f);
	fputs("clock: ", m.f);
	put_esc(m.f, h->clock[0] ? h->clock : "local");
	fputs("\nloaded: ", m.f);
	put_wall(m.f, h->load_wall_ns);
	fputc('\n', m.f);
	put_end(m.f, h);
	fprintf(m.f, "area: %llu bytes (image %zu bytes%s), %u CPUs, %u sub-buffers of %u bytes "
		"each\n", (unsigned long long)h->area_bytes, a->len, a->cut ? ", cut short" : "",
		h->nr_cpus, h->nr_subbufs, h->subbuf_size);
	if (a->text == LGD_AREA_TEXT_OK)
		fprintf(m.f, "formats: slot %u, %u bytes\n", h->text_cur, a->text_len);
	else if (a->text == LGD_AREA_TEXT_OLDER)
		fprintf(m.f, "formats: slot %u damaged: the older slot %u, %u bytes (call sites "
			"first hit after it was written are shown by call-site id)\n", h->text_cur,
			!h->text_cur, a->text_len);
	else
		fprintf(m.f, "formats: %s: records are shown by call-site id\n",
			text[a->text < 5 ? a->text : LGD_AREA_TEXT_BAD]);
	for (uint32_t i = 0; i < a->nr_cpus; i++)
		put_cpu(m.f, &a->cpus[i]);
	put_lost(m.f, a);
	put_overwritten(m.f, a);
	put_syms(m.f, a, syms);
	return mt_close(&m, len);
}

/* the STATS text of the CPUs that saved their counters; NULL and *@len 0 if none */
static char *stats_text(const struct lgd_area *a, size_t *len, int *err)
{
	struct mtext m;
	int any = 0;

	*err = 0;
	*len = 0;
	if (!mt_open(&m)) {
		*err = -ENOMEM;
		return NULL;
	}
	for (uint32_t i = 0; i < a->nr_cpus; i++) {
		const struct logdev_area_cpu *c = &a->cpus[i].head;

		if (a->cpus[i].state != LGD_AREA_CPU_OK || c->saved != 1)
			continue;
		any = 1;
		fprintf(m.f, "cpu=%u written=%llu read=%llu overrun=%llu dropped=%llu "
			"nesting_lost=%llu too_big=%llu\n", a->cpus[i].cpu,
			(unsigned long long)c->written, (unsigned long long)c->read,
			(unsigned long long)c->overrun, (unsigned long long)c->dropped,
			(unsigned long long)c->nesting_lost, (unsigned long long)c->too_big);
	}
	{
		char *t = mt_close(&m, len);

		if (!t)
			*err = -ENOMEM;
		if (!any) {
			free(t);
			*len = 0;
			return NULL;
		}
		return t;
	}
}

/*
 * CPU @r's usable sub-buffers as CPU_DATA, in seq order, each as a consuming
 * read gives it: its header and validated records (an open one's data_bytes
 * set to them), the rest zeroed (no older lap's bytes); @buf: subbuf_size
 * bytes.  The first carries the saved overrun count, when there is one, as
 * a consuming read's first sub-buffer would: the records overwritten before
 * the oldest one the ring held, which the reader shows as lost (overrun).
 */
/* is a sub-buffer of class @cls written to the capture (its records read)? */
static int kept(int cls)
{
	return cls == LGD_AREA_SEALED || cls == LGD_AREA_UNSEALED || cls == LGD_AREA_OPEN;
}

/*
 * The losses CPU @r saved (dropped, nesting_lost, too_big) that no kept
 * sub-buffer's header notes, into @add: the first one written carries them
 * (a fresh user's: too_big 2 saved, 1 reported)
 */
static void unnoted(const struct lgd_area *a, const struct lgd_area_cpu_res *r, uint64_t add[3])
{
	uint64_t saved[3] = { r->head.dropped, r->head.nesting_lost, r->head.too_big };
	uint64_t seen[3] = { 0 }, b[3];

	for (uint32_t i = 0; i < r->nr_sb; i++) {
		const struct lgd_area_sb *s = &r->sb[i];

		if (!kept(s->cls))
			continue;
		if (lgd_sb_peek_before(a->img + s->off, LOGDEV_SUBBUF_HDR_SIZE, b))
			continue;
		for (int k = 0; k < 3; k++)
			seen[k] += b[k];
	}
	for (int k = 0; k < 3; k++)
		add[k] = r->head.saved == 1 && saved[k] > seen[k] ? saved[k] - seen[k] : 0;
}

static int cpu_data(const struct lgd_area *a, const struct lgd_area_cpu_res *r,
		    struct lgd_cap_writer *w, uint8_t *buf, struct lgd_area_conv *st)
{
	uint32_t sbs = a->hdr.subbuf_size;
	uint64_t add[3];
	int first = 1;

	unnoted(a, r, add);

	for (uint32_t i = 0; i < r->nr_sb; i++) {
		const struct lgd_area_sb *s = &r->sb[i];
		uint32_t end = LOGDEV_SUBBUF_HDR_SIZE + s->data_bytes;
		int ret;

		if (!kept(s->cls))
			continue;
		memcpy(buf, a->img + s->off, end);
		memset(buf + end, 0, sbs - end);
		if (lgd_sb_set_data_bytes(buf, sbs, s->data_bytes))
			continue;	/* cannot be: its header was read */
		if (first && r->head.saved == 1 && r->head.overrun)
			lgd_sb_set_overrun(buf, sbs, r->head.overrun);
		if (first && (add[0] || add[1] || add[2]))
			lgd_sb_add_before(buf, sbs, add);
		first = 0;
		ret = lgd_cap_write_section(w, LGD_SECT_CPU_DATA, r->cpu, buf, sbs);
		if (ret)
			return ret;
		st->subbufs++;
		st->records += s->records;
	}
	return 0;
}

int lgd_area_capture(const struct lgd_area *a, struct lgd_cap_writer *w, const char *source,
		     const struct lgd_area_syms *syms, struct lgd_area_conv *stp)
{
	struct lgd_area_conv st = { 0 };
	uint8_t *buf = NULL;
	size_t n;
	char *t;
	int ret;

	t = lgd_area_header_text(a, &n);
	ret = t ? lgd_cap_write_section(w, LGD_SECT_HEADER, LGD_CAP_NO_CPU, t, n) : -ENOMEM;
	free(t);
	if (!ret) {
		t = lgd_area_last_boot_text(a, source, syms, &n);
		ret = t ? lgd_cap_write_section(w, LGD_SECT_LAST_BOOT, LGD_CAP_NO_CPU, t, n) :
			  -ENOMEM;
		free(t);
	}
	if (!ret && (a->text == LGD_AREA_TEXT_OK || a->text == LGD_AREA_TEXT_OLDER))
		ret = lgd_cap_write_section(w, LGD_SECT_FORMATS, LGD_CAP_NO_CPU, a->text_p,
					    a->text_len);
	/* as a recording: the symbols only when a format prints one */
	if (!ret && syms && syms->text && lgd_area_needs_syms(a))
		ret = lgd_cap_write_section(w, LGD_SECT_KALLSYMS, LGD_CAP_NO_CPU, syms->text,
					    syms->len);
	if (!ret && a->map && a->mods_len && lgd_area_needs_syms(a))
		ret = lgd_cap_write_section(w, LGD_SECT_MODLOG, LGD_CAP_NO_CPU, a->mods_p,
					    a->mods_len);
	for (uint32_t i = 0; !ret && i < a->nr_cpus; i++) {
		const uint64_t *n = a->cpus[i].count;

		if (!buf && n[LGD_AREA_SEALED] + n[LGD_AREA_UNSEALED] + n[LGD_AREA_OPEN]) {
			buf = malloc(a->hdr.subbuf_size);	/* inside the image: bounded */
			if (!buf)
				ret = -ENOMEM;
		}
		if (!ret)
			ret = cpu_data(a, &a->cpus[i], w, buf, &st);
	}
	free(buf);
	if (!ret) {
		t = stats_text(a, &n, &ret);
		if (t)
			ret = lgd_cap_write_section(w, LGD_SECT_STATS, LGD_CAP_NO_CPU, t, n);
		free(t);
	}
	if (!ret)
		ret = lgd_cap_write_end(w);
	if (stp)
		*stp = st;
	return ret;
}
