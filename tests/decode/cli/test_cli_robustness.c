// SPDX-License-Identifier: GPL-2.0
/*
 * test_cli_robustness.c: the logdev CLI's own robustness (issue 7, faults 7, 8, 12):
 *   - every numeric option of every subcommand refuses empty, non-finite,
 *     negative, out-of-range and trailing-junk values (exit 2, a message
 *     naming the option and the accepted range) and accepts its range;
 *   - `record` ended by a signal (HUP, PIPE, TERM, INT), a closed output
 *     pipe, a full disk or a file size limit restores `enable` and keeps
 *     what was recorded (a finished capture, or FILE.tmp named on stderr);
 *   - `record -o - -- COMMAND`: the command's stdout goes to stderr, never
 *     into the capture; record's exit status reflects the command.
 * `record` runs against a fake debugfs directory (LOGDEV_DEBUGFS): regular
 * files header, formats, enable, flush, stats, per_cpu/cpu0/trace_pipe_raw.
 *
 * Usage: test_cli PATH-TO-logdev [PATH-TO-logdev-mkcap]
 * Output: "PASS: name" / "FAIL: name: why"; exit 1 if anything failed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "liblogdev.h"
#include "testlib.h"

char tmpdir[] = "/tmp/logdev-cli-XXXXXX";
static const char *mkcap;	/* logdev-mkcap, if given */

static const char formats_text[] =
	"# id\tfile\tline\tfunc\tformat\n"
	"1\tnet/core/skbuff.c\t291\tkfree_skbmem\tin %d\n";

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void put_file(const char *dir, const char *name, const void *d, size_t n)
{
	char p[1024];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	f = fopen(p, "wb");
	if (f) {
		if (n)
			fwrite(d, 1, n, f);
		fclose(f);
	}
}

/* @n sub-buffers of records of site 1 ("in %d") for @cpu */
static struct buf cpu_data(uint16_t cpu, int n)
{
	struct buf b = { 0 };
	struct sbuf s;
	uint8_t pl[4];

	for (int k = 0; k < n; k++) {
		sb_begin(&s, cpu, (uint64_t)k, 1000 + (uint64_t)k * 100, 0, 0);
		for (int i = 0; i < 6; i++) {	/* 6 x 32 bytes fit in 256 */
			lgd_cap_put_u32(pl, (uint32_t)(k * 6 + i));
			sb_rec(&s, 1000 + (uint64_t)k * 100 + (uint64_t)i, 1, LOGDEV_REC_PRINT, 0,
			       1, pl, 4);
		}
		b_put(&b, s.b, SBS);
	}
	return b;
}

/* @n sub-buffers of records of site 1 for cpu0 */
static struct buf some_data(int n)
{
	return cpu_data(0, n);
}

/* a directory that looks like debugfs logdev, @ncpu CPUs of @nsub sub-buffers of data */
static char *fake_debugfs_cpus(const char *name, const char *enable, int ncpu, int nsub)
{
	char *dir = strdup(tmp_path(name)), p[1024];

	mkdir(dir, 0755);
	put_file(dir, "header", header_text, strlen(header_text));
	put_file(dir, "formats", formats_text, strlen(formats_text));
	put_file(dir, "enable", enable, strlen(enable));
	put_file(dir, "flush", "0\n", 2);
	put_file(dir, "stats", "cpu0 written=1\n", 15);
	snprintf(p, sizeof(p), "%s/per_cpu", dir);
	mkdir(p, 0755);
	for (int c = 0; c < ncpu; c++) {
		struct buf d = cpu_data((uint16_t)c, nsub);

		snprintf(p, sizeof(p), "%s/per_cpu/cpu%d", dir, c);
		mkdir(p, 0755);
		put_file(p, "trace_pipe_raw", d.p, d.n);
		free(d.p);
	}
	return dir;
}

/* one CPU of @nsub sub-buffers */
static char *fake_debugfs(const char *name, const char *enable, int nsub)
{
	return fake_debugfs_cpus(name, enable, 1, nsub);
}

static char enable_of(const char *dir)
{
	char p[1024], *s, c;

	snprintf(p, sizeof(p), "%s/enable", dir);
	s = slurp(p);
	c = s[0] ? s[0] : '?';
	free(s);
	return c;
}

/* records in capture @path (-1: unreadable); *@complete: has END */
static int cap_records(const char *path, int *complete)
{
	struct lgd_reader r;
	struct lgd_merge m;
	struct lgd_item it;
	struct lgd_diag d;
	int n = 0;

	*complete = 0;
	if (lgd_reader_open(&r, path, NULL, NULL, &d))
		return -1;
	*complete = r.complete;
	if (lgd_merge_init(&m, &r)) {
		lgd_reader_close(&r);
		return -1;
	}
	while (lgd_merge_next(&m, &it) > 0)
		if (it.rec.type == LOGDEV_REC_PRINT)
			n++;
	lgd_merge_free(&m);
	lgd_reader_close(&r);
	return n;
}

/* size of @path in bytes, -1 if it cannot be stat'ed */
static long long file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : (long long)st.st_size;
}

static int exists(const char *path)
{
	struct stat st;

	return !lstat(path, &st);
}

/*
 * Start "cli ARGS..." with LOGDEV_DEBUGFS=@dbg, stdout to @outfd, stderr to
 * tmpdir/@errname, in its own process group (so a signal to the test does not
 * reach it).  Optional resource limit on file size @fsize (0: none).
 */
static pid_t spawn(const char *dbg, int outfd, const char *errname, long fsize,
		   char *const args[])
{
	char *argv[32];
	int n = 0;
	pid_t pid;

	argv[n++] = (char *)cli;
	for (int i = 0; args[i] && n < 31; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		int e = open(tmp_path(errname), O_WRONLY | O_CREAT | O_TRUNC, 0644);

		setpgid(0, 0);
		if (fsize) {
			struct rlimit rl = { (rlim_t)fsize, (rlim_t)fsize };

			setrlimit(RLIMIT_FSIZE, &rl);
		}
		if (dbg)
			setenv("LOGDEV_DEBUGFS", dbg, 1);
		dup2(outfd, 1);
		dup2(e, 2);
		execv(cli, argv);
		_exit(126);
	}
	return pid;
}

/* wait up to @secs; *@st the wait status; 0, or -1 (killed after timeout) */
static int wait_for(pid_t pid, double secs, int *st)
{
	double t0 = now_s();

	while (now_s() - t0 < secs) {
		if (waitpid(pid, st, WNOHANG) == pid)
			return 0;
		usleep(10000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, st, 0);
	return -1;
}

/* wait until @dir/enable reads @c (up to 10 s) */
static int wait_enable(const char *dir, char c)
{
	for (int i = 0; i < 1000; i++) {
		if (enable_of(dir) == c)
			return 1;
		usleep(10000);
	}
	return 0;
}

static int exit_code(int st)
{
	return WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? 1000 + WTERMSIG(st) : -1;
}

/* ---- fault 12: numeric options --------------------------------------- */

/*
 * Every numeric option of every subcommand (grep the parsers: record
 * --duration, diff --min-count; report and deltas have none).  "%s" in
 * @args is the value; @opt must be named in the message with @range.
 */
struct numopt {
	int mkcap;		/* the logdev-mkcap tool rather than logdev */
	const char *args;	/* cli arguments with %s for the value */
	const char *opt;	/* option named in the message */
	const char *range;	/* text of the accepted range in the message */
	const char *good[6];	/* accepted: exit 1 (no debugfs / no files), not 2 */
};

static const struct numopt numopts[] = {
	{ 0, "record -o %%T/n.cap --duration %s", "--duration", "from 0 to 31536000",
	  { "0", "0.25", "1e-3", "2", "31536000", NULL } },
	{ 0, "record -o %%T/n.cap --duration=%s", "--duration", "from 0 to 31536000",
	  { "0", "1.5", NULL } },
	{ 0, "diff --min-count %s %%T/none-a.cap %%T/none-b.cap", "--min-count",
	  "from 0 to 18446744073709551615", { "0", "1", "18446744073709551615", NULL } },
	{ 0, "diff --min-count=%s %%T/none-a.cap %%T/none-b.cap", "--min-count",
	  "from 0 to 18446744073709551615", { "7", NULL } },
	/* logdev-mkcap (copies VM files into a capture): exit 1 for the missing file */
	{ 1, "-o %%T/m.cap --cpu %s:%%T/none --header %%T/none", "--cpu",
	  "from 0 to 4294967294", { "0", "4294967294", NULL } },
};

/* values no numeric option may accept (quoted for sh) */
static const char *const bad_values[] = {
	"''", "nan", "NaN", "-nan", "inf", "-inf", "infinity", "1e400", "-1e400",
	"99999999999999999999", "-1", "-0.5", "1x", "'1 '", "' 1'", "0x10", "1e", "1.",
	"--", "+-1", "1e-400", "'1,5'", "1e5000000000",
};

/* and for whole-number options, also these */
static const char *const bad_ints[] = { "1.5", "1e3", "+1", "-0" };

/* @tmpl with %s -> @val, %%T -> @root */
static void expand(char *out, size_t n, const char *tmpl, const char *val, const char *root)
{
	char t[512];

	snprintf(t, sizeof(t), tmpl, val);
	for (size_t o = 0, i = 0; o + 1 < n; i++) {
		if (t[i] == '%' && t[i + 1] == 'T') {
			o += (size_t)snprintf(out + o, n - o, "%s", root);
			i++;
			continue;
		}
		out[o++] = t[i];
		out[o] = 0;
		if (!t[i])
			break;
	}
}

static void test_numbers(void)
{
	char env[700], args[1200], name[1400], *out, *err;
	int st;

	snprintf(env, sizeof(env), "LOGDEV_DEBUGFS=%s/nonexistent", tmpdir);
	for (size_t k = 0; k < sizeof(numopts) / sizeof(numopts[0]); k++) {
		const struct numopt *o = &numopts[k];
		int integer = strncmp(o->args, "record", 6);
		const char *logdev = cli;

		if (o->mkcap && !mkcap)
			continue;
		if (o->mkcap)
			cli = mkcap;
		size_t nb = sizeof(bad_values) / sizeof(bad_values[0]);
		size_t ni = integer ? sizeof(bad_ints) / sizeof(bad_ints[0]) : 0;

		for (size_t i = 0; i < nb + ni; i++) {
			const char *v = i < nb ? bad_values[i] : bad_ints[i - nb];

			char shown[600];

			expand(args, sizeof(args), o->args, v, tmpdir);
			expand(shown, sizeof(shown), o->args, v, "T");
			st = run_cli_env(env, args, &out, &err);
			snprintf(name, sizeof(name), "numbers: logdev%s %s refused (exit 2, names %s and %s)",
				 o->mkcap ? "-mkcap" : "", shown, o->opt, o->range);
			check(name, st == 2 && strstr(err, o->opt) && strstr(err, o->range),
			      "status %d err %.300s", st, err);
			free(out);
			free(err);
		}
		for (int i = 0; o->good[i]; i++) {
			expand(args, sizeof(args), o->args, o->good[i], tmpdir);
			st = run_cli_env(env, args, &out, &err);
			snprintf(name, sizeof(name), "numbers: %s %s accepted (exit 1: nothing to read)",
				 o->opt, o->good[i]);
			check(name, st == 1 && !strstr(err, "usage"), "status %d err %.300s", st, err);
			free(out);
			free(err);
		}
		cli = logdev;
	}
}

/* ---- fault 7: record ended by signals and errors ---------------------- */

struct sigcase {
	int sig;
	const char *mode;	/* "until", "duration", "command" */
	const char *enable0;	/* enable before */
	int want;		/* exit status wanted */
};

static const struct sigcase sigcases[] = {
	{ SIGHUP, "until", "0\n", 128 + SIGHUP },
	{ SIGPIPE, "until", "0\n", 128 + SIGPIPE },
	{ SIGTERM, "until", "0\n", 0 },	/* the documented way to stop it */
	{ SIGINT, "until", "0\n", 0 },
	{ SIGQUIT, "until", "0\n", 128 + SIGQUIT },
	{ SIGUSR1, "until", "0\n", 128 + SIGUSR1 },
	{ SIGHUP, "duration", "0\n", 128 + SIGHUP },
	{ SIGTERM, "duration", "0\n", 128 + SIGTERM },
	{ SIGHUP, "command", "0\n", 128 + SIGHUP },
	{ SIGPIPE, "command", "0\n", 128 + SIGPIPE },
	{ SIGHUP, "until", "1\n", 128 + SIGHUP },	/* someone else's: left on */
};

static void test_signals(void)
{
	for (size_t k = 0; k < sizeof(sigcases) / sizeof(sigcases[0]); k++) {
		const struct sigcase *c = &sigcases[k];
		char dname[64], cap[600], tmpn[700], name[300], *err, en;
		char *args[12] = { "record", "-o", cap, NULL };
		int st, to, recs, complete, code;
		double t0;
		pid_t pid;

		snprintf(dname, sizeof(dname), "dbg-sig%zu", k);
		char *dir = fake_debugfs(dname, c->enable0, 3);

		snprintf(cap, sizeof(cap), "%s/sig%zu.cap", tmpdir, k);
		snprintf(tmpn, sizeof(tmpn), "%s.tmp", cap);
		if (!strcmp(c->mode, "duration")) {
			args[3] = "--duration";
			args[4] = "30";
		} else if (!strcmp(c->mode, "command")) {
			args[3] = "--";
			args[4] = "sleep";
			args[5] = "30";
		}
		pid = spawn(dir, 1, "sig.err", 0, args);
		/* recording: enable written 1 (or, already on, the data read) */
		if (c->enable0[0] == '1')
			usleep(500000);
		else
			wait_enable(dir, '1');
		usleep(100000);
		t0 = now_s();
		kill(pid, c->sig);
		to = wait_for(pid, 15, &st);
		err = slurp(tmp_path("sig.err"));
		en = enable_of(dir);
		recs = cap_records(cap, &complete);
		code = exit_code(st);
		snprintf(name, sizeof(name), "record (%s) killed by %s: exit %d, enable back at %c, "
			 "capture finished with its 18 records, no FILE.tmp", c->mode,
			 strsignal(c->sig), c->want, c->enable0[0]);
		check(name, !to && code == c->want && en == c->enable0[0] && recs == 18 &&
		      complete && !exists(tmpn),
		      "timeout %d exit %d (1000+: killed by signal) enable %c records %d complete %d "
		      "tmp %d after %.1f s; err %.300s", to, code, en, recs, complete, exists(tmpn),
		      now_s() - t0, err);
		free(err);
		free(dir);
	}
}

/* -o - into a pipe whose reader goes away: a write error (EPIPE), exit 1 */
static void test_closed_pipe(void)
{
	char *dir = fake_debugfs("dbg-pipe", "0\n", 3), *err, en, buf[64];
	char *args[] = { "record", "-o", "-", "--duration", "30", NULL };
	int p[2], st, to, code;
	double t0;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC))
		return;
	pid = spawn(dir, p[1], "pipe.err", 0, args);
	close(p[1]);
	t0 = now_s();
	if (read(p[0], buf, sizeof(buf)) <= 0)
		buf[0] = 0;
	close(p[0]);
	to = wait_for(pid, 15, &st);
	err = slurp(tmp_path("pipe.err"));
	en = enable_of(dir);
	code = exit_code(st);
	check("record -o - into a pipe closed by its reader: exit 1 within 5 s, says Broken pipe, "
	      "enable back at 0", !to && code == 1 && now_s() - t0 < 5 && en == '0' &&
	      strstr(err, "Broken pipe"),
	      "timeout %d exit %d (1000+: killed by signal) after %.1f s enable %c err %.300s", to,
	      code, now_s() - t0, en, err);
	free(err);
	free(dir);
}

/*
 * Every verb reading capture @cap, which is incomplete (@what), warns that
 * the recording is incomplete and exits 3 (decoded, with warnings).
 */
static void check_verbs_incomplete(const char *cap, const char *what)
{
	static const char *const verbs[] = {
		"report", "report --raw", "deltas", "hist --pair 1", "export --format csv",
		"convert -o /dev/null", "diff", "diff --svg /dev/null --pair 1",
	};
	char args[1400], name[600], *out, *err;
	int st, bad = 0;
	char why[1200] = "";

	for (size_t i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++) {
		if (!strncmp(verbs[i], "diff", 4))
			snprintf(args, sizeof(args), "%s %s %s", verbs[i], cap, cap);
		else
			snprintf(args, sizeof(args), "%s %s", verbs[i], cap);
		st = run_cli(args, &out, &err);
		if (st != 3 || !strstr(err, "the recording is incomplete")) {
			if (!bad++)
				snprintf(why, sizeof(why), "%s: status %d, stderr %.300s", verbs[i],
					 st, err);
		}
		free(out);
		free(err);
	}
	snprintf(name, sizeof(name), "%s: every verb (report, deltas, hist, export, convert, "
		 "diff, diff --svg) warns 'the recording is incomplete', exit 3", what);
	check(name, !bad, "%d verbs wrong, first %s", bad, why);
}

/*
 * Disk full mid-run (a 64 KiB tmpfs, root only) and a file size limit
 * (RLIMIT_FSIZE, anyone): enable restored, FILE left as it was, FILE.tmp
 * kept, readable (cut at a section boundary), named, and marked incomplete
 * (SALVAGED, no END): every verb reading it warns and exits 3.
 */
static void test_write_errors(void)
{
	static const char old[] = "precious old capture";
	char mnt[600], cap[700], tmpn[800], name[300], *err, *got, en;
	int mounted, st, to, recs, complete, code;
	long long tsize, limit;
	size_t glen;

	snprintf(mnt, sizeof(mnt), "%s/small", tmpdir);
	mkdir(mnt, 0755);
	mounted = !mount("none", mnt, "tmpfs", 0, "size=64k");
	if (!mounted)
		skip("record stopped by a full disk (ENOSPC)", "no tmpfs of 64 KiB to fill (not root)");
	for (int pass_ = mounted ? 0 : 1; pass_ < 2; pass_++) {
		/* 400 sub-buffers: 100 KiB, more than the tmpfs or the limit */
		char *dir = fake_debugfs(pass_ ? "dbg-fsize" : "dbg-enospc", "0\n", 400);
		char *args[] = { "record", "-o", cap, "--duration", "30", NULL };
		const char *what = pass_ ? "a file size limit (EFBIG)" : "a full disk (ENOSPC)";
		pid_t pid;

		snprintf(cap, sizeof(cap), "%s/full.cap", pass_ ? tmpdir : mnt);
		snprintf(tmpn, sizeof(tmpn), "%s.tmp", cap);
		write_tmp(pass_ ? "full.cap" : "small/full.cap", old, sizeof(old));
		pid = spawn(dir, 1, "full.err", pass_ ? 48 * 1024 : 0, args);
		to = wait_for(pid, 15, &st);
		err = slurp(tmp_path("full.err"));
		en = enable_of(dir);
		got = slurp_n(cap, &glen);
		recs = cap_records(tmpn, &complete);
		code = exit_code(st);
		snprintf(name, sizeof(name), "record stopped by %s: exit 1 at once, enable back at 0, "
			 "FILE untouched, FILE.tmp readable, not complete, and named", what);
		check(name, !to && code == 1 && en == '0' && glen == sizeof(old) &&
		      !memcmp(got, old, sizeof(old)) && recs > 0 && !complete &&
		      strstr(err, tmpn),
		      "timeout %d exit %d (1000+: killed by signal) enable %c FILE %zu bytes, "
		      "FILE.tmp records %d complete %d; err %.400s", to, code, en, glen, recs,
		      complete, err);
		/*
		 * What fits is kept: at most one sub-buffer section (and the END
		 * section) short of the limit, not a whole read() chunk of 16.
		 */
		tsize = file_size(tmpn);
		/* the tmpfs: 64 KiB less the page holding the old FILE */
		limit = pass_ ? 48 * 1024 : 64 * 1024 - sysconf(_SC_PAGESIZE);
		snprintf(name, sizeof(name), "record stopped by %s: FILE.tmp keeps all that fit "
			 "(within one sub-buffer of the limit)", what);
		check(name, tsize >= limit - 2 * (SBS + 16) && tsize <= limit,
		      "FILE.tmp %lld bytes, limit %lld, records %d", tsize, limit, recs);
		snprintf(name, sizeof(name), "FILE.tmp of a record stopped by %s", what);
		check_verbs_incomplete(tmpn, name);
		free(got);
		free(err);
		free(dir);
	}
	if (mounted)
		umount(mnt);

	/* -o a device (a private /dev/full): written in place, never replaced */
	snprintf(name, sizeof(name), "%s/fulldev", tmpdir);
	if (!mknod(name, S_IFCHR | 0666, makedev(1, 7))) {
		char *dir = fake_debugfs("dbg-dev", "0\n", 3), *out, env[700], args[1400];
		struct stat sb;

		snprintf(env, sizeof(env), "LOGDEV_DEBUGFS=%s", dir);
		snprintf(args, sizeof(args), "record -o %s --duration 0.2", name);
		st = run_cli_env(env, args, &out, &err);
		check("record -o /dev/full: exit 1 (No space left on device), the device is not "
		      "replaced, no FILE.tmp, enable 0",
		      st == 1 && !stat(name, &sb) && S_ISCHR(sb.st_mode) && strstr(err, "No space") &&
		      !exists(strcat(strcpy(tmpn, name), ".tmp")) && enable_of(dir) == '0',
		      "status %d err %.300s", st, err);
		free(out);
		free(err);
		free(dir);
	} else {
		skip("record -o DEVICE", "not root, no device node to test with");
	}
}

/*
 * The recorder threads (one per CPU, cli-rec-cpus.c): 4 CPUs of 5,000
 * sub-buffers each (1.28 MB: two reads of 1 MiB, 20 writev()s of 256
 * sections) written through the one shared writer: every CPU_DATA section
 * whole (one sub-buffer, its CPU's), each CPU's sub-buffers once each and
 * in seq order, all records read, the capture complete.
 */
static void test_record_cpus(void)
{
	enum { NCPU = 4, NSUB = 5000 };
	char *dir = fake_debugfs_cpus("dbg-cpus", "0\n", NCPU, NSUB);
	char *cap = strdup(tmp_path("cpus.cap")), env[700], args[1400], *out, *err;
	uint64_t next[NCPU] = { 0 };
	int st, recs, complete, bad = 0, sects = 0;
	char why[300] = "";
	size_t len;
	uint8_t *f;

	snprintf(env, sizeof(env), "LOGDEV_DEBUGFS=%s", dir);
	snprintf(args, sizeof(args), "record -o %s --duration 0.3", cap);
	st = run_cli_env(env, args, &out, &err);
	recs = cap_records(cap, &complete);
	f = (uint8_t *)slurp_n(cap, &len);
	for (size_t o = LGD_CAP_FILE_HDR_BYTES; f && o + LGD_CAP_SECT_HDR_BYTES <= len;) {
		uint32_t type, cpu;
		uint64_t l;

		lgd_cap_sect_hdr_get(f + o, &type, &cpu, &l);
		o += LGD_CAP_SECT_HDR_BYTES;
		if (type == LGD_SECT_CPU_DATA) {
			sects++;
			/* the sub-buffer header: cpu (u16) at byte 6, seq (u64) at 8 */
			if (l != SBS || cpu >= NCPU || o + l > len ||
			    (f[o + 6] | f[o + 7] << 8) != (int)cpu ||
			    lgd_cap_get_u64(f + o + 8) != next[cpu]) {
				if (!bad++)
					snprintf(why, sizeof(why), "section %d at byte %zu: cpu %u, "
						 "%llu bytes, want seq %llu", sects, o, cpu,
						 (unsigned long long)l,
						 (unsigned long long)(cpu < NCPU ? next[cpu] : 0));
			} else {
				next[cpu]++;
			}
		}
		o += l;
	}
	for (int c = 0; c < NCPU; c++)
		if (next[c] != NSUB && !bad++)
			snprintf(why, sizeof(why), "cpu %d: %llu sub-buffers of %d", c,
				 (unsigned long long)next[c], NSUB);
	check("record, 4 CPUs of 5,000 sub-buffers (a thread each, one writer): every section "
	      "one whole sub-buffer, each CPU's once and in seq order, every record read",
	      st == 0 && !bad && recs == NCPU * NSUB * 6 && complete,
	      "status %d, records %d of %d, complete %d, %d sections wrong (%s); err %.200s",
	      st, recs, NCPU * NSUB * 6, complete, bad, why, err);
	free(f);
	free(out);
	free(err);
	free(cap);
	free(dir);
}

/*
 * A capture salvaged by a logdev record before the SALVAGED section: END
 * after its data and RECORDER, no STATS: incomplete too, every verb warns.
 * With STATS, or without RECORDER (logdev-mkcap, hand-made), END is
 * complete as before: exit 0, no warning.
 */
static void test_old_salvaged(void)
{
	struct buf d = some_data(2);
	char *out, *err, args[1000];
	int st;

	for (int k = 0; k < 3; k++) {	/* 0: old salvaged, 1: with STATS, 2: no RECORDER */
		struct buf b = { 0 };
		char *cap;

		cap_meta(&b, formats_text);
		if (k != 2)
			cap_sect(&b, LGD_SECT_RECORDER, LGD_CAP_NO_CPU, "pid 99\n", 7);
		cap_sect(&b, LGD_SECT_CPU_DATA, 0, d.p, d.n);
		if (k == 1)
			cap_sect(&b, LGD_SECT_STATS, LGD_CAP_NO_CPU, "cpu0 written=1\n", 15);
		cap_sect(&b, LGD_SECT_END, LGD_CAP_NO_CPU, NULL, 0);
		cap = write_tmp("oldsalv.cap", b.p, b.n);
		free(b.p);
		if (!k) {
			check_verbs_incomplete(cap, "END and RECORDER but no STATS (an old "
					       "record's salvaged capture)");
			continue;
		}
		snprintf(args, sizeof(args), "deltas %s", cap);
		st = run_cli(args, &out, &err);
		check(k == 1 ? "END after STATS: complete, exit 0, no warning"
			     : "END, no STATS, no RECORDER (logdev-mkcap): complete, exit 0",
		      st == 0 && !*err, "status %d stderr %.300s", st, err);
		free(out);
		free(err);
	}
	free(d.p);
}

/* ---- fault 8: the command's stdout never mixes with the capture -------- */

static void test_command_output(void)
{
	char *dir = fake_debugfs("dbg-cmd", "0\n", 3), env[700], args[1400], *out, *err;
	char *cap = strdup(tmp_path("cmdout.cap"));
	int st, recs, complete;
	size_t olen;

	snprintf(env, sizeof(env), "LOGDEV_DEBUGFS=%s", dir);
	st = run_cli_env(env, "record -o - -- sh -c 'echo hello-from-command; "
			 "echo to-stderr >&2'", &out, &err);
	free(out);
	out = slurp_n(tmp_path("out"), &olen);
	recs = cap_records(tmp_path("out"), &complete);
	check("record -o - -- COMMAND: the capture on stdout is whole, without the command's "
	      "output", st == 0 && recs == 18 && complete &&
	      !memmem(out, olen, "hello-from-command", 18),
	      "status %d records %d complete %d", st, recs, complete);
	check("record -o - -- COMMAND: the command's stdout goes to stderr",
	      strstr(err, "hello-from-command") && strstr(err, "to-stderr"), "err %.300s", err);
	free(out);
	free(err);

	/* -o FILE: the command's stdout stays stdout */
	snprintf(args, sizeof(args), "record -o %s -- sh -c 'echo hello-from-command'", cap);
	st = run_cli_env(env, args, &out, &err);
	check("record -o FILE -- COMMAND: the command's stdout stays on stdout",
	      st == 0 && strstr(out, "hello-from-command"), "status %d out %.100s", st, out);
	free(out);
	free(err);
	{	/* a capture holds addresses: 0600 (docs/SECURITY.md) */
		struct stat sb;
		char env2[800];

		check("record -o FILE: the capture is 0600 (it holds kallsyms)",
		      !stat(cap, &sb) && (sb.st_mode & 0777) == 0600, "mode %o",
		      (unsigned int)(sb.st_mode & 0777));
		/* under sudo, the capture goes to the user who ran sudo */
		snprintf(env2, sizeof(env2), "%s SUDO_UID=4242 SUDO_GID=4343", env);
		snprintf(args, sizeof(args), "record -o %s -- true", cap);
		st = run_cli_env(env2, args, &out, &err);
		if (geteuid() == 0)
			check("record under sudo: the capture belongs to SUDO_UID:SUDO_GID, 0600",
			      st == 0 && !stat(cap, &sb) && sb.st_uid == 4242 && sb.st_gid == 4343 &&
			      (sb.st_mode & 0777) == 0600, "status %d uid %u gid %u mode %o err %.200s",
			      st, (unsigned int)sb.st_uid, (unsigned int)sb.st_gid,
			      (unsigned int)(sb.st_mode & 0777), err);
		else
			check("record with SUDO_UID set, not root: the capture stays ours, 0600",
			      st == 0 && !stat(cap, &sb) && sb.st_uid == geteuid() &&
			      (sb.st_mode & 0777) == 0600, "status %d uid %u mode %o err %.200s",
			      st, (unsigned int)sb.st_uid, (unsigned int)(sb.st_mode & 0777), err);
		free(out);
		free(err);
	}
	{	/* its own pid in the capture (RECORDER), so analyses can leave it out */
		struct lgd_reader r;
		struct lgd_diag d;
		int ok = !lgd_reader_open(&r, cap, NULL, NULL, &d);

		check("record: the capture holds the recorder's pid (section RECORDER)",
		      ok && r.recorder_pid > 0 && r.recorder_pid != (int64_t)getpid(),
		      "open %d pid %lld", ok, ok ? (long long)r.recorder_pid : -1LL);
		if (ok)
			lgd_reader_close(&r);
	}

	/* exit status: the command's; 127 when it cannot start */
	snprintf(args, sizeof(args), "record -o %s -- sh -c 'exit 3'", cap);
	st = run_cli_env(env, args, &out, &err);
	check("record -- COMMAND exiting 3: record exits 3, capture kept",
	      st == 3 && cap_records(cap, &complete) == 18 && complete, "status %d err %.200s",
	      st, err);
	free(out);
	free(err);
	snprintf(args, sizeof(args), "record -o - -- %s/no-such-command", tmpdir);
	st = run_cli_env(env, args, &out, &err);
	check("record -- COMMAND that cannot start: exit 127, says why, enable back at 0",
	      st == 127 && strstr(err, "no-such-command") && strstr(err, "No such file") &&
	      enable_of(dir) == '0', "status %d err %.300s", st, err);
	free(out);
	free(err);
	free(cap);
	free(dir);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: test_cli_robustness PATH-TO-logdev [PATH-TO-logdev-mkcap]\n");
		return 2;
	}
	cli = argv[1];
	mkcap = argc > 2 ? argv[2] : NULL;
	if (tmpdir_make())
		return 1;
	test_numbers();
	test_signals();
	test_closed_pipe();
	test_write_errors();
	test_record_cpus();
	test_old_salvaged();
	test_command_output();
	tmpdir_remove();
	printf("cli: %d passed, %d failed\n", passes, failures);
	return failures ? 1 : 0;
}
