// SPDX-License-Identifier: GPL-2.0
/*
 * cli-rec-cpus.c: `logdev record`'s recorders, one thread per CPU (layer:
 * CLI; cli-rec-cpus.h).  Each waits in poll() on its CPU's trace_pipe_raw
 * (the kernel wakes it when a sub-buffer is whole) and on the stop pipe,
 * drains the CPU with reads of many sub-buffers (lgd_rec_drain(): one
 * writev() of CPU_DATA sections a read, under the writer's mutex), then
 * naps (cli_nap_ms()) and drains again, polling only when it found
 * nothing.  Nothing per record unless the progress line wants
 * the count.  The main thread keeps the rest: signals, COMMAND, formats,
 * the end.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "cli-rec-cpus.h"

#define REFRESH_NS	100000000ull	/* formats checked at most 10/s while data flows */

/* stop every recorder, and wake the main thread */
static void rec_cpus_fail(struct cli_rec_cpus *s)
{
	__atomic_store_n(&s->failed, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&s->stop, 1, __ATOMIC_RELAXED);
	if (write(s->stop_fd[1], "", 1) < 0) {
		/* full: a byte is there already */
	}
}

/* the writer's error, read under its lock (another thread may set it) */
static int writer_err(struct cli_rec_cpus *s)
{
	int err;

	pthread_mutex_lock(&s->lock);
	err = s->w->err;
	pthread_mutex_unlock(&s->lock);
	return err;
}

/* wait up to @ms for the stop pipe; 1 if it says stop */
static int stop_wait(struct cli_rec_cpus *s, int ms)
{
	struct pollfd p = { .fd = s->stop_fd[0], .events = POLLIN };

	return poll(&p, 1, ms) > 0;
}

void cli_rec_cpus_refresh(struct cli_rec_cpus *s, uint64_t min_ns)
{
	uint64_t now = cli_mono_ns();

	if (!s->refresh || now - __atomic_load_n(&s->last_refresh, __ATOMIC_RELAXED) < min_ns)
		return;
	pthread_mutex_lock(&s->rlock);
	if (now - s->last_refresh >= min_ns) {
		__atomic_store_n(&s->last_refresh, now, __ATOMIC_RELAXED);
		s->refresh(s->refresh_arg);
	}
	pthread_mutex_unlock(&s->rlock);
}

/*
 * Poll only when the CPU had nothing: while data flows, drain, nap, drain
 * (three system calls a round: the nap's poll, a read, a writev).
 */
static void *rec_cpu_main(void *arg)
{
	struct cli_rec_cpu *c = arg;
	struct cli_rec_cpus *s = c->set;
	struct pollfd pfd[2] = {
		{ .fd = c->fd, .events = POLLIN },
		{ .fd = s->stop_fd[0], .events = POLLIN },
	};
	uint64_t bytes = 0, recs = 0, last = cli_mono_ns();
	int idle = 1;

	while (!__atomic_load_n(&s->stop, __ATOMIC_RELAXED)) {
		uint64_t before = bytes, now;
		int eof, ret, nap;

		if (idle) {
			int ready = poll(pfd, 2, -1);

			if (ready < 0 && errno != EINTR) {
				c->err = -errno;
				break;
			}
			if (ready <= 0)
				continue;
			if (pfd[1].revents)
				break;
		}
		cli_rec_cpus_refresh(s, REFRESH_NS);
		ret = lgd_rec_drain(s->w, c->fd, c->cpu, c->buf, s->bufsz, s->sbs, &eof, &bytes,
				    s->count_records ? &recs : NULL);
		__atomic_store_n(&c->bytes, bytes, __ATOMIC_RELAXED);
		__atomic_store_n(&c->recs, recs, __ATOMIC_RELAXED);
		if (ret) {
			if (!writer_err(s))
				c->err = ret;
			break;
		}
		now = cli_mono_ns();
		if (bytes == before) {
			/*
			 * Readable but nothing read (EPOLLHUP while recording
			 * is off with --no-enable): do not spin; nothing after
			 * a nap: wait in poll() again.
			 */
			last = now;
			if (idle && stop_wait(s, 20))
				break;
			idle = 1;
			continue;
		}
		nap = cli_nap_ms(bytes - before, (double)(now - last) / 1e9, s->buf_bytes);
		last = now;
		idle = 0;
		if (nap > 0 && stop_wait(s, nap))
			break;
	}
	if (c->err || writer_err(s))
		rec_cpus_fail(s);
	return NULL;
}

int cli_rec_cpus_start(struct cli_rec_cpus *s, const int *fds, const unsigned *cpus, int n,
		       const sigset_t *block)
{
	sigset_t old;
	int e = 0;

	s->n = 0;
	s->failed = 0;
	s->stop = 0;
	s->cpu = calloc((size_t)n, sizeof(*s->cpu));
	if (!s->cpu || pipe2(s->stop_fd, O_NONBLOCK | O_CLOEXEC)) {
		fprintf(stderr, "logdev: starting the recorders: %s\n", strerror(errno));
		free(s->cpu);
		s->cpu = NULL;
		return 1;
	}
	pthread_mutex_init(&s->lock, NULL);
	pthread_mutex_init(&s->rlock, NULL);
	s->w->lock = &s->lock;
	/* the stop signals are the main thread's (cli-signals.c) */
	pthread_sigmask(SIG_BLOCK, block, &old);
	for (int i = 0; i < n && !e; i++) {
		struct cli_rec_cpu *c = &s->cpu[i];

		c->set = s;
		c->fd = fds[i];
		c->cpu = cpus[i];
		c->buf = malloc(s->bufsz);
		s->n++;
		e = c->buf ? pthread_create(&c->th, NULL, rec_cpu_main, c) : ENOMEM;
		c->started = !e;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (e) {
		fprintf(stderr, "logdev: starting the recorder of cpu%u: %s\n",
			s->cpu[s->n - 1].cpu, strerror(e));
		cli_rec_cpus_stop(s, NULL, NULL);
		return 1;
	}
	return 0;
}

void cli_rec_cpus_totals(struct cli_rec_cpus *s, uint64_t *bytes, uint64_t *recs)
{
	*bytes = 0;
	*recs = 0;
	for (int i = 0; i < s->n; i++) {
		*bytes += __atomic_load_n(&s->cpu[i].bytes, __ATOMIC_RELAXED);
		*recs += __atomic_load_n(&s->cpu[i].recs, __ATOMIC_RELAXED);
	}
}

int cli_rec_cpus_failed(struct cli_rec_cpus *s)
{
	return __atomic_load_n(&s->failed, __ATOMIC_RELAXED);
}

int cli_rec_cpus_stop(struct cli_rec_cpus *s, uint64_t *bytes, uint64_t *recs)
{
	int ret = 0;

	if (!s->cpu)
		return 0;
	__atomic_store_n(&s->stop, 1, __ATOMIC_RELAXED);
	if (write(s->stop_fd[1], "", 1) < 0) {
		/* full: a byte is there already */
	}
	for (int i = 0; i < s->n; i++) {
		struct cli_rec_cpu *c = &s->cpu[i];

		if (c->started)
			pthread_join(c->th, NULL);
		if (c->err) {
			fprintf(stderr, "logdev: cpu%u: %s\n", c->cpu, strerror(-c->err));
			ret = 1;
		}
		if (bytes) {
			*bytes += c->bytes;
			*recs += c->recs;
		}
		free(c->buf);
	}
	s->w->lock = NULL;
	pthread_mutex_destroy(&s->lock);
	pthread_mutex_destroy(&s->rlock);
	close(s->stop_fd[0]);
	close(s->stop_fd[1]);
	free(s->cpu);
	s->cpu = NULL;
	s->n = 0;
	return ret;
}
