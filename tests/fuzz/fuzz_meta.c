// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_meta.c - libFuzzer target: the metadata parsers (meta.c, ksyms.c,
 * modlog.c), the text files a capture holds: debugfs "header"
 * (lgd_header_parse()), "formats" (lgd_sites_parse(), then the site
 * labels), /proc/kallsyms
 * (lgd_ksyms_parse()) and "module_log" (lgd_ksyms_add_modlog()), and
 * symbol lookups in what they built.
 *
 * Input: byte 0 % 4 picks the parser (0 header, 1 formats, 2 kallsyms,
 * 3 kallsyms then module_log, split at the first NUL); the rest is the
 * text, copied to a buffer of its exact size (the parsers take a length,
 * the text need not end in NUL).  Lookups: eight addresses taken from the
 * text's symbols and their neighbours, at three times.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "liblogdev.h"

static void lookups(const struct lgd_ksyms *k)
{
	static const uint64_t ts[] = { 0, 1000000, LGD_TS_END };
	uint64_t off, sz, addr;

	for (size_t i = 0; i < k->nr && i < 8; i++) {
		addr = k->syms[i].addr;
		for (int t = 0; t < 3; t++) {
			(void)lgd_ksyms_lookup_at(k, addr, ts[t], &off, &sz);
			(void)lgd_ksyms_lookup_at(k, addr + 1, ts[t], &off, &sz);
			(void)lgd_ksyms_lookup_at(k, addr - 1, ts[t], &off, &sz);
		}
	}
	for (size_t i = 0; i < k->nr_mods && i < 8; i++) {
		const struct lgd_kmod *m = &k->mods[i];

		for (int t = 0; t < LGD_KMEM_NR; t++) {
			(void)lgd_ksyms_lookup_at(k, m->mem[t].base, m->from_ts, &off, &sz);
			(void)lgd_ksyms_lookup_at(k, m->mem[t].base + 4, m->from_ts, &off, &sz);
			(void)lgd_ksyms_lookup_at(k, m->mem[t].base + m->mem[t].size - 1,
						  m->to_ts - 1, &off, &sz);
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lgd_header h;
	struct lgd_diag d;
	struct lgd_sites s = { 0 };
	struct lgd_ksyms k = { 0 };
	const uint8_t *nul;
	char *text;
	size_t n;
	int which;

	if (size < 1)
		return 0;
	which = data[0] % 4;
	n = size - 1;
	text = malloc(n ? n : 1);
	if (!text)
		abort();
	memcpy(text, data + 1, n);
	switch (which) {
	case 0:
		memset(&d, 0, sizeof(d));
		if (lgd_header_parse(&h, text, n, &d) == 0 &&
		    (h.subbuf_size < 256 || (h.subbuf_size & (h.subbuf_size - 1)) ||
		     h.clock[sizeof(h.clock) - 1] || h.mode[sizeof(h.mode) - 1]))
			abort();	/* accepted something it promises to refuse */
		if (!memchr(d.msg, 0, sizeof(d.msg)))
			abort();
		break;
	case 1:
		if (lgd_sites_parse(&s, text, n) >= 0) {
			for (uint32_t id = 0; id < s.nr && id < 64; id++) {
				const struct lgd_site *st = lgd_sites_get(&s, id);

				if (st && (!st->file || !st->func || !st->fmt))
					abort();
				if (st)
					(void)lgd_fmt_has_symptr(st->fmt);
			}
			(void)lgd_sites_get(&s, UINT32_MAX);
		}
		lgd_sites_free(&s);
		break;
	case 2:
		if (lgd_ksyms_parse(&k, text, n) >= 0)
			lookups(&k);
		lgd_ksyms_free(&k);
		break;
	case 3:
		nul = memchr(text, 0, n);
		if (nul) {
			size_t n1 = (size_t)((const char *)nul - text);

			if (lgd_ksyms_parse(&k, text, n1) >= 0 &&
			    lgd_ksyms_add_modlog(&k, (const char *)nul + 1, n - n1 - 1) >= 0)
				lookups(&k);
		} else if (lgd_ksyms_add_modlog(&k, text, n) >= 0) {
			lookups(&k);
		}
		lgd_ksyms_free(&k);
		break;
	}
	free(text);
	return 0;
}
