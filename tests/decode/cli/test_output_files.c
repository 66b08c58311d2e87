// SPDX-License-Identifier: GPL-2.0
/*
 * test_output_files.c: files named on the command line (issue 24 and the fresh
 * user's trials of it):
 *   A. output files of convert -o, export -o, hist and diff --svg
 *      (cli-output.c): a refusal or a write error leaves an older file as
 *      it was and no partial one; a symlink (to a device, to a file) is
 *      written through and never removed; an input is never overwritten;
 *      the write's own error is named (ENOSPC, not "Input/output error");
 *      --svg that cannot be written fails before anything is printed, and
 *      --svg naming a capture is refused;
 *   B. convert --cpu-max: one CPU's data past the limit is refused, exit 1,
 *      nothing written (trace-cmd reads a CPU's data of 2 GiB or more cut
 *      short); 0 lifts it; bad values are usage errors;
 *   C. --site and --comm given a capture (its pattern forgotten) are usage
 *      errors, also for a capture that cannot be read.
 * Usage: test_output_files PATH-TO-logdev.  Output: PASS/FAIL lines (ldcheck.h).
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "liblogdev.h"
#include "testlib.h"
#include "capture.h"

char tmpdir[] = "/tmp/logdev-outputs-XXXXXX";

static char cap[600];	/* 600 records of f:1 and g:2 on CPU 0 */

/* run "logdev ARGS" (printf-style); status, *out and *err (caller frees) */
static int runf(char **out, char **err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int runf(char **out, char **err, const char *fmt, ...)
{
	char args[2000];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(args, sizeof(args), fmt, ap);
	va_end(ap);
	return run_cli(args, out, err);
}

/* the content of @path, or "(none)" / "(unreadable)" */
static char *content(const char *path)
{
	struct stat st;
	char *s;

	if (lstat(path, &st))
		return strdup("(none)");
	s = slurp(path);
	return s ? s : strdup("(unreadable)");
}

/* ---- A: output files ------------------------------------------------- */

/*
 * @cmd (with "%s" for the output path) must fail (exit @want_st) and leave
 * an older OUT with its bytes, a symlink to /dev/null as a symlink
 */
static void keeps(const char *what, const char *cmd, int want_st)
{
	char old[700], link[700], name[900], *out, *err, *c;
	struct stat st;
	int s1, s2;

	snprintf(old, sizeof(old), "%s/old.out", tmpdir);
	write_tmp("old.out", "OLD\n", 4);
	s1 = runf(&out, &err, cmd, old);
	c = content(old);
	snprintf(name, sizeof(name), "%s: fails (exit %d) and an older file keeps its bytes",
		 what, want_st);
	CHECK_WHY(s1 == want_st && !strcmp(c, "OLD\n"), name, "status %d, file '%.40s', stderr:\n%s",
		  s1, c, err);
	free(c);
	free(out);
	free(err);
	snprintf(link, sizeof(link), "%s/null.out", tmpdir);
	unlink(link);
	if (symlink("/dev/null", link)) {
		CHECK_TRUE(0, "symlink() for the test");
		return;
	}
	s2 = runf(&out, &err, cmd, link);
	snprintf(name, sizeof(name), "%s: a symlink to /dev/null given as the output stays", what);
	CHECK_WHY(s2 == want_st && !lstat(link, &st) && S_ISLNK(st.st_mode), name,
		  "status %d, link %s", s2, lstat(link, &st) ? "removed" : "changed");
	free(out);
	free(err);
}

static void test_outputs(void)
{
	char path[700], *out, *err, *c;
	struct stat st;
	int s;

	/* refusals and failures: the older file and the device link stay */
	{
		char cmd[1400];

		snprintf(cmd, sizeof(cmd), "convert --cpu-max 8192 -o %%s %s", cap);
		keeps("convert --cpu-max 8192 -o OUT CAP (refused)", cmd, 1);
		snprintf(cmd, sizeof(cmd), "hist --svg %%s f:1 no:9 %s", cap);
		keeps("hist --svg OUT with an unknown site", cmd, 2);
		snprintf(cmd, sizeof(cmd), "export --format csv --pair x:1,y:2 -o %%s %s", cap);
		keeps("export -o OUT with a bad --pair", cmd, 2);
	}
	/* a write error is named, the link to /dev/full stays */
	snprintf(path, sizeof(path), "%s/full.out", tmpdir);
	unlink(path);
	if (!symlink("/dev/full", path)) {
		s = runf(&out, &err, "convert -o %s %s", path, cap);
		CHECK_WHY(s == 1 && strstr(err, "No space left on device") && !lstat(path, &st) &&
			  S_ISLNK(st.st_mode),
			  "convert -o a link to /dev/full: ENOSPC named, exit 1, the link stays",
			  "status %d, stderr:\n%s", s, err);
		free(out);
		free(err);
		s = runf(&out, &err, "hist --svg %s f:1 g:2 %s", path, cap);
		CHECK_WHY(s == 1 && !*out && strstr(err, "No space left on device"),
			  "hist --svg to a full device: nothing printed, ENOSPC named, exit 1",
			  "status %d, stdout %zu bytes, stderr:\n%s", s, strlen(out), err);
		free(out);
		free(err);
	}
	/* into a directory that does not exist: before anything is printed */
	for (int i = 0; i < 2; i++) {
		s = runf(&out, &err, "%s --svg %s/no/such/dir/x.svg f:1 g:2 %s%s%s",
			 i ? "diff" : "hist", tmpdir, cap, i ? " " : "", i ? cap : "");
		CHECK_WHY(s == 1 && !*out && strstr(err, "No such file or directory"),
			  i ? "diff --svg into a missing directory: exit 1, nothing printed" :
			      "hist --svg into a missing directory: exit 1, nothing printed",
			  "status %d, stdout:\n%s\nstderr:\n%s", s, out, err);
		free(out);
		free(err);
	}
	/* inputs are not outputs */
	s = runf(&out, &err, "hist --svg %s f:1 g:2 %s", cap, cap);
	c = content(cap);
	CHECK_WHY(s == 2 && !strncmp(c, LGD_CAP_MAGIC, 8), "hist --svg CAP ... CAP: refused, the capture intact",
		  "status %d, stderr:\n%s", s, err);
	free(c);
	free(out);
	free(err);
	s = runf(&out, &err, "diff --svg %s f:1 g:2 %s %s", cap, cap, cap);
	c = content(cap);
	CHECK_WHY(s == 2 && !strncmp(c, LGD_CAP_MAGIC, 8), "diff --svg B ... A B: refused, the capture intact",
		  "status %d, stderr:\n%s", s, err);
	free(c);
	free(out);
	free(err);
	s = runf(&out, &err, "export --format csv -o %s %s", cap, cap);
	CHECK_WHY(s == 2 && strstr(err, "is an input"), "export -o CAP CAP: refused",
		  "status %d, stderr:\n%s", s, err);
	free(out);
	free(err);
	/* success: a new file, and an existing one replaced whole */
	snprintf(path, sizeof(path), "%s/ok.svg", tmpdir);
	write_tmp("ok.svg", "OLD\n", 4);
	s = runf(&out, &err, "hist --svg %s f:1 g:2 %s", path, cap);
	c = content(path);
	CHECK_WHY(s == 0 && !strncmp(c, "<?xml", 5) && strstr(out, "count "),
		  "hist --svg OK: the picture replaces the old file, then the table",
		  "status %d, file '%.20s', stderr:\n%s", s, c, err);
	free(c);
	free(out);
	free(err);
}

/* ---- B: convert --cpu-max --------------------------------------------- */
static void test_convert_limit(void)
{
	char dat[700], *out, *err;
	int st;

	snprintf(dat, sizeof(dat), "%s/limit.dat", tmpdir);
	st = runf(&out, &err, "convert --cpu-max 8192 -o %s %s", dat, cap);
	CHECK_WHY(st == 1 && strstr(err, "cpu 0's data would pass 8192 bytes") &&
		  strstr(err, "nothing written") && access(dat, F_OK) != 0,
		  "convert: one CPU's data past --cpu-max is refused (exit 1, said, no file left)",
		  "status %d, file %s, stderr:\n%s", st, access(dat, F_OK) ? "absent" : "left", err);
	free(out);
	free(err);
	st = runf(&out, &err, "convert --cpu-max 100 -o %s %s", dat, cap);
	CHECK_WHY(st == 1 && access(dat, F_OK) != 0,
		  "convert --cpu-max 100: under a page, refused too", "status %d, stderr:\n%s", st, err);
	free(out);
	free(err);
	st = runf(&out, &err, "convert --cpu-max 0 -o %s %s", dat, cap);
	CHECK_WHY(st == 0 && access(dat, F_OK) == 0 && strstr(err, "600 records"),
		  "convert --cpu-max 0: no limit, all 600 records written", "status %d, stderr:\n%s",
		  st, err);
	free(out);
	free(err);
	st = runf(&out, &err, "convert -o %s %s", dat, cap);
	CHECK_WHY(st == 0 && strstr(err, "600 records"),
		  "convert: the default limit (2 GiB less a page) lets a small capture through",
		  "status %d, stderr:\n%s", st, err);
	free(out);
	free(err);
	for (int i = 0; i < 3; i++) {
		static const char *const bad[] = { "x", "-1", "12k" };
		char name[200];

		st = runf(&out, &err, "convert --cpu-max %s -o %s %s", bad[i], dat, cap);
		snprintf(name, sizeof(name), "convert --cpu-max %s: usage error", bad[i]);
		CHECK_WHY(st == 2 && strstr(err, "bad --cpu-max"), name, "status %d, stderr:\n%s",
			  st, err);
		free(out);
		free(err);
	}
}

/* ---- C: a capture given as a pattern ---------------------------------- */
static void test_pattern_files(void)
{
	char locked[700], name[900], *out, *err;
	int st;

	snprintf(locked, sizeof(locked), "%s/locked.cap", tmpdir);
	write_tmp("locked.cap", "not readable", 12);
	chmod(locked, 0);
	for (int i = 0; i < 4; i++) {
		const char *f = i < 2 ? cap : locked;

		st = runf(&out, &err, "%s --%s %s", i & 1 ? "deltas" : "report",
			  i & 1 ? "comm" : "site", f);
		snprintf(name, sizeof(name), "%s --%s CAPTURE%s: a usage error (exit 2), not a pattern "
			 "with the live buffer read", i & 1 ? "deltas" : "report", i & 1 ? "comm" : "site",
			 i < 2 ? "" : " (named *.cap, unreadable)");
		CHECK_WHY(st == 2 && strstr(err, "is a capture, not a pattern"), name,
			  "status %d, stderr:\n%s", st, err);
		free(out);
		free(err);
	}
	chmod(locked, 0600);
	st = runf(&out, &err, "report --site 'f*' %s", cap);
	CHECK_WHY(st == 0 && strstr(out, "f:1 in"), "report --site PATTERN CAP: still a pattern",
		  "status %d, stderr:\n%s", st, err);
	free(out);
	free(err);
}

/* every verb whose table goes to stdout names a failed write of it and exits 1 */
static void test_stdout_full(void)
{
	static const char *const verbs[] = { "report", "deltas", "hist f:1 g:2", "export --format csv" };
	char cmd[2048], errf[600];

	snprintf(errf, sizeof(errf), "%s/full.err", tmpdir);
	for (size_t i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++) {
		char *err;
		int st;

		snprintf(cmd, sizeof(cmd), "timeout 60 %s %s %s >/dev/full 2>%s", cli, verbs[i], cap, errf);
		st = system(cmd);
		err = slurp(errf);
		CHECK_WHY(WIFEXITED(st) && WEXITSTATUS(st) == 1 && strstr(err, "No space left on device"),
			  "stdout a full device: the verb names ENOSPC, exits 1", "%s: status %d, stderr:\n%s",
			  verbs[i], WIFEXITED(st) ? WEXITSTATUS(st) : -1, err);
		free(err);
	}
	snprintf(cmd, sizeof(cmd), "timeout 60 %s diff %s %s >/dev/full 2>%s", cli, cap, cap, errf);
	{
		int st = system(cmd);
		char *err = slurp(errf);

		CHECK_WHY(WIFEXITED(st) && WEXITSTATUS(st) == 1 && strstr(err, "No space left on device"),
			  "stdout a full device: diff names ENOSPC, exits 1", "status %d, stderr:\n%s",
			  WIFEXITED(st) ? WEXITSTATUS(st) : -1, err);
		free(err);
	}
}

int main(int argc, char **argv)
{
	struct trec r[600];

	if (argc < 2) {
		fprintf(stderr, "usage: test_output_files PATH-TO-logdev\n");
		return 2;
	}
	cli = argv[1];
	if (tmpdir_make())
		return 1;
	for (int i = 0; i < 600; i++)
		r[i] = (struct trec){ 1000 + 1000 * (uint64_t)i, 1 + (uint32_t)(i & 1), NULL, 0, 0, 0 };
	snprintf(cap, sizeof(cap), "%s", tl_build("outputs.cap", tl_fts, r, 600));
	test_outputs();
	test_convert_limit();
	test_pattern_files();
	test_stdout_full();
	tmpdir_remove();
	printf("outputs: %d passed, %d failed\n", ldc_passes, ldc_failures);
	return ldc_exit_status();
}
