// SPDX-License-Identifier: GPL-2.0
/*
 * reader.c: open a capture, load its metadata, and decode each CPU's
 * sub-buffers lazily into items (records and lost-events gaps), merged
 * across CPUs by timestamp with a binary heap.
 *
 * Memory: per CPU one sub-buffer (subbuf_size bytes) and a cursor; the
 * sections of a CPU are found by walking the 16-byte section headers from
 * the cursor's offset, so nothing grows with the capture size except the
 * metadata (formats, kallsyms).
 *
 * Hostile input: a section header whose length cannot be right is warned
 * about (corrupt, at the header's offset) and the walk resynchronises at
 * the next section header (struct lgd_sect_fix, below); section CPU
 * numbers must be below LGD_MAX_CPU (others are
 * skipped with a warning); warnings that can repeat for every record or
 * sub-buffer (timestamp going backwards, sub-buffer CPU or seq mismatch,
 * out-of-range section CPUs) are given LGD_WARN_BURST times per kind, then
 * summed up in one "... and N more" warning at the end of the merge (or of
 * the open).  A timestamp is compared with the previous record of its CPU,
 * so one bad stamp costs one warning.  At the end of the merge, records
 * whose site is missing from the formats are warned about: for a capture
 * without END in one warning with their count (a capture cut short lacks
 * the final FORMATS section); for a complete one once per site (the first
 * LGD_MISSING_IDS), with its count and its first record's offset, as
 * damage when the formats were written after the data (sum_up()).
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

#define LGD_MAX_CPU	4096	/* section CPU numbers accepted: 0..4095 */
#define LGD_WARN_BURST	10	/* warnings of one kind before summing up */

enum { RL_TS_BACK, RL_CPU_MISMATCH, RL_SEQ_BACK, RL_NR };
static const char *const rl_name[RL_NR] = {
	"timestamp goes backwards", "sub-buffer CPU mismatch",
	"sub-buffer seq out of line",
};

#define LGD_MISSING_IDS	16	/* missing call sites warned about one by one */

/* state shared by the CPU streams of one merge */
struct lgd_merge_shared {
	uint64_t nwarn[RL_NR];
	uint64_t missing_sites;	/* records whose site is not in the formats */
	struct {		/* the first LGD_MISSING_IDS such sites, in merge order */
		uint32_t site, cpu;
		uint64_t n;	/* records of it */
		uint64_t off, seq;	/* the first one's file offset, sub-buffer seq */
	} miss[LGD_MISSING_IDS];
	uint32_t nr_miss;
	uint64_t miss_other;	/* records of missing sites beyond those */
	int summed_up;
};

static void warn(struct lgd_reader *r, int err, int64_t off, int64_t cpu,
		 int64_t seq, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

static void vwarn(struct lgd_reader *r, int err, int64_t off, int64_t cpu,
		  int64_t seq, const char *fmt, va_list ap)
{
	struct lgd_diag d = { err, off, cpu, seq, "" };

	if (!r->warn)
		return;
	vsnprintf(d.msg, sizeof(d.msg), fmt, ap);
	r->warn(r->warn_arg, &d);
}

static void warn(struct lgd_reader *r, int err, int64_t off, int64_t cpu,
		 int64_t seq, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(r, err, off, cpu, seq, fmt, ap);
	va_end(ap);
}

/* pread exactly @len bytes at @off; returns bytes read (short at EOF) or -errno */
static ssize_t pread_full(int fd, void *buf, size_t len, uint64_t off)
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

/* read a whole metadata section into a NUL-terminated malloc'd buffer */
static char *read_text(struct lgd_reader *r, uint64_t off, uint64_t len)
{
	char *t;
	ssize_t n;

	if (len > (256u << 20))
		return NULL;
	t = malloc(len + 1);
	if (!t)
		return NULL;
	n = pread_full(r->fd, t, len, off);
	if (n < 0) {
		free(t);
		return NULL;
	}
	t[n] = 0;
	return t;
}

/*
 * a text section cut by the end of the file: only its whole lines count
 * (a line cut short is not a malformed one); its new length
 */
static uint64_t whole_lines(char *t, uint64_t len)
{
	char *nl = len ? memrchr(t, '\n', len) : NULL;

	len = nl ? (uint64_t)(nl - t) + 1 : 0;
	t[len] = 0;
	return len;
}

static int add_cpu(struct lgd_reader *r, uint32_t cpu)
{
	uint32_t i, *n;

	for (i = 0; i < r->nr_cpus; i++)
		if (r->cpus[i] == cpu)
			return 0;
	n = realloc(r->cpus, (r->nr_cpus + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	r->cpus = n;
	for (i = r->nr_cpus; i > 0 && n[i - 1] > cpu; i--)
		n[i] = n[i - 1];
	n[i] = cpu;
	r->nr_cpus++;
	return 0;
}

/* ---- corrupt section headers: resynchronisation ---------------------- */

/*
 * Sections lie back to back (capture.h), each found from the length of the
 * one before, so one wrong length field would hide every section after it.
 * A section is damaged when its length runs past the end of the file or
 * its end is no section header (hdr_plausible()) while a section header
 * does follow further on (resync_scan()): the open's walk then warns and
 * notes how to read that stretch of the file, and the CPU streams, which
 * walk the section headers again, read it the same way (fix_at()):
 *   - the section's length is corrupt (past the end of the file, the next
 *     header before its end, or its sub-buffers or text, bytes without a
 *     NUL, going on past its end): its data are the bytes up to the next
 *     section header;
 *   - the section is whole but the header after it is corrupt: the bytes
 *     from there to the next header are read as a CPU_DATA section of the
 *     CPU its sub-buffers name, or, if they are no sub-buffers, skipped.
 * A file that ends inside a section and has no section header after its
 * start is cut short, and said to be (truncated), as before.
 */
struct lgd_sect_fix {
	uint64_t off;		/* the section header at this offset */
	uint64_t next;		/* is followed by the one at this offset */
	uint64_t len;		/* bytes of data read for it, from off + 16 */
	uint32_t type;		/* read as a section of this type (0: skipped) */
	uint32_t cpu;		/* and, for CPU_DATA, of this CPU */
};

/* the fix noted for the section header at @off, or NULL */
static const struct lgd_sect_fix *fix_at(const struct lgd_reader *r, uint64_t off)
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
	got = pread_full(r->fd, buf, n, off);
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
static int64_t resync_scan(const struct lgd_reader *r, uint64_t from, uint32_t sbs,
			   int *stepped)
{
	uint8_t buf[16384];
	uint64_t off = from;

	*stepped = 0;
	for (; sbs && off < r->file_size; off += sbs) {
		if (hdr_candidate(r, off)) {
			*stepped = 1;
			return (int64_t)off;
		}
		if (subbuf_at(r, off, NULL) != 1)
			break;
	}
	while (off < r->file_size && r->file_size - off >= LGD_CAP_SECT_HDR_BYTES) {
		size_t n = peek(r, off, buf, sizeof(buf));

		if (n < 4)
			break;
		for (size_t i = 0; i + 4 <= n; i++)
			/* a type 1 to LGD_SECT_LAST (little-endian u32) first, then the rest */
			if (buf[i] >= 1 && buf[i] <= LGD_SECT_LAST && !buf[i + 1] && !buf[i + 2] &&
			    !buf[i + 3] && hdr_candidate(r, off + i))
				return (int64_t)(off + i);
		off += n - 3;	/* the last 3 bytes again, with what follows */
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
static int check_sect(struct lgd_reader *r, uint64_t off, uint32_t type, uint32_t cpu,
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
		warn(r, -EINVAL, (int64_t)off, type == LGD_SECT_CPU_DATA ? (int64_t)cpu : -1, -1,
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
		warn(r, -EINVAL, (int64_t)end, sbcpu, -1,
		     "section header corrupt (type %u, cpu %u, length %llu); the sub-buffers after it read as CPU_DATA of CPU %u, theirs, up to the next section header, byte %llu",
		     btype, bcpu, (unsigned long long)blen, sbcpu, (unsigned long long)p);
		return add_fix(r, end, p, p - end - LGD_CAP_SECT_HDR_BYTES, LGD_SECT_CPU_DATA, sbcpu);
	}
	warn(r, -EINVAL, (int64_t)end, -1, -1,
	     "section header corrupt (type %u, cpu %u, length %llu); the %llu bytes up to the next section header, byte %llu, skipped",
	     btype, bcpu, (unsigned long long)blen, (unsigned long long)(p - end),
	     (unsigned long long)p);
	return add_fix(r, end, p, 0, 0, LGD_CAP_NO_CPU);
}

static void set_diag(struct lgd_diag *d, int err, int64_t off, const char *msg)
{
	if (!d)
		return;
	d->err = err;
	d->offset = off;
	d->cpu = d->seq = -1;
	snprintf(d->msg, sizeof(d->msg), "%s", msg);
}

int lgd_reader_open_fd(struct lgd_reader *r, int fd, lgd_warn_fn wfn,
		      void *warn_arg, struct lgd_diag *d)
{
	uint8_t fh[LGD_CAP_FILE_HDR_BYTES];
	struct stat st;
	uint64_t off, bad_cpus = 0;
	uint64_t last_formats = 0, last_data = 0;	/* offsets + 1 of the last ones */
	uint32_t cap_version, hdr_bytes;
	int have_hdr = 0, cut = 0, ret;
	int have_stats = 0, have_recorder = 0;
	uint64_t salvaged = 0;		/* offset + 1 of a SALVAGED section */
	uint64_t end_off = 0;		/* offset of the END section */
	char *salvage_why = NULL;	/* its text, one line */
	ssize_t fn;
	char *t = NULL;		/* a text section's bytes */
	char *modlog = NULL;
	size_t modlog_len = 0;

	memset(r, 0, sizeof(*r));
	r->fd = fd;
	r->recorder_pid = -1;
	r->warn = wfn;
	r->warn_arg = warn_arg;
	if (fstat(fd, &st) < 0) {
		ret = -errno;
		set_diag(d, ret, -1, "cannot stat capture");
		goto err;
	}
	if (S_ISDIR(st.st_mode)) {
		ret = -EISDIR;
		set_diag(d, ret, -1, "is a directory");
		goto err;
	}
	if (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode) ||
	    lseek(fd, 0, SEEK_CUR) < 0) {
		ret = -ESPIPE;
		set_diag(d, ret, -1, S_ISREG(st.st_mode) || S_ISBLK(st.st_mode) ?
			 "must be a seekable file" :
			 "must be a seekable file (a pipe was given)");
		goto err;
	}
	r->file_size = (uint64_t)st.st_size;
	fn = pread_full(fd, fh, sizeof(fh), 0);
	if (fn == 0) {
		/* nothing was ever written: not a capture cut short, none at all */
		ret = -EINVAL;
		set_diag(d, ret, -1, "empty file (0 bytes): not a logdev capture");
		goto err;
	}
	if (fn > 0 && fn < (ssize_t)sizeof(fh) &&
	    !memcmp(fh, LGD_CAP_MAGIC, fn < 8 ? (size_t)fn : 8)) {
		/* the start of a capture, cut: nothing to decode, said */
		r->first_sect_off = LGD_CAP_FILE_HDR_BYTES;
		warn(r, -ENODATA, (int64_t)r->file_size, -1, -1,
		     "the file header has %zd of its %d bytes: no record to decode", fn,
		     LGD_CAP_FILE_HDR_BYTES);
		return 0;
	}
	if (fn != (ssize_t)sizeof(fh) ||
	    lgd_cap_file_hdr_get(fh, &cap_version, &hdr_bytes) == -EINVAL) {
		ret = -EINVAL;
		set_diag(d, ret, 0, "not a logdev capture (bad magic or too short)");
		goto err;
	}
	if (cap_version != LGD_CAP_VERSION) {
		ret = -EPROTO;
		set_diag(d, ret, lgd_cap_file_hdr_version_off(), "unsupported capture version");
		goto err;
	}
	off = hdr_bytes;
	if (off < LGD_CAP_FILE_HDR_BYTES)
		off = LGD_CAP_FILE_HDR_BYTES;
	r->first_sect_off = off;

	for (;;) {
		uint8_t sh[LGD_CAP_SECT_HDR_BYTES];
		ssize_t n = pread_full(fd, sh, sizeof(sh), off);
		uint32_t type, cpu;
		uint64_t len, data;
		const struct lgd_sect_fix *fx;

		if (n < 0) {
			ret = (int)n;
			set_diag(d, ret, (int64_t)off, "read error");
			goto err;
		}
		if (n == 0)
			break;
		if (n < (ssize_t)sizeof(sh)) {
			warn(r, -ENODATA, (int64_t)r->file_size, -1, -1,
			     "section header at byte %llu has %zd of its 16 bytes",
			     (unsigned long long)off, n);
			cut = 1;
			break;
		}
		lgd_cap_sect_hdr_get(sh, &type, &cpu, &len);
		data = off + sizeof(sh);
		fx = fix_at(r, off);
		if (!fx && type == LGD_SECT_END) {
			r->complete = 1;
			end_off = off;
			break;
		}
		if (!fx) {	/* a corrupt length: resynchronised, noted in r->fixes */
			ret = check_sect(r, off, type, cpu, len, have_hdr ? r->hdr.subbuf_size : 0);
			if (ret)
				goto err;
			fx = fix_at(r, off);
		}
		if (fx) {
			type = fx->type;
			cpu = fx->cpu;
			len = fx->len;
		}
		if (len > r->file_size - data && !strcmp(lgd_sect_name(type), "unknown-type")) {
			/*
			 * A type this reader does not know and a length beyond
			 * the file: the header's bytes are wrong (a newer
			 * writer's section would fit in a whole file), so
			 * corrupt, and nothing after it can be found.
			 */
			warn(r, -EINVAL, (int64_t)off, -1, -1,
			     "section header: unknown type %u with a length of %llu bytes, beyond the end of the file (%llu bytes): the scan stops here",
			     type, (unsigned long long)len, (unsigned long long)r->file_size);
			cut = 1;	/* the scan's end, said: no "no END" warning */
			break;
		}
		if (len > r->file_size - data) {
			/* at the cut, the end of the file; the section named */
			warn(r, -ENODATA, (int64_t)r->file_size,
			     type == LGD_SECT_CPU_DATA ? (int64_t)cpu : -1, -1,
			     "%s section at byte %llu has %llu of its %llu bytes",
			     lgd_sect_name(type), (unsigned long long)off,
			     (unsigned long long)(r->file_size - data), (unsigned long long)len);
			len = r->file_size - data;
			cut = 1;
		}
		/* a cut text section: its whole lines (not CPU data: bytes) */
		t = NULL;
		if (type != LGD_SECT_CPU_DATA && type <= LGD_SECT_LAST) {
			t = read_text(r, data, len);
			if (!t) {
				ret = -ENOMEM;
				goto err;
			}
			if (cut)
				len = whole_lines(t, len);
		}
		switch (type) {
		case LGD_SECT_HEADER:
			if (have_hdr)
				break;
			ret = lgd_header_parse(&r->hdr, t, len, d);
			if (ret && cut) {
				/* cut: said above; nothing after it to decode */
				memset(&r->hdr, 0, sizeof(r->hdr));
				warn(r, -ENODATA, (int64_t)r->file_size, -1, -1,
				     "the HEADER section is incomplete: no record to decode");
				ret = 0;
				break;
			}
			if (ret) {
				/* offset of the offending line, else the text */
				if (d)
					d->offset = (int64_t)data +
						    (d->offset >= 0 ? d->offset : 0);
				goto err;
			}
			have_hdr = 1;
			break;
		case LGD_SECT_FORMATS:
			last_formats = off + 1;
			ret = lgd_sites_parse(&r->sites, t, len);
			if (ret < 0)
				goto err;
			if (ret > 0)
				warn(r, -EINVAL, (int64_t)data, -1, -1,
				     "%d malformed formats lines skipped", ret);
			break;
		case LGD_SECT_SALVAGED:	/* "write error: REASON\n" (capture.h) */
			if (!salvaged) {
				salvaged = off + 1;
				salvage_why = t;
				t = NULL;
				/* one line of printable ASCII: it is printed */
				salvage_why[strcspn(salvage_why, "\n")] = 0;
				if (strlen(salvage_why) > 120)
					salvage_why[120] = 0;
				for (char *q = salvage_why; *q; q++)
					if (*q < 0x20 || *q > 0x7e)
						*q = '?';
			}
			break;
		case LGD_SECT_STATS:
			have_stats = 1;
			free(r->stats);
			r->stats = t;
			t = NULL;
			break;
		case LGD_SECT_PROBES:	/* the last one wins */
			free(r->probes);
			r->probes = t;
			t = NULL;
			break;
		case LGD_SECT_KALLSYMS:
			lgd_ksyms_free(&r->ksyms);
			ret = lgd_ksyms_parse(&r->ksyms, t, len);
			if (ret < 0)
				goto err;
			r->has_ksyms = 1;
			break;
		case LGD_SECT_MODLOG:	/* cumulative: the last one wins */
			free(modlog);
			modlog = t;
			t = NULL;
			modlog_len = len;
			break;
		case LGD_SECT_RECORDER:	/* "pid N\n" (capture.h) */
			have_recorder = 1;
			if (!cut || len) {
				unsigned long long pid;
				char nl;

				if (sscanf(t, "pid %llu%c", &pid, &nl) == 2 && nl == '\n' &&
				    pid <= UINT32_MAX)
					r->recorder_pid = (int64_t)pid;
				else
					warn(r, -EINVAL, (int64_t)data, -1, -1,
					     "RECORDER section without \"pid N\", ignored");
			}
			break;
		case LGD_SECT_CPU_DATA:
			if (!have_hdr) {
				ret = -EINVAL;
				set_diag(d, ret, (int64_t)off, "CPU data before the header section");
				goto err;
			}
			if (cpu >= LGD_MAX_CPU) {
				if (++bad_cpus <= LGD_WARN_BURST)
					warn(r, -EINVAL, (int64_t)off, -1, -1,
					     "section CPU %u out of range (>= %u) at offset %llu, section skipped",
					     cpu, LGD_MAX_CPU, (unsigned long long)off);
				break;
			}
			if (add_cpu(r, cpu)) {
				ret = -ENOMEM;
				goto err;
			}
			last_data = off + 1;
			break;
		default:
			break;	/* unknown: skip */
		}
		free(t);
		t = NULL;
		off = fx ? fx->next : data + len;
		if (cut)
			break;	/* the end of the file */
	}
	if (!have_hdr && (cut || !r->complete)) {
		/* cut before its header's end: nothing to decode, said */
		if (!cut)
			warn(r, -ENODATA, (int64_t)r->file_size, -1, -1,
			     "the file ends at a section boundary before the HEADER section: "
			     "no record to decode");
		free(modlog);
		free(salvage_why);
		return 0;
	}
	if (!have_hdr) {
		ret = -EINVAL;
		set_diag(d, ret, -1, "capture has no header section");
		goto err;
	}
	if (bad_cpus > LGD_WARN_BURST)
		warn(r, -EINVAL, -1, -1, -1,
		     "... and %llu more sections with an out-of-range CPU skipped",
		     (unsigned long long)(bad_cpus - LGD_WARN_BURST));
	/*
	 * Incomplete though it may end with END (capture.h): a SALVAGED
	 * section (logdev record's write error), or, from a logdev record
	 * before that section, END after data and RECORDER with no STATS
	 * (the recorder writes STATS before END unless it was cut short)
	 */
	if (salvaged) {
		r->complete = 0;
		warn(r, -ENODATA, (int64_t)salvaged - 1, -1, -1,
		     "the recording is incomplete: logdev record cut it short and salvaged "
		     "it (SALVAGED section: %s); records after the cut are missing",
		     *salvage_why ? salvage_why : "write error");
	} else if (r->complete && last_data && have_recorder && !have_stats) {
		r->complete = 0;
		warn(r, -ENODATA, (int64_t)end_off, -1, -1,
		     "the recording is incomplete: an END section but no STATS section, as "
		     "logdev record left a capture it salvaged after a write error (a full "
		     "disk?); records after the cut are missing");
	}
	free(salvage_why);
	salvage_why = NULL;
	/* the last formats come after the last data: every site is listed */
	r->sites_final = r->complete && last_formats > last_data;
	if (!r->complete && !cut && !salvaged)	/* a cut section said it already */
		warn(r, -ENODATA, (int64_t)r->file_size, -1, -1,
		     "capture has no END section (recording cut short?)");
	if (modlog) {
		ret = lgd_ksyms_add_modlog(&r->ksyms, modlog, modlog_len);
		if (ret < 0)
			goto err;
		if (ret > (r->ksyms.modlog_format > LGD_MODLOG_FORMAT))	/* not the header */
			warn(r, -EINVAL, -1, -1, -1, "%d malformed module log lines (skipped, or "
			     "their module's layout not read)",
			     ret - (r->ksyms.modlog_format > LGD_MODLOG_FORMAT));
		if (lgd_ksyms_modlog_note(&r->ksyms))
			warn(r, -EPROTO, -1, -1, -1, "%s", lgd_ksyms_modlog_note(&r->ksyms));
		r->has_ksyms = 1;
		free(modlog);
	}
	return 0;
err:
	free(t);
	free(modlog);
	free(salvage_why);
	lgd_reader_close(r);
	return ret;
}

int lgd_reader_open(struct lgd_reader *r, const char *path, lgd_warn_fn wfn,
		   void *warn_arg, struct lgd_diag *d)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		int e = -errno;

		memset(r, 0, sizeof(*r));
		r->fd = -1;
		set_diag(d, e, -1, strerror(-e));
		return e;
	}
	return lgd_reader_open_fd(r, fd, wfn, warn_arg, d);
}

void lgd_reader_close(struct lgd_reader *r)
{
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
	lgd_sites_free(&r->sites);
	free(r->filter_sites);
	r->filter_sites = NULL;
	lgd_ksyms_free(&r->ksyms);
	free(r->stats);
	r->stats = NULL;
	free(r->probes);
	r->probes = NULL;
	free(r->cpus);
	r->cpus = NULL;
	r->nr_cpus = 0;
	free(r->fixes);
	r->fixes = NULL;
	r->nr_fixes = 0;
	free(r->lost);
	r->lost = NULL;
	r->nr_lost = 0;
	for (size_t i = 0; i < r->comm_tab_cap; i++)
		free(r->comm_tab[i].v);
	free(r->comm_tab);
	r->comm_tab = NULL;
	r->comm_tab_cap = r->nr_comm_tasks = r->nr_comms = 0;
	r->comms_all = 0;
}

/* ---- task names ------------------------------------------------------ */

static size_t comm_hash(uint32_t pid, size_t cap)
{
	return (size_t)((pid * 2654435761u) & (cap - 1));
}

/* the slot of @pid, or of the empty slot where it would go (cap > 0) */
static struct lgd_comm_task *comm_slot(const struct lgd_reader *r, uint32_t pid)
{
	size_t i = comm_hash(pid, r->comm_tab_cap);

	while (r->comm_tab[i].n && r->comm_tab[i].pid != pid)
		i = (i + 1) & (r->comm_tab_cap - 1);
	return &r->comm_tab[i];
}

/* keep the table at most half full; Return: 0 or -ENOMEM */
static int comm_grow(struct lgd_reader *r)
{
	size_t cap = r->comm_tab_cap ? 2 * r->comm_tab_cap : 64, old = r->comm_tab_cap;
	struct lgd_comm_task *ot = r->comm_tab, *nt;

	if (2 * (r->nr_comm_tasks + 1) <= r->comm_tab_cap)
		return 0;
	nt = calloc(cap, sizeof(*nt));
	if (!nt)
		return -ENOMEM;
	r->comm_tab = nt;
	r->comm_tab_cap = cap;
	for (size_t i = 0; i < old; i++)
		if (ot[i].n)
			*comm_slot(r, ot[i].pid) = ot[i];
	free(ot);
	return 0;
}

/* index of the first of @t's entries after @ts */
static uint32_t comm_upper(const struct lgd_comm_task *t, uint64_t ts)
{
	uint32_t lo = 0, hi = t->n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (t->v[mid].ts <= ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* a comm record of @pid at @ts: @payload, @bytes long (need not end in NUL) */
static int comm_add(struct lgd_reader *r, uint32_t pid, uint64_t ts,
		    const uint8_t *payload, uint32_t bytes)
{
	char name[LOGDEV_COMM_LEN + 1] = "";
	struct lgd_comm_task *t;
	uint32_t i;

	if (bytes > LOGDEV_COMM_LEN)
		bytes = LOGDEV_COMM_LEN;
	memcpy(name, payload, bytes);
	name[bytes] = 0;
	/* pid 0 is every CPU's idle task (swapper/N): ftrace's name for all */
	if (!pid)
		strcpy(name, "<idle>");
	if (comm_grow(r))
		return -ENOMEM;
	t = comm_slot(r, pid);
	i = t->n ? comm_upper(t, ts) : 0;
	/* the name in force before is the same: nothing new */
	if (i > 0 && !strcmp(t->v[i - 1].comm, name))
		return 0;
	/* the next entry has the same name: it starts here now */
	if (i < t->n && !strcmp(t->v[i].comm, name)) {
		t->v[i].ts = ts;
		return 0;
	}
	if (i < t->n && t->n >= LGD_COMM_UNORDERED_MAX)
		return 0;	/* out of time order, and many: left out */
	if (t->n == t->cap) {
		uint32_t cap = t->cap ? 2 * t->cap : 2;
		struct lgd_comm *nv = realloc(t->v, cap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		t->v = nv;
		t->cap = cap;
	}
	if (!t->n) {
		t->pid = pid;
		r->nr_comm_tasks++;
	}
	memmove(&t->v[i + 1], &t->v[i], (t->n - i) * sizeof(*t->v));
	t->v[i].pid = pid;
	t->v[i].ts = ts;
	memcpy(t->v[i].comm, name, sizeof(name));
	t->n++;
	r->nr_comms++;
	return 0;
}

int lgd_comm_add(struct lgd_reader *r, uint32_t pid, uint64_t ts, const uint8_t *payload,
		 uint32_t bytes)
{
	return comm_add(r, pid, ts, payload, bytes);
}

const char *lgd_comm_at(const struct lgd_reader *r, uint32_t pid, uint64_t ts)
{
	const struct lgd_comm_task *t;
	uint32_t i;

	if (!r->comm_tab_cap)
		return NULL;
	t = comm_slot(r, pid);
	if (!t->n)
		return NULL;
	i = comm_upper(t, ts);
	return t->v[i ? i - 1 : 0].comm;	/* none before: the first after */
}

int lgd_comm_load(struct lgd_reader *r)
{
	lgd_warn_fn wfn = r->warn;
	struct lgd_merge m;
	struct lgd_item it;
	int ret;

	if (r->comms_all)
		return 0;
	ret = lgd_merge_init(&m, r);
	if (ret)
		return ret;
	r->warn = NULL;		/* the caller's own pass warns */
	while ((ret = lgd_merge_next(&m, &it)) > 0)
		;
	r->warn = wfn;
	lgd_merge_free(&m);
	if (!ret)
		r->comms_all = 1;
	return ret;
}

/* ---- per-CPU stream ------------------------------------------------ */

struct lgd_cpu_stream {
	struct lgd_reader *r;
	struct lgd_merge_shared *sh;
	uint32_t cpu;
	uint32_t idx;		/* index in r->cpus and r->lost */
	uint64_t scan_off;	/* next section header to look at */
	uint64_t sect_off;	/* next unread byte of the current section */
	uint64_t sect_left;	/* bytes left in the current section */
	int eof;

	uint8_t *sb;		/* current sub-buffer (in @ra) */
	uint8_t *ra;		/* read-ahead: whole sub-buffers, one pread() */
	uint32_t ra_cap;	/* its size (bytes, a multiple of subbuf_size) */
	uint32_t ra_len;	/* bytes in it */
	uint64_t ra_off;	/* file offset of its first byte */
	uint64_t sb_off;	/* its file offset */
	uint32_t sb_avail;	/* bytes of it present */
	struct lgd_sb *dec;	/* its decoder: header and record walk */
	uint64_t seq;
	int have_prev_seq;
	uint64_t prev_seq;	/* the previous sub-buffer's seq (as read: lgd_seq_step()) */
	uint64_t prev_first_ts;	/* and its first_ts */
	uint64_t last_ts;	/* ts of the CPU's previous record */

	struct lgd_item pending[LGD_SB_GAPS_MAX];	/* gaps waiting before the records */
	int npending, ipending;

	struct lgd_item head;	/* next item to hand out (valid if has_head) */
	int has_head;
	uint8_t *payload;	/* copy of head's payload */
};

/* warning of kind @kind: the first LGD_WARN_BURST, then only counted */
static void rl_warn(struct lgd_cpu_stream *s, int kind, int err, int64_t off,
		    int64_t seq, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

static void rl_warn(struct lgd_cpu_stream *s, int kind, int err, int64_t off,
		    int64_t seq, const char *fmt, ...)
{
	va_list ap;

	if (++s->sh->nwarn[kind] > LGD_WARN_BURST)
		return;
	va_start(ap, fmt);
	vwarn(s->r, err, off, s->cpu, seq, fmt, ap);
	va_end(ap);
}

/* next chunk of up to subbuf_size bytes of this CPU's data; 0 at the end */
static int next_subbuf(struct lgd_cpu_stream *s)
{
	struct lgd_reader *r = s->r;
	uint32_t sbs = r->hdr.subbuf_size;
	ssize_t n;
	size_t want;

	while (!s->sect_left) {
		uint8_t sh[LGD_CAP_SECT_HDR_BYTES];
		uint32_t type, cpu;
		uint64_t len;
		const struct lgd_sect_fix *fx;

		if (s->eof)
			return 0;
		n = pread_full(r->fd, sh, sizeof(sh), s->scan_off);
		if (n >= (ssize_t)sizeof(sh))
			lgd_cap_sect_hdr_get(sh, &type, &cpu, &len);
		fx = n >= (ssize_t)sizeof(sh) ? fix_at(r, s->scan_off) : NULL;
		if (fx) {	/* a corrupt header, as the open read it (warned there) */
			type = fx->type;
			cpu = fx->cpu;
			len = fx->len;
		}
		if (n < (ssize_t)sizeof(sh) || type == LGD_SECT_END) {
			s->eof = 1;
			return 0;
		}
		s->sect_off = s->scan_off + sizeof(sh);
		if (len > r->file_size - s->sect_off)
			len = r->file_size - s->sect_off;	/* warned at open */
		s->scan_off = fx ? fx->next : s->sect_off + len;
		if (type == LGD_SECT_CPU_DATA && cpu == s->cpu) {
			s->sect_left = len;
			if (len % sbs && s->scan_off != r->file_size)	/* cut: warned at open */
				warn(r, -EINVAL, (int64_t)s->sect_off, s->cpu, -1,
				     "CPU data section of %llu bytes is not a multiple of the sub-buffer size %u",
				     (unsigned long long)len, sbs);
		}
	}
	want = s->sect_left < sbs ? (size_t)s->sect_left : sbs;
	if (s->sect_off < s->ra_off || s->sect_off + want > s->ra_off + s->ra_len) {
		/* several sub-buffers a read: fewer system calls than one each */
		size_t get = s->sect_left < s->ra_cap ? (size_t)s->sect_left : s->ra_cap;

		n = pread_full(r->fd, s->ra, get, s->sect_off);
		if (n < 0) {
			warn(r, (int)n, (int64_t)s->sect_off, s->cpu, -1, "read error");
			s->eof = 1;
			return 0;
		}
		s->ra_off = s->sect_off;
		s->ra_len = (uint32_t)n;
	}
	s->sb = s->ra + (s->sect_off - s->ra_off);
	n = (ssize_t)(s->ra_off + s->ra_len - s->sect_off);	/* short at the end of the file */
	s->sb_off = s->sect_off;
	s->sb_avail = (uint32_t)(n < (ssize_t)want ? n : (ssize_t)want);
	s->sect_off += want;
	s->sect_left -= want;
	return 1;
}

void lgd_gap_item(struct lgd_item *g, int kind, uint64_t count, uint32_t cpu, uint64_t ts,
		  uint64_t last_ts, uint64_t seq, uint64_t off)
{
	memset(g, 0, sizeof(*g));
	g->kind = LGD_ITEM_GAP;
	g->cpu = cpu;
	g->ts = ts < last_ts ? last_ts : ts;
	g->gap_kind = kind;
	g->gap_count = count;
	g->seq = seq;
	g->file_off = off;
}

int lgd_seq_step(const struct lgd_seq_ctx *c, uint64_t seq, uint64_t *lost, uint64_t *base,
		 char *why, size_t n)
{
	uint64_t p = c->prev, k, dt;

	*lost = 0;
	*base = seq;
	if (why && n)
		why[0] = 0;
	if (!c->have_prev || (seq > p && seq - p == 1))
		return LGD_SEQ_OK;
	/* the next one follows the previous: this one is out of line */
	if (c->have_next && c->next > p && (seq < p || c->next < seq || c->next - p <= 2)) {
		*base = c->next - p >= 2 ? p + 1 : p;
		if (why)
			snprintf(why, n, "sub-buffer seq %llu between %llu and %llu is damaged: read as %llu, no sub-buffer counted lost",
				 (unsigned long long)seq, (unsigned long long)p,
				 (unsigned long long)c->next, (unsigned long long)*base);
		return LGD_SEQ_DAMAGED;
	}
	if (seq <= p) {
		if (why)
			snprintf(why, n, "sub-buffer seq %llu after %llu goes backwards (the buffer was reset, or a seq is damaged): no sub-buffer counted lost",
				 (unsigned long long)seq, (unsigned long long)p);
		return LGD_SEQ_BACK;
	}
	k = seq - p - 1;	/* seq > p + 1: no wrap */
	if (!lgd_ts_absurd(c->prev_ts) && !lgd_ts_absurd(c->ts)) {
		dt = c->ts > c->prev_ts ? c->ts - c->prev_ts : 0;
		if (k > dt && k - dt > c->slack) {
			if (why)
				snprintf(why, n, "sub-buffer seq %llu after %llu: a jump of %llu sub-buffers in %llu ns is impossible (a damaged seq?): not counted lost",
					 (unsigned long long)seq, (unsigned long long)p,
					 (unsigned long long)k, (unsigned long long)dt);
			return LGD_SEQ_IMPOSSIBLE;
		}
	}
	*lost = k;
	return LGD_SEQ_JUMP;
}

int lgd_sb_gaps(struct lgd_item g[LGD_SB_GAPS_MAX], const struct lgd_sb_info *h, uint32_t cpu,
		uint64_t subbufs, uint64_t last_ts, uint64_t off)
{
	const struct {
		int kind;
		uint64_t count;
	} k[LGD_SB_GAPS_MAX] = {
		{ LGD_GAP_SUBBUFS, h->overrun_before ? 0 : subbufs },
		{ LGD_GAP_OVERRUN, h->overrun_before }, { LGD_GAP_DROPPED, h->dropped_before },
		{ LGD_GAP_NESTING_LOST, h->nesting_lost_before },
		{ LGD_GAP_TOO_BIG, h->too_big_before }, { LGD_GAP_LOST, h->lost_before },
	};
	int n = 0;

	for (int i = 0; i < LGD_SB_GAPS_MAX; i++)
		if (k[i].count)
			lgd_gap_item(&g[n++], k[i].kind, k[i].count, cpu, h->first_ts, last_ts, h->seq, off);
	return n;
}

/* a corrupt gap of @count bytes, alone in the queue (what was queued is dropped) */
static void corrupt_gap(struct lgd_cpu_stream *s, uint64_t count)
{
	s->npending = 1;
	s->ipending = 0;
	lgd_gap_item(&s->pending[0], LGD_GAP_CORRUPT, count, s->cpu, s->last_ts, s->last_ts,
		     s->seq, s->sb_off);
}

/* the current sub-buffer is unusable: one corrupt gap, nothing else */
static int skip_subbuf(struct lgd_cpu_stream *s)
{
	corrupt_gap(s, s->sb_avail);
	s->prev_seq++;	/* assume it was the next one */
	return 1;
}

/*
 * The seq of the CPU's sub-buffer after the current one (the rest of its
 * section, or the CPU's next CPU_DATA section), for lgd_seq_step(); the
 * stream is not moved.  Return: 1 with *@seq, 0 if there is none or it is
 * no sub-buffer (bad magic or version, cut).
 */
static int peek_next_seq(const struct lgd_cpu_stream *s, uint64_t *seq)
{
	const struct lgd_reader *r = s->r;
	uint8_t b[LOGDEV_SUBBUF_HDR_SIZE];
	uint64_t off = s->sect_off, scan = s->scan_off;
	ssize_t n;

	if (!s->sect_left) {
		for (;;) {	/* as next_subbuf() walks the sections */
			uint8_t sh[LGD_CAP_SECT_HDR_BYTES];
			const struct lgd_sect_fix *fx;
			uint32_t type, cpu;
			uint64_t len, data;

			if (s->eof || pread_full(r->fd, sh, sizeof(sh), scan) < (ssize_t)sizeof(sh))
				return 0;
			lgd_cap_sect_hdr_get(sh, &type, &cpu, &len);
			fx = fix_at(r, scan);
			if (fx) {
				type = fx->type;
				cpu = fx->cpu;
				len = fx->len;
			}
			if (type == LGD_SECT_END)
				return 0;
			data = scan + sizeof(sh);
			if (len > r->file_size - data)
				len = r->file_size - data;
			if (type == LGD_SECT_CPU_DATA && cpu == s->cpu && len) {
				off = data;
				break;
			}
			scan = fx ? fx->next : data + len;
		}
	}
	n = pread_full(r->fd, b, sizeof(b), off);
	return n > 0 && lgd_sb_peek_seq(b, (size_t)n, seq) == 1;
}

/*
 * Load the next sub-buffer: check its header, queue its gaps and set up the
 * record walk.  Return 0 at the end of the CPU's data.
 */
static int load_subbuf(struct lgd_cpu_stream *s)
{
	struct lgd_reader *r = s->r;
	uint32_t sbs = r->hdr.subbuf_size, hsz = lgd_sb_hdr_size(r->hdr.version);

	s->npending = s->ipending = 0;
	while (next_subbuf(s)) {
		struct lgd_sb_info h;
		int st = lgd_sb_load(s->dec, s->sb, s->sb_avail, sbs, &h);

		if (st == LGD_SB_SHORT) {
			warn(r, -ENODATA, (int64_t)(s->sb_off + s->sb_avail), s->cpu, -1,
			     "sub-buffer at byte %llu has %u bytes, its header needs %u",
			     (unsigned long long)s->sb_off, s->sb_avail, hsz);
			continue;
		}
		s->seq = h.seq;
		switch (st) {
		case LGD_SB_BAD_MAGIC:
			warn(r, -EINVAL, (int64_t)s->sb_off, s->cpu, -1,
			     "bad sub-buffer magic 0x%08x, sub-buffer skipped", h.magic);
			return skip_subbuf(s);
		case LGD_SB_BAD_VERSION:
			warn(r, -EPROTO, (int64_t)(s->sb_off + lgd_sb_field_off(LGD_SB_F_VERSION)),
			     s->cpu, (int64_t)s->seq,
			     "sub-buffer version %u unsupported, sub-buffer skipped", h.version);
			return skip_subbuf(s);
		}
		if (h.cpu != (s->cpu & 0xffff))
			rl_warn(s, RL_CPU_MISMATCH, -EINVAL,
				(int64_t)(s->sb_off + lgd_sb_field_off(LGD_SB_F_CPU)),
				(int64_t)s->seq, "sub-buffer says cpu %u, section says %u",
				(unsigned)h.cpu, s->cpu);
		if (st == LGD_SB_BAD_DATA_BYTES) {
			warn(r, -EINVAL, (int64_t)(s->sb_off + lgd_sb_field_off(LGD_SB_F_DATA_BYTES)),
			     s->cpu, (int64_t)s->seq,
			     "data_bytes %u exceeds sub-buffer size %u, sub-buffer skipped",
			     h.data_bytes, sbs);
			return skip_subbuf(s);
		}
		{
			struct lgd_seq_ctx c = {
				.have_prev = s->have_prev_seq, .prev = s->prev_seq,
				.prev_ts = s->prev_first_ts, .ts = h.first_ts,
				.slack = (uint64_t)r->hdr.nr_subbufs + LGD_SEQ_SLACK,
			};
			uint64_t lost = 0, base = s->seq;
			char why[sizeof(((struct lgd_diag *)0)->msg)];

			if (c.have_prev && !(s->seq > c.prev && s->seq - c.prev == 1))
				c.have_next = peek_next_seq(s, &c.next);
			if (lgd_seq_step(&c, s->seq, &lost, &base, why, sizeof(why)) >= LGD_SEQ_BACK)
				rl_warn(s, RL_SEQ_BACK, -EINVAL,
					(int64_t)(s->sb_off + lgd_sb_field_off(LGD_SB_F_SEQ)),
					(int64_t)s->seq, "%s", why);
			s->npending = lgd_sb_gaps(s->pending, &h, s->cpu, lost, s->last_ts, s->sb_off);
			s->have_prev_seq = 1;
			s->prev_seq = base;
			s->prev_first_ts = h.first_ts;
		}
		if (st == LGD_SB_DATA_CUT)
			warn(r, -ENODATA, (int64_t)(s->sb_off + s->sb_avail), s->cpu,
			     (int64_t)s->seq,
			     "sub-buffer at byte %llu has %u of its %u data bytes",
			     (unsigned long long)s->sb_off,
			     s->sb_avail - lgd_sb_hdr_size(h.version), h.data_bytes);
		return 1;
	}
	return 0;
}

static inline void item_of_rec(struct lgd_item *restrict it, uint32_t cpu,
			       const struct lgd_sb_rec *restrict rec, uint64_t last_ts,
			       uint64_t seq, uint64_t off, uint8_t *restrict payload);

/* produce s->head; 0 if the stream is finished */
static int stream_advance(struct lgd_cpu_stream *s)
{
	struct lgd_reader *r = s->r;

	for (;;) {
		struct lgd_sb_rec rec;
		uint64_t foff;

		if (s->ipending < s->npending) {
			s->head = s->pending[s->ipending++];
			return 1;
		}
		switch (lgd_sb_next(s->dec, &rec)) {
		case LGD_SB_REC_END:
			if (!load_subbuf(s))
				return 0;
			continue;
		case LGD_SB_REC_CUT:	/* the capture ends inside: said at load */
			continue;
		case LGD_SB_REC_TRAILING:
			warn(r, -EINVAL, (int64_t)(s->sb_off + rec.bad_off), s->cpu,
			     (int64_t)s->seq, "%u trailing bytes too short for a record",
			     rec.left);
			continue;
		case LGD_SB_REC_BAD_LEN:
			warn(r, -EINVAL, (int64_t)(s->sb_off + rec.bad_off), s->cpu, (int64_t)s->seq,
			     "bad record length %u (%u bytes left in sub-buffer), rest of sub-buffer skipped",
			     rec.hdr.len, rec.left);
			corrupt_gap(s, rec.left);
			continue;
		case LGD_SB_REC_BAD_ARGS:
			warn(r, -EINVAL, (int64_t)(s->sb_off + rec.bad_off), s->cpu, (int64_t)s->seq,
			     "record arg_bytes %u exceeds its length %u, record skipped",
			     rec.hdr.arg_bytes, rec.hdr.len);
			continue;
		}
		foff = s->sb_off + rec.off;
		if (lgd_ts_absurd(rec.hdr.ts))
			;	/* kept in place (the CPU's last time); lgd_merge_next() */
		else if (rec.hdr.ts < s->last_ts)
			rl_warn(s, RL_TS_BACK, -ERANGE, (int64_t)foff, (int64_t)s->seq,
				"timestamp goes backwards on this CPU (%llu after %llu)",
				(unsigned long long)rec.hdr.ts,
				(unsigned long long)s->last_ts);
		if (!lgd_ts_absurd(rec.hdr.ts))
			s->last_ts = rec.hdr.ts;	/* compare the next with this one */
		item_of_rec(&s->head, s->cpu, &rec, s->last_ts, s->seq, foff, s->payload);
		return 1;
	}
}

/*
 * lgd_item_of_rec(), inlined in the capture reader's per-record path
 * (restrict: the item, the record and the payload copy never overlap, so the
 * memset and the stores stay as cheap as when they were written in place)
 */
static inline void item_of_rec(struct lgd_item *restrict it, uint32_t cpu,
			       const struct lgd_sb_rec *restrict rec, uint64_t last_ts,
			       uint64_t seq, uint64_t off, uint8_t *restrict payload)
{
	memset(it, 0, sizeof(*it));
	it->kind = LGD_ITEM_REC;
	it->cpu = cpu;
	it->ts = lgd_ts_absurd(rec->hdr.ts) ? last_ts : rec->hdr.ts;
	it->ts_absurd = lgd_ts_absurd(rec->hdr.ts);
	it->rec = rec->hdr;
	it->rec_flags = rec->flags;
	memcpy(payload, rec->payload, rec->hdr.arg_bytes);
	it->payload = payload;
	it->seq = seq;
	it->file_off = off;
}

void lgd_item_of_rec(struct lgd_item *it, uint32_t cpu, const struct lgd_sb_rec *rec,
		     uint64_t last_ts, uint64_t seq, uint64_t off, uint8_t *payload)
{
	item_of_rec(it, cpu, rec, last_ts, seq, off, payload);
}

/* ---- merge ----------------------------------------------------------- */

static int before(const struct lgd_cpu_stream *a, const struct lgd_cpu_stream *b)
{
	if (a->head.ts != b->head.ts)
		return a->head.ts < b->head.ts;
	return a->cpu < b->cpu;
}

static void sift_down(struct lgd_merge *m, uint32_t i)
{
	for (;;) {
		uint32_t l = 2 * i + 1, rr = l + 1, min = i;
		struct lgd_cpu_stream *t;

		if (l < m->nr && before(m->heap[l], m->heap[min]))
			min = l;
		if (rr < m->nr && before(m->heap[rr], m->heap[min]))
			min = rr;
		if (min == i)
			return;
		t = m->heap[i];
		m->heap[i] = m->heap[min];
		m->heap[min] = t;
		i = min;
	}
}

int lgd_merge_open(struct lgd_merge *m, struct lgd_reader *r, unsigned int items)
{
	struct lgd_merge_shared *sh = NULL;

	memset(m, 0, sizeof(*m));
	m->r = r;
	m->items = items;
	r->nr_absurd_ts = 0;
	r->nr_recorder_out = 0;
	r->nr_recs_seen = r->nr_recs_kept = 0;
	r->nr_bad_type = 0;
	m->all = calloc(r->nr_cpus ? r->nr_cpus : 1, sizeof(*m->all));
	m->heap = calloc(r->nr_cpus ? r->nr_cpus : 1, sizeof(*m->heap));
	if (r->nr_cpus)
		sh = calloc(1, sizeof(*sh));
	if (!m->all || !m->heap || (r->nr_cpus && !sh) ||
	    lgd_reader_lost_init(r, r->cpus, r->nr_cpus)) {
		free(sh);
		goto nomem;
	}
	for (uint32_t i = 0; i < r->nr_cpus; i++) {
		struct lgd_cpu_stream *s = calloc(1, sizeof(*s));

		if (!s) {
			if (!i)
				free(sh);	/* owned by the first stream */
			goto nomem;
		}
		m->all[m->nr_all++] = s;
		s->sh = sh;
		s->r = r;
		s->cpu = r->cpus[i];
		s->idx = i;
		s->scan_off = r->first_sect_off;
		/* read-ahead: up to 256 KiB a CPU, 4 MiB in all, at least a sub-buffer */
		s->ra_cap = (uint32_t)((LGD_READ_AHEAD_ALL / r->nr_cpus < LGD_READ_AHEAD_CPU ?
					LGD_READ_AHEAD_ALL / r->nr_cpus : LGD_READ_AHEAD_CPU) /
				       r->hdr.subbuf_size * r->hdr.subbuf_size);
		if (s->ra_cap < r->hdr.subbuf_size)
			s->ra_cap = r->hdr.subbuf_size;
		s->ra = malloc(s->ra_cap);
		s->sb = s->ra;
		s->payload = malloc(r->hdr.subbuf_size);
		s->dec = lgd_sb_alloc();
		if (!s->ra || !s->payload || !s->dec)
			goto nomem;
		if (stream_advance(s))
			m->heap[m->nr++] = s;
	}
	for (uint32_t i = m->nr; i-- > 0;)
		sift_down(m, i);
	return 0;
nomem:
	lgd_merge_free(m);
	return -ENOMEM;
}

/* at the end of the merge: the warnings left out, unnamed sites */
static void sum_up(struct lgd_reader *r, struct lgd_merge_shared *sh)
{
	if (sh->summed_up)
		return;
	sh->summed_up = 1;
	for (int k = 0; k < RL_NR; k++)
		if (sh->nwarn[k] > LGD_WARN_BURST)
			warn(r, -EINVAL, -1, -1, -1, "... and %llu more \"%s\" warnings",
			     (unsigned long long)(sh->nwarn[k] - LGD_WARN_BURST), rl_name[k]);
	if (r->nr_absurd_ts)
		warn(r, -ERANGE, -1, -1, -1,
		     "%llu record%s with an absurd timestamp (0 or 2^64-1) left out of every statistic",
		     (unsigned long long)r->nr_absurd_ts, r->nr_absurd_ts == 1 ? "" : "s");
	if (sh->missing_sites && !r->complete) {
		warn(r, -ENODATA, -1, -1, -1,
		     "%llu records use call sites missing from the capture's formats (cut short before the final FORMATS section?)",
		     (unsigned long long)sh->missing_sites);
		return;
	}
	/*
	 * A complete capture: once per site, at its first record.  Its formats
	 * written after its data (r->sites_final, as logdev record and the
	 * live snapshot write them) list every site its records name: one
	 * missing is damage (a site id or the formats corrupt).  Formats only
	 * before the data (hand-made, or a recording whose last formats could
	 * not be read) may lack sites that fired later: said, not as damage.
	 */
	for (uint32_t i = 0; i < sh->nr_miss; i++)
		warn(r, r->sites_final ? -EINVAL : -ENOENT, (int64_t)sh->miss[i].off,
		     sh->miss[i].cpu, (int64_t)sh->miss[i].seq,
		     "call site %u is not in the capture's formats, %s: %llu record%s, the first here, shown as site#%u:?",
		     sh->miss[i].site, r->sites_final ?
		     "though they were written after its data (a damaged site id or formats)" :
		     "which come before its data (a site that first fired later?)",
		     (unsigned long long)sh->miss[i].n, sh->miss[i].n == 1 ? "" : "s",
		     sh->miss[i].site);
	if (sh->miss_other)
		warn(r, r->sites_final ? -EINVAL : -ENOENT, -1, -1, -1,
		     "... and %llu more records of other call sites missing from the capture's formats",
		     (unsigned long long)sh->miss_other);
}

static int merge_one(struct lgd_merge *m, struct lgd_item *it)
{
	struct lgd_cpu_stream *s;

	/* refill the stream whose head was handed out last time */
	if (m->last) {
		s = m->last;
		m->last = NULL;
		if (stream_advance(s)) {
			m->heap[m->nr++] = s;
			/* sift up */
			for (uint32_t i = m->nr - 1; i > 0;) {
				uint32_t p = (i - 1) / 2;
				struct lgd_cpu_stream *t;

				if (!before(m->heap[i], m->heap[p]))
					break;
				t = m->heap[i];
				m->heap[i] = m->heap[p];
				m->heap[p] = t;
				i = p;
			}
		}
	}
	if (!m->nr) {
		if (m->nr_all)
			sum_up(m->r, m->all[0]->sh);
		return 0;
	}
	s = m->heap[0];
	m->heap[0] = m->heap[--m->nr];
	sift_down(m, 0);
	*it = s->head;
	m->last = s;
	return 1;
}

int lgd_reader_set_filter(struct lgd_reader *r, const struct lgd_filter *f)
{
	int ret;

	free(r->filter_sites);
	r->filter_sites = NULL;
	r->nr_filter_sites = 0;
	r->filter = f;
	if (!f)
		return 0;
	ret = lgd_filter_sites(f, &r->sites, &r->filter_sites);
	if (ret)
		return ret;
	r->nr_filter_sites = r->sites.nr;
	if (f->nr_comms && !r->comms_all)
		return lgd_comm_load(r);
	return 0;
}

/* the recorder's own record (task context, its pid), left out by default */
static int is_recorder(const struct lgd_reader *r, const struct lgd_item *it)
{
	return it->kind == LGD_ITEM_REC && r->recorder_pid >= 0 &&
	       !(r->filter && r->filter->include_recorder) &&
	       (it->rec.ctx & LOGDEV_CTX_MASK) == LOGDEV_CTX_TASK &&
	       it->rec.pid == (uint64_t)r->recorder_pid;
}

int lgd_reader_comm_matches(const struct lgd_reader *r)
{
	const struct lgd_filter *f = r->filter;

	if (!f || !f->nr_comms || !r->comm_tab)
		return 0;
	for (size_t i = 0; i < r->comm_tab_cap; i++)
		for (uint32_t j = 0; j < r->comm_tab[i].n; j++)
			for (size_t k = 0; k < f->nr_comms; k++)
				if (!fnmatch(f->comms[k], r->comm_tab[i].v[j].comm, 0))
					return 1;
	return 0;
}

int lgd_reader_keep(const struct lgd_reader *r, const struct lgd_item *it)
{
	const struct lgd_filter *f = r->filter;
	int site_ok = 1;
	const char *comm = NULL;

	if (is_recorder(r, it))
		return 0;
	if (!lgd_filter_active(f))
		return 1;
	if (it->kind == LGD_ITEM_REC) {
		if (f->nr_sites)
			site_ok = r->filter_sites && it->rec.site < r->nr_filter_sites &&
				  r->filter_sites[it->rec.site];
		if (f->nr_comms)
			comm = lgd_comm_at(r, it->rec.pid, it->ts);
	}
	return lgd_filter_match(f, it, site_ok, comm, r->filter_base);
}

static inline void settle(struct lgd_reader *r, struct lgd_item *it, uint32_t i,
			  int absurd_items);

/*
 * Record @it as the merge hands it out: if its site is missing from the
 * formats, count it by site (the first in merge order gives the offset).
 * A task name record has no call site, and site 0 is "unknown" by design
 * (a raw record without one, a full site table): never "missing".
 */
static void note_missing(struct lgd_merge_shared *sh, const struct lgd_reader *r,
			 const struct lgd_item *it)
{
	uint32_t i, site = it->rec.site;

	if (it->kind != LGD_ITEM_REC || it->rec.type == LOGDEV_REC_COMM || !site ||
	    lgd_sites_get(&r->sites, site))
		return;
	sh->missing_sites++;
	for (i = 0; i < sh->nr_miss && sh->miss[i].site != site; i++)
		;
	if (i == sh->nr_miss) {
		if (i == LGD_MISSING_IDS) {
			sh->miss_other++;
			return;
		}
		sh->nr_miss++;
		sh->miss[i].site = site;
		sh->miss[i].cpu = it->cpu;
		sh->miss[i].off = it->file_off;
		sh->miss[i].seq = it->seq;
		sh->miss[i].n = 0;
	}
	sh->miss[i].n++;
}

/* every item, the filter's verdict in it->filtered */
static int merge_next_all(struct lgd_merge *m, struct lgd_item *it)
{
	int ret;

	while ((ret = merge_one(m, it)) > 0 &&
	       it->kind == LGD_ITEM_REC && it->rec.type == LOGDEV_REC_COMM) {
		/* a task name, not an item; known already after lgd_comm_load() */
		if (!m->r->comms_all &&
		    comm_add(m->r, it->rec.pid, it->ts, it->payload, it->rec.arg_bytes))
			return -ENOMEM;
		if (m->items & LGD_ITEMS_COMM)
			break;
	}
	if (ret > 0) {
		note_missing(m->last->sh, m->r, it);
		settle(m->r, it, m->last->idx, !!(m->items & LGD_ITEMS_ABSURD));
	}
	return ret;
}

void lgd_reader_settle(struct lgd_reader *r, struct lgd_item *it, uint32_t i, int absurd_items)
{
	settle(r, it, i, absurd_items);
}

/* lgd_reader_settle(), inlined in the capture merge's per-item path */
static inline void settle(struct lgd_reader *r, struct lgd_item *it, uint32_t i, int absurd_items)
{
	int rec = it->kind == LGD_ITEM_REC && it->rec.type != LOGDEV_REC_COMM;

	if (it->kind == LGD_ITEM_REC && it->ts_absurd) {
		r->nr_absurd_ts++;
		if (!absurd_items) {	/* a gap in its place: no statistic sees it */
			lgd_gap_item(it, LGD_GAP_BAD_TS, 1, it->cpu, it->ts, it->ts, it->seq,
				     it->file_off);
			rec = 0;
		}
	}
	if (rec && !r->filter_base_set && !it->ts_absurd) {
		r->filter_base_set = 1;	/* the first record: relative times */
		r->filter_base = it->ts;
	}
	it->filtered = !lgd_reader_keep(r, it);
	if (rec) {
		if (is_recorder(r, it)) {
			r->nr_recorder_out += it->filtered;
		} else {
			r->nr_recs_seen++;
			r->nr_recs_kept += !it->filtered;
			r->nr_bad_type += !it->filtered && it->rec.type != LOGDEV_REC_PRINT &&
					  it->rec.type != LOGDEV_REC_PRINT_SLOTS &&
					  it->rec.type != LOGDEV_REC_RAW;
		}
	} else if (it->kind == LGD_ITEM_GAP && !it->filtered && i < r->nr_lost &&
		   it->gap_kind > 0 && it->gap_kind < LGD_GAP_NR) {
		r->lost[i].by_kind[it->gap_kind] = lgd_add_sat(r->lost[i].by_kind[it->gap_kind],
							       it->gap_count);
	}
}

int lgd_reader_lost_init(struct lgd_reader *r, const uint32_t *cpus, uint32_t n)
{
	free(r->lost);
	r->nr_lost = 0;
	r->lost = calloc(n ? n : 1, sizeof(*r->lost));
	if (!r->lost)
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++)
		r->lost[i].cpu = cpus[i];
	r->nr_lost = n;
	return 0;
}

uint64_t lgd_reader_lost(const struct lgd_reader *r, uint32_t i, uint64_t by_kind[LGD_GAP_NR],
			 uint32_t *cpu)
{
	uint64_t sum = 0;

	memset(by_kind, 0, LGD_GAP_NR * sizeof(by_kind[0]));
	if (i >= r->nr_lost)
		return 0;
	if (cpu)
		*cpu = r->lost[i].cpu;
	for (int k = 1; k < LGD_GAP_NR; k++) {
		by_kind[k] = r->lost[i].by_kind[k];
		if (k != LGD_GAP_SUBBUFS && k != LGD_GAP_CORRUPT && k != LGD_GAP_BAD_TS)
			sum = lgd_add_sat(sum, by_kind[k]);
	}
	return sum;
}

int lgd_merge_next(struct lgd_merge *m, struct lgd_item *it)
{
	int ret;

	while ((ret = merge_next_all(m, it)) > 0 && it->filtered && !(m->items & LGD_ITEMS_FILTERED))
		;
	return ret;
}

void lgd_merge_free(struct lgd_merge *m)
{
	if (m->nr_all)
		free(m->all[0]->sh);
	for (uint32_t i = 0; i < m->nr_all; i++) {
		free(m->all[i]->ra);
		free(m->all[i]->payload);
		lgd_sb_free(m->all[i]->dec);
		free(m->all[i]);
	}
	free(m->all);
	free(m->heap);
	memset(m, 0, sizeof(*m));
}

/*
 * The one timestamp-step rule (liblogdev.h): here, below the renderer and
 * the analyses that both use it.
 */
enum lgd_step lgd_ts_step(uint64_t prev, uint64_t ts, uint64_t *ns)
{
	if (ts < prev) {
		*ns = prev - ts;
		return LGD_STEP_BACK;
	}
	*ns = ts - prev;
	return *ns > LGD_STEP_MAX_NS ? LGD_STEP_HUGE : LGD_STEP_OK;
}
