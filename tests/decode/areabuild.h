/* SPDX-License-Identifier: GPL-2.0 */
/*
 * areabuild.h - a flight-recorder area built in memory for the tests
 * (lib/test_area.c, cli/test_area_cli.c): the layout of
 * include/uapi/linux/logdev.h (the kernel's: header page, two text slots,
 * page-aligned CPU blocks), sub-buffers and records written through the
 * library's own encoders (subbuf.h), each CPU's ring driven as the
 * kernel's: commit counters over laps, a sub-buffer closed when the next
 * record does not fit (the closer commits the unused tail), seals and
 * saved counters written at the end.  Every record written is logged, so
 * that a test knows which ones an area still holds.
 */
#ifndef LGD_AREABUILD_H
#define LGD_AREABUILD_H

#include <stddef.h>
#include <stdint.h>
#include <uapi/linux/logdev.h>

#define AB_MAX_CPUS	4
#define AB_MAX_LOG	8192
#define AB_PAGE		4096u

/* the shape of an area (0: the default in brackets) */
struct ab_opts {
	uint32_t nr_cpus;	/* [2] */
	uint32_t nr_subbufs;	/* [8] */
	uint32_t subbuf_size;	/* [256] */
	uint32_t local_bytes;	/* [8] */
	uint32_t text_bytes;	/* [2048] */
	const char *formats;	/* text slot 1 (text_cur 1); NULL: no text */
	const char *mods;	/* the module map after the formats and a NUL; NULL: none */
};

/* one record written, as the test expects to read it back */
struct ab_log {
	uint32_t cpu;
	uint64_t seq;		/* the sub-buffer it went to */
	uint64_t ts;
	uint32_t site, pid;
	uint8_t pl[32];
	uint32_t n;		/* payload bytes */
	uint32_t off;		/* its offset in its sub-buffer */
};

struct ab_area {
	uint8_t *img;		/* the image, len bytes (malloc'd) */
	size_t len;
	struct logdev_area_hdr h;
	uint64_t commit_off, seal_off, data_off;	/* in each CPU block */
	struct {
		uint64_t next_seq;	/* seq the next sub-buffer opens with */
		int open;		/* a sub-buffer is open: seq next_seq - 1 */
		uint32_t pos;		/* its next record's offset */
		uint64_t written;
	} cpu[AB_MAX_CPUS];
	struct ab_log log[AB_MAX_LOG];
	uint32_t nlog;
};

/* a formatted area of shape @o: header (CRC by ab_finish()), blocks, no record */
void ab_init(struct ab_area *a, const struct ab_opts *o);
void ab_free(struct ab_area *a);
/* image offset of the slot of sub-buffer @seq of @cpu, and of its commit counter and seal */
uint64_t ab_sb_off(const struct ab_area *a, uint32_t cpu, uint64_t seq);
uint64_t ab_commit_at(const struct ab_area *a, uint32_t cpu, uint32_t slot);
uint64_t ab_seal_at(const struct ab_area *a, uint32_t cpu, uint32_t slot);
/* the commit counter of @slot of @cpu: read, written */
uint64_t ab_commit(const struct ab_area *a, uint32_t cpu, uint32_t slot);
void ab_set_commit(struct ab_area *a, uint32_t cpu, uint32_t slot, uint64_t v);
/* @n bytes of @v, little-endian, at image offset @at */
void poke(uint8_t *img, uint64_t at, uint64_t v, int n);
/*
 * one record of @n payload bytes (<= 32) at @ts on @cpu (LOGDEV_REC_PRINT,
 * task context), in the open sub-buffer or a new one; logged.  Returns its
 * log index.
 */
uint32_t ab_rec(struct ab_area *a, uint32_t cpu, uint64_t ts, uint32_t site, uint32_t pid,
		const void *pl, uint32_t n);
/* close @cpu's open sub-buffer (its lap whole: the tail committed) */
void ab_close(struct ab_area *a, uint32_t cpu);
/*
 * the end of a boot: seals of every whole sub-buffer, saved counters,
 * end_reason @reason with @msg at @ts / @wall_ns (not called: a hard reset)
 */
void ab_end(struct ab_area *a, uint32_t reason, const char *msg, uint64_t ts, uint64_t wall_ns);
/* the data_bytes of open sub-buffers made meaningless, the text and header CRCs */
void ab_finish(struct ab_area *a);
/* does the area still hold log entry @i (its slot holds its seq)? */
int ab_holds(const struct ab_area *a, uint32_t i);
/* recompute the header's CRC (after a test changed a field) */
void ab_fix_hdr_crc(uint8_t *img);

#endif
