/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fixture.h - sample data the decode tests share (on top of testlib.h):
 * the formats of five sites, vbin_printf-style payloads, comparing output
 * text, a capture of (ts, site) records.
 */
#ifndef LGD_FIXTURE_H
#define LGD_FIXTURE_H

#include <stddef.h>
#include <stdint.h>

/*
 * formats of sites 1-3 (kfree_skbmem in, 1, out: net/core/skbuff.c) and
 * 4-5 (foo_xmit, with arguments: drivers/net/x.c)
 */
extern const char formats_text[];

/* vbin_printf-style payload */
struct pl {
	uint8_t b[512];
	uint32_t n;
};

/*
 * enc() - encode arguments as vbin_printf() lays them out.  types:
 * c (int stored as 1 byte), h (2 bytes), i (int, 4), l (long, 8),
 * L (long long, 8), z (size_t, 8), p (void *, 8), s (char *, text).
 */
void enc(struct pl *p, const char *types, ...);

/* CHECK_STR_EQ at the caller's file:line, and both texts whole on failure */
#define expect_text(name, got, exp) expect_text_at(__FILE__, __LINE__, name, got, exp)
void expect_text_at(const char *file, int line, const char *name, const char *got,
		    const char *exp);

/*
 * records (ts, site) on CPU 0, pid 1, as many per sub-buffer as fit (8),
 * into capture @name of the tmpdir; its path
 */
char *build_seq(const char *name, const char *formats, const uint64_t (*rec)[2], int nr);

/* the formats of two sites: 1 "in" (x.c:1 f), 2 "out" (x.c:2 g) */
extern const char plain_formats[];

/* write @text to @path (a failure is not said) */
void put(const char *path, const char *text);

#endif
