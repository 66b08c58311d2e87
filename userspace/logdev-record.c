// SPDX-License-Identifier: GPL-2.0
/*
 * logdev-record.c: "logdev record [-o FILE] [-d DIR] [--no-enable]
 *                   [--duration S | -- COMMAND [ARGS]]"
 *
 * Writes HEADER and FORMATS (and KALLSYMS and MODLOG if a format prints
 * symbols),
 * writes 1 to DIR/enable (unless --no-enable), then drains every CPU's
 * per_cpu/cpuN/trace_pipe_raw with poll() into CPU_DATA sections until S
 * seconds passed, COMMAND exited, or SIGINT/SIGTERM.  Then writes 0 to
 * enable (stop + flush; with --no-enable: 1 to flush), drains each CPU until
 * read returns 0 (or, with --no-enable, EAGAIN), re-reads formats, and
 * writes STATS and END.  FILE "-" is stdout.
 * While recording, formats is re-read before draining new data (at most
 * ten times a second; once a second when idle) and written
 * again as a FORMATS section when it changed (call sites register when they
 * first fire), so a capture cut short still names its sites.
 * Nothing is written before debugfs checked out (header readable and valid,
 * CPUs listed, trace_pipe_raw opened); the capture goes to FILE.tmp, renamed
 * to FILE when recording worked: a failure leaves an existing FILE as it was
 * (a partial capture stays in FILE.tmp if recording had started).
 * Exit: COMMAND's exit status (128+signal if killed) when everything else
 * worked; 0 without COMMAND; 1 on errors; 2 on usage errors.
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
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"

static volatile sig_atomic_t stop_req;

static void on_signal(int sig)
{
	(void)sig;
	stop_req = 1;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

#define HINT "is logdev.ko loaded and debugfs mounted (mount -t debugfs none /sys/kernel/debug)?"

static const char *modlog_dir;	/* the debugfs dir of this recording */

/*
 * write FORMATS (and KALLSYMS if newly needed, and once symbols are needed
 * the module log if it changed: the last one is written at the end, after
 * every load and unload of the recording); 0 or negative errno
 */
static int write_formats(struct ld_cap_writer *w, const char *ft, size_t fl, int *ksyms)
{
	int ret = ld_cap_write_section(w, LD_SECT_FORMATS, LD_CAP_NO_CPU, ft, fl);

	if (!ret)
		ret = cli_maybe_kallsyms(w, ft, fl, ksyms);
	if (!ret && *ksyms && modlog_dir)
		ret = cli_write_modlog(w, modlog_dir);
	return ret;
}

/*
 * Re-read DIR/formats; if it differs from *@ft (*@fl bytes), write it as a
 * new FORMATS section and keep it as the current one.
 * Return: 0, or the capture writer's negative errno.
 */
static int refresh_formats(struct ld_cap_writer *w, const char *dir, char **ft,
			   size_t *fl, int *ksyms)
{
	size_t nl;
	char *nt = cli_read_text(dir, "formats", &nl);
	int ret;

	if (!nt || (nl == *fl && *ft && !memcmp(nt, *ft, nl))) {
		free(nt);
		return 0;
	}
	ret = write_formats(w, nt, nl, ksyms);
	free(*ft);
	*ft = nt;
	*fl = nl;
	return ret;
}

static int record_usage(void)
{
	fprintf(stderr, "usage: logdev record [-o FILE] [-d DIR] [--no-enable] "
			"[--duration S | -- COMMAND [ARGS]]\n");
	return 2;
}

int cmd_record(int argc, char **argv)
{
	const char *out = "logdev.cap", *dir = cli_debugfs();
	double duration = -1, t0, last_progress = 0;
	char **command = NULL;
	int no_enable = 0, ksyms = 0, ncpu, *fds, ret, status = 0, rc = 0;
	int was_on = 0;
	int outfd, tty = isatty(2);
	unsigned *cpus = NULL;
	uint32_t sbs;
	char *tmp = NULL, *ht, *ft;
	size_t hl, fl;
	double last_fmt = 0;
	struct ld_header hdr;
	struct ld_diag d;
	struct ld_cap_writer w;
	struct sigaction sa;
	pid_t child = -1;
	uint8_t *buf;
	size_t bufsz;
	uint64_t bytes = 0, recs = 0;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--")) {
			if (i + 1 >= argc)
				return record_usage();
			command = argv + i + 1;
			break;
		} else if (!strcmp(a, "-o") && i + 1 < argc) {
			out = argv[++i];
		} else if (!strcmp(a, "-d") && i + 1 < argc) {
			dir = argv[++i];
		} else if (!strcmp(a, "--duration") && i + 1 < argc) {
			char *e;

			duration = strtod(argv[++i], &e);
			if (*e || duration < 0)
				return record_usage();
		} else if (!strcmp(a, "--no-enable")) {
			no_enable = 1;
		} else {
			return record_usage();
		}
	}
	if (command && duration >= 0) {
		fprintf(stderr, "logdev record: --duration and COMMAND exclude each other\n");
		return 2;
	}

	/* debugfs first: nothing is written unless it works */
	ht = cli_read_text(dir, "header", &hl);
	if (!ht) {
		fprintf(stderr, "logdev: cannot read %s/header: %s; " HINT "\n", dir,
			strerror(errno));
		return 1;
	}
	if (ld_header_parse(&hdr, ht, hl, &d)) {
		fprintf(stderr, "logdev: %s/header: %s\n", dir, d.msg);
		return 1;
	}
	sbs = hdr.subbuf_size;
	ft = cli_read_text(dir, "formats", &fl);
	if (!ft) {
		fprintf(stderr, "logdev: cannot read %s/formats: %s; " HINT "\n", dir,
			strerror(errno));
		return 1;
	}
	ncpu = cli_list_cpus(dir, &cpus);
	if (ncpu <= 0) {
		fprintf(stderr, "logdev: %s/per_cpu: %s; " HINT "\n", dir,
			ncpu ? strerror(-ncpu) : "no CPUs");
		return 1;
	}
	fds = calloc((size_t)ncpu, sizeof(*fds));
	bufsz = (size_t)sbs * 16;
	buf = malloc(bufsz);
	if (!fds || !buf) {
		fprintf(stderr, "logdev: out of memory\n");
		return 1;
	}
	for (int i = 0; i < ncpu; i++) {
		char name[4200];

		snprintf(name, sizeof(name), "%s/per_cpu/cpu%u/trace_pipe_raw", dir, cpus[i]);
		fds[i] = open(name, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (fds[i] < 0) {
			fprintf(stderr, "logdev: %s: %s\n", name, strerror(errno));
			return 1;
		}
	}

	/* FILE.tmp in FILE's directory, renamed over FILE at the end */
	if (strcmp(out, "-")) {
		tmp = malloc(strlen(out) + 5);
		if (!tmp) {
			fprintf(stderr, "logdev: out of memory\n");
			return 1;
		}
		strcpy(tmp, out);
		strcat(tmp, ".tmp");
		outfd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (outfd < 0) {
			fprintf(stderr, "logdev: %s: %s\n", tmp, strerror(errno));
			return 1;
		}
	} else {
		outfd = 1;
	}
	modlog_dir = dir;
	ret = ld_cap_writer_start(&w, outfd);
	if (!ret)
		ret = ld_cap_write_section(&w, LD_SECT_HEADER, LD_CAP_NO_CPU, ht, hl);
	if (!ret)
		ret = write_formats(&w, ft, fl, &ksyms);
	free(ht);
	if (ret) {
		fprintf(stderr, "logdev: %s: %s\n", tmp ? tmp : "stdout", strerror(-ret));
		if (tmp)
			unlink(tmp);
		return 1;
	}

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	if (!no_enable) {
		size_t cl;
		char *cur = cli_read_text(dir, "enable", &cl);

		/* someone else is recording: say so, and leave it on at the end */
		was_on = cur && cur[0] == '1';
		free(cur);
		if (was_on)
			fprintf(stderr, "logdev: recording was already enabled (another "
				"logdev record?): the buffers are shared and consumed "
				"by whoever reads first; it is re-enabled when we stop\n");
		ret = cli_write_str(dir, "enable", "1");
		if (ret) {
			fprintf(stderr, "logdev: %s/enable: %s\n", dir, strerror(-ret));
			if (tmp)
				unlink(tmp);
			return 1;
		}
	}
	if (command) {
		child = fork();
		if (child < 0) {
			perror("logdev: fork");
			rc = 1;
			stop_req = 1;
		} else if (child == 0) {
			signal(SIGINT, SIG_DFL);
			signal(SIGTERM, SIG_DFL);
			execvp(command[0], command);
			fprintf(stderr, "logdev: %s: %s\n", command[0], strerror(errno));
			_exit(127);
		}
	}

	t0 = now_s();
	struct pollfd *pfd = calloc((size_t)ncpu, sizeof(*pfd));

	if (!pfd) {
		rc = 1;
		stop_req = 1;
	}
	while (!stop_req) {
		int timeout = 200;

		if (duration >= 0) {
			double left = duration - (now_s() - t0);

			if (left <= 0)
				break;
			if (left * 1000 < timeout)
				timeout = (int)(left * 1000) + 1;
		}
		for (int i = 0; i < ncpu; i++) {
			pfd[i].fd = fds[i];
			pfd[i].events = POLLIN;
		}
		int ready = poll(pfd, (nfds_t)ncpu, timeout);
		uint64_t before = bytes;

		/*
		 * Sites registered meanwhile: FORMATS again if it changed,
		 * before the data that may use them (a capture cut short then
		 * names its records); at most ten times a second while data
		 * arrives, once a second otherwise.
		 */
		if (now_s() - last_fmt >= (ready > 0 ? 0.1 : 1.0)) {
			last_fmt = now_s();
			ret = refresh_formats(&w, dir, &ft, &fl, &ksyms);
			if (ret) {
				fprintf(stderr, "logdev: writing capture: %s\n",
					strerror(-ret));
				rc = 1;
				stop_req = 1;
			}
		}

		for (int i = 0; i < ncpu; i++) {
			int eof;

			ret = cli_drain(&w, fds[i], cpus[i], buf, bufsz, sbs, &eof,
					&bytes, &recs);
			if (ret) {
				fprintf(stderr, "logdev: cpu%u: %s\n", cpus[i], strerror(-ret));
				rc = 1;
				stop_req = 1;
			}
		}
		/* readable but nothing read (EPOLLHUP while recording is
		 * off with --no-enable): do not spin */
		if (ready > 0 && bytes == before)
			usleep(20000);
		if (child > 0 && waitpid(child, &status, WNOHANG) == child) {
			child = 0;
			break;
		}
		if (tty && now_s() - last_progress > 0.5) {
			last_progress = now_s();
			fprintf(stderr, "\rlogdev: %" PRIu64 " records, %" PRIu64 " bytes ",
				recs, bytes);
		}
	}
	if (child > 0) {	/* stopped by a signal or error: reap the command */
		kill(child, SIGTERM);
		waitpid(child, &status, 0);
		child = 0;
	}

	/* stop (or just flush), then drain to the end */
	ret = cli_write_str(dir, no_enable ? "flush" : "enable", no_enable ? "1" : "0");
	if (ret) {
		fprintf(stderr, "logdev: %s/%s: %s\n", dir, no_enable ? "flush" : "enable",
			strerror(-ret));
		rc = 1;
	}
	/* every site that fired is registered now: name them before the data */
	if (refresh_formats(&w, dir, &ft, &fl, &ksyms))
		rc = 1;
	for (int i = 0; i < ncpu; i++) {
		int eof = 0, tries = 0;

		while (!eof) {
			ret = cli_drain(&w, fds[i], cpus[i], buf, bufsz, sbs, &eof,
					&bytes, &recs);
			if (ret) {
				fprintf(stderr, "logdev: cpu%u: %s\n", cpus[i], strerror(-ret));
				rc = 1;
				break;
			}
			/* EAGAIN: empty; with --no-enable that is the end; after
			 * disabling, 0 should follow; do not wait forever */
			if (!eof && (no_enable || ++tries > 100))
				break;
			if (!eof)
				usleep(10000);
		}
		close(fds[i]);
	}
	if (was_on && cli_write_str(dir, "enable", "1"))
		fprintf(stderr, "logdev: could not re-enable recording\n");
	if (tty)
		fprintf(stderr, "\rlogdev: %" PRIu64 " records, %" PRIu64 " bytes -> %s\n",
			recs, bytes, out);

	free(ft);
	{
		size_t sl;
		char *st = cli_read_text(dir, "stats", &sl);

		ft = cli_read_text(dir, "formats", &fl);
		if (ft) {
			if (write_formats(&w, ft, fl, &ksyms))
				rc = 1;
			free(ft);
		}
		if (st) {
			if (ld_cap_write_section(&w, LD_SECT_STATS, LD_CAP_NO_CPU, st, sl))
				rc = 1;
			free(st);
		}
	}
	if (ld_cap_write_end(&w))
		rc = 1;
	if (outfd != 1 && close(outfd))
		rc = 1;
	if (!rc && tmp && rename(tmp, out)) {
		fprintf(stderr, "logdev: rename %s to %s: %s\n", tmp, out, strerror(errno));
		rc = 1;
	}
	if (rc && tmp)
		fprintf(stderr, "logdev: recording to %s failed; what was recorded is in %s\n",
			out, tmp);
	else if (rc)
		fprintf(stderr, "logdev: recording to %s failed\n", out);
	free(tmp);
	free(pfd);
	free(fds);
	free(buf);
	free(cpus);
	if (rc)
		return rc;
	if (command) {
		if (WIFEXITED(status))
			return WEXITSTATUS(status);
		if (WIFSIGNALED(status))
			return 128 + WTERMSIG(status);
	}
	return 0;
}
