/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * logdev record format: the only contract between the logdev kernel module
 * and userspace readers.
 *
 * A per-CPU buffer is a ring of sub-buffers of LOGDEV sub-buffer size bytes
 * (a power of two, 4096 by default; see the debugfs "header" file for the
 * value in force).  A consuming read of per_cpu/cpuN/trace_pipe_raw returns
 * whole sub-buffers, each exactly subbuf_size bytes long:
 *
 *   +---------------------------+  offset 0
 *   | struct logdev_subbuf_hdr  |  48 bytes
 *   +---------------------------+  LOGDEV_SUBBUF_HDR_SIZE
 *   | record | record | ...     |  data_bytes bytes of records
 *   +---------------------------+  LOGDEV_SUBBUF_HDR_SIZE + data_bytes
 *   | unused (undefined bytes)  |
 *   +---------------------------+  subbuf_size
 *
 * Every record starts with struct logdev_rec_hdr, is rec.len bytes long
 * (header included), and rec.len is a multiple of 8, so every record is
 * 8-byte aligned; a record never straddles a sub-buffer boundary.
 *
 * Timestamps are absolute (not delta-encoded): every record carries the full
 * 64-bit trace-clock value in ns.  See docs/FORMAT.md for why.
 *
 * All fields are little-endian on the machines logdev supports (the host
 * byte order of the traced kernel; "header" names it).  No field is a long
 * or a pointer.
 */
#ifndef _UAPI_LINUX_LOGDEV_H
#define _UAPI_LINUX_LOGDEV_H

#include <linux/types.h>

/* "LDSB" read as a little-endian u32: marks the start of every sub-buffer */
#define LOGDEV_SUBBUF_MAGIC	0x4253444cU
/*
 * Record format version; a reader refuses versions it does not know.
 * 3: version 2's layout; records of type LOGDEV_REC_COMM may appear (a
 *    reader of version 2 would show them as records of an unknown type).
 * 2: the sub-buffer header counts each cause of loss apart (48 bytes).
 * 1: one dropped_before for dropped, nesting_lost and too_big records
 *    together (40 bytes: the first 40 of version 2, without
 *    nesting_lost_before and too_big_before).
 */
#define LOGDEV_FORMAT_VERSION	3

/**
 * struct logdev_subbuf_hdr - header at the start of every sub-buffer
 * @magic:          LOGDEV_SUBBUF_MAGIC
 * @version:        LOGDEV_FORMAT_VERSION
 * @cpu:            CPU whose buffer this sub-buffer belongs to
 * @seq:            sequence number of this sub-buffer on its CPU, 0, 1, 2...
 *                  counting every sub-buffer ever opened, so a jump between
 *                  two consumed sub-buffers shows sub-buffers that were
 *                  overwritten before they could be read
 * @first_ts:       timestamp (ns, trace clock) of the first record, or of the
 *                  moment the sub-buffer was opened
 * @data_bytes:     bytes of records after the header (<= subbuf_size - 48)
 * @flags:          LOGDEV_SB_* flags
 *
 * Losses on this CPU since the previous sub-buffer, one count per cause, all
 * in records (the stats file's counters of the same names).  A count is
 * reported once, in this header or, when a writer interrupted the opener of
 * a sub-buffer, in one a few sub-buffers earlier or later (docs/FORMAT.md):
 * @dropped_before: dropped: refused in discard mode because the buffer was
 *                  full
 * @overrun_before: overrun: lost because the sub-buffers that held them were
 *                  overwritten (overwrite mode) after the previously consumed
 *                  sub-buffer and before this one (filled in by the consuming
 *                  read; 0 in the live buffer)
 * @nesting_lost_before: nesting_lost: refused because the nesting depth was
 *                  exceeded or the sub-buffer to enter was still being
 *                  written
 * @too_big_before: too_big: refused as larger than a sub-buffer
 *
 * @dropped_before, @nesting_lost_before and @too_big_before are written by
 * the writer that opened this sub-buffer; the counts of a sub-buffer that is
 * overwritten before it is read move on to the next one consumed.
 */
struct logdev_subbuf_hdr {
	__u32 magic;
	__u16 version;
	__u16 cpu;
	__u64 seq;
	__u64 first_ts;
	__u32 data_bytes;
	__u32 flags;
	__u32 dropped_before;
	__u32 overrun_before;
	__u32 nesting_lost_before;
	__u32 too_big_before;
};

#define LOGDEV_SUBBUF_HDR_SIZE	48

/* The sub-buffer was closed early by a flush (stop, or a read that asked for it). */
#define LOGDEV_SB_FLUSHED	0x1

/* Record types (logdev_rec_hdr.type) */
enum logdev_rec_type {
	LOGDEV_REC_PRINT = 1,	/* edprint(): payload is binary printf args */
	LOGDEV_REC_RAW = 2,	/* opaque payload (tests, probes without args) */
	LOGDEV_REC_PRINT_SLOTS = 3, /* edprint(): args encoded at compile time */
	LOGDEV_REC_COMM = 4,	/* task name of @pid (version 3), see below */
};

/*
 * Payload of a LOGDEV_REC_COMM record: the task's comm, LOGDEV_COMM_LEN
 * bytes, NUL-terminated and NUL-padded (arg_bytes = LOGDEV_COMM_LEN; site 0).
 * Written on a CPU just before a record whose pid or comm differs from the
 * CPU's previous comm record, or that lands in a sub-buffer holding no comm
 * record of that task yet: the name of a record's pid at its time is the
 * comm of the latest comm record of that pid before it (docs/FORMAT.md).
 */
#define LOGDEV_COMM_LEN		16

/* Interrupt context a record was written in (logdev_rec_hdr.ctx bits 0-1) */
enum logdev_ctx {
	LOGDEV_CTX_TASK = 0,
	LOGDEV_CTX_SOFTIRQ = 1,
	LOGDEV_CTX_HARDIRQ = 2,
	LOGDEV_CTX_NMI = 3,
};

/* logdev_rec_hdr.ctx: bits 0-1 are the enum logdev_ctx */
#define LOGDEV_CTX_MASK		0x03
/*
 * logdev_rec_hdr.ctx flag: the arguments did not all fit the record and were
 * cut (LOGDEV_REC_PRINT: the payload ends with the part that fit, a string
 * cut to a prefix, arg_bytes bytes; LOGDEV_REC_PRINT_SLOTS: a %s was cut to
 * EDP_STR_MAX characters).  Readers print a cut mark (docs/FORMAT.md).
 */
#define LOGDEV_REC_F_CUT	0x80

/*
 * LOGDEV_REC_PRINT payload value of a plain %p (also %pK, and %pe of a
 * pointer that is not an error) when the kernel could not hash it: its
 * pointer-hash key was not ready yet (early boot), where the kernel itself
 * prints "(____ptrval____)".  Readers print that text.  Not a canonical
 * x86-64 address (4- or 5-level paging), and above any hash (32 bits).
 */
#define LOGDEV_PTR_NOKEY	0x7fffffffffffffffULL

/**
 * struct logdev_rec_hdr - header of every record (24 bytes)
 * @ts:    timestamp in ns of the selected trace clock; on one CPU, records
 *         appear in non-decreasing @ts order (taken inside the reservation)
 * @site:  call-site id: index in the debugfs "formats" table (0 = unknown)
 * @len:   total record length in bytes, header included, multiple of 8
 * @type:  enum logdev_rec_type
 * @ctx:   enum logdev_ctx in bits 0-1 (LOGDEV_CTX_MASK), flags above
 *         (LOGDEV_REC_F_CUT); bits 2-6 are 0
 * @pid:   pid of the task that was current (for NMI/irq: the interrupted one)
 * @arg_bytes: bytes of payload that are meaningful (<= len - 24); the rest
 *         is padding to 8 bytes, zero.  Every payload byte, padding included,
 *         is written by the call that made the record.
 *
 * Payload for LOGDEV_REC_PRINT: the binary argument buffer made by the
 * kernel's vbin_printf() for the site's format, laid out as lib/vsprintf.c
 * lays it out (each argument aligned to min(its size, 4) from the start of
 * the payload; strings, and pointer formats that must be resolved at record
 * time such as %pI4, copied as NUL-terminated text); bstr_printf() renders
 * it.  Userspace readers decode it themselves (userspace/lib/bprintf.c).
 * Except: the value of a plain %p, %pK and %pe of a pointer that is not an
 * error is what the kernel's own "%p" prints for it at record time (a 32-bit
 * hash; the raw value only under the no_hash_pointers boot option; NULL and
 * error pointers as they are; LOGDEV_PTR_NOKEY before the hash key exists),
 * so that a capture shows no address the kernel would not print; %px
 * stores the raw value (format version 3 on: earlier captures hold raw
 * values for %p too).
 *
 * Payload for LOGDEV_REC_PRINT_SLOTS: the arguments in order, laid out as
 * for LOGDEV_REC_PRINT except that every argument smaller than 4 bytes
 * (char, short: %c, %hh, %h) takes 4 bytes at 4-byte alignment: integers
 * and pointers of 4 bytes or less in 4 bytes, 8-byte ones in 8 bytes at
 * 4-byte alignment, strings NUL-terminated and padded to 4 (see
 * include/linux/edprint_slots.h).  Rendered from the site's format.
 */
struct logdev_rec_hdr {
	__u64 ts;
	__u32 site;
	__u16 len;
	__u8 type;
	__u8 ctx;
	__u32 pid;
	__u32 arg_bytes;
};

#define LOGDEV_REC_HDR_SIZE	24
/* Largest record payload edprint() stores (bytes); longer is cut (LOGDEV_REC_F_CUT). */
#define LOGDEV_MAX_PAYLOAD	512
#define LOGDEV_REC_ALIGN	8

/*
 * Probe cost: what one probe hit costs on the machine and kernel at hand,
 * measured by logdev's calibration (debugfs "probe_cost": write
 * "calibrate"; read: this struct) and kept in a capture (section
 * PROBE_COST), so that readers can take the probes' own time out of the
 * durations they report (docs/ANALYSIS.md).  Not part of the record
 * format (LOGDEV_FORMAT_VERSION): its own magic and version.
 */
#define LOGDEV_COST_MAGIC	0x54534f43U	/* "COST" little-endian */
#define LOGDEV_COST_VERSION	2	/* 1: 224 bytes, no pair floor (readers take both) */

/* The kinds of hit measured (struct logdev_probe_cost.kind[]) */
enum logdev_cost_kinds {
	LOGDEV_COST_EDPRINT = 0,	/* one edprint() record */
	LOGDEV_COST_KPROBE_INT3 = 1,	/* kprobe reached through int3 */
	LOGDEV_COST_KPROBE_FTRACE = 2,	/* kprobe on a function's ftrace entry */
	LOGDEV_COST_KPROBE_OPT = 3,	/* optimised kprobe (a jump) */
	LOGDEV_COST_KRETPROBE = 4,	/* one call: entry and return records */
	LOGDEV_COST_TRACEPOINT = 5,	/* a tracepoint probe's record */
	LOGDEV_COST_NR_KINDS = 6,
};

/* logdev_cost_kind.flags: the kind was measured (else all figures are 0) */
#define LOGDEV_COST_F_MEASURED	0x1
/* ... without the hook's own dispatch (tracepoint: the probe function was
 * called directly, as the tracepoint calls it) */
#define LOGDEV_COST_F_DIRECT	0x2
/* @pair_ps was measured (version 2: kretprobe and edprint) */
#define LOGDEV_COST_F_PAIR	0x4

/**
 * struct logdev_cost_kind - one kind's cost per hit (40 bytes; 32 in
 * version 1, which ends before @pair_ps)
 * @flags:  LOGDEV_COST_F_*
 * @runs:   runs measured; each run times @calls calls of a calibration
 *          function with the probe and as many of its unprobed twin
 * @calls:  calls per run
 * @min_ps, @p10_ps, @median_ps, @p90_ps, @max_ps: the per-hit cost of the
 *          runs (difference of the two times / @calls), in picoseconds of
 *          the trace clock: smallest, 10th percentile, median, 90th
 *          percentile, largest (nearest rank; negative differences as 0)
 * @pair_ps: the part of this kind's own two records that lies inside the
 *          pair they open and close (ps; LOGDEV_COST_F_PAIR): the median,
 *          over @pair_n pairs, of the two records' timestamps apart less
 *          the unprobed call's time.  A kretprobe's pair is one call's entry
 *          and return records (what follows the entry record's timestamp
 *          in its hit, and what precedes the return record's); edprint's,
 *          two records of consecutive calls (what follows the first
 *          record's timestamp and precedes the second's).  It is not
 *          among @median_ps's nested cost: a pair is never inside itself.
 * @pair_n: pairs measured
 */
struct logdev_cost_kind {
	__u32 flags;
	__u32 runs;
	__u32 calls;
	__u32 min_ps;
	__u32 p10_ps;
	__u32 median_ps;
	__u32 p90_ps;
	__u32 max_ps;
	__u32 pair_ps;
	__u32 pair_n;
};

/**
 * struct logdev_probe_cost - the calibration's figures (272 bytes; version
 * 1: 224, its kinds 32 bytes apart)
 * @magic:    LOGDEV_COST_MAGIC
 * @version:  LOGDEV_COST_VERSION
 * @nr_kinds: LOGDEV_COST_NR_KINDS (entries in @kind)
 * @size:     sizeof(struct logdev_probe_cost)
 * @clock:    the trace clock when measured (debugfs "clock" word's index:
 *            0 local, 1 global, 2 mono: the order of the words "clock"
 *            lists)
 * @ts:       trace-clock time of the calibration (ns); 0: never calibrated
 * @cpu:      the CPU it ran on
 * @reserved: 0
 * @kind:     by enum logdev_cost_kinds
 */
struct logdev_probe_cost {
	__u32 magic;
	__u16 version;
	__u16 nr_kinds;
	__u32 size;
	__u32 clock;
	__u64 ts;
	__u32 cpu;
	__u32 reserved;
	struct logdev_cost_kind kind[LOGDEV_COST_NR_KINDS];
};

#define LOGDEV_PROBE_COST_SIZE	272
#define LOGDEV_PROBE_COST_SIZE_V1	224
#define LOGDEV_COST_HDR_SIZE		32	/* bytes before @kind, every version */
#define LOGDEV_COST_KIND_SIZE_V1	32

/*
 * The flight recorder's area (module parameter persist=memmap:SIZE@ADDR):
 * every CPU's ring in one range of memory a warm reset keeps, read again
 * by the next boot or from a raw image (docs/CRASHDUMP.md).  Offsets are
 * from the area's start unless said; everything little-endian.
 *
 *   0                        struct logdev_area_hdr (first page)
 *   text_off                 2 text slots of text_bytes: "formats" text
 *   cpu_off + c * cpu_stride CPU c's block (page aligned):
 *     0                      struct logdev_area_cpu
 *     commit_off             nr_subbufs commit counters of local_bytes:
 *                            bytes committed to slot k over all its laps
 *                            (header, records and closing tail), so
 *                            c / subbuf_size laps are whole and lap
 *                            c / subbuf_size holds c % subbuf_size bytes
 *     seal_off               nr_subbufs struct logdev_area_seal
 *     data_off               nr_subbufs sub-buffers (format above); slot k
 *                            lap L holds sub-buffer seq L * nr_subbufs + k
 */
#define LOGDEV_AREA_MAGIC	"LOGDEVFR"
#define LOGDEV_AREA_VERSION	1
#define LOGDEV_AREA_ENDIAN	0x01020304U	/* as stored by the writer */
#define LOGDEV_AREA_CPU_MAGIC	0x4346444cU	/* "LDFC" little-endian */
#define LOGDEV_AREA_NO_TEXT	0xffffffffU	/* text_cur: no text yet */

/* How the boot that wrote the area ended (logdev_area_hdr.end_reason) */
enum logdev_area_end {
	LOGDEV_END_UNKNOWN = 0,	/* no end seen: hard reset, power, hang */
	LOGDEV_END_PANIC = 1,	/* panic notifier (sysrq-c, NMI, oops) */
	LOGDEV_END_REBOOT = 2,	/* reboot notifier: an orderly reboot */
	LOGDEV_END_OOPS = 3,	/* an oops, and no panic or reboot after */
	LOGDEV_END_UNLOAD = 4,	/* the module was unloaded */
};

/**
 * struct logdev_area_hdr - the area's header (368 bytes)
 * @magic: LOGDEV_AREA_MAGIC; @version: LOGDEV_AREA_VERSION; @hdr_bytes: 368
 * @area_bytes, @page_size, @endian: the area, the writer's page, ENDIAN
 * @nr_cpus: CPU blocks; @subbuf_size, @nr_subbufs: each CPU's ring
 * @format_version: LOGDEV_FORMAT_VERSION of the sub-buffers
 * @local_bytes: bytes of one commit counter (8 on 64-bit kernels)
 * @text_bytes, @text_off, @cpu_off, @cpu_stride: the layout above
 * @load_wall_ns: CLOCK_REALTIME (ns) when this area was formatted
 * @text_addr: run-time address of the kernel's _stext (KASLR), 0: unknown
 * @clock: trace clock name; @osrelease, @build_id: the kernel (uname -r,
 *         hex GNU build-id), NUL-terminated
 * @hdr_crc: CRC-32 (zlib's crc32()) of the 224 bytes before it
 * Written while recording and at the end, not under @hdr_crc:
 * @end_reason: enum logdev_area_end; @end_ts: trace clock then (ns);
 * @end_wall_ns: CLOCK_REALTIME then; @text_cur: the text slot in use or
 * LOGDEV_AREA_NO_TEXT; @text_len, @text_crc: bytes and CRC-32 of each
 * slot's text; @end_msg: the panic or oops message, NUL-terminated
 */
struct logdev_area_hdr {
	char magic[8];
	__u32 version, hdr_bytes;
	__u64 area_bytes;
	__u32 page_size, endian, nr_cpus, subbuf_size, nr_subbufs;
	__u32 format_version, local_bytes, text_bytes;
	__u64 text_off, cpu_off, cpu_stride, load_wall_ns, text_addr;
	char clock[16];
	char osrelease[65];
	char build_id[41];
	char reserved[6];
	__u32 hdr_crc;
	__u32 end_reason;
	__u64 end_ts, end_wall_ns;
	__u32 text_cur, text_len[2], text_crc[2];
	char end_msg[100];
};

/**
 * struct logdev_area_cpu - head of a CPU's block (104 bytes)
 * @magic: LOGDEV_AREA_CPU_MAGIC; @cpu: its CPU
 * @commit_off, @seal_off, @data_off: from the block's start
 * @saved: 1 when the counters below were stored at the end (end_reason
 *         not UNKNOWN), 0: unknown
 * @write_off: bytes ever reserved on this CPU (position of the next record)
 * @read_sb: first sub-buffer a reader had not consumed
 * @written, @read, @overrun, @dropped, @nesting_lost, @too_big: struct
 *         ld_stats, in records (debugfs "stats")
 */
struct logdev_area_cpu {
	__u32 magic, cpu;
	__u64 commit_off, seal_off, data_off;
	__u32 saved, reserved;
	__u64 write_off, read_sb;
	__u64 written, read, overrun, dropped, nesting_lost, too_big;
};

/*
 * struct logdev_area_seal - CRC of a whole sub-buffer, written when the
 * boot ended (or later by a sealer): @seq: the sub-buffer sealed (~0: none);
 * @crc: CRC-32 of its first LOGDEV_SUBBUF_HDR_SIZE + @data_bytes bytes.
 */
struct logdev_area_seal {
	__u64 seq;
	__u32 crc, data_bytes;
};

#define LOGDEV_AREA_HDR_SIZE	368
#define LOGDEV_AREA_CRC_BYTES	224
#define LOGDEV_AREA_CPU_SIZE	104
#define LOGDEV_AREA_SEAL_SIZE	16

#endif /* _UAPI_LINUX_LOGDEV_H */
