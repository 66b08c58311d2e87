/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli-recorder.h: CLI: the recorder's steps with their problems said
 * (cli-recorder.c): a capture's metadata, record's probes (-p SPEC,
 * --probe-file FILE) attached and removed, the nap between drains, the
 * salvage of a capture cut by a write error.
 */
#ifndef LOGDEV_CLI_RECORDER_H
#define LOGDEV_CLI_RECORDER_H

#include <stddef.h>
#include <stdint.h>
#include "liblogdev.h"

/**
 * cli_write_meta() - write HEADER, FORMATS and (if a format needs symbols
 * and /proc/kallsyms is readable) KALLSYMS and MODLOG sections from @dir.  Sets
 * *@subbuf_size (bytes), *@ksyms_done: lgd_rec_meta(), with its problems
 * printed.  Return 0 or negative errno.
 */
int cli_write_meta(struct lgd_cap_writer *w, const char *dir,
		   uint32_t *subbuf_size, int *ksyms_done);
/** cli_write_formats() - lgd_rec_formats(), why symbols are not saved printed. */
int cli_write_formats(struct lgd_cap_writer *w, const char *dir, const char *formats,
		      size_t len, int *ksyms_done);
/* record's probes (-p SPEC, --probe-file FILE), in the order given */
struct cli_probe_specs {
	char **v;
	char **where;	/* per spec: "-p", "--callees FUNC", "FILE:LINE" */
	size_t n;
};
/**
 * cli_probe_spec_push() - append @spec (malloc'd; @ps owns it from now,
 * freed on failure too), from @where (copied), to @ps; a spec already
 * there (the same text: -p and --callees naming one probe) is noted on
 * stderr and kept once.  0, or 1 on no memory (said on stderr).
 */
int cli_probe_spec_push(struct cli_probe_specs *ps, char *spec, const char *where);
/**
 * cli_probe_spec_add() - add -p @arg (or with @is_file the lines of probe
 * file @arg, lgd_probes_read_file()) to @ps.  Return: 0, 1 (no memory) or
 * 2 (an unreadable file, a line too long; said on stderr).
 */
int cli_probe_spec_add(struct cli_probe_specs *ps, const char *arg, int is_file);
void cli_probe_specs_free(struct cli_probe_specs *ps);
/**
 * cli_probes_attach() - lgd_probes_attach() of @ps in @dir into @set, its
 * problems said: a spec refused (the kernel's error_log entry printed;
 * those added before it removed again): 2; the probes file unusable: 1.
 * Return: 0, 1 or 2.
 */
int cli_probes_attach(const char *dir, const struct cli_probe_specs *ps,
		      struct lgd_probe_set *set);
/** cli_probes_detach() - lgd_probes_detach(), a failure said.  0 or 1. */
int cli_probes_detach(const char *dir, struct lgd_probe_set *set);
/**
 * cli_rec_exit_status() - `logdev record`'s exit status: @rc if set (an
 * error); 128 + @sig if signal @sig ended the recording, except SIGINT and
 * SIGTERM ending a recording without COMMAND and --duration (@duration < 0):
 * 0; else COMMAND's (@has_command) wait @status as the shell gives it; else 0.
 */
int cli_rec_exit_status(int rc, int sig, int has_command, double duration, int status);
#define CLI_NAP_MAX_MS	10
/**
 * cli_nap_ms() - how long a recorder thread of `logdev record`
 * (cli-rec-cpus.c, one per CPU) waits after a drain of its CPU before it
 * polls again, in ms: up to CLI_NAP_MAX_MS, and no longer than it takes
 * that CPU, at the rate it filled since the last drain (@most bytes read
 * from it in @dt seconds), to fill a quarter of its buffer (@buf_bytes per
 * CPU; 0: unknown).  0 (poll at once) when nothing was read, the buffer
 * size is unknown or @dt is not positive.
 * Why: poll() wakes the recorder for every sub-buffer completed, and each
 * wake-up (poll, a read per CPU, a write) cost about 1 ms of guest CPU under
 * TCG in the sustained benchmark (docs/log/PERFORMANCE-history.md,
 * "4. Sustained recording"), against
 * 27-60 us per sub-buffer read and written in bulk; the wait halved the
 * recorder's CPU per record there.  ftrace's readers likewise sleep until
 * the buffer is buffer_percent full (default 50), and trace-cmd record's
 * recorders sleep 1 ms between splices.
 */
int cli_nap_ms(uint64_t most, double dt, uint64_t buf_bytes);
/**
 * cli_salvage() - the capture written through @w to @fd was cut by write
 * error @err (negative errno): truncate it to its last whole section before
 * END (@end_at: the writer's bytes before END was written, or UINT64_MAX)
 * and end it with SALVAGED, not END: the recording is incomplete and readers
 * say so (capture.h).  Return: 1 if it now ends with SALVAGED, 0 if not (no
 * end mark: readers still warn, "no END section").
 */
int cli_salvage(struct lgd_cap_writer *w, int fd, int err, uint64_t end_at);

#endif /* LOGDEV_CLI_RECORDER_H */
