/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lgd_area.h: the flight recorder's area (area.c, areaconv.c; layer:
 * library): an image of the memory a kernel loaded with
 * persist=memmap:SIZE@ADDR kept its rings in (debugfs last_boot/area, or a
 * raw dump: dd of /dev/mem, QEMU's pmemsave), validated sub-buffer by
 * sub-buffer, and converted into a normal capture with a LAST_BOOT section
 * (capture.h) that says how that boot ended and what was lost.
 *
 * Shapes: the image is the caller's bytes (const uint8_t *, @len bytes),
 * never written, never read outside [0, @len); struct lgd_area points into
 * it and must not outlive it.  Offsets are bytes from the image's start;
 * timestamps ns of the area's trace clock; wall times ns of CLOCK_REALTIME.
 * The layout (include/uapi/linux/logdev.h) is decoded by subbuf.c; CRC-32
 * is zlib's crc32() (link -lz).  Nothing here prints or exits: problems in
 * the image go to a warning callback as struct lgd_diag (lgd_meta.h) and
 * the validation goes on with what is usable.
 */
#ifndef LIBLOGDEV_AREA_H
#define LIBLOGDEV_AREA_H

#include <stddef.h>
#include <stdint.h>
#include <uapi/linux/logdev.h>
#include "capture.h"
#include "lgd_meta.h"

/* What a sub-buffer slot of a CPU's ring holds (struct lgd_area_sb.cls) */
enum lgd_area_class {
	LGD_AREA_EMPTY = 0,	/* commit counter 0: never used */
	LGD_AREA_SEALED,	/* whole, and the seal of its seq has a matching CRC */
	LGD_AREA_CORRUPT,	/* whole, a seal for its seq that does not match
				 * (CRC or data_bytes): found, not inferred */
	LGD_AREA_UNSEALED,	/* whole, no seal for its seq: checked by structure */
	LGD_AREA_OPEN,		/* the one being written: its committed prefix, the
				 * records up to the first malformed one */
	LGD_AREA_DAMAGED,	/* its header or records are not what the commit
				 * counter says (enum lgd_area_why) */
	LGD_AREA_CUT,		/* its bytes lie past the end of a truncated image */
	LGD_AREA_NR_CLASSES
};

/* Why a slot is damaged or corrupt, or where an open one's walk stopped */
enum lgd_area_why {
	LGD_AREA_W_NONE = 0,
	LGD_AREA_W_COMMIT,	/* the commit counter is impossible (an open
				 * sub-buffer shorter than its header, a seq
				 * beyond 2^64) */
	LGD_AREA_W_MAGIC,	/* no sub-buffer magic */
	LGD_AREA_W_VERSION,	/* a format version other than the area's */
	LGD_AREA_W_CPU,		/* the header's cpu is not its block's */
	LGD_AREA_W_SEQ,		/* the header's seq is not the commit counter's */
	LGD_AREA_W_DATA_BYTES,	/* data_bytes beyond the sub-buffer */
	LGD_AREA_W_REC_LEN,	/* a record length below 24, not a multiple of 8,
				 * or past the data (also bytes too few for one) */
	LGD_AREA_W_REC_ARGS,	/* a record's arg_bytes beyond its length */
	LGD_AREA_W_TS_FIRST,	/* a record stamped before the sub-buffer's first_ts */
	LGD_AREA_W_TS_BACK,	/* a record stamped before the one before it */
	LGD_AREA_W_CRC,		/* corrupt: the seal's CRC does not match */
	LGD_AREA_W_SEAL_BYTES,	/* corrupt: the seal's data_bytes is not the header's */
	LGD_AREA_W_NO_SEAL,	/* corrupt: whole, unsealed, though its boot ended
				 * by sealing every whole sub-buffer (the seal
				 * itself was damaged) */
	LGD_AREA_W_NR
};

/** lgd_area_class_name() - "sealed", "whole-unsealed", ... for @cls (static). */
const char *lgd_area_class_name(int cls);
/** lgd_area_why_text() - "record length", "bad magic", ... for @why (static). */
const char *lgd_area_why_text(int why);

/**
 * struct lgd_area_sb - one slot of a CPU's ring, as validated
 * @seq:        the sub-buffer the commit counter says the slot holds
 * @off:        image offset of the slot's first byte
 * @bad_off:    image offset of what is wrong (damaged, corrupt; an open
 *              one's first byte not taken), else 0
 * @slot:       its index in the ring (0 .. nr_subbufs - 1)
 * @data_bytes: bytes of records validated (what the capture's header says)
 * @committed:  open: bytes of records committed (commit counter); else the
 *              header's data_bytes
 * @records:    records validated
 * @cls, @why:  enum lgd_area_class, enum lgd_area_why
 */
struct lgd_area_sb {
	uint64_t seq;
	uint64_t off;
	uint64_t bad_off;
	uint32_t slot;
	uint32_t data_bytes;
	uint32_t committed;
	uint32_t records;
	uint8_t cls;
	uint8_t why;
};

/* struct lgd_area_cpu_res.state */
enum lgd_area_cpu_state {
	LGD_AREA_CPU_OK = 0,	/* its block head is sound: every slot classed */
	LGD_AREA_CPU_BAD,	/* its block head is damaged: nothing read */
	LGD_AREA_CPU_CUT,	/* its block head lies past the image's end */
};

/**
 * struct lgd_area_cpu_res - one CPU's block
 * @cpu:     its number (the block's index)
 * @state:   enum lgd_area_cpu_state; @bad_off the offending field's offset
 * @head:    the block head, decoded (valid unless @state is CUT)
 * @count:   slots per enum lgd_area_class (the slots whose commit counter
 *           lies past the image's end count as LGD_AREA_CUT)
 * @sb:      the slots whose commit counter was read, @nr_sb of them: the
 *           non-empty ones by @seq ascending, then the empty ones
 * @records: records validated in all
 */
struct lgd_area_cpu_res {
	uint32_t cpu;
	int state;
	uint64_t bad_off;
	struct logdev_area_cpu head;
	uint64_t count[LGD_AREA_NR_CLASSES];
	struct lgd_area_sb *sb;
	uint32_t nr_sb;
	uint64_t records;
};

/* struct lgd_area.text: the formats text slot */
enum lgd_area_text {
	LGD_AREA_TEXT_OK = 0,	/* the current slot's CRC matches: FORMATS */
	LGD_AREA_TEXT_NONE,	/* text_cur says no text was written */
	LGD_AREA_TEXT_BAD,	/* text_cur or text_len impossible */
	LGD_AREA_TEXT_CRC,	/* the current slot's CRC does not match */
	LGD_AREA_TEXT_CUT,	/* the slot lies past the image's end */
	LGD_AREA_TEXT_OLDER,	/* the current slot unusable, the other one's
				 * CRC matches: FORMATS of the text before the
				 * current one (sites first hit since show by id) */
};

/**
 * struct lgd_area - an area image, validated (lgd_area_open())
 * @img, @len:   the image (the caller's bytes)
 * @hdr:         its header, decoded; strings NUL-terminated here
 * @limit:       bytes of the area present: min(@len, hdr.area_bytes)
 * @cut:         @len < hdr.area_bytes (a truncated image; warned)
 * @text:        enum lgd_area_text; @text_p, @text_len the formats text
 *               (into @img) when LGD_AREA_TEXT_OK or LGD_AREA_TEXT_OLDER:
 *               the slot's bytes before its first NUL
 * @map:         the slot's text has a NUL: what follows is the module map
 *               (@mods_p, @mods_len into @img, whole lines: a last line cut
 *               short is left out, warned), module_log format 2 text of the
 *               modules loaded when it was written; 0: an older area, no map
 * @map_mods, @map_bare: modules in the map, those of them without symbols
 *               (their addresses print as hex); @map_out: modules the
 *               kernel left out (its "# logdev module map:" line), 0 if
 *               unsaid; @map_bad: malformed lines (lgd_ksyms_add_modlog())
 * @cpus:        hdr.nr_cpus blocks
 * @lost:        corrupt + damaged + cut slots, all CPUs; @cpus_unread:
 *               blocks not read (damaged or cut heads)
 */
struct lgd_area {
	const uint8_t *img;
	size_t len;
	struct logdev_area_hdr hdr;
	uint64_t limit;
	int cut;
	int text;
	const char *text_p;
	uint32_t text_len;
	int map;
	const char *mods_p;
	uint32_t mods_len;
	uint32_t map_mods, map_bare, map_out, map_bad;
	struct lgd_area_cpu_res *cpus;
	uint32_t nr_cpus;
	uint64_t lost;
	uint32_t cpus_unread;
};

/**
 * lgd_area_is_area() - does @buf (@n bytes) start with LOGDEV_AREA_MAGIC?
 * Return: 1 or 0.
 */
int lgd_area_is_area(const void *buf, size_t n);

/**
 * lgd_area_open() - validate the image @img (@len bytes) into @a.
 * The header first: magic, version, endian, hdr_crc (zlib CRC-32 of its
 * first LOGDEV_AREA_CRC_BYTES), then that every offset and size lies
 * inside the area; a failure there makes the image unusable.  Then, warned
 * through @warn (may be NULL; @warn_arg passed on) and decoding going on:
 * a truncated image (what lies inside is validated), the formats text,
 * each CPU block head, each corrupt or damaged sub-buffer (its CPU, seq,
 * the byte that is wrong and why).  Never reads outside
 * [@img, @img + @len).
 * Return: 0 (@a to lgd_area_close()), or negative errno with @d filled and
 * nothing to close: -EINVAL not an area / a damaged header, -EPROTO a
 * version or byte order this reader does not know, -ENODATA a header cut
 * short, -ENOMEM.
 */
int lgd_area_open(struct lgd_area *a, const uint8_t *img, size_t len, lgd_warn_fn warn,
		  void *warn_arg, struct lgd_diag *d);
/**
 * lgd_area_close() - free what lgd_area_open() allocated (not the image);
 * a no-op after an lgd_area_open() that failed.
 */
void lgd_area_close(struct lgd_area *a);

/**
 * lgd_area_crc() - zlib's crc32() of @n bytes at @p (the area's CRC-32:
 * hdr_crc, text_crc, seals).
 */
uint32_t lgd_area_crc(const void *p, size_t n);

/* ---- conversion (areaconv.c) ------------------------------------------- */

/**
 * lgd_area_header_text() - the debugfs "header" text the area's rings had
 * (version, endian, subbuf_size, nr_subbufs, header sizes, clock, field
 * lines; no mode: the area does not say it), malloc'd, *@len bytes.
 * Return: the text or NULL (no memory).
 */
char *lgd_area_header_text(const struct lgd_area *a, size_t *len);

/* ---- the previous boot's symbols (areasyms.c) -------------------------- */

/**
 * struct lgd_area_syms - vmlinux's symbols of the boot that wrote an area,
 * for lgd_area_capture()
 * @text, @len:  "ADDR TYPE NAME" lines (/proc/kallsyms text, the KALLSYMS
 *               section's format) at that boot's addresses, malloc'd
 *               (lgd_area_vmlinux_syms()); NULL: none
 * @shift:       bytes added to the source's addresses (the area's text_addr
 *               minus the source's _stext; absolute symbols are not moved)
 * @nr:          symbols in @text
 * @from:        where they came from, as the LAST_BOOT "symbols:" line says
 *               it ("/proc/kallsyms (same build-id)", "FILE (--kallsyms)")
 * @none_why:    with @text NULL: why there are none, said in that line
 */
struct lgd_area_syms {
	char *text;
	size_t len;
	int64_t shift;
	size_t nr;
	char from[512];
	char none_why[512];
};

/**
 * lgd_area_vmlinux_syms() - vmlinux's symbols of the boot that wrote @a,
 * from @src (@len bytes of /proc/kallsyms or System.map text, "ADDR TYPE
 * NAME" lines; module lines "...\t[mod]" and lines that do not parse are
 * skipped), each address moved by @a's text_addr minus @src's _stext
 * (KASLR), into @out->text, @len, @shift, @nr (@from, @none_why untouched).
 * Return: 0, or negative errno with @d's message and @out->text NULL:
 * -ENOENT no _stext in @src (or Debian's placeholder System.map, which says
 * where the real one is), -EPERM all its addresses 0 (read without root, or
 * kptr_restrict), -ENODATA the area's text_addr unknown (0), -ENOMEM.
 */
int lgd_area_vmlinux_syms(const struct lgd_area *a, const char *src, size_t len,
			  struct lgd_area_syms *out, struct lgd_diag *d);
/** lgd_area_syms_free() - free @s->text (NULL after); @s itself is the caller's. */
void lgd_area_syms_free(struct lgd_area_syms *s);

/**
 * lgd_build_id_note() - the GNU build-id in ELF notes @p (@n bytes, as
 * /sys/kernel/notes gives them: Elf_Nhdr namesz, descsz, type, the name
 * and the descriptor each padded to 4 bytes, native little-endian): the
 * note of type 3 named "GNU", as lower-case hex into @hex (@hexlen bytes,
 * NUL-terminated).  Return: 0, -ENOENT none, -EINVAL a note past the end,
 * -ENOSPC @hex too small.
 */
int lgd_build_id_note(const uint8_t *p, size_t n, char *hex, size_t hexlen);

/**
 * lgd_area_needs_syms() - does a format of @a's formats text print a symbol
 * (lgd_formats_need_ksyms())?  Without one, lgd_area_capture() writes no
 * KALLSYMS and no MODLOG, and symbols need not be looked for.  Return: 1 or 0.
 */
int lgd_area_needs_syms(const struct lgd_area *a);

/**
 * lgd_area_last_boot_text() - the LAST_BOOT section's text (capture.h):
 * "key: value" lines saying @source (where the image came from, e.g.
 * "debugfs /sys/kernel/debug/logdev/last_boot/area" or "image FILE"), the
 * kernel, the load, how the boot ended, the area, the formats, per CPU the
 * count of each class with the seqs of the corrupt and damaged ones and
 * the saved counters, a "lost:" line, and a "symbols:" line saying where
 * the symbols of %pS come from (@syms, may be NULL: vmlinux's none; the
 * modules' from the area's map), or "none needed"; malloc'd, *@len bytes.
 * Return: the text or NULL (no memory).
 */
char *lgd_area_last_boot_text(const struct lgd_area *a, const char *source,
			      const struct lgd_area_syms *syms, size_t *len);

/**
 * struct lgd_area_conv - what lgd_area_capture() wrote
 * @subbufs: sub-buffers in CPU_DATA sections; @records: their records
 */
struct lgd_area_conv {
	uint64_t subbufs;
	uint64_t records;
};

/**
 * lgd_area_capture() - write @a as a capture through @w (started by the
 * caller: lgd_cap_writer_start()): HEADER (lgd_area_header_text()),
 * LAST_BOOT, FORMATS (only with LGD_AREA_TEXT_OK or _OLDER: else the
 * records show by site id); when a format prints a symbol
 * (lgd_area_needs_syms()), KALLSYMS with @syms->text (vmlinux at the
 * previous boot's addresses; @syms NULL or its text NULL: none) and MODLOG
 * with the area's module map (if it has one); per CPU in seq order the sealed, whole-unsealed and open
 * sub-buffers as CPU_DATA (each as a consuming read gives it: header and
 * validated records, the rest zeroed; the open one's data_bytes set to
 * what was validated), STATS from the counters the CPUs saved
 * (if any did), END.  A sub-buffer lost between two kept ones shows as a
 * seq jump: readers count it as lost sub-buffers (docs/FORMAT.md).
 * @st (may be NULL) gets the counts.
 * Return: 0, or negative errno (the writer's, -ENOMEM).
 */
int lgd_area_capture(const struct lgd_area *a, struct lgd_cap_writer *w, const char *source,
		     const struct lgd_area_syms *syms, struct lgd_area_conv *st);

#endif /* LIBLOGDEV_AREA_H */
