// SPDX-License-Identifier: GPL-2.0
/*
 * tracedat.c: a writer of trace-cmd's trace.dat file format, version 6
 * (trace-cmd's Documentation/trace-cmd/trace-cmd.dat.v6.5.txt; read by
 * every trace-cmd, libtracecmd and KernelShark), little-endian, 64-bit
 * longs, 4096-byte pages.  Our own code: libtracecmd's writer is private.
 *
 *   "\027\010\104tracing" "6\0" endian(0) long_size(8) page_size(u32)
 *   "header_page\0" u64 len, text     "header_event\0" u64 len, text
 *   u32 0 (ftrace formats)            u32 1, "SYSTEM\0", u32 n, (u64 len, format)*n
 *   u32 len, kallsyms text            u32 0 (printk formats)
 *   u64 len, cmdlines ("pid comm\n")  u32 nr_cpus
 *   "options  \0" (u16 id, u32 size, data)* u16 0
 *   "flyrecord\0" (u64 offset, u64 size) per CPU, then the pages, page-aligned
 *
 * A page: u64 timestamp of its first event, u64 commit (data bytes; bit 31:
 * events were missed before this page, bit 30: their count is the u64 after
 * the data), data from byte 16.  An event: u32 type_len:5 | time_delta:27
 * (ns since the previous event of the page), then the payload: type_len
 * 1..28 for payloads of type_len * 4 bytes, 0 with the payload's length + 4
 * in the next u32 for longer ones; type_len 30 is a time extend (delta >> 27
 * in the next u32).  The absolute time stamp (31) is never written.  A step
 * back in time starts a new page.
 *
 * Pages are kept in one temporary file per CPU until lgd_tdw_finish() writes
 * the header (whose event formats are known only then) and copies them.
 * Nothing here prints.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "liblogdev.h"
#include "tracedat.h"

#define TD_PAGE		4096u
#define TD_PAGE_HDR	16u
#define TD_DATA		(TD_PAGE - TD_PAGE_HDR)
#define TD_MISSED	(1ULL << 31)
#define TD_MISSED_STORED (1ULL << 30)
#define TD_DELTA_MAX	((1u << 27) - 1)
#define TD_TYPE_EXTEND	30u

struct lgd_tdw_cpu {
	FILE *tmp;		/* whole pages */
	uint64_t pages;
	uint8_t page[TD_PAGE];
	uint32_t used;		/* data bytes in @page */
	int open;		/* @page holds a started page */
	uint64_t page_ts, last_ts;
	int missed;		/* 0, 1 count known (@missed_n), -1 unknown */
	uint64_t missed_n;
	int page_missed;	/* the open page carries the missed mark */
	uint64_t page_missed_n;
};

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

int lgd_tdw_init(struct lgd_tdw *w, uint64_t cpu_max)
{
	memset(w, 0, sizeof(*w));
	w->cpu_max = cpu_max ? cpu_max : LGD_TDW_CPU_MAX;
	return 0;
}

/* CPU @cpu's state, created on first use; NULL: -ENOMEM or -EINVAL */
static struct lgd_tdw_cpu *cpu_get(struct lgd_tdw *w, uint32_t cpu, int *err)
{
	if (cpu >= LGD_TDW_MAX_CPUS) {
		*err = -EINVAL;
		return NULL;
	}
	if (cpu >= w->nr_cpus) {
		struct lgd_tdw_cpu **n = realloc(w->cpus, (cpu + 1) * sizeof(*n));

		if (!n) {
			*err = -ENOMEM;
			return NULL;
		}
		memset(n + w->nr_cpus, 0, (cpu + 1 - w->nr_cpus) * sizeof(*n));
		w->cpus = n;
		w->nr_cpus = cpu + 1;
	}
	if (!w->cpus[cpu]) {
		struct lgd_tdw_cpu *c = calloc(1, sizeof(*c));

		if (!c || !(c->tmp = tmpfile())) {
			free(c);
			*err = errno ? -errno : -ENOMEM;
			return NULL;
		}
		w->cpus[cpu] = c;
	}
	return w->cpus[cpu];
}

/*
 * Write out the open page of @c, CPU @cpu of @w (its missed mark and count
 * included); -EOVERFLOW if it would take the CPU's data past w->cpu_max.
 */
static int page_flush(struct lgd_tdw *w, uint32_t cpu, struct lgd_tdw_cpu *c)
{
	uint64_t commit = c->used;

	if (!c->open)
		return 0;
	if ((c->pages + 1) * TD_PAGE > w->cpu_max) {
		w->full_cpu = cpu;
		return -EOVERFLOW;
	}
	if (c->page_missed) {
		commit |= TD_MISSED;
		if (c->page_missed > 0) {
			commit |= TD_MISSED_STORED;
			put64(c->page + TD_PAGE_HDR + c->used, c->page_missed_n);
		}
	}
	put64(c->page, c->page_ts);
	put64(c->page + 8, commit);
	if (fwrite(c->page, TD_PAGE, 1, c->tmp) != 1)
		return -EIO;
	c->pages++;
	c->open = 0;
	return 0;
}

static void page_start(struct lgd_tdw_cpu *c, uint64_t ts)
{
	memset(c->page, 0, sizeof(c->page));
	c->open = 1;
	c->used = 0;
	c->page_ts = c->last_ts = ts;
	c->page_missed = c->missed;
	c->page_missed_n = c->missed_n;
	c->missed = 0;
	c->missed_n = 0;
}

int lgd_tdw_missed(struct lgd_tdw *w, uint32_t cpu, int64_t count)
{
	int err = 0;
	struct lgd_tdw_cpu *c = cpu_get(w, cpu, &err);

	if (!c)
		return err;
	err = page_flush(w, cpu, c);	/* the next event starts a page carrying the mark */
	if (count < 0 || c->missed < 0) {
		c->missed = -1;
		c->missed_n = 0;
	} else {
		c->missed = 1;
		c->missed_n = lgd_add_sat(c->missed_n, (uint64_t)count);
	}
	return err;
}

int lgd_tdw_event(struct lgd_tdw *w, uint32_t cpu, uint64_t ts, const void *payload,
		  uint32_t len)
{
	uint32_t plen = (len + 3) & ~3u, need, hdr;
	uint64_t delta;
	int err = 0;
	struct lgd_tdw_cpu *c = cpu_get(w, cpu, &err);

	if (!c)
		return err;
	hdr = plen <= 28 * 4 && plen ? 4 : 8;
	need = hdr + plen;
	if (need + 8 + 8 > TD_DATA)	/* + a time extend + a missed count */
		return -E2BIG;
	/* deltas are unsigned, and a time extend holds 59 bits: a new page */
	if (c->open && (ts < c->last_ts || (ts - c->last_ts) >> 27 > UINT32_MAX))
		if ((err = page_flush(w, cpu, c)))
			return err;
	delta = c->open ? ts - c->last_ts : 0;
	if (c->open && c->used + need + (delta > TD_DELTA_MAX ? 8 : 0) +
	    (c->page_missed > 0 ? 8 : 0) > TD_DATA)
		if ((err = page_flush(w, cpu, c)))
			return err;
	if (!c->open) {
		page_start(c, ts);
		delta = 0;
	}
	if (delta > TD_DELTA_MAX) {
		uint8_t *e = c->page + TD_PAGE_HDR + c->used;

		put32(e, TD_TYPE_EXTEND | (uint32_t)(delta & TD_DELTA_MAX) << 5);
		put32(e + 4, (uint32_t)(delta >> 27));
		c->used += 8;
		delta = 0;
	}
	{
		uint8_t *e = c->page + TD_PAGE_HDR + c->used;

		if (hdr == 4) {
			put32(e, plen / 4 | (uint32_t)delta << 5);
		} else {
			put32(e, (uint32_t)delta << 5);
			put32(e + 4, plen + 4);
		}
		memcpy(e + hdr, payload, len);
		c->used += need;
	}
	c->last_ts = ts;
	w->events++;
	return 0;
}

int lgd_tdw_option(struct lgd_tdw *w, uint16_t id, const void *data, uint32_t size)
{
	size_t n = w->opts_len + 6 + size;
	uint8_t *b = realloc(w->opts, n);

	if (!b)
		return -ENOMEM;
	put16(b + w->opts_len, id);
	put32(b + w->opts_len + 2, size);
	memcpy(b + w->opts_len + 6, data, size);
	w->opts = b;
	w->opts_len = n;
	return 0;
}

int lgd_tdw_format(struct lgd_tdw *w, const char *text)
{
	char **n = realloc(w->formats, (w->nr_formats + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	w->formats = n;
	if (!(n[w->nr_formats] = strdup(text)))
		return -ENOMEM;
	w->nr_formats++;
	return 0;
}

static const char header_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n";

static const char header_event[] =
	"# compressed entry header\n"
	"\ttype_len    :    5 bits\n"
	"\ttime_delta  :   27 bits\n"
	"\tarray       :   32 bits\n"
	"\n"
	"\tpadding     : type == 29\n"
	"\ttime_extend : type == 30\n"
	"\ttime_stamp : type == 31\n"
	"\tdata max type_len  == 28\n";

/*
 * The file is written front to back and never sought, so that it can go to
 * a pipe: the writer counts its bytes itself (page alignment of the CPU data
 * needs the position).
 */
struct w_out {
	FILE *f;
	uint64_t pos;		/* bytes written so far */
	int err;		/* the first write's -errno (ENOSPC, EFBIG...), or 0 */
};

static int w_bytes(struct w_out *o, const void *p, size_t n)
{
	if (n && fwrite(p, n, 1, o->f) != 1) {
		if (!o->err)
			o->err = errno ? -errno : -EIO;
		return -EIO;
	}
	o->pos += n;
	return 0;
}

static int w_u16(struct w_out *f, uint16_t v)
{
	uint8_t b[2];

	put16(b, v);
	return w_bytes(f, b, 2);
}

static int w_u32(struct w_out *f, uint32_t v)
{
	uint8_t b[4];

	put32(b, v);
	return w_bytes(f, b, 4);
}

static int w_u64(struct w_out *f, uint64_t v)
{
	uint8_t b[8];

	put64(b, v);
	return w_bytes(f, b, 8);
}

static int w_str(struct w_out *f, const char *s)
{
	return w_bytes(f, s, strlen(s) + 1);
}

int lgd_tdw_finish(struct lgd_tdw *w, FILE *out, const char *system,
		   const char *kallsyms, size_t kallsyms_len,
		   const char *cmdlines, size_t cmdlines_len)
{
	struct w_out o = { out, 0, 0 };
	int err = 0;
	uint64_t off;
	uint8_t buf[TD_PAGE];

	for (uint32_t i = 0; i < w->nr_cpus; i++)
		if (w->cpus[i] && (err = page_flush(w, i, w->cpus[i])))
			return err;
	if (kallsyms_len > UINT32_MAX)
		return -E2BIG;
	err |= w_bytes(&o, "\027\010\104tracing", 10);
	err |= w_bytes(&o, "6", 2);
	err |= w_bytes(&o, "\0\010", 2);	/* little endian, 8-byte long */
	err |= w_u32(&o, TD_PAGE);
	err |= w_str(&o, "header_page");
	err |= w_u64(&o, sizeof(header_page) - 1);
	err |= w_bytes(&o, header_page, sizeof(header_page) - 1);
	err |= w_str(&o, "header_event");
	err |= w_u64(&o, sizeof(header_event) - 1);
	err |= w_bytes(&o, header_event, sizeof(header_event) - 1);
	err |= w_u32(&o, 0);			/* ftrace formats */
	err |= w_u32(&o, 1);			/* one event system */
	err |= w_str(&o, system);
	err |= w_u32(&o, (uint32_t)w->nr_formats);
	for (size_t i = 0; i < w->nr_formats; i++) {
		err |= w_u64(&o, strlen(w->formats[i]));
		err |= w_bytes(&o, w->formats[i], strlen(w->formats[i]));
	}
	err |= w_u32(&o, (uint32_t)kallsyms_len);
	err |= w_bytes(&o, kallsyms, kallsyms_len);
	err |= w_u32(&o, 0);			/* printk formats */
	err |= w_u64(&o, cmdlines_len);
	err |= w_bytes(&o, cmdlines, cmdlines_len);
	err |= w_u32(&o, w->nr_cpus ? w->nr_cpus : 1);
	err |= w_bytes(&o, "options  ", 10);
	err |= w_bytes(&o, w->opts, w->opts_len);
	err |= w_u16(&o, 0);
	err |= w_bytes(&o, "flyrecord", 10);
	if (err)
		return o.err ? o.err : -EIO;
	off = (o.pos + 16 * (w->nr_cpus ? w->nr_cpus : 1) + TD_PAGE - 1) &
	      ~(uint64_t)(TD_PAGE - 1);
	for (uint32_t i = 0; i < (w->nr_cpus ? w->nr_cpus : 1); i++) {
		uint64_t size = i < w->nr_cpus && w->cpus[i] ? w->cpus[i]->pages * TD_PAGE : 0;

		err |= w_u64(&o, size ? off : 0);
		err |= w_u64(&o, size);
		off += size;
	}
	if (err)
		return o.err ? o.err : -EIO;
	memset(buf, 0, sizeof(buf));
	err |= w_bytes(&o, buf, (TD_PAGE - o.pos % TD_PAGE) % TD_PAGE);
	for (uint32_t i = 0; i < w->nr_cpus && !err; i++) {
		struct lgd_tdw_cpu *c = w->cpus[i];

		if (!c)
			continue;
		rewind(c->tmp);
		for (uint64_t p = 0; p < c->pages && !err; p++)
			if (fread(buf, TD_PAGE, 1, c->tmp) != 1 || w_bytes(&o, buf, TD_PAGE))
				err = -EIO;
	}
	if (!err && fflush(out))
		err = o.err = errno ? -errno : -EIO;
	return err ? (o.err ? o.err : -EIO) : 0;
}

void lgd_tdw_free(struct lgd_tdw *w)
{
	for (uint32_t i = 0; i < w->nr_cpus; i++) {
		if (w->cpus[i] && w->cpus[i]->tmp)
			fclose(w->cpus[i]->tmp);
		free(w->cpus[i]);
	}
	for (size_t i = 0; i < w->nr_formats; i++)
		free(w->formats[i]);
	free(w->formats);
	free(w->cpus);
	free(w->opts);
	memset(w, 0, sizeof(*w));
}
