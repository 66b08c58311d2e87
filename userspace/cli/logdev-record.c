// SPDX-License-Identifier: GPL-2.0
/*
 * logdev-record.c: "logdev record [-o FILE] [-d DIR] [--no-enable] [-p SPEC]...
 *   [--probe-file FILE]... [--callees FUNC]... [--duration S | -- COMMAND [ARGS]]"
 * -p, --probe-file, --callees: attached first (refused: exit 2), removed after.
 * --last-boot, --area IMAGE: a previous boot's buffer written (cli-lastboot.c).
 *
 * Writes HEADER and FORMATS (and KALLSYMS and MODLOG if a format prints
 * symbols), writes 1 to DIR/enable (unless --no-enable), then drains every
 * CPU's per_cpu/cpuN/trace_pipe_raw into CPU_DATA sections, one recorder
 * thread per CPU (cli-rec-cpus.c: poll(), reads of up to 1 MiB, one writev()
 * a read, a nap of up to 10 ms after a drain that found data: cli_nap_ms()),
 * until S seconds passed, COMMAND exited, or SIGINT/SIGTERM. Then
 * writes 0 to enable (stop + flush; with --no-enable: 1 to flush), drains
 * each CPU until read returns 0 (or, with --no-enable, EAGAIN), re-reads
 * formats, and writes STATS and END.  FILE "-" is stdout. While recording,
 * formats is re-read before draining new data (at most 10/s; 1/s when idle)
 * and written again as a FORMATS section when it changed (sites register
 * when they first fire), so a capture cut short still names its sites.
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
 * else 0.  2 on usage errors and refused probes: numeric values are checked strictly
 * (cli_parse_real(): --duration is 0 to 31536000 seconds).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
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
#include "cli-signals.h"
#include "cli-follow.h"
#include "cli-breakdown.h"
#include "cli-rec-cpus.h"

const struct cli_cmd cli_cmd_record = {
	"record", cmd_record, "record [-o FILE] [-d DIR] [--no-enable] [-p SPEC]... "
	"[--probe-file FILE]... [--callees FUNC]... [--breakdown] [--duration S | -- COMMAND [ARGS] | "
	"--last-boot | --area IMAGE [--kallsyms FILE]]",
	"  -o, --output FILE    capture file (default logdev.cap; - for stdout)\n"
	"  -p, --probe SPEC     attach probe SPEC (DIR/probes' grammar: 'r:FUNC', globs...)\n"
	"                       for the recording, removed after it (repeatable)\n"
	"      --probe-file FILE  attach the probes of FILE (one per line, # comments)\n"
	"      --callees FUNC   return probes on FUNC and on its callees (logdev callees)\n"
	"      --breakdown      also record the context markers (interrupts, softirqs,\n"
	"                       NMIs, sched_switch, sched_waking) for deltas --breakdown\n"
	"  -d, --dir DIR        logdev debugfs directory\n"
	"      --no-enable      do not write enable (record what others enabled)\n"
	"      --duration S     stop after S seconds (0 to 31536000)\n"
	"  -- COMMAND [ARGS]    run COMMAND and stop when it exits\n"
	"      --last-boot      write the previous boot's buffer, kept by logdev loaded\n"
	"                       with persist=memmap:SIZE@ADDR (DIR/last_boot/area)\n"
	"      --area IMAGE     write a raw flight-recorder area image (dd of /dev/mem,\n"
	"                       QEMU pmemsave) as a capture; exit 3: sub-buffers lost\n"
	"      --kallsyms FILE  vmlinux symbols of that boot for %pS: its kallsyms saved,\n"
	"                       or -dbg System.map (default: /proc/kallsyms, same build-id)\n",
};

/* CLOCK_MONOTONIC in seconds (cli-follow.c's clock) */
static double now_s(void)
{
	return (double)cli_mono_ns() / 1e9;
}

#define REC_READ_BYTES	(1u << 20)	/* a recorder's read() */
#define HINT "is logdev.ko loaded and debugfs mounted (mount -t debugfs none /sys/kernel/debug)?"

/*
 * One recording: its options, then what each step leaves for the next.
 * The steps, in order: rec_parse, rec_open_debugfs, rec_open_output,
 * rec_write_meta, rec_enable, rec_start_command, rec_run (poll and drain
 * until the end), rec_stop (stop COMMAND, disable or flush), rec_drain
 * (to the end, then enable restored), rec_finish (last metadata, END,
 * rename or salvage), cli_rec_exit_status().
 */
struct rec {
	/* options */
	const char *out, *dir;
	double duration;	/* seconds; < 0: none */
	char **command;		/* NULL: none */
	int no_enable, last_boot;	/* --last-boot */
	int breakdown;			/* --breakdown: the markers attached too */
	const char *area;		/* --area IMAGE */
	struct cli_probe_specs specs;	/* -p, --probe-file */
	struct lgd_probe_set probes;	/* what they added */
	/* debugfs */
	char *ht, *ft;		/* header and current formats text */
	char *pt0;		/* the probes file at the start (miss counts) */
	size_t hl, fl;
	uint32_t sbs;		/* sub-buffer size, bytes */
	unsigned *cpus;
	int ncpu, *fds;		/* per CPU: trace_pipe_raw */
	uint8_t *buf;
	size_t bufsz;
	int ksyms;		/* KALLSYMS written (or not possible) */
	/* output */
	char *tmp;		/* FILE.tmp, or NULL (stdout, device, FIFO) */
	int outfd, watch_out, tty;
	struct lgd_cap_writer w;
	/* recording */
	int was_on, enabled;
	pid_t child;
	int status;		/* COMMAND's wait status */
	sigset_t caught;
	double t0, last_progress;
	uint64_t bytes, recs;
	int rc, sig;		/* error exit status; signal that ended it */
};

/*
 * Re-read DIR/formats; if it differs from the current one, write it
 * (cli_write_formats(): FORMATS, KALLSYMS and MODLOG as needed), keep it.
 * Return: 0, or the capture writer's negative errno.
 */
static int refresh_formats(struct rec *rc)
{
	size_t nl;
	char *nt = lgd_rec_read_text(rc->dir, "formats", &nl);
	int ret;

	if (!nt || (nl == rc->fl && rc->ft && !memcmp(nt, rc->ft, nl))) {
		free(nt);
		return 0;
	}
	ret = cli_write_formats(&rc->w, rc->dir, nt, nl, &rc->ksyms);
	free(rc->ft);
	rc->ft = nt;
	rc->fl = nl;
	return ret;
}

/* refresh_formats() for the recorder threads (cli_rec_cpus_refresh()) */
static int refresh_formats_cb(void *arg)
{
	return refresh_formats(arg);
}

#define MAX_DURATION	31536000.0	/* seconds: 365 days */

/* the capture writer failed: say so once, with what failed */
static void write_failed(const struct rec *rc)
{
	fprintf(stderr, "logdev: writing the capture to %s: %s; recording stopped\n",
		rc->tmp ? rc->tmp : "stdout", strerror(-rc->w.err));
}

/* options into @rc; Return: -1 to go on, else the exit status (help, usage) */
static int rec_parse(struct rec *rc, int argc, char **argv)
{
	static const struct option lo[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "dir", required_argument, NULL, 'd' },
		{ "duration", required_argument, NULL, 'D' },
		{ "no-enable", no_argument, NULL, 'N' },
		{ "probe", required_argument, NULL, 'p' },
		{ "probe-file", required_argument, NULL, 'P' },
		{ "callees", required_argument, NULL, 'C' },
		{ "breakdown", no_argument, NULL, 'B' },
		{ "last-boot", no_argument, NULL, 'L' },
		{ "area", required_argument, NULL, 'A' },
		{ "kallsyms", required_argument, NULL, CLI_OPT_KALLSYMS },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	rc->out = "logdev.cap";
	rc->dir = cli_debugfs();
	rc->duration = -1;
	/* "+": stop at the first non-option, so COMMAND's options stay its own */
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:o:d:p:h", lo, NULL)) != -1) {
		switch (c) {
		case 'o':
			rc->out = optarg;
			break;
		case 'd':
			rc->dir = optarg;
			break;
		case 'D':
			if (cli_parse_real("record", "--duration", optarg, 0, MAX_DURATION,
					   "seconds", "without --duration and COMMAND, "
					   "record runs until Ctrl-C (SIGINT) or SIGTERM",
					   &rc->duration))
				return 2;
			break;
		case 'N':
			rc->no_enable = 1;
			break;
		case 'L':
			rc->last_boot = 1;
			break;
		case 'B':
			rc->breakdown = 1;
			break;
		case 'A':
			rc->area = optarg;
			break;
		case CLI_OPT_KALLSYMS:
			cli_kallsyms = optarg;
			break;
		case 'p':
		case 'P':
		case 'C':
			if (cli_probe_opt(&rc->specs, c, optarg))
				return 2;
			break;
		case 'h':
			return cli_verb_help(&cli_cmd_record);
		default:	/* says the usage too */
			return cli_opt_error("record", c, optopt, argv, optind);
		}
	}
	if (optind < argc) {
		/* COMMAND only after "--" */
		if (strcmp(argv[optind - 1], "--"))
			return cli_verb_usage_error(&cli_cmd_record);
		rc->command = argv + optind;
	} else if (optind > 1 && !strcmp(argv[optind - 1], "--")) {
		return cli_verb_usage_error(&cli_cmd_record);	/* "--" without COMMAND */
	}
	if (rc->command && rc->duration >= 0) {
		fprintf(stderr, "logdev record: --duration and COMMAND exclude each other\n");
		return 2;
	}
	if ((rc->last_boot || rc->area) && (rc->command || rc->duration >= 0 || rc->no_enable ||
					    rc->specs.n || rc->breakdown ||
					    (rc->last_boot && rc->area))) {
		fprintf(stderr, "logdev record: --last-boot or --area (one) writes a kept buffer: "
			"no -p, --callees, --breakdown, --duration, --no-enable or COMMAND with it\n");
		return 2;
	}
	if (cli_kallsyms && !rc->last_boot && !rc->area) {
		fprintf(stderr, "logdev record: --kallsyms FILE goes with --last-boot or --area\n");
		return 2;
	}
	return -1;
}

/* debugfs first: header, formats, CPUs, their trace_pipe_raw; 0 or 1 */
static int rec_open_debugfs(struct rec *rc)
{
	struct lgd_header hdr;
	struct lgd_diag d;
	size_t pl;

	rc->ht = lgd_rec_read_text(rc->dir, "header", &rc->hl);
	if (!rc->ht) {
		cli_live_hint(rc->dir, errno);
		return 1;
	}
	if (lgd_header_parse(&hdr, rc->ht, rc->hl, &d)) {
		fprintf(stderr, "logdev: %s/header: %s\n", rc->dir, cli_diag_text(d.msg));
		return 1;
	}
	rc->sbs = hdr.subbuf_size;
	rc->pt0 = lgd_rec_read_text(rc->dir, "probes", &pl);	/* NULL: none */
	rc->ft = lgd_rec_read_text(rc->dir, "formats", &rc->fl);
	if (!rc->ft) {
		fprintf(stderr, "logdev: cannot read %s/formats: %s; " HINT "\n", rc->dir,
			strerror(errno));
		return 1;
	}
	rc->ncpu = lgd_rec_list_cpus(rc->dir, &rc->cpus);
	if (rc->ncpu <= 0) {
		fprintf(stderr, "logdev: %s/per_cpu: %s; " HINT "\n", rc->dir,
			rc->ncpu ? strerror(-rc->ncpu) : "no CPUs");
		rc->ncpu = 0;
		return 1;
	}
	rc->fds = malloc((size_t)rc->ncpu * sizeof(*rc->fds));
	/* many sub-buffers a read(), one writev() for them: 1 MiB, 16 at least */
	rc->bufsz = (size_t)rc->sbs * 16 > REC_READ_BYTES ? (size_t)rc->sbs * 16 : REC_READ_BYTES;
	rc->buf = malloc(rc->bufsz);
	if (!rc->fds || !rc->buf) {
		fprintf(stderr, "logdev: out of memory\n");
		rc->ncpu = 0;
		return 1;
	}
	for (int i = 0; i < rc->ncpu; i++)
		rc->fds[i] = -1;
	for (int i = 0; i < rc->ncpu; i++) {
		char name[4200];

		snprintf(name, sizeof(name), "%s/per_cpu/cpu%u/trace_pipe_raw", rc->dir,
			 rc->cpus[i]);
		rc->fds[i] = open(name, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (rc->fds[i] < 0) {
			fprintf(stderr, "logdev: %s: %s\n", name, strerror(errno));
			return 1;
		}
	}
	return 0;
}

/*
 * FILE.tmp in FILE's directory, renamed over FILE at the end, mode 0600
 * (cli_give_to_sudo_user()); an existing FILE that is not a regular file
 * (a device, a FIFO) is written in place, never replaced; "-" is stdout.
 * 0 or 1.
 */
static int rec_open_output(struct rec *rc)
{
	struct stat ost;

	if (!strcmp(rc->out, "-")) {
		rc->outfd = 1;
	} else if (!stat(rc->out, &ost) && !S_ISREG(ost.st_mode)) {
		rc->outfd = open(rc->out, O_WRONLY | O_CLOEXEC);
		if (rc->outfd < 0) {
			fprintf(stderr, "logdev: %s: %s\n", rc->out, strerror(errno));
			return 1;
		}
	} else {
		rc->tmp = malloc(strlen(rc->out) + 5);
		if (!rc->tmp) {
			fprintf(stderr, "logdev: out of memory\n");
			return 1;
		}
		strcpy(rc->tmp, rc->out);
		strcat(rc->tmp, ".tmp");
		rc->outfd = open(rc->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (rc->outfd < 0) {
			fprintf(stderr, "logdev: %s: %s\n", rc->tmp, strerror(errno));
			return 1;
		}
		/* FILE.tmp left from an older run keeps its mode: make it 0600 */
		if (fchmod(rc->outfd, 0600)) {
			fprintf(stderr, "logdev: %s: %s\n", rc->tmp, strerror(errno));
			return 1;
		}
		cli_give_to_sudo_user(rc->outfd, rc->out);
	}
	/* a pipe or socket on stdout: its reader going away ends the recording */
	rc->watch_out = fstat(rc->outfd, &ost) || !S_ISREG(ost.st_mode);
	return 0;
}

/* the capture's start: HEADER, PROBE_COST, RECORDER, FORMATS (KALLSYMS, MODLOG); 0 or 1 */
static int rec_write_meta(struct rec *rc)
{
	int ret = lgd_cap_writer_start(&rc->w, rc->outfd);

	if (!ret)
		ret = lgd_cap_write_section(&rc->w, LGD_SECT_HEADER, LGD_CAP_NO_CPU, rc->ht, rc->hl);
	if (!ret)	/* the probe cost calibration, if any (docs/ANALYSIS.md) */
		ret = lgd_rec_probe_cost(&rc->w, rc->dir);
	if (!ret)	/* our pid: the analyses leave our own records out */
		ret = lgd_rec_recorder(&rc->w);
	if (!ret)
		ret = cli_write_formats(&rc->w, rc->dir, rc->ft, rc->fl, &rc->ksyms);
	if (ret) {
		fprintf(stderr, "logdev: %s: %s\n",
			rc->tmp ? rc->tmp : strcmp(rc->out, "-") ? rc->out : "stdout",
			strerror(-ret));
		if (rc->tmp)
			unlink(rc->tmp);
		return 1;
	}
	return 0;
}

/* 1 to DIR/enable (noting whether it was on already); 0 or 1 */
static int rec_enable(struct rec *rc)
{
	size_t cl;
	char *cur;
	int ret;

	if (rc->no_enable || cli_stop_sig)
		return 0;
	cur = lgd_rec_read_text(rc->dir, "enable", &cl);
	/* someone else is recording: say so, and leave it on at the end */
	rc->was_on = cur && cur[0] == '1';
	free(cur);
	if (rc->was_on)
		fprintf(stderr, "logdev: recording was already enabled (another "
			"logdev record?): the buffers are shared and consumed "
			"by whoever reads first; it is re-enabled when we stop\n");
	ret = lgd_rec_write_str(rc->dir, "enable", "1");
	if (ret) {
		fprintf(stderr, "logdev: %s/enable: %s\n", rc->dir, strerror(-ret));
		if (rc->tmp)
			unlink(rc->tmp);
		return 1;
	}
	rc->enabled = 1;
	return 0;
}

/* fork and exec COMMAND (if any); sets rc->rc on failure */
static void rec_start_command(struct rec *rc)
{
	sigset_t old_mask;

	if (!rc->command || cli_stop_sig)
		return;
	/* no stop signal may run our handler in the child before exec */
	sigprocmask(SIG_BLOCK, &rc->caught, &old_mask);
	rc->child = fork();
	if (rc->child < 0) {
		perror("logdev: fork");
		rc->rc = 1;
	} else if (rc->child == 0) {
		int e;

		for (int i = 0; i < CLI_NR_STOP_SIGS; i++)
			if (sigismember(&rc->caught, cli_stop_sigs[i]))
				signal(cli_stop_sigs[i], SIG_DFL);
		sigprocmask(SIG_SETMASK, &old_mask, NULL);
		/* the capture is on stdout: the command's output goes to stderr */
		if (rc->outfd == 1 && dup2(2, 1) < 0)
			_exit(127);
		execvp(rc->command[0], rc->command);
		e = errno;
		fprintf(stderr, "logdev: cannot run %s: %s\n", rc->command[0], strerror(e));
		_exit(e == ENOENT ? 127 : 126);
	}
	sigprocmask(SIG_SETMASK, &old_mask, NULL);
}

/* DIR/buffer_size_kb in bytes, 0 if it cannot be read */
static uint64_t rec_buf_bytes(const struct rec *rc)
{
	size_t l;
	char *t = lgd_rec_read_text(rc->dir, "buffer_size_kb", &l);
	uint64_t kb = t ? strtoull(t, NULL, 10) : 0;

	free(t);
	return kb * 1024;
}

/* what the recorders wrote so far, for the progress line (a terminal) */
static void rec_progress(struct rec *rc, struct cli_rec_cpus *cs)
{
	uint64_t b, r;

	if (!rc->tty || now_s() - rc->last_progress <= 0.5)
		return;
	rc->last_progress = now_s();
	cli_rec_cpus_totals(cs, &b, &r);
	fprintf(stderr, "\rlogdev: %" PRIu64 " records, %" PRIu64 " bytes ", rc->recs + r,
		rc->bytes + b);
}

/*
 * One recorder thread per CPU moves the data (cli-rec-cpus.c); this one
 * polls the wake-up pipe (signals), the recorders' stop pipe (a failure)
 * and a non-file output, and keeps the formats current, until the duration
 * passed, COMMAND exited, a stop signal, or an error.
 */
static void rec_run(struct rec *rc)
{
	struct cli_rec_cpus cs = { .w = &rc->w, .bufsz = rc->bufsz, .sbs = rc->sbs,
				   .buf_bytes = rec_buf_bytes(rc), .count_records = rc->tty,
				   .refresh = refresh_formats_cb, .refresh_arg = rc };
	struct pollfd pfd[3];
	int npfd;

	if (!rc->command && rc->duration < 0 && rc->tty)
		fprintf(stderr, "logdev: recording until Ctrl-C (SIGINT) or SIGTERM\n");
	rc->t0 = now_s();
	if (cli_rec_cpus_start(&cs, rc->fds, rc->cpus, rc->ncpu, &rc->caught)) {
		rc->rc = 1;
		return;
	}
	pfd[0] = (struct pollfd){ .fd = cli_wake_fd[0], .events = POLLIN };
	pfd[1] = (struct pollfd){ .fd = cs.stop_fd[0], .events = POLLIN };
	npfd = 2;
	if (rc->watch_out)	/* POLLERR: the reader is gone */
		pfd[npfd++] = (struct pollfd){ .fd = rc->outfd, .events = 0 };
	while (!rc->rc && !cli_stop_sig && !cli_rec_cpus_failed(&cs)) {
		int timeout = 100, ready;

		if (rc->duration >= 0) {
			double left = rc->duration - (now_s() - rc->t0);

			if (left <= 0)
				break;
			if (left * 1000 < timeout)
				timeout = (int)(left * 1000) + 1;
		}
		ready = poll(pfd, (nfds_t)npfd, timeout);
		if (ready < 0 && errno != EINTR) {
			perror("logdev: poll");
			rc->rc = 1;
			break;
		}
		if (cli_stop_sig || cli_rec_cpus_failed(&cs))
			break;
		if (ready > 0 && rc->watch_out && (pfd[2].revents & (POLLERR | POLLHUP))) {
			pthread_mutex_lock(&cs.lock);
			if (!rc->w.err)
				rc->w.err = -EPIPE;
			pthread_mutex_unlock(&cs.lock);
			break;
		}
		/* the recorders check formats before they drain; nothing arriving: 1/s */
		cli_rec_cpus_refresh(&cs, 1000000000ull);
		pthread_mutex_lock(&cs.lock);
		ready = rc->w.err;	/* its write failed */
		pthread_mutex_unlock(&cs.lock);
		if (ready)
			break;
		if (rc->child > 0 && waitpid(rc->child, &rc->status, WNOHANG) == rc->child) {
			rc->child = 0;
			break;
		}
		rec_progress(rc, &cs);
	}
	if (cli_rec_cpus_stop(&cs, &rc->bytes, &rc->recs))
		rc->rc = 1;
}

/* recording ended: stop COMMAND, then disable (or just flush) */
static void rec_stop(struct rec *rc)
{
	/* what ended the recording (a signal during the cleanup changes nothing) */
	rc->sig = cli_stop_sig;
	if (rc->w.err)
		write_failed(rc);
	if (rc->child > 0) {	/* stopped by a signal or error: stop the command */
		cli_stop_child(rc->child, &rc->status);
		rc->child = 0;
	}
	if (rc->enabled || rc->no_enable) {
		const char *cf = rc->enabled ? "enable" : "flush";
		int ret = lgd_rec_write_str(rc->dir, cf, rc->enabled ? "0" : "1");

		if (ret) {
			fprintf(stderr, "logdev: %s/%s: %s\n", rc->dir, cf, strerror(-ret));
			rc->rc = 1;
		}
	}
}

/* drain each CPU to its end, close it; enable restored if it was on */
static void rec_drain(struct rec *rc)
{
	/* every site that fired is registered now: name them before the data */
	if (!rc->w.err)
		refresh_formats(rc);
	for (int i = 0; i < rc->ncpu; i++) {
		int eof = 0, tries = 0, ret;

		while (!eof && !rc->w.err) {
			uint64_t before = rc->bytes;

			ret = lgd_rec_drain(&rc->w, rc->fds[i], rc->cpus[i], rc->buf, rc->bufsz,
					rc->sbs, &eof, &rc->bytes, rc->tty ? &rc->recs : NULL);
			if (ret) {
				if (!rc->w.err) {
					fprintf(stderr, "logdev: cpu%u: %s\n", rc->cpus[i],
						strerror(-ret));
					rc->rc = 1;
				}
				break;
			}
			if (eof || rc->bytes != before)	/* a short read: read on */
				continue;
			/* EAGAIN: empty; unless we disabled, that is the end;
			 * after disabling, 0 should follow; do not wait forever */
			if (!rc->enabled || ++tries > 100)
				break;
			usleep(10000);
		}
		close(rc->fds[i]);
		rc->fds[i] = -1;
	}
	if (rc->was_on && lgd_rec_write_str(rc->dir, "enable", "1")) {
		fprintf(stderr, "logdev: could not re-enable recording\n");
		rc->rc = 1;
	}
	if (rc->tty)
		fprintf(stderr, "\rlogdev: %" PRIu64 " records, %" PRIu64 " bytes -> %s\n",
			rc->recs, rc->bytes, rc->out);
}

/*
 * With probes attached: the probe cost calibrated at the end if the module
 * has none (docs/ANALYSIS.md), after the drain and STATS (it clears both),
 * our probes removed first, no other probe attached (one on its path, e.g.
 * r:sched_clock, would be in every figure), recording not on before.
 */
static void rec_calibrate(struct rec *rc)
{
	size_t pl = 0;
	char *pt = NULL;

	if (!rc->probes.nr || !rc->enabled || rc->was_on || rc->w.err ||
	    lgd_rec_calibrated(rc->dir) != 0)
		return;
	if (cli_probes_detach(rc->dir, &rc->probes)) {	/* said; nr is 0 after it */
		rc->rc = 1;
		return;
	}
	pt = lgd_rec_read_text(rc->dir, "probes", &pl);	/* attached: none left? */
	if (pt && !pl && !lgd_rec_write_str(rc->dir, "probe_cost", "calibrate"))
		lgd_rec_probe_cost(&rc->w, rc->dir);
	free(pt);
}

/*
 * Last FORMATS, STATS, PROBES (if the probes file has any) and END, on disk; then FILE.tmp renamed to FILE, or
 * after a write error cut back to its last whole section and named.
 */
static void rec_finish(struct rec *rc)
{
	uint64_t end_at = UINT64_MAX;	/* the writer's bytes before END */
	int werr;

	if (!rc->w.err) {
		size_t sl, fl;
		char *st = lgd_rec_read_text(rc->dir, "stats", &sl);
		char *ft = lgd_rec_read_text(rc->dir, "formats", &fl);
		size_t pl;
		char *pt = lgd_rec_read_text(rc->dir, "probes", &pl);	/* NULL: none */

		if (ft) {
			cli_write_formats(&rc->w, rc->dir, ft, fl, &rc->ksyms);
			free(ft);
		}
		if (st) {
			lgd_cap_write_section(&rc->w, LGD_SECT_STATS, LGD_CAP_NO_CPU, st, sl);
			free(st);
		}
		if (pt) {	/* the probes' counts, misses of this recording */
			char *rel = lgd_probes_since(rc->pt0, pt, &pl);

			if (pl && rel)
				lgd_cap_write_section(&rc->w, LGD_SECT_PROBES, LGD_CAP_NO_CPU,
						      rel, pl);
			free(rel);
			free(pt);
		}
		rec_calibrate(rc);	/* after STATS: it resets them */
		/* on disk before it replaces FILE (delayed ENOSPC, NFS) */
		end_at = rc->w.bytes;
		if (!lgd_cap_write_end(&rc->w) && rc->tmp && fsync(rc->outfd))
			rc->w.err = -errno;
		if (rc->w.err)
			write_failed(rc);
	}
	werr = rc->w.err;
	if (werr) {
		rc->rc = 1;
		if (rc->tmp && cli_salvage(&rc->w, rc->outfd, werr, end_at))
			fprintf(stderr, "logdev: recording to %s failed; what was recorded "
				"(%" PRIu64 " bytes, readable, marked incomplete) is in %s; "
				"%s was left as it was\n",
				rc->out, rc->w.bytes, rc->tmp, rc->out);
		else if (rc->tmp)
			fprintf(stderr, "logdev: recording to %s failed; what was recorded "
				"(cut short, no end mark) is in %s; %s was left as it was\n",
				rc->out, rc->tmp, rc->out);
		else
			fprintf(stderr, "logdev: recording to %s failed\n",
				strcmp(rc->out, "-") ? rc->out : "stdout");
	}
	if (rc->outfd != 1 && close(rc->outfd) && !werr) {
		fprintf(stderr, "logdev: %s: %s\n", rc->tmp ? rc->tmp : rc->out, strerror(errno));
		rc->rc = 1;
	}
	rc->outfd = -1;
	if (!rc->rc && rc->tmp && rename(rc->tmp, rc->out)) {
		fprintf(stderr, "logdev: rename %s to %s: %s\n", rc->tmp, rc->out,
			strerror(errno));
		rc->rc = 1;
	}
	if (rc->rc && rc->tmp && !werr)
		fprintf(stderr, "logdev: recording to %s failed; what was recorded is in %s\n",
			rc->out, rc->tmp);
	else if (rc->rc && !werr)
		fprintf(stderr, "logdev: recording to %s failed\n", rc->out);
}

/* errors, else the signal that ended it, else COMMAND's status, else 0 */
static void rec_free(struct rec *rc)
{
	for (int i = 0; rc->fds && i < rc->ncpu; i++)
		if (rc->fds[i] >= 0)
			close(rc->fds[i]);
	if (rc->outfd > 1)
		close(rc->outfd);
	free(rc->ht);
	free(rc->ft);
	free(rc->pt0);
	free(rc->tmp);
	free(rc->fds);
	free(rc->buf);
	free(rc->cpus);
	cli_probe_specs_free(&rc->specs);
	lgd_probe_set_free(&rc->probes);
}

int cmd_record(int argc, char **argv)
{
	struct rec rc = { .outfd = -1, .child = -1, .tty = isatty(2) };
	int ret;

	lgd_probe_set_init(&rc.probes);
	ret = rec_parse(&rc, argc, argv);
	if (ret < 0 && (rc.last_boot || rc.area))	/* a previous boot's buffer */
		ret = cli_record_area(rc.out, rc.area, rc.dir);
	if (ret >= 0) {
		rec_free(&rc);
		return ret;
	}
	/* from here on, a stop signal is noted and handled by the main path */
	if (pipe2(cli_wake_fd, O_NONBLOCK | O_CLOEXEC)) {
		perror("logdev: pipe");
		return 1;
	}
	cli_catch_signals(&rc.caught);
	/* nothing is written unless debugfs works and the probes are on */
	ret = rec_open_debugfs(&rc) ? 1 : cli_probes_attach(rc.dir, &rc.specs, &rc.probes);
	if (!ret && rc.breakdown)
		ret = cli_bd_attach(rc.dir, &rc.probes);
	if (ret || rec_open_output(&rc) || rec_write_meta(&rc) || rec_enable(&rc)) {
		if (cli_probes_detach(rc.dir, &rc.probes) || !ret)
			ret = 1;
		rec_free(&rc);
		return ret;
	}
	rec_start_command(&rc);
	rec_run(&rc);
	rec_stop(&rc);
	rec_drain(&rc);
	rec_finish(&rc);	/* the probes' counts in it: before they go */
	if (cli_probes_detach(rc.dir, &rc.probes) && !rc.rc)
		rc.rc = 1;
	ret = cli_rec_exit_status(rc.rc, rc.sig, rc.command != NULL, rc.duration, rc.status);
	rec_free(&rc);
	return ret;
}
