/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli.h: helpers shared by the logdev subcommands (they print; the library
 * does not).  Exit codes: 0 ok, 1 runtime error, 2 usage error.
 */
#ifndef LOGDEV_CLI_H
#define LOGDEV_CLI_H

#include "liblogdev.h"

#define LOGDEV_DEFAULT_DEBUGFS	"/sys/kernel/debug/logdev"

struct cli_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);	/* argv[0] is the subcommand */
	const char *usage;
};

int cmd_record(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_deltas(int argc, char **argv);
int cmd_diff(int argc, char **argv);
void cli_usage(FILE *f);

/** cli_warn() - ld_warn_fn printing "logdev: warning: ..." to stderr. */
void cli_warn(void *arg, const struct ld_diag *d);
/** cli_debugfs() - $LOGDEV_DEBUGFS or the default directory. */
const char *cli_debugfs(void);
/**
 * cli_read_text() - whole file @dir/@name (or @name if @dir is NULL) into a
 * NUL-terminated malloc'd buffer; *@len bytes.  NULL with errno on failure.
 */
char *cli_read_text(const char *dir, const char *name, size_t *len);
/** cli_write_str() - write @s to @dir/@name.  0 or negative errno. */
int cli_write_str(const char *dir, const char *name, const char *s);
/**
 * cli_list_cpus() - CPU numbers under @dir/per_cpu (cpuN), ascending,
 * malloc'd.  Return: count, or negative errno.
 */
int cli_list_cpus(const char *dir, unsigned **cpus);
/**
 * cli_write_meta() - write HEADER, FORMATS and (if a format needs symbols
 * and /proc/kallsyms is readable) KALLSYMS sections from @dir.  Sets
 * *@subbuf_size (bytes), *@ksyms_done.  Return 0 or negative errno (message
 * printed).
 */
int cli_write_meta(struct ld_cap_writer *w, const char *dir,
		   uint32_t *subbuf_size, int *ksyms_done);
/** cli_maybe_kallsyms() - add KALLSYMS if @formats needs it and not done. */
int cli_maybe_kallsyms(struct ld_cap_writer *w, const char *formats,
		       size_t len, int *ksyms_done);
/**
 * cli_drain() - non-blocking reads of @fd into CPU_DATA sections for @cpu
 * until EAGAIN or 0.  *@eof set when read returned 0.  Adds to *@bytes,
 * *@records.  Return 0 or negative errno.
 */
int cli_drain(struct ld_cap_writer *w, int fd, unsigned cpu, uint8_t *buf,
	      size_t bufsz, uint32_t sbs, int *eof, uint64_t *bytes,
	      uint64_t *records);
/**
 * cli_open_input() - open @file, or with @file NULL snapshot the live
 * debugfs buffers (flush, drain non-blocking; consuming) into a temporary
 * capture.  Prints errors.  Return 0 or 1 (unusable).
 */
int cli_open_input(const char *file, struct ld_reader *r);
/**
 * cli_render() - message text of record item @it into @buf: the site's
 * format rendered with its payload (one trailing newline removed; "[cut]"
 * marks arguments that were cut, ld_bprintf_rec()),
 * "<unknown site N: M arg bytes>", or "<raw N bytes: xx ...>".
 * Return: bytes of text in @buf (it may hold NULs: %c of 0).
 */
size_t cli_render(const struct ld_reader *r, const struct ld_item *it,
		char *buf, size_t size);
/**
 * cli_collect() - merge every record of @r into @ds: the time between
 * consecutive records per CPU, or with @durations only return-probe
 * durations (pair: entry site, return site).  Prints errors.
 * Return: 0, or 1 (out of memory / read error).
 */
int cli_collect(struct ld_reader *r, struct ld_deltas *ds, int durations);
/** cli_site_name() - "func:line" of site @id, or "site#ID:?" if unknown. */
void cli_site_name(const struct ld_reader *r, uint32_t id, char *buf,
		   size_t size);

#endif /* LOGDEV_CLI_H */
