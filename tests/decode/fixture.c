// SPDX-License-Identifier: GPL-2.0
/*
 * fixture.c: sample data the decode tests share (see fixture.h).
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "liblogdev.h"
#include "testlib.h"
#include "fixture.h"

/* ---- formats and payloads (capture builders: testlib.h) ------------ */

const char formats_text[] =
	"# id\tfile\tline\tfunc\tformat\n"
	"1\tnet/core/skbuff.c\t291\tkfree_skbmem\tin\n"
	"2\tnet/core/skbuff.c\t295\tkfree_skbmem\t1\n"
	"3\tnet/core/skbuff.c\t320\tkfree_skbmem\tout\n"
	"4\tdrivers/net/x.c\t10\tfoo_xmit\tval=%d name=%s\\n\n"
	"5\tdrivers/net/x.c\t12\tfoo_xmit\tq\\t%lld \\\"%c\\\"\\101\n";

static void pl_raw(struct pl *p, unsigned align, uint64_t v, unsigned size)
{
	while (p->n % align)
		p->b[p->n++] = 0xaa;	/* padding content is not meaningful */
	for (unsigned i = 0; i < size; i++)
		p->b[p->n++] = (uint8_t)(v >> (8 * i));
}

/*
 * enc() - encode arguments as vbin_printf() lays them out.  types:
 * c (int stored as 1 byte), h (2 bytes), i (int, 4), l (long, 8),
 * L (long long, 8), z (size_t, 8), p (void *, 8), s (char *, text).
 */
void enc(struct pl *p, const char *types, ...)
{
	va_list ap;

	p->n = 0;
	va_start(ap, types);
	for (const char *t = types; *t; t++) {
		switch (*t) {
		case 'c': pl_raw(p, 1, (uint64_t)va_arg(ap, int), 1); break;
		case 'h': pl_raw(p, 2, (uint64_t)va_arg(ap, int), 2); break;
		case 'i': pl_raw(p, 4, (uint64_t)va_arg(ap, int), 4); break;
		case 'l': pl_raw(p, 4, (uint64_t)va_arg(ap, long), 8); break;
		case 'L': pl_raw(p, 4, (uint64_t)va_arg(ap, long long), 8); break;
		case 'z': pl_raw(p, 4, (uint64_t)va_arg(ap, size_t), 8); break;
		case 'p': pl_raw(p, 4, (uint64_t)(uintptr_t)va_arg(ap, void *), 8); break;
		case 's': {
			const char *s = va_arg(ap, const char *);
			size_t n = strlen(s) + 1;

			memcpy(p->b + p->n, s, n);
			p->n += (uint32_t)n;
			break;
		}
		}
	}
	va_end(ap);
	while (p->n % 4)	/* vbin_printf returns whole u32 words */
		p->b[p->n++] = 0;
}

/* ---- comparing output ---------------------------------------------- */

void expect_text_at(const char *file, int line, const char *name, const char *got,
			   const char *exp)
{
	if (!ldc_str_eq(file, line, name, "output", got, "expected", exp))
		fprintf(stdout, "--- expected\n%s--- got\n%s---\n", exp, got);
}

/* records (ts, site) on CPU 0, pid 1, as many per sub-buffer as fit (8), into a capture */
char *build_seq(const char *name, const char *formats,
		       const uint64_t (*rec)[2], int nr)
{
	struct buf b = { 0 };
	struct sbuf s;
	uint64_t seq = 0;
	char *path;

	cap_start(&b);
	cap_sect(&b, LGD_SECT_HEADER, LGD_CAP_NO_CPU, header_text, strlen(header_text));
	cap_sect(&b, LGD_SECT_FORMATS, LGD_CAP_NO_CPU, formats, strlen(formats));
	for (int i = 0; i < nr; i++) {
		if (i % ((SBS - LOGDEV_SUBBUF_HDR_SIZE) / LOGDEV_REC_HDR_SIZE) == 0) {
			if (i)
				cap_sect(&b, LGD_SECT_CPU_DATA, 0, s.b, SBS);
			sb_begin(&s, 0, seq++, rec[i][0], 0, 0);
		}
		sb_rec(&s, rec[i][0], (uint32_t)rec[i][1], LOGDEV_REC_PRINT, 0, 1, NULL, 0);
	}
	cap_sect(&b, LGD_SECT_CPU_DATA, 0, s.b, SBS);
	cap_sect(&b, LGD_SECT_END, LGD_CAP_NO_CPU, NULL, 0);
	path = write_tmp(name, b.p, b.n);
	free(b.p);
	return path;
}

/* the formats of two sites: 1 "in" (x.c:1 f), 2 "out" (x.c:2 g) */
const char plain_formats[] =
	"# id\tfile\tline\tfunc\tformat\n"
	"1\tx.c\t1\tf\tin\n"
	"2\tx.c\t2\tg\tout\n";

void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}
