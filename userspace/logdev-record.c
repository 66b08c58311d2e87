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
 * to FILE when recording worked: a failure leaves an existing FILE as it was.
 * An existing FILE that is not a regular file (a device, a FIFO) is written
 * in place.  With "-o -", COMMAND's stdout goes to our stderr (as perf does):
 * stdout carries only the capture.
 *
 * Ending: SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGUSR1/2, SIGALRM,
 * SIGXFSZ and SIGXCPU (those not ignored when we start) only set a flag and
 * wake the poll() through a self-pipe; the main path then stops COMMAND
 * (SIGTERM, SIGKILL after 5 s), writes 0 to enable (or 1 again if it was
 * on before), drains, finishes and renames the capture.  A write error
 * (EPIPE: stdout's reader gone, also seen by poll() before any write;
 * ENOSPC; EFBIG) stops recording the same way, then FILE.tmp is cut back to
 * its last whole section and ended, left beside FILE, and named on stderr.
 * Only SIGKILL (or a crash) leaves enable at 1: "echo 0 > DIR/enable".
 *
 * Exit: 1 on errors (write errors included); else 128+N if signal N
 * ended the recording, except SIGINT/SIGTERM without --duration and
 * COMMAND (the way to end that form): 0; else COMMAND's exit status
 * (128+signal if killed; 127 if it could not be found, 126 if not run);
 * else 0.  2 on usage errors: numeric values are checked strictly
 * (cli_parse_real(): --duration is 0 to 31536000 seconds).
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
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"

/*
 * Signals that end a recording.  The handler only notes the first one and
 * wakes the poll() through a self-pipe; the main loop stops, and the normal
 * path restores enable and finishes the capture.  SIGPIPE and SIGXFSZ are
 * caught too, so a write to a closed pipe or past the file size limit fails
 * with EPIPE/EFBIG (a write error) instead of killing us mid-write.
 * A signal ignored when we start (nohup, "cmd &" in a script) stays ignored.
 */
static const int stop_sigs[] = {
	SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGUSR1, SIGUSR2, SIGALRM,
	SIGXFSZ, SIGXCPU,
};
#define NR_STOP_SIGS	(int)(sizeof(stop_sigs) / sizeof(stop_sigs[0]))
static volatile sig_atomic_t stop_sig;
static int wake_fd[2] = { -1, -1 };

static void on_signal(int sig)
{
	int e = errno;

	if (!stop_sig)
		stop_sig = sig;
	/* pipe full: a wake-up is pending anyway */
	if (wake_fd[1] >= 0 && write(wake_fd[1], "", 1) < 0)
		errno = e;
	errno = e;
}

/* catch stop_sigs (those not ignored on entry); *@caught: mask of them */
static void catch_signals(sigset_t *caught)
{
	struct sigaction sa, old;

	sigemptyset(caught);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	/* poll() still returns EINTR; a write to enable during the cleanup
	 * is not cut short by a second Ctrl-C */
	sa.sa_flags = SA_RESTART;
	sigfillset(&sa.sa_mask);
	for (int i = 0; i < NR_STOP_SIGS; i++) {
		if (sigaction(stop_sigs[i], NULL, &old) || old.sa_handler == SIG_IGN)
			continue;
		sigaction(stop_sigs[i], &sa, NULL);
		sigaddset(caught, stop_sigs[i]);
	}
}

/*
 * Stop @child (the COMMAND, still running when recording stops early):
 * SIGTERM, up to 5 s to exit, then SIGKILL.  *@status: its wait status.
 */
static void stop_child(pid_t child, int *status)
{
	kill(child, SIGTERM);
	for (int i = 0; i < 500; i++) {
		if (waitpid(child, status, WNOHANG) == child)
			return;
		usleep(10000);
	}
	fprintf(stderr, "logdev: the command did not exit 5 s after SIGTERM: SIGKILL\n");
	kill(child, SIGKILL);
	while (waitpid(child, status, 0) < 0 && errno == EINTR)
		;
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

#define MAX_DURATION	31536000.0	/* seconds: 365 days */

/* the capture writer failed: say so once, with what failed */
static void write_failed(const struct ld_cap_writer *w, const char *tmp)
{
	fprintf(stderr, "logdev: writing the capture to %s: %s; recording stopped\n",
		tmp ? tmp : "stdout", strerror(-w->err));
}

/*
 * The capture in @tmp (@fd) was cut by a write error: truncate it to its
 * last whole section and end it, so what was recorded stays readable.
 * Return: 1 if it now ends with END, 0 if not.
 */
static int salvage(struct ld_cap_writer *w, int fd)
{
	if (ftruncate(fd, (off_t)w->bytes) || lseek(fd, (off_t)w->bytes, SEEK_SET) < 0)
		return 0;
	w->err = 0;
	if (ld_cap_write_end(w)) {
		if (ftruncate(fd, (off_t)w->bytes))
			return 0;
		return 0;
	}
	return 1;
}

int cmd_record(int argc, char **argv)
{
	const char *out = "logdev.cap", *dir = cli_debugfs();
	double duration = -1, t0, last_progress = 0;
	char **command = NULL;
	int no_enable = 0, ksyms = 0, ncpu, *fds, ret, status = 0, rc = 0;
	int was_on = 0, enabled = 0, sig = 0, npfd, werr;
	int outfd, tty = isatty(2), watch_out;
	unsigned *cpus = NULL;
	uint32_t sbs;
	char *tmp = NULL, *ht, *ft;
	size_t hl, fl;
	double last_fmt = 0;
	struct ld_header hdr;
	struct ld_diag d;
	struct ld_cap_writer w;
	struct stat ost;
	sigset_t caught, old_mask;
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
		} else if ((!strcmp(a, "--duration") && i + 1 < argc) ||
			   !strncmp(a, "--duration=", 11)) {
			const char *v = a[10] == '=' ? a + 11 : argv[++i];

			if (cli_parse_real("record", "--duration", v, 0, MAX_DURATION,
					   "seconds", "without --duration and COMMAND, "
					   "record runs until Ctrl-C (SIGINT) or SIGTERM",
					   &duration))
				return 2;
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

	/* from here on, a stop signal is noted and handled by the main path */
	if (pipe2(wake_fd, O_NONBLOCK | O_CLOEXEC)) {
		perror("logdev: pipe");
		return 1;
	}
	catch_signals(&caught);

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

	/*
	 * FILE.tmp in FILE's directory, renamed over FILE at the end; an
	 * existing FILE that is not a regular file (a device, a FIFO) is
	 * written in place, never replaced.
	 */
	if (!strcmp(out, "-")) {
		outfd = 1;
	} else if (!stat(out, &ost) && !S_ISREG(ost.st_mode)) {
		outfd = open(out, O_WRONLY | O_CLOEXEC);
		if (outfd < 0) {
			fprintf(stderr, "logdev: %s: %s\n", out, strerror(errno));
			return 1;
		}
	} else {
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
	}
	modlog_dir = dir;
	ret = ld_cap_writer_start(&w, outfd);
	if (!ret)
		ret = ld_cap_write_section(&w, LD_SECT_HEADER, LD_CAP_NO_CPU, ht, hl);
	if (!ret)
		ret = write_formats(&w, ft, fl, &ksyms);
	free(ht);
	if (ret) {
		fprintf(stderr, "logdev: %s: %s\n", tmp ? tmp : strcmp(out, "-") ? out : "stdout",
			strerror(-ret));
		if (tmp)
			unlink(tmp);
		return 1;
	}
	/* a pipe or socket on stdout: its reader going away ends the recording */
	watch_out = fstat(outfd, &ost) || !S_ISREG(ost.st_mode);

	if (!no_enable && !stop_sig) {
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
		enabled = 1;
	}
	if (command && !stop_sig) {
		/* no stop signal may run our handler in the child before exec */
		sigprocmask(SIG_BLOCK, &caught, &old_mask);
		child = fork();
		if (child < 0) {
			perror("logdev: fork");
			rc = 1;
		} else if (child == 0) {
			int e;

			for (int i = 0; i < NR_STOP_SIGS; i++)
				if (sigismember(&caught, stop_sigs[i]))
					signal(stop_sigs[i], SIG_DFL);
			sigprocmask(SIG_SETMASK, &old_mask, NULL);
			/* the capture is on stdout: the command's output goes to stderr */
			if (outfd == 1 && dup2(2, 1) < 0)
				_exit(127);
			execvp(command[0], command);
			e = errno;
			fprintf(stderr, "logdev: cannot run %s: %s\n", command[0], strerror(e));
			_exit(e == ENOENT ? 127 : 126);
		}
		sigprocmask(SIG_SETMASK, &old_mask, NULL);
	}
	if (!command && duration < 0 && tty)
		fprintf(stderr, "logdev: recording until Ctrl-C (SIGINT) or SIGTERM\n");

	t0 = now_s();
	/* the CPUs, the wake-up pipe, and stdout when it is not a file */
	struct pollfd *pfd = calloc((size_t)ncpu + 2, sizeof(*pfd));

	if (!pfd)
		rc = 1;
	while (!rc && !stop_sig && !w.err) {
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
		pfd[ncpu].fd = wake_fd[0];
		pfd[ncpu].events = POLLIN;
		npfd = ncpu + 1;
		if (watch_out) {
			pfd[npfd].fd = outfd;
			pfd[npfd++].events = 0;	/* POLLERR: the reader is gone */
		}
		int ready = poll(pfd, (nfds_t)npfd, timeout);
		uint64_t before = bytes;

		if (ready < 0 && errno != EINTR) {
			perror("logdev: poll");
			rc = 1;
			break;
		}
		if (stop_sig)
			break;
		if (ready > 0 && watch_out && (pfd[ncpu + 1].revents & (POLLERR | POLLHUP))) {
			w.err = -EPIPE;
			break;
		}

		/*
		 * Sites registered meanwhile: FORMATS again if it changed,
		 * before the data that may use them (a capture cut short then
		 * names its records); at most ten times a second while data
		 * arrives, once a second otherwise.
		 */
		if (now_s() - last_fmt >= (ready > 0 ? 0.1 : 1.0)) {
			last_fmt = now_s();
			if (refresh_formats(&w, dir, &ft, &fl, &ksyms))
				break;
		}

		for (int i = 0; i < ncpu && !w.err; i++) {
			int eof;

			ret = cli_drain(&w, fds[i], cpus[i], buf, bufsz, sbs, &eof,
					&bytes, &recs);
			if (ret && !w.err) {
				fprintf(stderr, "logdev: cpu%u: %s\n", cpus[i], strerror(-ret));
				rc = 1;
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
	/* what ended the recording (a signal during the cleanup changes nothing) */
	sig = stop_sig;
	if (w.err)
		write_failed(&w, tmp);
	if (child > 0) {	/* stopped by a signal or error: stop the command */
		stop_child(child, &status);
		child = 0;
	}

	/* stop (or just flush), then drain to the end */
	if (enabled || no_enable) {
		const char *cf = enabled ? "enable" : "flush", *cv = enabled ? "0" : "1";

		ret = cli_write_str(dir, cf, cv);
		if (ret) {
			fprintf(stderr, "logdev: %s/%s: %s\n", dir, cf, strerror(-ret));
			rc = 1;
		}
	}
	/* every site that fired is registered now: name them before the data */
	if (!w.err)
		refresh_formats(&w, dir, &ft, &fl, &ksyms);
	for (int i = 0; i < ncpu; i++) {
		int eof = 0, tries = 0;

		while (!eof && !w.err) {
			ret = cli_drain(&w, fds[i], cpus[i], buf, bufsz, sbs, &eof,
					&bytes, &recs);
			if (ret) {
				if (!w.err) {
					fprintf(stderr, "logdev: cpu%u: %s\n", cpus[i],
						strerror(-ret));
					rc = 1;
				}
				break;
			}
			/* EAGAIN: empty; unless we disabled, that is the end;
			 * after disabling, 0 should follow; do not wait forever */
			if (!eof && (!enabled || ++tries > 100))
				break;
			if (!eof)
				usleep(10000);
		}
		close(fds[i]);
	}
	if (was_on && cli_write_str(dir, "enable", "1")) {
		fprintf(stderr, "logdev: could not re-enable recording\n");
		rc = 1;
	}
	if (tty)
		fprintf(stderr, "\rlogdev: %" PRIu64 " records, %" PRIu64 " bytes -> %s\n",
			recs, bytes, out);

	free(ft);
	if (!w.err) {
		size_t sl;
		char *st = cli_read_text(dir, "stats", &sl);

		ft = cli_read_text(dir, "formats", &fl);
		if (ft) {
			write_formats(&w, ft, fl, &ksyms);
			free(ft);
		}
		if (st) {
			ld_cap_write_section(&w, LD_SECT_STATS, LD_CAP_NO_CPU, st, sl);
			free(st);
		}
		/* on disk before it replaces FILE (delayed ENOSPC, NFS) */
		if (!ld_cap_write_end(&w) && tmp && fsync(outfd))
			w.err = -errno;
		if (w.err)
			write_failed(&w, tmp);
	}
	werr = w.err;
	if (werr) {
		rc = 1;
		if (tmp && salvage(&w, outfd))
			fprintf(stderr, "logdev: recording to %s failed; what was recorded "
				"(%" PRIu64 " bytes, readable) is in %s; %s was left as it was\n",
				out, w.bytes, tmp, out);
		else if (tmp)
			fprintf(stderr, "logdev: recording to %s failed; what was recorded "
				"(cut short, no end mark) is in %s; %s was left as it was\n",
				out, tmp, out);
		else
			fprintf(stderr, "logdev: recording to %s failed\n",
				strcmp(out, "-") ? out : "stdout");
	}
	if (outfd != 1 && close(outfd) && !werr) {
		fprintf(stderr, "logdev: %s: %s\n", tmp ? tmp : out, strerror(errno));
		rc = 1;
	}
	if (!rc && tmp && rename(tmp, out)) {
		fprintf(stderr, "logdev: rename %s to %s: %s\n", tmp, out, strerror(errno));
		rc = 1;
	}
	if (rc && tmp && !werr)
		fprintf(stderr, "logdev: recording to %s failed; what was recorded is in %s\n",
			out, tmp);
	else if (rc && !werr)
		fprintf(stderr, "logdev: recording to %s failed\n", out);
	free(tmp);
	free(pfd);
	free(fds);
	free(buf);
	free(cpus);
	if (rc)
		return rc;
	if (sig) {
		/* the documented way to end "record until stopped" */
		if (!command && duration < 0 && (sig == SIGINT || sig == SIGTERM))
			return 0;
		fprintf(stderr, "logdev: recording stopped by %s; the capture is complete\n",
			strsignal(sig));
		return 128 + sig;
	}
	if (command) {
		if (WIFEXITED(status))
			return WEXITSTATUS(status);
		if (WIFSIGNALED(status))
			return 128 + WTERMSIG(status);
	}
	return 0;
}
