// SPDX-License-Identifier: GPL-2.0
/*
 * cli-opts.c: options and help of the logdev verbs (layer: CLI): --help
 * text and examples, getopt with the shared filter options, numbers, --by,
 * site labels, and whether an argument names a capture.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "cli.h"
#include "subbuf.h"

const struct cli_cmd *cli_current;
const char *cli_kallsyms;

/* each verb's examples, for its --help and docs/logdev.1 */
static const struct {
	const char *verb, *text;
} cli_examples[] = {
	{ "record", "  sudo logdev record -o boot.cap --duration 10\n"
		    "  sudo logdev record -o ls.cap -- ls -l /     (until ls exits)\n"
		    "  sudo logdev record --last-boot -o crash.cap (the buffer of the boot before)\n"
		    "  logdev record --area mem.img -o crash.cap   (a raw area; logdev report mem.img\n"
		    "                                               reads one too)\n" },
	{ "report", "  logdev report demo.cap | less\n"
		    "  logdev report --raw demo.cap | awk -F'\\t' '$6 == \"kfree_skbmem\"'\n"
		    "  sudo logdev report                          (the live buffers, consuming)\n"
		    "  logdev report --cpu 1 --comm 'kworker*' --from +1.5s --to +2s run.cap\n"
		    "  sudo logdev report --follow --site 'kfree*'  (live, as it comes; Ctrl-C ends)\n" },
	{ "deltas", "  logdev deltas --sort=p99 demo.cap\n"
		    "  logdev deltas --by cpu run.cap              (pairs across contexts, as before)\n"
		    "  logdev deltas --durations probes.cap        (return probes: entry to return)\n"
		    "  logdev deltas --pair show_smap:10,show_smap:20 --inside show_smap:10 run.cap\n"
		    "  logdev deltas --site 'demo_*' --context task run.cap  (pairs of demo_ sites only)\n"
		    "  sudo logdev deltas --follow                 (live table, redrawn every second)\n" },
	{ "diff", "  logdev diff before.cap after.cap\n"
		  "  logdev diff --format csv --min-count 10 before.cap after.cap > diff.csv\n"
		  "  logdev diff --svg skb.svg demo_skb:117 demo_skb:119 before.cap after.cap\n"
		  "  logdev diff --pid 1234 --from +1s before.cap after.cap\n"
		  "  logdev diff --pair kfree_skbmem:813,kfree_skbmem:818 slub.cap slob.cap\n" },
	{ "hist", "  logdev hist demo_skb:117 demo_skb:119 demo.cap\n"
		  "  logdev hist --pair 1 --svg top.svg demo.cap  (the first row of logdev deltas)\n"
		  "  logdev hist --durations vfs_read vfs_read%return probes.cap\n" },
	{ "export", "  logdev export --format perfetto -o demo.json demo.cap  (ui.perfetto.dev)\n"
		    "  logdev export --format csv demo.cap > demo.csv\n"
		    "  logdev export --format json demo.cap | jq 'select(.type == \"lost\")'\n" },
	{ "convert", "  logdev convert -o demo.dat demo.cap && trace-cmd report demo.dat\n"
		     "  logdev convert -o cpu0.dat --cpu 0 demo.cap\n" },
	{ "callees", "  sudo logdev callees kfree_skbmem\n"
		     "  sudo logdev record --callees kfree_skbmem -o skb.cap -- ping -c 100 -f ::1\n"
		     "  logdev deltas --durations --by-parent skb.cap  (which callee holds the time)\n" },
	{ "help", "  logdev help deltas\n" },
};

const char cli_exit_text[] =
	"exit status: 0 all decoded; 3 decoded with warnings (truncated or corrupt data,\n"
	"lost events, absurd timestamps, records left out of statistics: said on\n"
	"stderr); 1 an unusable capture (an empty file too), an I/O error or no live\n"
	"buffer; 2 a usage error.\n";

static const char record_exit_text[] =
	"exit status: 0 done; 1 an error (write errors included); 128+N when signal N\n"
	"ended the recording (0 for INT/TERM without --duration and COMMAND); else\n"
	"COMMAND's status; 2 a usage error.  --last-boot, --area: 0 written, 3 written\n"
	"with warnings (sub-buffers lost, a cut image), 1 none or unusable.\n";

static const char callees_exit_text[] =
	"exit status: 0 listed; 3 listed with warnings (the kprobes blacklist unreadable,\n"
	"bytes that decode as no instruction: said on stderr); 1 a FUNC not found or\n"
	"its code unreadable (/proc/kcore and /proc/kallsyms need root); 2 a usage error.\n";

int cli_verb_help(const struct cli_cmd *c)
{
	printf("usage: logdev %s\n%s", c->usage, c->options);
	printf("  -h, --help           this help\n");
	for (size_t i = 0; i < sizeof(cli_examples) / sizeof(cli_examples[0]); i++)
		if (!strcmp(cli_examples[i].verb, c->name))
			printf("examples:\n%s", cli_examples[i].text);
	if (strcmp(c->name, "help"))
		fputs(!strcmp(c->name, "record") ? record_exit_text :
		      !strcmp(c->name, "callees") ? callees_exit_text : cli_exit_text, stdout);
	printf("man logdev: every verb in full.\n");
	return fflush(stdout) ? 1 : 0;
}

static void usage_hint(const char *verb)
{
	if (cli_current && !strcmp(cli_current->name, verb))
		fprintf(stderr, "usage: logdev %s\n", cli_current->usage);
	fprintf(stderr, "logdev %s --help: its options and examples\n", verb);
}

int cli_verb_usage_error(const struct cli_cmd *c)
{
	fprintf(stderr, "usage: logdev %s\n", c->usage);
	return 2;
}

int cli_opt_error(const char *verb, int c, int optopt_, char **argv, int optind_)
{
	const char *arg = optind_ > 0 ? argv[optind_ - 1] : "";
	char name[64];

	/* a long option by its text (without "=VALUE"), a short one by optopt */
	if (!strncmp(arg, "--", 2))
		snprintf(name, sizeof(name), "%.*s", (int)strcspn(arg, "="), arg);
	else
		snprintf(name, sizeof(name), "-%c", optopt_);
	if (c == ':')
		fprintf(stderr, "logdev%s%s: %s needs a value\n", *verb ? " " : "", verb, name);
	else if (!strncmp(arg, "--", 2) && strchr(arg, '=') && optopt_)
		/* getopt_long sets optopt for a known option given a value it does not take */
		fprintf(stderr, "logdev%s%s: %s takes no value\n", *verb ? " " : "", verb, name);
	else
		fprintf(stderr, "logdev%s%s: unknown option %s\n", *verb ? " " : "", verb, name);
	if (c == '?' && optopt_ == 'f' && strncmp(arg, "--", 2))
		/* one meaning in every verb, as tail -f: it was --format in diff and export */
		fprintf(stderr, "  -f is --follow, in the verbs that follow (report, deltas)%s%s%s%s\n",
			*verb ? "; " : "", verb, *verb ? " does not follow" : "",
			cli_current && strstr(cli_current->usage, "--format") ?
			"; --format has no short option" : "");
	if (*verb)
		usage_hint(verb);
	return 2;
}

int cli_getopt(struct cli_getopt *g, int argc, char **argv)
{
	const char *verb = g->cmd->name;
	int c, fk;

	opterr = 0;
	for (;;) {
		c = getopt_long(argc, argv, g->shortopts, g->longopts, NULL);
		if (c == -1)
			return -1;
		fk = cli_filter_opt(verb, c, optarg);
		if (fk > 0) {
			g->status = fk;
			return 0;
		}
		if (!fk)
			continue;
		if (c == 'b' && g->by) {
			if (cli_by_arg(verb, optarg, g->by)) {
				g->status = 2;
				return 0;
			}
			continue;
		}
		if (c == 'h') {
			g->status = cli_verb_help(g->cmd);
			return 0;
		}
		if (c == '?' || c == ':') {
			g->status = cli_opt_error(verb, c, optopt, argv, optind);
			return 0;
		}
		return c;
	}
}

int cli_file_arg(const char *verb, int argc, char **argv, int optind_, const char **file)
{
	if (argc - optind_ > 1) {
		fprintf(stderr, "logdev %s: one FILE only\n", verb);
		return 2;
	}
	*file = optind_ < argc ? argv[optind_] : NULL;
	return 0;
}

/* digits+ [. digits+] [e [+-] digits+] (@integer: digits+ only) */
static int num_syntax(const char *s, int integer)
{
	const char *p = s;

	if (!isdigit((unsigned char)*p))
		return 0;
	while (isdigit((unsigned char)*p))
		p++;
	if (integer)
		return !*p;
	if (*p == '.') {
		if (!isdigit((unsigned char)*++p))
			return 0;
		while (isdigit((unsigned char)*p))
			p++;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (!isdigit((unsigned char)*p))
			return 0;
		while (isdigit((unsigned char)*p))
			p++;
	}
	return !*p;
}

static int bad_num(const char *cmd, const char *opt, const char *s, const char *expect)
{
	fprintf(stderr, "logdev %s: bad %s '%s': expected %s\n", cmd, opt, s, expect);
	return 2;
}

int cli_parse_uint(const char *cmd, const char *opt, const char *s, uint64_t lo,
		   uint64_t hi, uint64_t *v)
{
	char expect[128];
	unsigned long long x;
	char *end;

	snprintf(expect, sizeof(expect), "a whole number from %" PRIu64 " to %" PRIu64, lo, hi);
	if (!num_syntax(s, 1))
		return bad_num(cmd, opt, s, expect);
	errno = 0;
	x = strtoull(s, &end, 10);
	if (errno || *end || x < lo || x > hi)
		return bad_num(cmd, opt, s, expect);
	*v = x;
	return 0;
}

int cli_parse_real(const char *cmd, const char *opt, const char *s, double lo,
		   double hi, const char *what, const char *hint, double *v)
{
	char expect[256];
	double x;
	char *end;

	snprintf(expect, sizeof(expect), "a decimal number of %s from %.15g to %.15g%s%s", what,
		 lo, hi, hint ? "; " : "", hint ? hint : "");
	if (!num_syntax(s, 0))
		return bad_num(cmd, opt, s, expect);
	errno = 0;
	x = strtod(s, &end);
	/* ERANGE: overflow (1e400) or underflow (1e-400) */
	if (errno || *end || !isfinite(x) || x < lo || x > hi)
		return bad_num(cmd, opt, s, expect);
	*v = x;
	return 0;
}

struct lgd_filter cli_filter;

/* the first 8 bytes of @path if it is a regular file (or, with @dev, a block device); 0 or -1 */
static int magic_of(const char *path, int dev, char m[8])
{
	struct stat st;
	ssize_t n;
	int fd;

	/* never take bytes from a FIFO's reader */
	if (stat(path, &st) || !(S_ISREG(st.st_mode) || (dev && S_ISBLK(st.st_mode))))
		return -1;
	fd = open(path, O_RDONLY | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, m, 8);
	close(fd);
	return n == 8 ? 0 : -1;
}

int cli_is_area(const char *path)
{
	char m[8];

	return !magic_of(path, 1, m) && !memcmp(m, LOGDEV_AREA_MAGIC, 8);
}

int cli_is_capture(const char *path)
{
	char m[8];

	return !magic_of(path, 0, m) &&
	       (!memcmp(m, LGD_CAP_MAGIC, 8) || !memcmp(m, LOGDEV_AREA_MAGIC, 8));
}

/*
 * Is @arg, given as a pattern, rather a capture whose pattern was
 * forgotten?  A regular file that starts as a capture, is named *.cap, or
 * cannot be read (then it cannot be told; a pattern that happens to name a
 * file this user cannot read is rare).  Other files stay patterns.
 */
static int names_capture(const char *arg)
{
	struct stat st;
	size_t n = strlen(arg);

	if (stat(arg, &st) || !S_ISREG(st.st_mode))
		return 0;
	return cli_is_capture(arg) || (n > 4 && !strcmp(arg + n - 4, ".cap")) ||
	       access(arg, R_OK) != 0;
}

int cli_filter_opt(const char *verb, int c, const char *arg)
{
	static const char *const names[] = {
		[CLI_OPT_CPU - CLI_OPT_CPU] = "cpu", [CLI_OPT_PID - CLI_OPT_CPU] = "pid",
		[CLI_OPT_COMM - CLI_OPT_CPU] = "comm", [CLI_OPT_SITE - CLI_OPT_CPU] = "site",
		[CLI_OPT_CONTEXT - CLI_OPT_CPU] = "context", [CLI_OPT_FROM - CLI_OPT_CPU] = "from",
		[CLI_OPT_TO - CLI_OPT_CPU] = "to",
	};
	char why[200];
	char *e;
	int ret;

	if (c == CLI_OPT_INCLUDE_RECORDER) {
		cli_filter.include_recorder = 1;
		return 0;
	}
	if (c == CLI_OPT_KALLSYMS) {
		cli_kallsyms = arg;
		return 0;
	}
	if (c < CLI_OPT_CPU || c > CLI_OPT_TO)
		return -1;
	if ((c == CLI_OPT_SITE || c == CLI_OPT_COMM) && names_capture(arg)) {
		/* `report --site run.cap`: the pattern was forgotten, and the
		 * capture would be taken for it and the live buffer read */
		e = lgd_escape_alloc(arg);
		fprintf(stderr, "logdev %s: --%s '%s' is a capture, not a pattern: write --%s PATTERN %s\n",
			verb, names[c - CLI_OPT_CPU], e ? e : "?", names[c - CLI_OPT_CPU],
			e ? e : "FILE");
		free(e);
		return 2;
	}
	ret = lgd_filter_set(&cli_filter, names[c - CLI_OPT_CPU], arg, why, sizeof(why));
	if (ret == -ENOMEM) {
		fprintf(stderr, "logdev: out of memory\n");
		exit(1);
	}
	if (!ret && (c == CLI_OPT_FROM || c == CLI_OPT_TO)) {
		/* the text of each end as given, for the message below */
		static char ends[2][64];
		const struct lgd_filter *f = &cli_filter;
		int i = c == CLI_OPT_TO;

		snprintf(ends[i], sizeof(ends[i]), "%s", arg);
		/* both ends on the same scale (absolute, or from the first
		 * record) and an empty window: nothing could pass */
		if (f->has_from && f->has_to && f->from_rel == f->to_rel && f->from_ns >= f->to_ns) {
			snprintf(why, sizeof(why), "not %s --%s (%s): no record could be in the window",
				 i ? "after" : "before", i ? "from" : "to", ends[!i]);
			ret = -EINVAL;
		}
	}
	if (ret) {
		e = lgd_escape_alloc(arg);
		fprintf(stderr, "logdev %s: bad --%s '%s': %s\n", verb, names[c - CLI_OPT_CPU],
			e ? e : "?", why);
		free(e);
		return 2;
	}
	return 0;
}

int cli_by_arg(const char *verb, const char *arg, int *by)
{
	int b = lgd_by_parse(arg);

	if (b < 0) {
		fprintf(stderr, "logdev %s: bad --by value '%s' (cpu, task or context)\n", verb,
			arg);
		return 2;
	}
	*by = b;
	return 0;
}

int64_t cli_site_by_label(const struct lgd_reader *r, const char *label)
{
	return lgd_site_find(&r->sites, label);
}

void cli_site_unknown(const struct lgd_reader *r, const char *arg)
{
	char *c[CLI_SITE_HINTS];
	int n = lgd_site_closest(&r->sites, arg, c, CLI_SITE_HINTS);
	int several = lgd_site_find(&r->sites, arg) == -2;

	if (n <= 0) {
		fprintf(stderr, "  (the capture has no site)\n");
		return;
	}
	if (several) {
		char *e = lgd_escape_alloc(arg);

		fprintf(stderr, "  %s is a probe name with several labels (definitions): ",
			e ? e : "?");
		free(e);
	} else {
		fprintf(stderr, "  closest labels: ");
	}
	for (int i = 0; i < n; i++) {
		char *e = lgd_escape_alloc(c[i]);

		fprintf(stderr, "%s%s", i ? ", " : "", e ? e : "?");
		free(e);
		free(c[i]);
	}
	fputc('\n', stderr);
}
