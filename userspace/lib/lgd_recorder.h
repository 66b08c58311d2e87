/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lgd_recorder.h: the recorder (recorder.c; layer: library): debugfs files
 * read and written, a capture's metadata sections from a live logdev
 * directory, and a CPU's buffer drained into CPU_DATA sections.  Never
 * prints: errors are negative errno values; struct lgd_rec_status says
 * which step failed and why symbols were left out, for the caller to say.
 */
#ifndef LIBLOGDEV_RECORDER_H
#define LIBLOGDEV_RECORDER_H

#include <stddef.h>
#include <stdint.h>
#include "capture.h"
#include "lgd_meta.h"

/**
 * lgd_rec_read_text() - whole file @dir/@name (or @name if @dir is NULL)
 * into a NUL-terminated malloc'd buffer; *@len bytes.  NULL with errno on
 * failure; EFBIG past LGD_REC_TEXT_MAX bytes (a text the user names may be
 * /dev/zero: a fresh user's --kallsyms /dev/zero ran the machine out of
 * memory).
 */
#define LGD_REC_TEXT_MAX	(256u << 20)	/* bytes; /proc/kallsyms: 10-20 MiB */
char *lgd_rec_read_text(const char *dir, const char *name, size_t *len);
/** lgd_rec_write_str() - write @s to @dir/@name.  0 or negative errno. */
int lgd_rec_write_str(const char *dir, const char *name, const char *s);
/**
 * lgd_rec_list_cpus() - CPU numbers under @dir/per_cpu (cpuN), ascending,
 * malloc'd.  Return: count, or negative errno.
 */
int lgd_rec_list_cpus(const char *dir, unsigned **cpus);

/* struct lgd_rec_status.stage: the step lgd_rec_meta() failed at */
enum lgd_rec_stage {
	LGD_REC_READ_HEADER = 1,	/* @dir/header unreadable */
	LGD_REC_PARSE_HEADER = 2,	/* @dir/header refused: @d says why */
	LGD_REC_READ_FORMATS = 3,	/* @dir/formats unreadable */
	LGD_REC_WRITE = 4,		/* writing the capture */
};

/* struct lgd_rec_status.ksyms: why no KALLSYMS section was written */
enum lgd_rec_ksyms {
	LGD_REC_KSYMS_UNREADABLE = 1,	/* /proc/kallsyms unreadable: @ksyms_errno */
	LGD_REC_KSYMS_HIDDEN = 2,	/* no addresses (not root, or kptr_restrict) */
};

/**
 * struct lgd_rec_status - what the metadata steps have to tell
 * @stage:  0, or the enum lgd_rec_stage at which the step failed
 * @d:      the header's problem (LGD_REC_PARSE_HEADER)
 * @ksyms:  0, or why a format that needs symbols will print them as hex
 *          (enum lgd_rec_ksyms); @ksyms_errno: errno for UNREADABLE
 */
struct lgd_rec_status {
	int stage;
	struct lgd_diag d;
	int ksyms;
	int ksyms_errno;
};

/**
 * lgd_rec_meta() - write HEADER, FORMATS and (if a format needs symbols and
 * /proc/kallsyms is readable) KALLSYMS and MODLOG sections from @dir.  Sets
 * *@subbuf_size (bytes), *@ksyms_done; @st filled (zeroed first).
 * Return: 0 or negative errno (@st->stage says where).
 */
int lgd_rec_meta(struct lgd_cap_writer *w, const char *dir, uint32_t *subbuf_size,
		 int *ksyms_done, struct lgd_rec_status *st);
/**
 * lgd_rec_probe_cost() - a PROBE_COST section with @dir/probe_cost if the
 * module has one and was calibrated (its ts not 0; no file: no section,
 * no error; readers check it: lgd_cost_check()).  lgd_rec_meta() writes
 * it after HEADER.  Return: 0 or negative errno from the write.
 */
int lgd_rec_probe_cost(struct lgd_cap_writer *w, const char *dir);
/**
 * lgd_rec_calibrated() - has the module's probe cost been measured since it
 * was loaded (@dir/probe_cost's ts not 0)?  Return: 1, 0, or negative errno
 * (no such file: an older module; unreadable).
 */
int lgd_rec_calibrated(const char *dir);
/**
 * lgd_formats_need_ksyms() - does a format of the "formats" text @text
 * (@len bytes) print a symbol (%pS %ps %pB %pF %pf)?  Return: 1 or 0 (0 for
 * a text that does not parse).
 */
int lgd_formats_need_ksyms(const char *text, size_t len);
/**
 * lgd_rec_kallsyms() - add KALLSYMS if @formats (@len bytes) needs it and
 * *@ksyms_done is not set (then set); @st->ksyms says why not when it could
 * not.  Return: 0 or negative errno from the writer.
 */
int lgd_rec_kallsyms(struct lgd_cap_writer *w, const char *formats, size_t len,
		     int *ksyms_done, struct lgd_rec_status *st);
/**
 * lgd_rec_formats() - a FORMATS section with @formats (@len bytes, read
 * from @dir/formats), then KALLSYMS if a format newly needs symbols
 * (lgd_rec_kallsyms()), then, once symbols are saved, MODLOG if the module
 * log changed (lgd_rec_modlog()).  Return: 0 or negative errno from the
 * writer.
 */
int lgd_rec_formats(struct lgd_cap_writer *w, const char *dir, const char *formats,
		    size_t len, int *ksyms_done, struct lgd_rec_status *st);
/**
 * lgd_rec_modlog() - add a MODLOG section with @dir/module_log if it
 * differs from the last one this process wrote (nothing if the file is
 * missing: an older module).  Return: 0 or negative errno from the writer.
 */
int lgd_rec_modlog(struct lgd_cap_writer *w, const char *dir);
/**
 * lgd_rec_drain() - non-blocking reads of @fd into CPU_DATA sections for
 * @cpu (one section per sub-buffer of @sbs bytes) until a short read (none
 * whole left then; a caller that wants the end calls again), EAGAIN or 0, through
 * @buf (@bufsz bytes: the larger, the fewer system calls; one writev()
 * per read).  *@eof set when read returned 0.  Adds to *@bytes and, unless
 * @records is NULL (no per-record work), *@records.  Return: 0 or negative
 * errno.
 */
int lgd_rec_drain(struct lgd_cap_writer *w, int fd, unsigned cpu, uint8_t *buf,
		  size_t bufsz, uint32_t sbs, int *eof, uint64_t *bytes, uint64_t *records);
/**
 * lgd_rec_recorder() - a RECORDER section ("pid N\n", capture.h) with this
 * process's pid.  Return: 0 or negative errno from the writer.
 */
int lgd_rec_recorder(struct lgd_cap_writer *w);

#endif /* LIBLOGDEV_RECORDER_H */
