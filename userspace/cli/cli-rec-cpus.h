/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli-rec-cpus.h: `logdev record`'s recorders, one thread per CPU
 * (cli-rec-cpus.c; layer: CLI): each polls its CPU's trace_pipe_raw, reads
 * many sub-buffers a read() and writes them as CPU_DATA sections, one
 * writev() a read, through the capture writer they share (its mutex keeps
 * sections whole).  Bytes in bytes, times in ms.
 */
#ifndef LOGDEV_CLI_REC_CPUS_H
#define LOGDEV_CLI_REC_CPUS_H

#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include "liblogdev.h"

struct cli_rec_cpus;

/* one CPU's recorder: its thread, file and counts */
struct cli_rec_cpu {
	struct cli_rec_cpus *set;
	pthread_t th;
	int started;
	int fd;			/* trace_pipe_raw, O_NONBLOCK, not owned */
	unsigned cpu;
	uint8_t *buf;		/* set->bufsz bytes */
	uint64_t bytes, recs;	/* read and written; recs only with count_records */
	int err;		/* a read error (negative errno), not the writer's */
};

/**
 * struct cli_rec_cpus - the recorders of one recording
 * @w:       the capture writer, shared (w->lock set to @lock while they run)
 * @lock:    the writer's mutex
 * @stop_fd: a pipe: a byte in it stops every recorder (and wakes the main
 *           thread, which polls [0] too); a recorder that fails writes it
 * @failed:  set by a recorder that failed (read or write error)
 * @stop:    set to stop the recorders (with a byte in @stop_fd), read by
 *           them between drains
 * @bufsz:   bytes a read() asks for (whole sub-buffers)
 * @sbs:     sub-buffer size
 * @buf_bytes: one CPU's buffer size (cli_nap_ms()), 0 unknown
 * @count_records: count records (the progress line on a terminal), else
 *           no per-record work
 * @refresh: called (with @refresh_arg) by cli_rec_cpus_refresh(), under
 *           @rlock: write FORMATS again if it changed; its error is the
 *           writer's, which the next write returns
 * @last_refresh: when it was last called (cli_mono_ns())
 */
struct cli_rec_cpus {
	struct lgd_cap_writer *w;
	pthread_mutex_t lock;
	int stop_fd[2];
	int failed;
	int stop;
	size_t bufsz;
	uint32_t sbs;
	uint64_t buf_bytes;
	int count_records;
	int (*refresh)(void *arg);
	void *refresh_arg;
	pthread_mutex_t rlock;
	uint64_t last_refresh;
	int n;
	struct cli_rec_cpu *cpu;
};

/**
 * cli_rec_cpus_start() - start one recorder thread per CPU: @n of them, on
 * @fds (CPU numbers @cpus), writing through @s->w (set before, with @s->sbs,
 * @s->buf_bytes, @s->count_records), the signals of @block blocked in
 * them (the main thread takes them).  Return: 0, or 1 (said on stderr;
 * those started are stopped again).
 */
int cli_rec_cpus_start(struct cli_rec_cpus *s, const int *fds, const unsigned *cpus, int n,
		       const sigset_t *block);
/** cli_rec_cpus_totals() - the bytes and records the recorders wrote so far. */
void cli_rec_cpus_totals(struct cli_rec_cpus *s, uint64_t *bytes, uint64_t *recs);
/**
 * cli_rec_cpus_stop() - stop the recorders, wait for them, say their read
 * errors on stderr, free them; the writer has no lock after it.  Adds
 * their totals to *@bytes, *@recs.  Return: 0, or 1 if a read failed.
 */
int cli_rec_cpus_stop(struct cli_rec_cpus *s, uint64_t *bytes, uint64_t *recs);
/**
 * cli_rec_cpus_refresh() - call @s->refresh if @min_ns passed since its last
 * call (by any thread): the recorders call it before each drain with 0.1 s,
 * so the formats of the sites their data names are read after those sites
 * registered (a site registers when it first fires) and written before that
 * data, at most ten times a second (a capture cut short names its records);
 * the main thread with 1 s while nothing arrives.
 */
void cli_rec_cpus_refresh(struct cli_rec_cpus *s, uint64_t min_ns);
/** cli_rec_cpus_failed() - did a recorder fail (then they all stop)? */
int cli_rec_cpus_failed(struct cli_rec_cpus *s);

#endif /* LOGDEV_CLI_REC_CPUS_H */
