// SPDX-License-Identifier: GPL-2.0
/*
 * test_options.c - the CLI's option parsing (getopt_long per verb):
 * `logdev --help`, `logdev -h`, `logdev --version`, `logdev VERB --help`
 * and `-h` (usage on stdout, exit 0), unknown options and missing values
 * (exit 2, named on stderr), and every value option of every verb in its
 * three spellings (`--opt VALUE`, `--opt=VALUE`, `-o VALUE`) giving the
 * same output.  `record` runs against a fake debugfs directory.
 *
 *   test_options PATH-TO-logdev
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "liblogdev.h"
#include "testlib.h"

char tmpdir[] = "/tmp/logdev-opts-XXXXXX";

static const char formats_text[] =
	"# id\tfile\tline\tfunc\tformat\n"
	"1\ta.c\t10\tf\tin %d\n2\ta.c\t20\tg\tout %d\n";

static void put_file(const char *dir, const char *name, const void *d, size_t n)
{
	char p[1024];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	f = fopen(p, "wb");
	if (f) {
		fwrite(d, 1, n, f);
		fclose(f);
	}
}

/* one sub-buffer for cpu0: records alternating sites 1 and 2 */
static void one_subbuf(struct sbuf *s, uint64_t ts0, int step)
{
	uint8_t pl[4];

	uint64_t ts = ts0;

	sb_begin(s, 0, 0, ts0, 0, 0);
	for (int i = 0; i < 6; i++) {
		lgd_cap_put_u32(pl, (uint32_t)i);
		ts += (uint64_t)(step * (i % 3 + 1));
		sb_rec(s, ts, 1 + (uint32_t)(i % 2), LOGDEV_REC_PRINT, 0, 7, pl, 4);
	}
}

/* a capture whose deltas differ in count, total and max (sort orders differ) */
static char *make_cap(const char *name, int step)
{
	struct buf b = { 0 };
	struct sbuf s;
	char *p;

	cap_meta(&b, formats_text);
	one_subbuf(&s, 1000, step);
	cap_sect(&b, LGD_SECT_CPU_DATA, 0, s.b, SBS);
	cap_sect(&b, LGD_SECT_END, LGD_CAP_NO_CPU, NULL, 0);
	p = strdup(write_tmp(name, b.p, b.n));
	free(b.p);
	return p;
}

static char *fake_debugfs(void)
{
	char *dir = strdup(tmp_path("dbg")), p[1024];
	struct sbuf s;

	mkdir(dir, 0755);
	put_file(dir, "header", header_text, strlen(header_text));
	put_file(dir, "formats", formats_text, strlen(formats_text));
	put_file(dir, "enable", "0\n", 2);
	put_file(dir, "flush", "0\n", 2);
	put_file(dir, "stats", "cpu0 written=6\n", 15);
	snprintf(p, sizeof(p), "%s/per_cpu", dir);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/per_cpu/cpu0", dir);
	mkdir(p, 0755);
	one_subbuf(&s, 1000, 10);
	put_file(p, "trace_pipe_raw", s.b, SBS);
	return dir;
}

static void test_help_version(void)
{
	static const char *const verbs[] = { "record", "report", "deltas", "diff", "hist", "export",
					     "convert", "callees" };
	char *out, *err, args[200], name[300];
	int st;

	for (int k = 0; k < 2; k++) {
		const char *h = k ? "-h" : "--help";

		st = run_cli(h, &out, &err);
		snprintf(name, sizeof(name), "logdev %s: usage of every verb on stdout, exit 0", h);
		check(name, st == 0 && strstr(out, "usage") && strstr(out, "logdev record") &&
		      strstr(out, "logdev report") && strstr(out, "logdev deltas") &&
		      strstr(out, "logdev diff") && strstr(out, "logdev convert") &&
		      strstr(out, "logdev hist") && strstr(out, "logdev export") && !err[0],
		      "status %d out %.300s err %.300s", st, out, err);
		free(out);
		free(err);
	}
	st = run_cli("--version", &out, &err);
	snprintf(name, sizeof(name), "%d,", LOGDEV_FORMAT_VERSION);
	check("logdev --version: version and the record format it reads, exit 0",
	      st == 0 && !strncmp(out, "logdev ", 7) && strstr(out, "record format ") &&
	      strstr(strstr(out, "record format ") ? strstr(out, "record format ") : out, name) &&
	      !err[0], "status %d out %.300s err %.300s", st, out, err);
	free(out);
	free(err);
	st = run_cli("", &out, &err);
	check("logdev without a verb: usage on stderr, exit 2",
	      st == 2 && !out[0] && strstr(err, "usage"), "status %d err %.300s", st, err);
	free(out);
	free(err);
	st = run_cli("--bogus", &out, &err);
	check("logdev --bogus: named, exit 2", st == 2 && strstr(err, "--bogus"),
	      "status %d err %.300s", st, err);
	free(out);
	free(err);

	for (size_t i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++) {
		for (int k = 0; k < 2; k++) {
			char want[64];

			snprintf(args, sizeof(args), "%s %s", verbs[i], k ? "-h" : "--help");
			snprintf(want, sizeof(want), "usage: logdev %s ", verbs[i]);
			st = run_cli_env("LOGDEV_DEBUGFS=/nonexistent", args, &out, &err);
			snprintf(name, sizeof(name), "logdev %s: its usage and options on stdout, exit 0",
				 args);
			check(name, st == 0 && !strncmp(out, want, strlen(want)) &&
			      strstr(out, "--") && !err[0],
			      "status %d out %.300s err %.300s", st, out, err);
			free(out);
			free(err);
		}
		snprintf(args, sizeof(args), "%s --bogus-option x", verbs[i]);
		st = run_cli_env("LOGDEV_DEBUGFS=/nonexistent", args, &out, &err);
		snprintf(name, sizeof(name), "logdev %s --bogus-option: named, exit 2, the usage once",
			 verbs[i]);
		check(name, st == 2 && strstr(err, "--bogus-option") && !out[0] &&
		      strstr(err, "usage: ") && !strstr(strstr(err, "usage: ") + 1, "usage: "),
		      "status %d err %.300s", st, err);
		free(out);
		free(err);
	}
	/* a value option given last, without its value */
	static const char *const novalue[][2] = {
		{ "record --duration", "--duration" }, { "record -o", "-o" },
		{ "deltas --sort", "--sort" }, { "diff --format", "--format" },
		{ "diff a b --min-count", "--min-count" }, { "diff -m", "-m" },
		{ "convert x --output", "--output" }, { "convert -o", "-o" },
		{ "hist a b --svg", "--svg" }, { "hist --pair", "--pair" },
		{ "export --format", "--format" }, { "export --format csv -o", "-o" },
	};
	for (size_t i = 0; i < sizeof(novalue) / sizeof(novalue[0]); i++) {
		st = run_cli_env("LOGDEV_DEBUGFS=/nonexistent", novalue[i][0], &out, &err);
		snprintf(name, sizeof(name), "logdev %s (no value): says %s needs a value, exit 2",
			 novalue[i][0], novalue[i][1]);
		check(name, st == 2 && strstr(err, novalue[i][1]) && strstr(err, "needs a value"),
		      "status %d err %.300s", st, err);
		free(out);
		free(err);
	}
	/* a flag given a value: named as taking none, not as unknown */
	static const char *const flagval[][2] = {
		{ "deltas --durations=1 x", "--durations" }, { "report --raw=1 x", "--raw" },
		{ "diff --durations=yes a b", "--durations" },
		{ "hist --durations=1 a b", "--durations" },
	};
	for (size_t i = 0; i < sizeof(flagval) / sizeof(flagval[0]); i++) {
		st = run_cli_env("LOGDEV_DEBUGFS=/nonexistent", flagval[i][0], &out, &err);
		snprintf(name, sizeof(name), "logdev %s: says %s takes no value, exit 2",
			 flagval[i][0], flagval[i][1]);
		check(name, st == 2 && strstr(err, flagval[i][1]) && strstr(err, "takes no value"),
		      "status %d err %.300s", st, err);
		free(out);
		free(err);
	}
}

/* every spelling in @forms (printf with %s = @a, %s = @b) gives the same output */
static void same_output(const char *what, const char *const *forms, int n,
			const char *a, const char *b)
{
	char args[1400], name[1600], *ref = NULL;

	for (int i = 0; i < n; i++) {
		char *out, *err;
		int st;

		snprintf(args, sizeof(args), forms[i], a, b);
		st = run_cli(args, &out, &err);
		snprintf(name, sizeof(name), "%s: \"%s\" %s", what, forms[i],
			 i ? "gives the same output as the first form" : "exit 0, output");
		if (!i)
			check(name, st == 0 && out[0] && !err[0], "status %d err %.300s", st, err);
		else
			check(name, st == 0 && ref && !strcmp(out, ref),
			      "status %d out %.300s\nfirst %.300s", st, out, ref ? ref : "");
		free(err);
		if (!i)
			ref = out;
		else
			free(out);
	}
	free(ref);
}

static void test_spellings(void)
{
	char *a = make_cap("a.cap", 10), *b = make_cap("b.cap", 25);
	static const char *const raw[] = { "report --raw %s", "report -r %s", "report %s --raw",
					   "report -r -- %s" };
	static const char *const sort[] = { "deltas --sort=count %s", "deltas --sort count %s",
					    "deltas -s count %s", "deltas -scount %s",
					    "deltas %s --sort=count" };
	static const char *const sortmax[] = { "deltas --sort=max %s", "deltas --sort max %s",
					       "deltas -s max %s" };
	static const char *const fmt[] = { "diff --format=csv %s %s", "diff --format csv %s %s",
					   "diff %s %s --format csv" };
	static const char *const minc[] = {
		"diff --min-count=2 --format=json %s %s", "diff --min-count 2 --format json %s %s",
		"diff -m 2 --format json %s %s", "diff -m2 --format=json %s %s",
	};

	static const char *const xfmt[] = { "export --format=csv %s", "export --format csv %s",
					    "export %s --format=csv" };
	static const char *const hpair[] = { "hist --pair=1 %s", "hist --pair 1 %s", "hist -p1 %s" };

	same_output("report", raw, 4, a, NULL);
	same_output("deltas", sort, 5, a, NULL);
	same_output("deltas", sortmax, 3, a, NULL);
	same_output("diff", fmt, 3, a, b);
	same_output("diff", minc, 4, a, b);
	same_output("export", xfmt, 3, a, NULL);
	same_output("hist", hpair, 3, a, NULL);
	/* issue 11: a bad --sort or --format lists the valid choices */
	{
		static const char *const bad[][2] = {
			{ "deltas --sort bogus %s", "(total, max, p99, median or count)" },
			{ "diff --format bogus %s %s", "(text, csv or json)" },
			{ "export --format bogus %s", "json, csv or" },
		};

		for (size_t i = 0; i < 3; i++) {
			char args[1400], *out, *err;
			int st;

			snprintf(args, sizeof(args), bad[i][0], a, a);
			st = run_cli(args, &out, &err);
			CHECK_WHY(st == 2 && strstr(err, bad[i][1]) && strstr(err, "bogus"),
				  NAMEF("%s: usage error listing the choices", i == 0 ? "deltas --sort bogus" :
					i == 1 ? "diff --format bogus" : "export --format bogus"),
				  "exit %d, stderr %s", st, err);
			free(out);
			free(err);
		}
	}
	free(a);
	free(b);
}

static void test_record_spellings(void)
{
	char *dir = fake_debugfs(), args[2000], name[300], *out, *err, *cap;
	static const char *const forms[] = {
		"record --output=%s --dir=%s --duration=0.1",
		"record --output %s --dir %s --duration 0.1",
		"record -o %s -d %s --duration 0.1",
		"record -o%s -d%s --no-enable --duration=0",
	};

	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		struct lgd_reader r;
		struct lgd_diag d;
		int st, ok = 0;

		/* a fresh trace_pipe_raw: a record consumes nothing of a regular file */
		cap = tmp_path(i % 2 ? "rec-b.cap" : "rec-a.cap");
		cap = strdup(cap);
		remove(cap);
		snprintf(args, sizeof(args), forms[i], cap, dir);
		st = run_cli_env("LOGDEV_DEBUGFS=/nonexistent", args, &out, &err);
		if (!lgd_reader_open(&r, cap, NULL, NULL, &d)) {
			ok = r.complete && r.nr_cpus == 1;
			lgd_reader_close(&r);
		}
		snprintf(name, sizeof(name), "\"%s\": exit 0, the capture of DIR is written to FILE",
			 forms[i]);
		check(name, st == 0 && ok, "status %d ok %d err %.300s", st, ok, err);
		free(out);
		free(err);
		free(cap);
	}
	/* COMMAND's own options are its own, after "--" */
	cap = strdup(tmp_path("rec-cmd.cap"));
	snprintf(args, sizeof(args), "record -o %s -d %s -- sh -c 'exit 4' -o -d", cap, dir);
	{
		int st = run_cli_env("LOGDEV_DEBUGFS=/nonexistent", args, &out, &err);

		check("record -- sh -c 'exit 4' -o -d: COMMAND's options are left to it (exit 4)",
		      st == 4, "status %d err %.300s", st, err);
		free(out);
		free(err);
	}
	snprintf(args, sizeof(args), "record -o %s -d %s sh -c true", cap, dir);
	{
		int st = run_cli_env("LOGDEV_DEBUGFS=/nonexistent", args, &out, &err);

		check("record COMMAND without \"--\": usage error (exit 2)",
		      st == 2 && strstr(err, "usage"), "status %d err %.300s", st, err);
		free(out);
		free(err);
	}
	snprintf(args, sizeof(args), "record -o %s -d %s -p ' ' --duration 0", cap, dir);
	{
		int st = run_cli_env("LOGDEV_DEBUGFS=/nonexistent", args, &out, &err);

		check("record -p ' ': an empty probe spec, refused (exit 2; it was taken as nothing, exit 0)",
		      st == 2 && strstr(err, "an empty probe spec"), "status %d err %.300s", st, err);
		free(out);
		free(err);
	}
	snprintf(args, sizeof(args), "record -o %s -d %s -p r:x -p r:x --duration 0", cap, dir);
	{
		run_cli_env("LOGDEV_DEBUGFS=/nonexistent", args, &out, &err);
		check("record -p SPEC twice: noted, kept once (the kernel refused the second, advising "
		      "to remove the first)", strstr(err, "probe 'r:x' given twice (-p, -p): attached once") &&
		      !strstr(strstr(err, "given twice") + 1, "given twice"), "err %.300s", err);
		free(out);
		free(err);
	}
	free(cap);
	free(dir);
}

/*
 * Issue 12: a short option means one thing in every verb.  From every
 * verb's --help option lines ("  -o, --output FILE"), each short letter
 * must go with one long option everywhere; -f is --follow (as tail -f:
 * it was --format in diff and export), and every verb without --follow
 * refuses -f (exit 2) saying so, while report's and deltas' -f do exactly
 * what --follow does.  One exception (issue 26): -p is --pair in the verbs
 * that read a capture and --probe in record, which reads none (its -p SPEC
 * is what the issue asked for, as perf probe and bpftrace take probes).
 */
static void test_short_options(void)
{
	char verbs[256] = "", *out, *err, *v, *save = NULL, longs[128][40] = { { 0 } };
	char owner[128][16] = { { 0 } }, clash[400] = "", *a = make_cap("f.cap", 10);
	int nverbs = 0, record_p = 0;

	CHECK_EQ(run_cli("--help", &out, &err), 0, "short options: logdev --help exits 0");
	/* the verbs: the usage block's "  logdev VERB ..." lines */
	for (char *l = strstr(out, "usage:\n"); l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		char w[32];

		if (*l != ' ' && strncmp(l, "usage:", 6))
			break;
		if (sscanf(l, "  logdev %31s", w) == 1 && w[0] != '-' && strcmp(w, "help"))
			snprintf(verbs + strlen(verbs), sizeof(verbs) - strlen(verbs), "%s ", w);
	}
	free(out);
	free(err);
	for (v = strtok_r(verbs, " ", &save); v; v = strtok_r(NULL, " ", &save)) {
		char args[1400], *fo, *fe, *lo, *le;
		int fst, lst, follows = 0;

		nverbs++;
		snprintf(args, sizeof(args), "%s --help", v);
		run_cli(args, &out, &err);
		for (char *l = out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
			unsigned char c;
			char lng[40];

			if (!strncmp(l, "  -f, --follow", 14))
				follows = 1;
			if (sscanf(l, "  -%c, %39[a-z-]", &c, lng) != 2 || c >= 128 || lng[0] != '-')
				continue;
			if (!strcmp(v, "record") && c == 'p' && !strcmp(lng, "--probe")) {
				record_p = 1;
				continue;
			}
			if (!longs[c][0]) {
				snprintf(longs[c], sizeof(longs[c]), "%s", lng);
				snprintf(owner[c], sizeof(owner[c]), "%s", v);
			} else if (strcmp(longs[c], lng) && !clash[0]) {
				snprintf(clash, sizeof(clash), "-%c is %s in %s but %s in %s", c,
					 longs[c], owner[c], lng, v);
			}
		}
		free(out);
		free(err);
		/* -f against --follow (report, deltas), or refused (the others) */
		snprintf(args, sizeof(args), "%s -f %s", v, a);
		fst = run_cli(args, &fo, &fe);
		snprintf(args, sizeof(args), "%s --follow %s", v, a);
		lst = run_cli(args, &lo, &le);
		if (follows)
			CHECK_WHY(fst == lst && fst == 2 && !strcmp(fo, lo) && !strcmp(fe, le),
				  NAMEF("-f: %s -f FILE does what %s --follow FILE does", v, v),
				  "-f: exit %d %s; --follow: exit %d %s", fst, fe, lst, le);
		else
			CHECK_WHY(fst == 2 && strstr(fe, "unknown option -f") &&
				  strstr(fe, "-f is --follow, in the verbs that follow (report, deltas)") && !fo[0],
				  NAMEF("-f: %s has no --follow and refuses -f, saying it is --follow", v),
				  "exit %d, stdout %.100s, stderr %s", fst, fo, fe);
		free(fo);
		free(fe);
		free(lo);
		free(le);
	}
	CHECK_EQ(nverbs, 8, "short options: every verb of logdev --help looked at");
	CHECK_WHY(!clash[0], "short options: each letter means one long option in every verb's --help",
		  "%s", clash);
	CHECK_STR_EQ(longs['f'], "--follow", "short options: -f is --follow");
	CHECK_STR_EQ(longs['o'], "--output", "short options: -o is --output");
	CHECK_STR_EQ(longs['p'], "--pair", "short options: -p is --pair where a capture is read");
	CHECK_TRUE(record_p, "short options: record's -p is --probe (the one exception)");
	free(a);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: test_options PATH-TO-logdev\n");
		return 2;
	}
	cli = argv[1];
	if (tmpdir_make())
		return 1;
	test_help_version();
	test_spellings();
	test_record_spellings();
	test_short_options();
	tmpdir_remove();
	printf("options: %d passed, %d failed\n", passes, failures);
	return failures ? 1 : 0;
}
