/* SPDX-License-Identifier: GPL-2.0 */
/*
 * live_fixture.h - what the live-merge and --follow tests share: the
 * formats of their one site and sub-buffers of numbered records.
 */
#ifndef LGD_LIVE_FIXTURE_H
#define LGD_LIVE_FIXTURE_H

#include <stdint.h>
#include "liblogdev.h"
#include "testlib.h"

static const char formats_text[] =
	"# id\tfile\tline\tfunc\tformat\n"
	"1\tt.c\t10\tev\tseq %d\n";

#define MS	1000000ull

/* a sub-buffer of CPU @cpu, seq @seq, @n records of site 1 at ts0, ts0+step, ... */
static inline void mk_sb(struct sbuf *s, uint16_t cpu, uint64_t seq, uint64_t ts0, uint64_t step,
		  int n, int first_val, uint32_t overrun)
{
	uint8_t pl[4];

	sb_begin(s, cpu, seq, ts0, 0, overrun);
	for (int i = 0; i < n; i++) {
		lgd_cap_put_u32(pl, (uint32_t)(first_val + i));
		sb_rec(s, ts0 + (uint64_t)i * step, 1, LOGDEV_REC_PRINT, 0, 100 + cpu, pl, 4);
	}
}

#endif
