// SPDX-License-Identifier: GPL-2.0
/*
 * cli-follow.c: the --follow loop of "logdev report" and "logdev deltas":
 * poll every CPU's per_cpu/cpuN/trace_pipe_raw under the debugfs directory
 * ($LOGDEV_DEBUGFS or /sys/kernel/debug/logdev), feed what is read to the
 * library's live merge (live.c: bounded reorder window, bounded memory),
 * and hand each item that may go out to the verb, until SIGINT or SIGTERM.
 *
 * The kernel hands readers whole sub-buffers only, so a CPU that records
 * little would hold its records in a partly filled sub-buffer: the loop
 * writes 1 to "flush" every half window (at least 10 ms apart), which
 * closes every CPU's partial sub-buffer.  A CPU file at its end (read 0:
 * recording stopped) is read again every half window, so following goes on
 * across a stop and a start.  Reads are non-blocking, up to 16 sub-buffers
 * per CPU per round (any read size works: a FIFO may return part of a
 * sub-buffer, the live merge keeps the rest).
 *
 * SIGINT and SIGTERM are caught even when they were ignored at the start
 * (a shell's background job ignores SIGINT): they are the way to end
 * --follow (record, which ends by itself, keeps ignored signals ignored).
 * On SIGINT or SIGTERM: flush once more, read what every CPU has complete
 * (at most its ring's size: writers that keep writing cannot keep us),
 * hand out everything held in time order, and return.  Call sites that
 * register while following (they register when first fired) are read
 * from "formats" when a record names an unknown one.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"

static volatile sig_atomic_t follow_stop;
static int stop_pipe[2] = { -1, -1 };

static void on_stop(int sig)
{
	int e = errno;

	(void)sig;
	follow_stop = 1;
	if (stop_pipe[1] >= 0) {
		ssize_t n = write(stop_pipe[1], "x", 1);

		(void)n;	/* full pipe: the flag is enough */
	}
	errno = e;
}

uint64_t cli_mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

/* a record names a site the formats read so far lack: read them again */
static void reread_formats(void *arg, struct lgd_reader *r, uint32_t site)
{
	struct cli_follow *f = arg;
	size_t len;
	char *t;

	if (!site || site <= f->formats_tried)
		return;		/* tried for this id already: unknown it stays */
	f->formats_tried = site;
	t = lgd_rec_read_text(f->dir, "formats", &len);
	if (!t)
		return;
	if (lgd_sites_parse(&r->sites, t, len) >= 0 && r->filter)
		lgd_reader_set_filter(r, r->filter);	/* --site of the new sites */
	free(t);
	if (r->sites.nr && r->sites.nr - 1 > f->formats_tried)
		f->formats_tried = r->sites.nr - 1;
}

int cli_follow_open(struct cli_follow *f, uint64_t window_ns, unsigned int items)
{
	struct lgd_live_opts o = {
		.window_ns = window_ns, .max_bytes = CLI_FOLLOW_MAX_BYTES, .items = items,
		.on_unknown_site = reread_formats, .arg = f,
	};
	struct lgd_diag d = { 0 };
	struct lgd_cap_writer w;
	uint32_t sbs = 0;
	int ksyms = 0, fd, n, ret;
	unsigned *cpus = NULL;

	memset(f, 0, sizeof(*f));
	f->dir = cli_debugfs();
	if (cli_live_check(f->dir))
		return 1;
	/* the metadata (header, formats, symbols) as a capture without data */
	fd = cli_meta_capture(&w, f->dir, &sbs, &ksyms);
	if (fd < 0)
		return 1;
	lgd_rec_recorder(&w);
	lgd_cap_write_end(&w);
	if (lgd_reader_open_fd(&f->r, fd, cli_warn, NULL, &d)) {
		fprintf(stderr, "logdev: live metadata: %s\n", cli_diag_text(d.msg));
		return 1;
	}
	ret = lgd_reader_set_filter(&f->r, &cli_filter);
	if (ret) {
		fprintf(stderr, "logdev: %s\n", strerror(-ret));
		goto err_reader;
	}
	n = lgd_rec_list_cpus(f->dir, &cpus);
	if (n <= 0) {
		fprintf(stderr, "logdev: %s/per_cpu: %s\n", f->dir, n ? strerror(-n) :
			"no cpuN directories: no per-CPU buffer to read");
		goto err_reader;
	}
	f->fds = malloc((size_t)n * sizeof(*f->fds));
	f->idle = calloc((size_t)n, sizeof(*f->idle));
	f->cpus = malloc((size_t)n * sizeof(*f->cpus));
	f->bufsz = (size_t)sbs * 16;
	f->buf = malloc(f->bufsz);
	if (!f->fds || !f->idle || !f->cpus || !f->buf)
		goto err_nomem;
	for (int i = 0; i < n; i++) {
		char name[4200];
		int cfd;

		snprintf(name, sizeof(name), "%s/per_cpu/cpu%u/trace_pipe_raw", f->dir, cpus[i]);
		cfd = open(name, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (cfd < 0) {
			fprintf(stderr, "logdev: warning: %s: %s\n", name, strerror(errno));
			cli_nwarn++;	/* that CPU's records are missing: exit 3 */
			continue;
		}
		f->fds[f->n] = cfd;
		f->cpus[f->n++] = cpus[i];
	}
	free(cpus);
	cpus = NULL;
	if (!f->n) {
		fprintf(stderr, "logdev: none of the %d per-CPU buffers under %s/per_cpu could be "
			"read\n", n, f->dir);
		goto err_files;
	}
	ret = lgd_live_open(&f->lv, &f->r, f->cpus, f->n, &o);
	if (ret)
		goto err_nomem;
	return 0;
err_nomem:
	fprintf(stderr, "logdev: out of memory\n");
err_files:
	for (uint32_t i = 0; i < f->n; i++)
		close(f->fds[i]);
	free(cpus);
	free(f->fds);
	free(f->idle);
	free(f->cpus);
	free(f->buf);
err_reader:
	lgd_reader_close(&f->r);
	memset(f, 0, sizeof(*f));
	return 1;
}

void cli_follow_close(struct cli_follow *f)
{
	for (uint32_t i = 0; i < f->n; i++)
		close(f->fds[i]);
	free(f->fds);
	free(f->idle);
	free(f->cpus);
	free(f->buf);
	lgd_live_free(&f->lv);
	lgd_reader_close(&f->r);
	memset(f, 0, sizeof(*f));
}

/* one non-blocking read of CPU index @i into the merge; bytes, 0 at end or none, <0 error */
static ssize_t read_cpu(struct cli_follow *f, uint32_t i, uint64_t now)
{
	ssize_t n;

	do
		n = read(f->fds[i], f->buf, f->bufsz);	/* non-blocking */
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return errno == EAGAIN ? 0 : -errno;
	f->idle[i] = n == 0;
	if (n > 0 && lgd_live_feed(&f->lv, i, f->buf, (size_t)n, now))
		return -ENOMEM;
	return n;
}

/* hand every item that may go out now (all of them with @drain) to @fn */
static int emit(struct cli_follow *f, int drain, cli_follow_item_fn fn, void *arg)
{
	struct lgd_item it;
	unsigned int fl;
	int ret;

	while ((ret = lgd_live_next(&f->lv, cli_mono_ns(), drain, &it, &fl)) > 0)
		if (fn(arg, &it, fl))
			return -EIO;
	return ret;
}

int cli_follow_run(struct cli_follow *f, cli_follow_item_fn fn, cli_follow_tick_fn tick,
		   uint64_t tick_ns, void *arg)
{
	struct sigaction sa, old_int, old_term;
	uint64_t half = f->lv.window_ns / 2, next_flush = 0, next_tick;
	struct pollfd *pfd = calloc(f->n + 1, sizeof(*pfd));
	uint32_t *map = calloc(f->n + 1, sizeof(*map));
	int ret = 0, flush_warned = 0;

	if (!pfd || !map || pipe2(stop_pipe, O_CLOEXEC | O_NONBLOCK)) {
		fprintf(stderr, "logdev: %s\n", strerror(errno ? errno : ENOMEM));
		free(pfd);
		free(map);
		return 1;
	}
	if (half < 10000000)
		half = 10000000;	/* flush at most 100 times a second */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;	/* no SA_RESTART: poll() returns */
	sigemptyset(&sa.sa_mask);
	follow_stop = 0;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	next_tick = cli_mono_ns() + tick_ns;
	while (!follow_stop) {
		uint64_t now = cli_mono_ns(), wait_ns;
		int np = 0, pr;

		if (now >= next_flush) {
			int e = lgd_rec_write_str(f->dir, "flush", "1");

			if (e && !flush_warned++)
				fprintf(stderr, "logdev: warning: %s/flush: %s (records of a quiet "
					"CPU show only when its sub-buffer fills)\n", f->dir,
					strerror(-e));
			next_flush = now + half;
			for (uint32_t i = 0; i < f->n; i++)	/* at their end: look again */
				if (f->idle[i] && (ret = (int)read_cpu(f, i, now)) < 0)
					goto out;
		}
		for (uint32_t i = 0; i < f->n; i++)
			if (!f->idle[i]) {
				pfd[np].fd = f->fds[i];
				pfd[np].events = POLLIN;
				map[np++] = i;
			}
		pfd[np].fd = stop_pipe[0];
		pfd[np].events = POLLIN;
		wait_ns = next_flush > now ? next_flush - now : 0;
		{	/* a held record due by wall time before that: wake for it */
			uint64_t due = lgd_live_deadline(&f->lv);

			if (due <= now)
				wait_ns = 0;
			else if (due - now < wait_ns)
				wait_ns = due - now;
		}
		if (tick && (next_tick <= now || next_tick - now < wait_ns))
			wait_ns = next_tick > now ? next_tick - now : 0;
		pr = poll(pfd, (nfds_t)np + 1, (int)(wait_ns / 1000000) + 1);
		if (pr < 0 && errno != EINTR) {
			ret = -errno;
			goto out;
		}
		now = cli_mono_ns();
		for (int k = 0; pr > 0 && k < np; k++) {
			if (!(pfd[k].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			if ((ret = (int)read_cpu(f, map[k], now)) < 0)
				goto out;
			if (!ret && (pfd[k].revents & POLLHUP))
				f->idle[map[k]] = 1;	/* a FIFO without writer: look again later */
		}
		ret = emit(f, 0, fn, arg);
		if (ret < 0)
			goto out;
		/* live: what went out is seen now, before poll() may wait (one write a round) */
		if (fflush(stdout)) {
			perror("logdev: stdout");
			ret = -EIO;
			goto out;
		}
		if (tick && cli_mono_ns() >= next_tick) {
			if (tick(arg, cli_mono_ns())) {
				ret = -EIO;
				goto out;
			}
			next_tick += tick_ns;
			if (next_tick < cli_mono_ns())
				next_tick = cli_mono_ns() + tick_ns;
		}
	}
	/* stopped: what every CPU has complete now, then everything held */
	lgd_rec_write_str(f->dir, "flush", "1");
	for (uint32_t i = 0; i < f->n; i++) {
		uint64_t cap = (uint64_t)f->r.hdr.subbuf_size * (f->r.hdr.nr_subbufs ?
			       f->r.hdr.nr_subbufs : 1), got = 0;
		ssize_t n;

		while (got < cap && (n = read_cpu(f, i, cli_mono_ns())) > 0) {
			got += (uint64_t)n;
			if ((ret = emit(f, 0, fn, arg)) < 0)
				goto out;
		}
	}
	ret = emit(f, 1, fn, arg);
out:
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	close(stop_pipe[0]);
	close(stop_pipe[1]);
	stop_pipe[0] = stop_pipe[1] = -1;
	free(pfd);
	free(map);
	if (ret == -ENOMEM)
		fprintf(stderr, "logdev: out of memory\n");
	else if (ret < 0 && ret != -EIO)
		fprintf(stderr, "logdev: follow: %s\n", strerror(-ret));
	return ret < 0;
}

void cli_follow_summary(struct cli_follow *f)
{
	fprintf(stderr, "logdev: follow: %" PRIu64 " records, %" PRIu64 " late (marked), %"
		PRIu64 " before their window (buffer full, marked)\n", f->lv.records, f->lv.late,
		f->lv.early);
	cli_lost_notes(&f->lv.counts, NULL, 1);
	if (f->lv.late || f->lv.early)
		cli_nwarn++;	/* the time order was not kept everywhere: exit 3 */
	if (f->lv.counts.absurd_ts) {
		fprintf(stderr, "logdev: warning: %" PRIu64 " record%s with an absurd timestamp "
			"(0 or 2^64-1) left out of every statistic\n", f->lv.counts.absurd_ts,
			f->lv.counts.absurd_ts == 1 ? "" : "s");
		cli_nwarn++;
	}
	cli_left_out_notes(&f->r, &f->lv.counts, NULL);
}

int cli_window_arg(const char *verb, const char *arg, uint64_t *ns)
{
	uint64_t ms;

	if (cli_parse_uint(verb, "--window", arg, 1, 60000, &ms))
		return 2;
	*ns = ms * 1000000ull;
	return 0;
}
