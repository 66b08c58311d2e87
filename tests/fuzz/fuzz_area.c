// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_area.c - libFuzzer target: a flight-recorder area image through
 * liblogdev, as `logdev report IMAGE` reads one: lgd_area_open() (the
 * validation), lgd_area_capture() into a memfd (the conversion), then the
 * reader and its merge over the capture.
 *
 * Input: byte 0 holds flags, the rest is the image.  CRCs guard the area,
 * and a mutation rarely keeps one right, so the flags make them right
 * before the validation, to reach what lies behind them: bit 0 the
 * header's hdr_crc, bit 1 the current text slot's text_crc, bit 2 the
 * seal of every sub-buffer a seal names (a CRC that did not match, fixed
 * and validated again).  Seeds: corpus/area (lib/test_area --write).
 *
 * Beyond the sanitizers it checks what the validator promises
 * (lgd_area.h): each CPU's classes add up to its ring's sub-buffers, a
 * kept sub-buffer's data lies inside the sub-buffer, and the reader reads
 * back exactly the records the validator kept (a kept sub-buffer the
 * reader finds wrong would be a validator that let damage through); the
 * text slot split at its first NUL (formats before, the module map after,
 * whole lines, no NUL in either), converted with vmlinux symbols shifted
 * to the area's text_addr (lgd_area_vmlinux_syms()) so that %pS of a
 * record resolves against them and the map's modules.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include "liblogdev.h"
#include "subbuf.h"

static void fix_hdr(uint8_t *img, size_t len)
{
	struct logdev_area_hdr h;

	if (lgd_area_hdr_get(img, len, &h))
		return;
	h.hdr_crc = lgd_area_crc(img, LOGDEV_AREA_CRC_BYTES);
	lgd_area_hdr_put(img, &h);
}

static void fix_text(uint8_t *img, size_t len)
{
	struct logdev_area_hdr h;
	uint64_t off;
	uint32_t cur;

	if (lgd_area_hdr_get(img, len, &h) || h.text_cur > 1)
		return;
	cur = h.text_cur;
	off = h.text_off + (uint64_t)cur * h.text_bytes;
	if (h.text_bytes > len || off > len || h.text_len[cur] > len - off)
		return;
	h.text_crc[cur] = lgd_area_crc(img + off, h.text_len[cur]);
	lgd_area_hdr_put(img, &h);
}

/* the seals of @a's corrupt sub-buffers made right; 1 if any was */
static int fix_seals(uint8_t *img, const struct lgd_area *a)
{
	int any = 0;

	for (uint32_t c = 0; c < a->nr_cpus; c++)
		for (uint32_t i = 0; i < a->cpus[c].nr_sb; i++) {
			const struct lgd_area_sb *s = &a->cpus[c].sb[i];
			uint64_t at = s->bad_off - lgd_area_field_off(LGD_AS_CRC);
			struct logdev_area_seal seal;

			if (s->cls != LGD_AREA_CORRUPT || s->why != LGD_AREA_W_CRC ||
			    lgd_area_seal_get(img + at, LOGDEV_AREA_SEAL_SIZE, &seal) ||
			    seal.data_bytes > a->hdr.subbuf_size - LOGDEV_SUBBUF_HDR_SIZE)
				continue;
			seal.crc = lgd_area_crc(img + s->off, LOGDEV_SUBBUF_HDR_SIZE + seal.data_bytes);
			lgd_area_seal_put(img + at, &seal);
			any = 1;
		}
	return any;
}

/* the promises on @a; the records it kept */
static uint64_t check(const struct lgd_area *a)
{
	uint64_t kept = 0;

	for (uint32_t c = 0; c < a->nr_cpus; c++) {
		const struct lgd_area_cpu_res *r = &a->cpus[c];
		uint64_t sum = 0;

		for (int k = 0; k < LGD_AREA_NR_CLASSES; k++)
			sum += r->count[k];
		if (r->state == LGD_AREA_CPU_OK && sum != a->hdr.nr_subbufs)
			abort();
		for (uint32_t i = 0; i < r->nr_sb; i++)
			if (r->sb[i].data_bytes > a->hdr.subbuf_size - LOGDEV_SUBBUF_HDR_SIZE ||
			    (r->sb[i].cls != LGD_AREA_EMPTY &&
			     r->sb[i].off + a->hdr.subbuf_size > a->len && r->sb[i].cls != LGD_AREA_CUT &&
			     r->sb[i].cls != LGD_AREA_DAMAGED))
				abort();
		kept += r->records;
	}
	if ((a->text == LGD_AREA_TEXT_OK || a->text == LGD_AREA_TEXT_OLDER) &&
	    memchr(a->text_p, 0, a->text_len))
		abort();
	if (a->map && (a->mods_p != a->text_p + a->text_len + 1 ||
		       (a->mods_len && a->mods_p[a->mods_len - 1] != '\n') ||
		       memchr(a->mods_p, 0, a->mods_len) ||
		       (const uint8_t *)a->mods_p + a->mods_len > a->img + a->len))
		abort();
	return kept;
}

/* @a converted and read back: the records the reader reads (or UINT64_MAX: not read) */
static uint64_t read_back(const struct lgd_area *a)
{
	struct lgd_cap_writer w;
	struct lgd_reader r;
	struct lgd_merge m;
	struct lgd_diag d;
	struct lgd_item it;
	struct lgd_area_syms sy = { 0 };
	static const char vm[] = "ffffffff81000000 T _stext\nffffffff81000100 T f\n"
				 "ffffffff81001000 T _etext\n";
	uint64_t n = 0;
	int fd = memfd_create("fuzz-area", 0), ret;

	if (fd < 0)
		abort();
	if (lgd_area_vmlinux_syms(a, vm, sizeof(vm) - 1, &sy, &d) && sy.text)
		abort();	/* an error leaves no text */
	ret = lgd_cap_writer_start(&w, fd) || lgd_area_capture(a, &w, "fuzz", &sy, NULL);
	lgd_area_syms_free(&sy);
	if (ret) {
		close(fd);
		return UINT64_MAX;	/* no memory */
	}
	if (lgd_reader_open_fd(&r, fd, NULL, NULL, &d))
		abort();	/* what the converter writes, the reader opens */
	if (!lgd_merge_open(&m, &r, LGD_ITEMS_COMM | LGD_ITEMS_ABSURD)) {
		while (lgd_merge_next(&m, &it) > 0)
			n += it.kind == LGD_ITEM_REC;
		lgd_merge_free(&m);
	} else {
		n = UINT64_MAX;
	}
	lgd_reader_close(&r);
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lgd_area a;
	struct lgd_diag d;
	uint8_t *img;
	size_t len;
	uint64_t kept, got;

	if (size < 1)
		return 0;
	len = size - 1;
	img = malloc(len ? len : 1);	/* exactly len bytes: ASan sees a read past them */
	if (!img)
		return 0;
	memcpy(img, data + 1, len);
	if (data[0] & 2)
		fix_text(img, len);
	if (data[0] & 1)
		fix_hdr(img, len);
	if (lgd_area_open(&a, img, len, NULL, NULL, &d)) {
		free(img);
		return 0;
	}
	if ((data[0] & 4) && fix_seals(img, &a)) {
		lgd_area_close(&a);
		if (lgd_area_open(&a, img, len, NULL, NULL, &d))
			abort();	/* it was usable a moment ago */
	}
	kept = check(&a);
	got = read_back(&a);
	if (got != UINT64_MAX && got != kept)
		abort();
	lgd_area_close(&a);
	free(img);
	return 0;
}
