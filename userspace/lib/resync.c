// SPDX-License-Identifier: GPL-2.0
/*
 * resync.c: the bottom of the read files (layer: library, read): reads of
 * the file and warnings to the reader's callback, and corrupt section
 * headers: how the open's scan and the CPU streams read past a section
 * length that cannot be right, noted once per capture (struct
 * lgd_sect_fix, reader_int.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "liblogdev.h"
#include "comm.h"
#include "subbuf.h"
#include "reader_int.h"

void lgd_rd_vwarn(struct lgd_reader *r, int err, int64_t off, int64_t cpu,
		  int64_t seq, const char *fmt, va_list ap)
{
	struct lgd_diag d = { err, off, cpu, seq, "" };

	if (!r->warn)
		return;
	vsnprintf(d.msg, sizeof(d.msg), fmt, ap);
	r->warn(r->warn_arg, &d);
}

void lgd_rd_warn(struct lgd_reader *r, int err, int64_t off, int64_t cpu,
		 int64_t seq, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	lgd_rd_vwarn(r, err, off, cpu, seq, fmt, ap);
	va_end(ap);
}

/* pread exactly @len bytes at @off; returns bytes read (short at EOF) or -errno */
ssize_t lgd_rd_pread(int fd, void *buf, size_t len, uint64_t off)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = pread(fd, (char *)buf + got, len - got, (off_t)(off + got));

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

/* the fix noted for the section header at @off, or NULL */
const struct lgd_sect_fix *lgd_rd_fix_at(const struct lgd_reader *r, uint64_t off)
{
	uint32_t lo = 0, hi = r->nr_fixes;

	while (lo < hi) {	/* noted in file order: sorted by offset */
		uint32_t mid = lo + (hi - lo) / 2;

		if (r->fixes[mid].off < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < r->nr_fixes && r->fixes[lo].off == off ? &r->fixes[lo] : NULL;
}

static int add_fix(struct lgd_reader *r, uint64_t off, uint64_t next, uint64_t len,
		   uint32_t type, uint32_t cpu)
{
	struct lgd_sect_fix *n = realloc(r->fixes, (r->nr_fixes + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	r->fixes = n;
	n[r->nr_fixes++] = (struct lgd_sect_fix){ off, next, len, type, cpu };
	return 0;
}

/* up to @n bytes of the file at @off (fewer at its end; 0 on a read error) */
static size_t peek(const struct lgd_reader *r, uint64_t off, void *buf, size_t n)
{
	ssize_t got;

	if (off >= r->file_size)
		return 0;
	got = lgd_rd_pread(r->fd, buf, n, off);
	return got > 0 ? (size_t)got : 0;
}

/* lgd_sb_is_subbuf() of the bytes at @off: 1, 0, or -1 (the file ends first) */
static int subbuf_at(const struct lgd_reader *r, uint64_t off, uint16_t *cpu)
{
	uint8_t b[8];

	return lgd_sb_is_subbuf(b, peek(r, off, b, sizeof(b)), cpu);
}

/*
 * Can a section header start at @off, after a section ending there?  The
 * end of the file, or a header cut by it, can (said in its turn); a known
 * type with the CPU its writer gives it (CPU_DATA: sub-buffers after it, or
 * a CPU in range and a length of whole sub-buffers that fits in the file);
 * a type this reader does not know (a newer writer's) if its CPU is none
 * or in range, it fits in the file and a known header (or the end of the
 * file) follows it.
 */
static int hdr_plausible_d(const struct lgd_reader *r, uint64_t off, int depth)
{
	uint8_t sh[LGD_CAP_SECT_HDR_BYTES];
	uint32_t type, cpu;
	uint64_t len, data = off + sizeof(sh);

	if (peek(r, off, sh, sizeof(sh)) < sizeof(sh))
		return 1;
	lgd_cap_sect_hdr_get(sh, &type, &cpu, &len);
	if (type > LGD_SECT_LAST)
		return !depth && (cpu == LGD_CAP_NO_CPU || cpu < LGD_MAX_CPU) &&
		       len <= r->file_size - data &&
		       (data + len == r->file_size || hdr_plausible_d(r, data + len, 1));
	if (type == LGD_SECT_CPU_DATA)	/* its first sub-buffer may be the damage */
		return !len || subbuf_at(r, data, NULL) != 0 ||
		       (cpu < LGD_MAX_CPU && len <= r->file_size - data &&
			(!r->hdr.subbuf_size || !(len % r->hdr.subbuf_size)));
	return type && cpu == LGD_CAP_NO_CPU;
}

static int hdr_plausible(const struct lgd_reader *r, uint64_t off)
{
	return hdr_plausible_d(r, off, 0);
}

/*
 * A section header to resynchronise at, by stricter rules: a known type;
 * CPU_DATA with a CPU in range and a sub-buffer after it; END of length 0;
 * a text section with no CPU that fits in the file and is followed by a
 * plausible header (or the end of the file).
 */
static int hdr_candidate(const struct lgd_reader *r, uint64_t off)
{
	uint8_t sh[LGD_CAP_SECT_HDR_BYTES];
	uint32_t type, cpu;
	uint64_t len, data = off + sizeof(sh);

	if (peek(r, off, sh, sizeof(sh)) < sizeof(sh))
		return 0;
	lgd_cap_sect_hdr_get(sh, &type, &cpu, &len);
	if (type == LGD_SECT_CPU_DATA)
		return cpu < LGD_MAX_CPU && subbuf_at(r, data, NULL) == 1;
	if (type == LGD_SECT_END)
		return cpu == LGD_CAP_NO_CPU && !len;
	if (!type || type > LGD_SECT_LAST || cpu != LGD_CAP_NO_CPU ||
	    len > r->file_size - data)
		return 0;
	return data + len == r->file_size || hdr_plausible(r, data + len);
}

/*
 * The first section header (hdr_candidate()) at or after @from, or -1.
 * From a CPU_DATA section's data (@sbs: its sub-buffer size; 0 for other
 * sections) first in steps of whole sub-buffers, where the next header of
 * a section of whole sub-buffers lies (*@stepped set when found so), then
 * byte by byte from the first step that is neither a sub-buffer nor a
 * header.  Reads the file in 16 KiB pieces: linear in the bytes scanned.
 */
static int64_t resync_scan(struct lgd_reader *r, uint64_t from, uint32_t sbs,
			   int *stepped)
{
	uint8_t buf[16384];
	uint64_t off = from, start;

	*stepped = 0;
	/* every offset from no_hdr_from on was scanned byte by byte and none
	 * is a header: a run of damage, e.g. zeros, is scanned once, not once
	 * per 16 bytes of it.  hdr_candidate() reads the file and, besides,
	 * only the sub-buffer size, which accepts fewer once known than while
	 * 0: a scan judged with 0, or with today's, still holds */
	if (r->no_hdr_from && from >= r->no_hdr_from &&
	    (!r->no_hdr_sbs || r->no_hdr_sbs == r->hdr.subbuf_size))
		return -1;
	for (; sbs && off < r->file_size; off += sbs) {
		if (hdr_candidate(r, off)) {
			*stepped = 1;
			return (int64_t)off;
		}
		if (subbuf_at(r, off, NULL) != 1)
			break;
	}
	start = off;
	while (off < r->file_size && r->file_size - off >= LGD_CAP_SECT_HDR_BYTES) {
		size_t n = peek(r, off, buf, sizeof(buf));

		if (n < 4)
			return -1;	/* a read cut short: nothing learnt */
		for (size_t i = 0; i + 4 <= n; i++)
			/* a type 1 to LGD_SECT_LAST (little-endian u32) first, then the rest */
			if (buf[i] >= 1 && buf[i] <= LGD_SECT_LAST && !buf[i + 1] && !buf[i + 2] &&
			    !buf[i + 3] && hdr_candidate(r, off + i))
				return (int64_t)(off + i);
		off += n - 3;	/* the last 3 bytes again, with what follows */
	}
	if (!r->no_hdr_from || start < r->no_hdr_from || r->no_hdr_sbs != r->hdr.subbuf_size) {
		r->no_hdr_from = start;
		r->no_hdr_sbs = r->hdr.subbuf_size;
	}
	return -1;
}

/* is there a NUL byte in [@from, @to) of the file?  (Text has none; a header has.) */
static int nul_in(const struct lgd_reader *r, uint64_t from, uint64_t to)
{
	uint8_t buf[16384];

	while (from < to) {
		size_t want = to - from < sizeof(buf) ? (size_t)(to - from) : sizeof(buf);
		size_t n = peek(r, from, buf, want);

		if (!n || memchr(buf, 0, n))
			return 1;
		from += n;
	}
	return 0;
}

/* "CPU_DATA section", or "section of unknown type N", in @b (48 bytes) */
static const char *sect_what(char b[48], uint32_t type)
{
	const char *name = lgd_sect_name(type);

	if (strcmp(name, "unknown-type"))
		snprintf(b, 48, "%s section", name);
	else
		snprintf(b, 48, "section of unknown type %u", type);
	return b;
}

/*
 * The section at @off as its header says (@type, @cpu, @len bytes of
 * data; @sbs the sub-buffer size, 0 before the HEADER section): if it is
 * damaged and a section header follows further on, warn (corrupt: the
 * byte of the header at fault) and note how to read it (add_fix()).
 * Return: 0, or -ENOMEM.
 */
int lgd_rd_check_sect(struct lgd_reader *r, uint64_t off, uint32_t type, uint32_t cpu,
		      uint64_t len, uint32_t sbs)
{
	uint64_t data = off + LGD_CAP_SECT_HDR_BYTES, end, p;
	int fits = len <= r->file_size - data, stepped;
	uint8_t sh[LGD_CAP_SECT_HDR_BYTES];
	uint32_t btype, bcpu;
	uint64_t blen;
	uint16_t sbcpu;
	int64_t found;
	char what[48];

	end = fits ? data + len : r->file_size;
	/* fewer than 16 bytes after it: a header cut by the end of the file,
	 * unless a header lies before its end (checked below) */
	if (fits && (end == r->file_size ||
		     (r->file_size - end >= LGD_CAP_SECT_HDR_BYTES && hdr_plausible(r, end))))
		return 0;
	found = resync_scan(r, data, type == LGD_SECT_CPU_DATA ? sbs : 0, &stepped);
	if (found < 0 || (fits && r->file_size - end < LGD_CAP_SECT_HDR_BYTES &&
			  (uint64_t)found >= end))
		return 0;	/* nothing after it: the file was cut (said so in the walk) */
	p = (uint64_t)found;
	if (!fits || p < end || stepped ||
	    (type != LGD_SECT_CPU_DATA && type <= LGD_SECT_LAST && !nul_in(r, end, p))) {
		/* past the file's end, or the next header before its end, or its
		 * sub-buffers or text going on past it: the length is wrong */
		lgd_rd_warn(r, -EINVAL, (int64_t)off, type == LGD_SECT_CPU_DATA ? (int64_t)cpu : -1, -1,
		     "%s header: length %llu is corrupt (%s); resynchronised at the next section header, byte %llu (%llu bytes read as the section)",
		     sect_what(what, type), (unsigned long long)len,
		     !fits ? "past the end of the file" : p < end ? "no section header at its end" :
		     stepped ? "sub-buffers go on past its end" : "text goes on past its end",
		     (unsigned long long)p, (unsigned long long)(p - data));
		return add_fix(r, off, p, p - data, type, cpu);
	}
	/* the section ends where a header should start, and that one is corrupt */
	peek(r, end, sh, sizeof(sh));
	lgd_cap_sect_hdr_get(sh, &btype, &bcpu, &blen);
	if (p >= end + LGD_CAP_SECT_HDR_BYTES + 8 &&
	    subbuf_at(r, end + LGD_CAP_SECT_HDR_BYTES, &sbcpu) == 1) {
		lgd_rd_warn(r, -EINVAL, (int64_t)end, sbcpu, -1,
		     "section header corrupt (type %u, cpu %u, length %llu); the sub-buffers after it read as CPU_DATA of CPU %u, theirs, up to the next section header, byte %llu",
		     btype, bcpu, (unsigned long long)blen, sbcpu, (unsigned long long)p);
		return add_fix(r, end, p, p - end - LGD_CAP_SECT_HDR_BYTES, LGD_SECT_CPU_DATA, sbcpu);
	}
	lgd_rd_warn(r, -EINVAL, (int64_t)end, -1, -1,
	     "section header corrupt (type %u, cpu %u, length %llu); the %llu bytes up to the next section header, byte %llu, skipped",
	     btype, bcpu, (unsigned long long)blen, (unsigned long long)(p - end),
	     (unsigned long long)p);
	return add_fix(r, end, p, 0, 0, LGD_CAP_NO_CPU);
}
