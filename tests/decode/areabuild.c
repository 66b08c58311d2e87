// SPDX-License-Identifier: GPL-2.0
/*
 * areabuild.c - a flight-recorder area built in memory (areabuild.h).
 * Every byte of a layout goes through the library's encoders (subbuf.h:
 * lgd_area_*_put(), lgd_sb_enc_*()), as the kernel would lay it out.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "liblogdev.h"
#include "subbuf.h"
#include "capture.h"
#include "areabuild.h"

static uint64_t page_up(uint64_t v)
{
	return (v + AB_PAGE - 1) / AB_PAGE * AB_PAGE;
}

static uint64_t block_at(const struct ab_area *a, uint32_t cpu)
{
	return a->h.cpu_off + (uint64_t)cpu * a->h.cpu_stride;
}

uint64_t ab_sb_off(const struct ab_area *a, uint32_t cpu, uint64_t seq)
{
	return block_at(a, cpu) + a->data_off + (seq % a->h.nr_subbufs) * a->h.subbuf_size;
}

uint64_t ab_commit_at(const struct ab_area *a, uint32_t cpu, uint32_t slot)
{
	return block_at(a, cpu) + a->commit_off + (uint64_t)slot * a->h.local_bytes;
}

uint64_t ab_seal_at(const struct ab_area *a, uint32_t cpu, uint32_t slot)
{
	return block_at(a, cpu) + a->seal_off + (uint64_t)slot * LOGDEV_AREA_SEAL_SIZE;
}

uint64_t ab_commit(const struct ab_area *a, uint32_t cpu, uint32_t slot)
{
	const uint8_t *p = a->img + ab_commit_at(a, cpu, slot);

	return a->h.local_bytes == 8 ? lgd_cap_get_u64(p) : lgd_cap_get_u32(p);
}

void ab_set_commit(struct ab_area *a, uint32_t cpu, uint32_t slot, uint64_t v)
{
	uint8_t *p = a->img + ab_commit_at(a, cpu, slot);

	if (a->h.local_bytes == 8)
		lgd_cap_put_u64(p, v);
	else
		lgd_cap_put_u32(p, (uint32_t)v);
}

void ab_init(struct ab_area *a, const struct ab_opts *o)
{
	struct logdev_area_hdr *h = &a->h;
	uint32_t nr = o->nr_subbufs ? o->nr_subbufs : 8;
	uint32_t sbs = o->subbuf_size ? o->subbuf_size : 256;
	uint32_t lb = o->local_bytes ? o->local_bytes : 8;
	uint32_t tb = o->text_bytes ? o->text_bytes : 2048;
	uint32_t ncpu = o->nr_cpus ? o->nr_cpus : 2;

	memset(a, 0, sizeof(*a));
	memcpy(h->magic, LOGDEV_AREA_MAGIC, 8);
	h->version = LOGDEV_AREA_VERSION;
	h->hdr_bytes = LOGDEV_AREA_HDR_SIZE;
	h->page_size = AB_PAGE;
	h->endian = LOGDEV_AREA_ENDIAN;
	h->nr_cpus = ncpu;
	h->subbuf_size = sbs;
	h->nr_subbufs = nr;
	h->format_version = LOGDEV_FORMAT_VERSION;
	h->local_bytes = lb;
	h->text_bytes = tb;
	h->text_off = AB_PAGE;
	h->cpu_off = page_up(AB_PAGE + 2ull * tb);
	a->commit_off = 128;
	a->seal_off = 128 + (uint64_t)nr * lb;
	a->data_off = page_up(a->seal_off + (uint64_t)nr * LOGDEV_AREA_SEAL_SIZE);
	h->cpu_stride = page_up(a->data_off + (uint64_t)nr * sbs);
	h->area_bytes = h->cpu_off + ncpu * h->cpu_stride;
	h->load_wall_ns = 1796000000123456789ull;	/* 2026-11-30 00:53:20 UTC */
	h->text_addr = 0xffffffff81000000ull;
	snprintf(h->clock, sizeof(h->clock), "local");
	snprintf(h->osrelease, sizeof(h->osrelease), "6.1.0-57-cloud-amd64");
	snprintf(h->build_id, sizeof(h->build_id), "0123456789abcdef0123456789abcdef01234567");
	h->text_cur = LOGDEV_AREA_NO_TEXT;
	a->len = h->area_bytes;
	a->img = calloc(1, a->len);
	if (!a->img)
		abort();
	if (o->formats) {
		size_t fl = strlen(o->formats), ml = o->mods ? strlen(o->mods) + 1 : 0;
		uint8_t *t = a->img + h->text_off + tb;

		h->text_cur = 1;
		h->text_len[1] = (uint32_t)(fl + ml);
		if (h->text_len[1] > tb)
			abort();
		memcpy(t, o->formats, fl);
		if (o->mods)	/* the NUL, then the map */
			memcpy(t + fl + 1, o->mods, ml - 1);
		h->text_crc[1] = lgd_area_crc(t, h->text_len[1]);
	}
	for (uint32_t c = 0; c < ncpu; c++) {
		struct logdev_area_cpu ac = {
			.magic = LOGDEV_AREA_CPU_MAGIC, .cpu = c, .commit_off = a->commit_off,
			.seal_off = a->seal_off, .data_off = a->data_off,
		};

		lgd_area_cpu_put(a->img + block_at(a, c), &ac);
		for (uint32_t k = 0; k < nr; k++) {
			struct logdev_area_seal s = { .seq = UINT64_MAX };

			lgd_area_seal_put(a->img + ab_seal_at(a, c, k), &s);
		}
	}
	ab_finish(a);
}

void ab_free(struct ab_area *a)
{
	free(a->img);
	a->img = NULL;
}

/* open sub-buffer next_seq of @cpu, first_ts @ts */
static void sb_open(struct ab_area *a, uint32_t cpu, uint64_t ts)
{
	uint64_t seq = a->cpu[cpu].next_seq++;
	uint32_t nr = a->h.nr_subbufs, sbs = a->h.subbuf_size;
	struct lgd_sb_info info = {
		.magic = LOGDEV_SUBBUF_MAGIC, .version = LOGDEV_FORMAT_VERSION,
		.cpu = (uint16_t)cpu, .seq = seq, .first_ts = ts,
	};
	uint32_t pos = lgd_sb_enc_begin(a->img + ab_sb_off(a, cpu, seq), sbs, &info);

	if (!pos)
		abort();
	ab_set_commit(a, cpu, (uint32_t)(seq % nr), (seq / nr) * sbs + pos);
	a->cpu[cpu].open = 1;
	a->cpu[cpu].pos = pos;
}

void ab_close(struct ab_area *a, uint32_t cpu)
{
	uint64_t seq = a->cpu[cpu].next_seq - 1;
	uint32_t nr = a->h.nr_subbufs, sbs = a->h.subbuf_size;

	if (!a->cpu[cpu].open)
		return;
	lgd_sb_set_data_bytes(a->img + ab_sb_off(a, cpu, seq), sbs,
			      a->cpu[cpu].pos - LOGDEV_SUBBUF_HDR_SIZE);
	ab_set_commit(a, cpu, (uint32_t)(seq % nr), (seq / nr + 1) * sbs);
	a->cpu[cpu].open = 0;
}

uint32_t ab_rec(struct ab_area *a, uint32_t cpu, uint64_t ts, uint32_t site, uint32_t pid,
		const void *pl, uint32_t n)
{
	struct logdev_rec_hdr rh = { .ts = ts, .site = site, .type = LOGDEV_REC_PRINT,
				     .pid = pid, .arg_bytes = n };
	uint32_t sbs = a->h.subbuf_size, nr = a->h.nr_subbufs, pos;
	struct ab_log *l;
	uint64_t seq;

	if (cpu >= a->h.nr_cpus || a->nlog >= AB_MAX_LOG || n > sizeof(l->pl))
		abort();
	for (int tries = 0; ; tries++) {
		if (!a->cpu[cpu].open)
			sb_open(a, cpu, ts);
		seq = a->cpu[cpu].next_seq - 1;
		pos = lgd_sb_enc_rec(a->img + ab_sb_off(a, cpu, seq), sbs, a->cpu[cpu].pos, &rh, pl);
		if (pos)
			break;
		if (tries)
			abort();	/* does not fit an empty sub-buffer */
		ab_close(a, cpu);
	}
	l = &a->log[a->nlog];
	l->cpu = cpu;
	l->seq = seq;
	l->ts = ts;
	l->site = site;
	l->pid = pid;
	l->n = n;
	memcpy(l->pl, pl, n);
	l->off = a->cpu[cpu].pos;
	ab_set_commit(a, cpu, (uint32_t)(seq % nr),
		      ab_commit(a, cpu, (uint32_t)(seq % nr)) + (pos - a->cpu[cpu].pos));
	a->cpu[cpu].pos = pos;
	a->cpu[cpu].written++;
	return a->nlog++;
}

void ab_end(struct ab_area *a, uint32_t reason, const char *msg, uint64_t ts, uint64_t wall_ns)
{
	uint32_t nr = a->h.nr_subbufs, sbs = a->h.subbuf_size;
	struct lgd_sb *dec = lgd_sb_alloc();

	if (!dec)
		abort();
	for (uint32_t c = 0; c < a->h.nr_cpus; c++) {
		struct logdev_area_cpu ac;

		for (uint32_t k = 0; k < nr; k++) {
			uint64_t cnt = ab_commit(a, c, k);
			struct logdev_area_seal s = { .seq = UINT64_MAX };
			struct lgd_sb_info info;
			const uint8_t *p = a->img + ab_sb_off(a, c, k);

			if (cnt && !(cnt % sbs) &&
			    lgd_sb_load(dec, p, sbs, sbs, &info) == LGD_SB_OK) {
				s.seq = (cnt / sbs - 1) * nr + k;
				s.data_bytes = info.data_bytes;
				s.crc = lgd_area_crc(p, LOGDEV_SUBBUF_HDR_SIZE + info.data_bytes);
			}
			lgd_area_seal_put(a->img + ab_seal_at(a, c, k), &s);
		}
		lgd_area_cpu_get(a->img + block_at(a, c), LOGDEV_AREA_CPU_SIZE, &ac);
		ac.saved = 1;
		ac.written = a->cpu[c].written;
		ac.overrun = a->cpu[c].next_seq > nr ? 7 * (a->cpu[c].next_seq - nr) : 0;
		ac.write_off = a->cpu[c].next_seq * sbs;
		lgd_area_cpu_put(a->img + block_at(a, c), &ac);
	}
	lgd_sb_free(dec);
	a->h.end_reason = reason;
	a->h.end_ts = ts;
	a->h.end_wall_ns = wall_ns;
	snprintf(a->h.end_msg, sizeof(a->h.end_msg), "%s", msg ? msg : "");
	ab_finish(a);
}

void ab_fix_hdr_crc(uint8_t *img)
{
	struct logdev_area_hdr h;

	lgd_area_hdr_get(img, LOGDEV_AREA_HDR_SIZE, &h);
	h.hdr_crc = lgd_area_crc(img, LOGDEV_AREA_CRC_BYTES);
	lgd_area_hdr_put(img, &h);
}

void ab_finish(struct ab_area *a)
{
	for (uint32_t c = 0; c < a->h.nr_cpus; c++)
		if (a->cpu[c].open)	/* not yet meaningful: the reader must not use it */
			lgd_sb_set_data_bytes(a->img + ab_sb_off(a, c, a->cpu[c].next_seq - 1),
					      a->h.subbuf_size, 0x7fffffffu);
	lgd_area_hdr_put(a->img, &a->h);
	ab_fix_hdr_crc(a->img);
	lgd_area_hdr_get(a->img, LOGDEV_AREA_HDR_SIZE, &a->h);
}

int ab_holds(const struct ab_area *a, uint32_t i)
{
	const struct ab_log *l = &a->log[i];
	uint32_t nr = a->h.nr_subbufs, sbs = a->h.subbuf_size, k = (uint32_t)(l->seq % nr);
	uint64_t c = ab_commit(a, l->cpu, k);

	if (!c)
		return 0;
	return (c / sbs - !(c % sbs)) * nr + k == l->seq;
}

void poke(uint8_t *img, uint64_t at, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		img[at + i] = (uint8_t)(v >> (8 * i));
}
