// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_subbuf.c - libFuzzer target: the sub-buffer decoder (subbuf.c).
 *
 * Input: byte 0 picks the sub-buffer size (256 << (b % 10): 256 bytes to
 * 128 KiB; a real capture's is a power of two from 256 to 64 MiB), the
 * rest is the sub-buffer as read, possibly short.  lgd_sb_load(), every
 * lgd_sb_next() until the end, then lgd_sb_count_records() over the same
 * bytes.  Beyond the sanitizers it checks what the decoder promises
 * (subbuf.h): a record returned lies inside the bytes given and inside its
 * data, its payload inside the record; the walk ends.
 */
#include <stdint.h>
#include <stdlib.h>
#include "subbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct lgd_sb *sb;
	struct lgd_sb_info info;
	struct lgd_sb_rec rec;
	uint32_t subbuf_size, hdr;
	const uint8_t *buf;
	size_t avail, steps = 0;
	int st, n;

	if (!sb && !(sb = lgd_sb_alloc()))
		abort();
	if (size < 1)
		return 0;
	subbuf_size = 256u << (data[0] % 10);
	buf = data + 1;
	avail = size - 1;
	st = lgd_sb_load(sb, buf, avail, subbuf_size, &info);
	if (st == LGD_SB_OK || st == LGD_SB_DATA_CUT) {
		hdr = lgd_sb_hdr_size(info.version);
		if (!hdr || hdr > avail || info.data_bytes > subbuf_size - hdr)
			abort();
		while ((n = lgd_sb_next(sb, &rec)) != LGD_SB_REC_END) {
			if (++steps > subbuf_size)
				abort();	/* a walk that does not end */
			if (n != LGD_SB_REC)
				continue;
			if (rec.off < hdr || (size_t)rec.off + rec.hdr.len > avail ||
			    rec.off + rec.hdr.len > hdr + info.data_bytes ||
			    rec.hdr.arg_bytes > rec.hdr.len ||
			    rec.payload < buf || rec.payload + rec.hdr.arg_bytes > buf + avail ||
			    rec.payload + rec.hdr.arg_bytes > buf + rec.off + rec.hdr.len)
				abort();
		}
	}
	(void)lgd_sb_count_records(buf, avail, subbuf_size);
	return 0;
}
