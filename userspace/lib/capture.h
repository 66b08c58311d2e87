/* SPDX-License-Identifier: GPL-2.0 */
/*
 * logdev capture file: a self-contained, streamable recording.
 *
 * Everything is little-endian and fixed width; no padding anywhere.
 *
 *   offset 0   char magic[8]    "LOGDEVCP"
 *   offset 8   u32  version     LGD_CAP_VERSION (1)
 *   offset 12  u32  hdr_bytes   16: bytes before the first section
 *   offset 16  sections, back to back, until an END section or end of file:
 *
 *     u32 type     enum lgd_cap_sect
 *     u32 cpu      CPU number for CPU_DATA (readers skip CPU_DATA of CPU
 *                  4096 or above, with a warning), LGD_CAP_NO_CPU
 *                  (0xffffffff) else
 *     u64 length   bytes of data following this 16-byte section header
 *     u8  data[length]
 *
 * Section types:
 *   HEADER    text of debugfs logdev/header (exactly one, before CPU_DATA)
 *   FORMATS   text of debugfs logdev/formats; may appear again later (the
 *             recorder writes it again, at most once a second, whenever it
 *             changed during the run, and once more at the end, so that call
 *             sites registered during the run are known even in a capture
 *             cut short); a reader merges all of them, a later line for the
 *             same id wins
 *   STATS     text of debugfs logdev/stats, taken when recording ended
 *   KALLSYMS  text of /proc/kallsyms; only present when a format uses a
 *             symbol pointer (%pS %ps %pB %pF %pf); taken once, when the
 *             first such format is seen
 *   MODLOG    text of debugfs logdev/module_log (every module load, end of
 *             init and unload since logdev was loaded, with trace-clock
 *             times and each module's symbols); written with KALLSYMS at
 *             the end of the recording (and again whenever it changed, at
 *             the formats re-read); readers use the last one.  %pS/%ps of a
 *             record resolve against the tables valid at the record's
 *             time (docs/FORMAT.md).  Captures without it resolve against
 *             KALLSYMS alone
 *   CPU_DATA  raw bytes read from per_cpu/cpuN/trace_pipe_raw: whole
 *             sub-buffers of subbuf_size bytes (see the header), in the
 *             order they were consumed; any number of these per CPU,
 *             interleaved across CPUs in the order the recorder drained them
 *   RECORDER  text "pid N\n": the pid of the program that wrote the capture
 *             (logdev record, or the reader's snapshot of live buffers), so
 *             that the analyses can leave its own records out (a probe on
 *             ksys_read would count the recorder's reads).  Readers before
 *             it skip it as an unknown section and keep those records
 *   SALVAGED  text "write error: REASON\n": the recording was cut short by a
 *             write error (a full disk) and the file cut back to its last
 *             whole section by logdev record, which ends such a file with
 *             this section instead of END.  Readers warn that the capture
 *             is incomplete (exit 3); readers before it see no END and warn
 *             that it was cut short
 *   PROBE_COST  struct logdev_probe_cost (include/uapi/linux/logdev.h,
 *             LOGDEV_PROBE_COST_SIZE bytes): debugfs logdev/probe_cost, the
 *             probe cost calibration, when the module has one (written
 *             after HEADER; docs/ANALYSIS.md).  Readers before it skip it
 *             and subtract nothing
 *   LAST_BOOT text: the capture was converted from a flight-recorder area
 *             (a previous boot's rings kept in reserved memory, debugfs
 *             last_boot/area or a raw image; lgd_area.h): "key: value"
 *             lines, one each of source, osrelease, build-id, text_addr,
 *             clock, loaded, ended ("panic \"MSG\" at WALL (trace ts T)",
 *             or "unknown (no end seen: ...)"), area, formats, then one
 *             "cpu N:" line per CPU (the count of each class of sub-buffer,
 *             the seqs of the corrupt and damaged ones, the saved counters
 *             or "counters unknown"), and a last "lost:" line ("none", or
 *             the sub-buffers lost), "overwritten:" if the ring wrapped, a
 *             "symbols:" line (where %pS is named from: vmlinux's source
 *             and shift, the area's module map, or "none needed").  When a
 *             format prints a symbol the conversion also writes KALLSYMS
 *             (vmlinux at that boot's addresses, if a source was found) and
 *             MODLOG (the area's module map: "load 0 ..." entries valid
 *             for every record).  Written after HEADER.  Readers print
 *             its "ended:" line and warn with its "lost:" line; readers
 *             before it skip it and decode the records, a lost sub-buffer
 *             between two kept ones showing as a seq jump (docs/FORMAT.md)
 *   END       length 0; marks a complete recording (a file without END was
 *             cut short: readers decode what is there and warn).  Written
 *             only after the last FORMATS and the STATS of a recording that
 *             ended without error.  A capture of logdev record before
 *             SALVAGED existed ended a salvaged file with END and no STATS:
 *             readers take END after CPU_DATA and RECORDER but no STATS as
 *             incomplete too (and warn)
 *
 * Unknown section types are skipped by readers (forward compatible).
 * A section header whose length cannot be right (past the end of the file,
 * or its end is no section header while one follows further on) is
 * corrupt: readers warn with the header's offset and resynchronise at the
 * next section header (reader.c, struct lgd_sect_fix).
 * The writer only appends, so a capture can be written to a pipe; readers
 * need a seekable file (they read each CPU's sections lazily by offset).
 */
#ifndef LOGDEV_CAPTURE_H
#define LOGDEV_CAPTURE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#define LGD_CAP_MAGIC		"LOGDEVCP"
#define LGD_CAP_VERSION		1
#define LGD_CAP_FILE_HDR_BYTES	16
#define LGD_CAP_SECT_HDR_BYTES	16
#define LGD_CAP_NO_CPU		0xffffffffU

enum lgd_cap_sect {
	LGD_SECT_HEADER = 1,
	LGD_SECT_FORMATS = 2,
	LGD_SECT_STATS = 3,
	LGD_SECT_KALLSYMS = 4,
	LGD_SECT_CPU_DATA = 5,
	LGD_SECT_END = 6,
	LGD_SECT_MODLOG = 7,
	LGD_SECT_RECORDER = 8,
	LGD_SECT_PROBES = 9,	/* debugfs "probes" at the end: hits, missed */
	LGD_SECT_SALVAGED = 10,	/* ends a capture cut short by a write error */
	LGD_SECT_PROBE_COST = 11,	/* struct logdev_probe_cost (uapi) */
	LGD_SECT_LAST_BOOT = 12,	/* a flight-recorder area's: how the boot ended */
	LGD_SECT_LAST = LGD_SECT_LAST_BOOT,	/* the highest type a reader knows */
};

/** lgd_sect_name() - "HEADER", "CPU_DATA", ... for a section type; "unknown-type" else (static). */
const char *lgd_sect_name(uint32_t type);

/**
 * struct lgd_cap_writer - appends a capture to a file descriptor
 * @fd:     destination (file or pipe), not owned
 * @bytes:  bytes of whole sections written so far (file header included):
 *          always a section boundary, where a file cut by a failed write
 *          can be truncated and ended
 * @err:    0, or the first write error (negative errno): sticky, every
 *          later write returns it without writing
 * @lock:   NULL (lgd_cap_writer_start()), or a mutex each section write
 *          holds for all of its bytes, so that threads sharing the writer
 *          (`logdev record`'s one per CPU) never interleave sections; then
 *          @bytes and @err are read under it, or after the threads ended
 */
struct lgd_cap_writer {
	int fd;
	uint64_t bytes;
	int err;
	pthread_mutex_t *lock;
};

/**
 * lgd_cap_writer_start() - write the 16-byte file header to @fd.
 * Return: 0, or negative errno from write(2).
 */
int lgd_cap_writer_start(struct lgd_cap_writer *w, int fd);

/**
 * lgd_cap_write_section() - append one section of @len bytes.
 * @type: enum lgd_cap_sect; @cpu: CPU or LGD_CAP_NO_CPU.
 * Return: 0, or negative errno (-EIO on short write).
 */
int lgd_cap_write_section(struct lgd_cap_writer *w, uint32_t type, uint32_t cpu,
			 const void *data, uint64_t len);

/**
 * lgd_cap_write_subbufs() - append @len bytes of CPU @cpu's sub-buffers of
 * @sbs bytes as one CPU_DATA section each (the last one shorter if @len is
 * not a multiple), in as few writev(2) calls as IOV_MAX allows (256
 * sections a call).  On a failed write, the writer's bytes count the whole
 * sections written before it: a capture cut there loses at most the
 * sub-buffer being written.  Return: 0, or negative errno.
 */
int lgd_cap_write_subbufs(struct lgd_cap_writer *w, uint32_t cpu, const void *data,
			  size_t len, uint32_t sbs);

/** lgd_cap_write_end() - append the END section. Return: 0 or negative errno. */
int lgd_cap_write_end(struct lgd_cap_writer *w);

/**
 * lgd_cap_write_salvaged() - append the SALVAGED section that ends a capture
 * cut short by a write error, @err (negative errno) named in its text, in
 * place of END.  Return: 0 or negative errno.
 */
int lgd_cap_write_salvaged(struct lgd_cap_writer *w, int err);

/**
 * lgd_cap_file_hdr_put() - the LGD_CAP_FILE_HDR_BYTES of a file header at @p.
 * lgd_cap_file_hdr_get() - read one: *@version, *@hdr_bytes (offset of the
 * first section).  Return: 0, -EINVAL (bad magic) or -EPROTO (a version
 * other than LGD_CAP_VERSION; *@version says which).
 * lgd_cap_file_hdr_version_off() - offset of the version (for diagnostics).
 * lgd_cap_sect_hdr_put()/lgd_cap_sect_hdr_get() - the LGD_CAP_SECT_HDR_BYTES of
 * a section header at @p: type, cpu, length of the data (bytes).
 * capture.c is the one file that knows these byte layouts.
 */
void lgd_cap_file_hdr_put(uint8_t *p);
int lgd_cap_file_hdr_get(const uint8_t *p, uint32_t *version, uint32_t *hdr_bytes);
uint32_t lgd_cap_file_hdr_version_off(void);
void lgd_cap_sect_hdr_put(uint8_t *p, uint32_t type, uint32_t cpu, uint64_t len);
void lgd_cap_sect_hdr_get(const uint8_t *p, uint32_t *type, uint32_t *cpu, uint64_t *len);

/**
 * lgd_cap_put_u32()/lgd_cap_put_u64() - store little-endian values; helpers
 * for code that builds capture bytes in memory (tests).
 */
void lgd_cap_put_u32(uint8_t *p, uint32_t v);
void lgd_cap_put_u64(uint8_t *p, uint64_t v);
uint32_t lgd_cap_get_u32(const uint8_t *p);
uint64_t lgd_cap_get_u64(const uint8_t *p);

#endif /* LOGDEV_CAPTURE_H */
