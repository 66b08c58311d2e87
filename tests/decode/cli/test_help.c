// SPDX-License-Identifier: GPL-2.0
/*
 * test_help.c: what the CLI says when there is nothing to read, and its
 * help (CLI): no live buffer gives a hint to load the module and exit 1;
 * empty tables; help has an example per verb, the man page lists every verb
 * and option, bash completion offers them.
 * Usage: test_help PATH-TO-logdev [SOURCE-TOP]
 * Output: PASS/FAIL lines (ldcheck.h); exit 1 if anything failed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "liblogdev.h"
#include "testlib.h"
#include "fixture.h"

char tmpdir[] = "/tmp/logdev-help-XXXXXX";

static const char *top = "../..";	/* the source tree, from tests/decode */

/* ---- no live buffer; empty tables ----------------------------------------- */

static void test_live_missing(void)
{
	static const char *const verbs[] = { "report", "deltas", "convert -o /dev/null",
					     "record --duration 0 -o" };
	char args[1200], env[600], p[600], *out, *err, *dir;
	int st;

	for (size_t i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++) {
		snprintf(args, sizeof(args), "%s%s%s", verbs[i], i == 3 ? " " : "",
			 i == 3 ? tmp_path("rec.cap") : "");
		st = run_cli_env("LOGDEV_DEBUGFS=/nonexistent/logdev", args, &out, &err);
		CHECK_WHY(st == 1 && strstr(err, "no live logdev buffer at /nonexistent/logdev") &&
			  strstr(err, "sudo modprobe logdev") && strstr(err, "insmod kernel/logdev.ko") &&
			  strstr(err, "mount -t debugfs"),
			  NAMEF("live: %s without the module says how to load it, exit 1", verbs[i]),
			  "status %d, stderr:\n%s", st, err);
		free(out);
		free(err);
	}

	/* a debugfs directory whose per-CPU files are all missing */
	dir = strdup(tmp_path("dbg"));
	mkdir(dir, 0755);
	snprintf(p, sizeof(p), "%s/header", dir);
	put(p, header_text);
	snprintf(p, sizeof(p), "%s/formats", dir);
	put(p, plain_formats);
	snprintf(p, sizeof(p), "%s/flush", dir);
	put(p, "0\n");
	snprintf(p, sizeof(p), "%s/per_cpu", dir);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/per_cpu/cpu0", dir);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/per_cpu/cpu1", dir);
	mkdir(p, 0755);
	snprintf(env, sizeof(env), "LOGDEV_DEBUGFS=%s", dir);
	st = run_cli_env(env, "report", &out, &err);
	CHECK_WHY(st == 1 && strstr(err, "none of the 2 per-CPU buffers"),
		  "live: every per-CPU file missing: exit 1 with a message", "status %d, stderr:\n%s",
		  st, err);
	free(out);
	free(err);
	/* no cpuN at all */
	snprintf(args, sizeof(args), "rmdir %s/per_cpu/cpu0 %s/per_cpu/cpu1", dir, dir);
	CHECK_EQ(system(args), 0, "live: rmdir");
	st = run_cli_env(env, "deltas", &out, &err);
	CHECK_WHY(st == 1 && strstr(err, "no per-CPU buffer"),
		  "live: no per-CPU directory at all: exit 1 with a message", "status %d, stderr:\n%s",
		  st, err);
	free(out);
	free(err);
	free(dir);
}

static void test_empty_tables(void)
{
	struct buf b = { 0 };
	struct sbuf s;
	char args[1200], *out, *err, *path;
	int st;

	cap_meta(&b, plain_formats);
	sb_begin(&s, 0, 0, 1000, 0, 0);
	sb_rec(&s, 1000, 1, LOGDEV_REC_PRINT, 0, 1, NULL, 0);
	cap_sect(&b, LGD_SECT_CPU_DATA, 0, s.b, SBS);
	cap_sect(&b, LGD_SECT_END, LGD_CAP_NO_CPU, NULL, 0);
	path = write_tmp("one.cap", b.p, b.n);
	free(b.p);

	snprintf(args, sizeof(args), "deltas --durations %s", path);
	st = run_cli(args, &out, &err);
	CHECK_WHY(st == 0 && !strstr(out, "from ") &&
		  strstr(out, "no pairs: no return-probe record paired with its entry\n") &&
		  strstr(out, "durations: 0 paired"),
		  "empty: deltas --durations with no pairs says so instead of a bare header",
		  "status %d:\n%s", st, out);
	free(out);
	free(err);
	snprintf(args, sizeof(args), "deltas %s", path);
	st = run_cli(args, &out, &err);
	CHECK_WHY(st == 0 && !strcmp(out, "no pairs: no two records of one stream (--by: CPU, context level, task)\n"),
		  "empty: deltas of one record says 'no pairs'", "status %d:\n%s", st, out);
	free(out);
	free(err);
}

/* ---- help: examples, the man page, bash completion ------------------------ */

/* the verbs of `logdev --help`'s usage block, space-separated, into @v */
static void verbs_of_help(char *v, size_t n)
{
	char *out, *err, *l;
	int in = 0;

	v[0] = 0;
	run_cli("--help", &out, &err);
	for (l = out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		char w[64];

		if (!strncmp(l, "usage:", 6)) {
			in = 1;
			continue;
		}
		if (*l != ' ')
			in = 0;
		if (in && sscanf(l, " logdev %63s", w) == 1 && w[0] != '-')
			snprintf(v + strlen(v), n - strlen(v), "%s ", w);
	}
	free(out);
	free(err);
}

static void test_help_man(void)
{
	char verbs[256], path[600], args[300], *man, *out, *err, *v, *save = NULL;
	size_t n;
	int st;

	verbs_of_help(verbs, sizeof(verbs));
	CHECK_STR_EQ(verbs, "record report deltas diff hist export convert callees help ", "help: the verbs of logdev --help");
	snprintf(path, sizeof(path), "%s/docs/logdev.1", top);
	man = slurp_n(path, &n);
	CHECK_TRUE(n > 1000, "man: docs/logdev.1 is there");
	/* roff's "\-" is a "-" */
	for (char *r = man, *w = man; ; r++) {
		if (r[0] == '\\' && r[1] == '-')
			continue;
		if (!(*w++ = *r))
			break;
	}
	for (v = strtok_r(verbs, " ", &save); v; v = strtok_r(NULL, " ", &save)) {
		char ss[80];

		snprintf(ss, sizeof(ss), "\n.SS %s\n", v);
		CHECK_TRUE(strstr(man, ss) != NULL, NAMEF("man: a section for %s", v));
		snprintf(args, sizeof(args), "%s --help", v);
		st = run_cli(args, &out, &err);
		CHECK_EQ(st, 0, NAMEF("help: %s --help exits 0", v));
		CHECK_TRUE(strstr(out, "\nexamples:\n  ") && strstr(strstr(out, "\nexamples:\n"), "logdev "),
			   NAMEF("help: %s --help has an example", v));
		if (strcmp(v, "help"))
			CHECK_STR_CONTAINS(out, "exit status: 0 ", NAMEF("help: %s --help gives the exit statuses", v));
		/* every option of its option lines ("  -o, --output FILE  ...") */
		for (char *l = out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
			char *e = strchr(l, '\n'), line[200], *p;

			snprintf(line, sizeof(line), "%.*s", e ? (int)(e - l) : (int)strlen(l), l);
			if (strncmp(line, "  -", 3) && strncmp(line, "      --", 8))
				continue;
			for (p = line; *p == ' '; p++)
				;
			while (*p == '-') {	/* "-o," "--output" ... up to the value or text */
				char opt[40];
				int k = 0;

				while (*p && *p != ' ' && *p != ',' && k < 39)
					opt[k++] = *p++;
				opt[k] = 0;
				if (strcmp(opt, "--"))	/* record's "-- COMMAND" */
					CHECK_TRUE(strstr(man, opt) != NULL,
						   NAMEF("man: %s %s is documented", v, opt));
				while (*p == ',' || *p == ' ')
					p++;
			}
		}
		free(out);
		free(err);
	}
	CHECK_STR_CONTAINS(man, "\n.SH EXIT STATUS\n", "man: exit statuses");
	CHECK_STR_CONTAINS(man, "\n.SH TERMINAL SAFETY\n", "man: terminal safety");
	free(man);
	/* man renders it without a warning, if man is there */
	if (!system("command -v groff >/dev/null 2>&1")) {
		snprintf(args, sizeof(args), "groff -man -Tutf8 -ww -z %s/docs/logdev.1 > %s 2>&1", top,
			 tmp_path("groff.txt"));
		st = system(args);
		out = slurp(tmp_path("groff.txt"));
		CHECK_WHY(st == 0 && !out[0], "man: groff -ww renders it without warnings", "%s", out);
		free(out);
	}
}

/* COMPREPLY of _logdev for the words @words (the last one being completed) */
static char *complete(const char *words)
{
	char cmd[1500];

	snprintf(cmd, sizeof(cmd),
		 "bash -c 'source %s/userspace/logdev.bash-completion || exit 9; "
		 "COMP_WORDS=(%s %s); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); "
		 "_logdev; echo \"${COMPREPLY[*]}\"' > %s 2>&1",
		 top, cli, words, tmp_path("compl.txt"));
	if (system(cmd))
		return strdup("bash failed");
	return slurp(tmp_path("compl.txt"));
}

static void test_completion(void)
{
	static const struct { const char *words, *want; } cases[] = {
		{ "re", "record report\n" },
		{ "\"\"", "record report deltas diff hist export convert callees help\n" },
		{ "export --format \"\"", "json csv perfetto\n" },
		{ "hist --", "--breakdown --by --comm --context --cpu --durations --from --help "
			     "--include-recorder --kallsyms --pair --pid --site --svg --to\n" },
		{ "deltas --", "--breakdown --by --by-parent --comm --context --cpu --durations --follow --from "
			       "--help --include-recorder --inside --jobs --kallsyms --pair --pid --raw --site --sort --to "
			       "--window\n" },
		{ "report --context \"\"", "task softirq hardirq nmi\n" },
		{ "deltas --sort m", "max median\n" },
		{ "diff --format \"\"", "text csv json\n" },
		{ "help co", "convert\n" },
		{ "--ver", "--version\n" },
		{ "record --no", "--no-enable\n" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = complete(cases[i].words);

		CHECK_STR_EQ(got, cases[i].want, NAMEF("completion: logdev %s<TAB>", cases[i].words));
		free(got);
	}
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: test_help PATH-TO-logdev [SOURCE-TOP]\n");
		return 2;
	}
	cli = argv[1];
	if (argc > 2)
		top = argv[2];
	if (tmpdir_make())
		return 1;
	test_live_missing();
	test_empty_tables();
	test_help_man();
	test_completion();
	tmpdir_remove();
	printf("help: %d passed, %d failed\n", ldc_passes, ldc_failures);
	return ldc_exit_status();
}
