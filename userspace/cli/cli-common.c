// SPDX-License-Identifier: GPL-2.0
/*
 * cli-common.c: debugfs access, capture metadata writing, live snapshot,
 * number options, warnings and csv/json string writers shared by the logdev
 * subcommands.
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

unsigned long cli_nwarn;

/*
 * A diagnostic's text, which may quote a capture's or a kernel file's own
 * bytes (a bad header value, a section's line), escaped for the terminal
 * as recorded text is (lgd_escape()); without memory, control bytes as '?'.
 */
const char *cli_diag_text(const char *msg)
{
	static char *last;
	char *p;

	free(last);
	last = lgd_escape_alloc(msg);
	if (last)
		return last;
	for (p = (char *)msg; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	return msg;
}

void cli_warn(void *arg, const struct lgd_diag *d)
{
	const char *what = "at";
	int pos = d->cpu >= 0 || d->seq >= 0;

	(void)arg;
	cli_nwarn++;
	if (d->err == -ENODATA)
		what = "truncated at";		/* the file ends before the data does */
	else if (d->err == -EINVAL || d->err == -EPROTO)
		what = "corrupt at";		/* bytes present but wrong */
	fprintf(stderr, "logdev: warning: ");
	if (d->offset >= 0)
		fprintf(stderr, "%s byte %" PRId64, what, d->offset);
	if (pos)
		fprintf(stderr, "%s", d->offset >= 0 ? " (" : "(");
	if (d->cpu >= 0)
		fprintf(stderr, "CPU %" PRId64, d->cpu);
	if (d->seq >= 0)
		fprintf(stderr, "%ssub-buffer seq %" PRId64, d->cpu >= 0 ? ", " : "", d->seq);
	if (pos)
		fputc(')', stderr);
	/* "warning: corrupt at byte 12 (CPU 0): what", or "warning: what" with no position */
	fprintf(stderr, "%s%s\n", d->offset >= 0 || pos ? ": " : "", cli_diag_text(d->msg));
}

int cli_exit_status(int failed)
{
	if (failed)
		return 1;
	return cli_nwarn ? 3 : 0;
}

const struct cli_cmd *cli_current;

/* each verb's examples, for its --help and docs/logdev.1 */
static const struct {
	const char *verb, *text;
} cli_examples[] = {
	{ "record", "  sudo logdev record -o boot.cap --duration 10\n"
		    "  sudo logdev record -o ls.cap -- ls -l /     (until ls exits)\n" },
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
	"COMMAND's status; 2 a usage error.\n";

int cli_verb_help(const struct cli_cmd *c)
{
	printf("usage: logdev %s\n%s", c->usage, c->options);
	printf("  -h, --help           this help\n");
	for (size_t i = 0; i < sizeof(cli_examples) / sizeof(cli_examples[0]); i++)
		if (!strcmp(cli_examples[i].verb, c->name))
			printf("examples:\n%s", cli_examples[i].text);
	if (strcmp(c->name, "help"))
		fputs(strcmp(c->name, "record") ? cli_exit_text : record_exit_text, stdout);
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

const char *cli_debugfs(void)
{
	const char *e = getenv("LOGDEV_DEBUGFS");

	return e && *e ? e : LOGDEV_DEFAULT_DEBUGFS;
}

static void path_join(char *out, size_t n, const char *dir, const char *name)
{
	if (dir)
		snprintf(out, n, "%s/%s", dir, name);
	else
		snprintf(out, n, "%s", name);
}

char *cli_read_text(const char *dir, const char *name, size_t *len)
{
	char path[4096];
	size_t cap = 65536, n = 0;
	char *b;
	int fd;

	path_join(path, sizeof(path), dir, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	b = malloc(cap + 1);
	while (b) {
		ssize_t r;

		if (n == cap) {
			char *nb = realloc(b, cap * 2 + 1);

			if (!nb) {
				free(b);
				b = NULL;
				break;
			}
			b = nb;
			cap *= 2;
		}
		r = read(fd, b + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;

			free(b);
			b = NULL;
			errno = e;
			break;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	if (b) {
		b[n] = 0;
		*len = n;
	}
	return b;
}

int cli_write_str(const char *dir, const char *name, const char *s)
{
	char path[4096];
	int fd, ret = 0;

	path_join(path, sizeof(path), dir, name);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, s, strlen(s)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

static int uint_cmp(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? -1 : x > y;
}

int cli_list_cpus(const char *dir, unsigned **cpus)
{
	char path[4096];
	DIR *d;
	struct dirent *de;
	unsigned *v = NULL;
	int n = 0;

	snprintf(path, sizeof(path), "%s/per_cpu", dir);
	d = opendir(path);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		unsigned c;
		char extra;
		unsigned *nv;

		if (sscanf(de->d_name, "cpu%u%c", &c, &extra) != 1)
			continue;
		nv = realloc(v, (size_t)(n + 1) * sizeof(*v));
		if (!nv) {
			free(v);
			closedir(d);
			return -ENOMEM;
		}
		v = nv;
		v[n++] = c;
	}
	closedir(d);
	if (n)
		qsort(v, (size_t)n, sizeof(*v), uint_cmp);
	*cpus = v;
	return n;
}

/* does any format in a formats text need kallsyms? */
static int formats_need_ksyms(const char *text, size_t len)
{
	struct lgd_sites s = { 0 };
	int need = 0;

	if (lgd_sites_parse(&s, text, len) < 0)
		return 0;
	for (uint32_t i = 0; i < s.nr && !need; i++)
		if (s.by_id[i] && lgd_fmt_has_symptr(s.by_id[i]->fmt))
			need = 1;
	lgd_sites_free(&s);
	return need;
}

int cli_maybe_kallsyms(struct lgd_cap_writer *w, const char *formats,
		       size_t len, int *ksyms_done)
{
	size_t klen;
	char *k;
	int ret;

	if (*ksyms_done || !formats_need_ksyms(formats, len))
		return 0;
	k = cli_read_text(NULL, "/proc/kallsyms", &klen);
	if (!k) {
		fprintf(stderr, "logdev: warning: cannot read /proc/kallsyms (%s): %%pS will print as hex\n",
			strerror(errno));
		*ksyms_done = 1;
		return 0;
	}
	{
		struct lgd_ksyms ks = { 0 };

		if (lgd_ksyms_parse(&ks, k, klen) <= 0) {
			fprintf(stderr, "logdev: warning: /proc/kallsyms shows no addresses "
					"(not root, or kptr_restrict): %%pS will print as hex\n");
			free(k);
			*ksyms_done = 1;
			return 0;
		}
		lgd_ksyms_free(&ks);
	}
	ret = lgd_cap_write_section(w, LGD_SECT_KALLSYMS, LGD_CAP_NO_CPU, k, klen);
	free(k);
	*ksyms_done = 1;
	return ret;
}

int cli_write_modlog(struct lgd_cap_writer *w, const char *dir)
{
	static char *last;	/* what this process wrote last */
	static size_t last_len;
	size_t len;
	char *t = cli_read_text(dir, "module_log", &len);
	int ret;

	if (!t)		/* a module without the file: KALLSYMS alone */
		return 0;
	if (last && len == last_len && !memcmp(t, last, len)) {
		free(t);
		return 0;
	}
	ret = lgd_cap_write_section(w, LGD_SECT_MODLOG, LGD_CAP_NO_CPU, t, len);
	free(last);
	last = t;
	last_len = len;
	return ret;
}

int cli_write_meta(struct lgd_cap_writer *w, const char *dir,
		   uint32_t *subbuf_size, int *ksyms_done)
{
	struct lgd_header h;
	struct lgd_diag d;
	size_t hl, fl;
	char *ht, *ft;
	int ret;

	ht = cli_read_text(dir, "header", &hl);
	if (!ht) {
		fprintf(stderr, "logdev: cannot read %s/header: %s\n", dir, strerror(errno));
		return -errno;
	}
	ret = lgd_header_parse(&h, ht, hl, &d);
	if (ret) {
		fprintf(stderr, "logdev: %s/header: %s\n", dir, cli_diag_text(d.msg));
		free(ht);
		return ret;
	}
	*subbuf_size = h.subbuf_size;
	ret = lgd_cap_write_section(w, LGD_SECT_HEADER, LGD_CAP_NO_CPU, ht, hl);
	free(ht);
	if (ret)
		goto werr;
	ft = cli_read_text(dir, "formats", &fl);
	if (!ft) {
		fprintf(stderr, "logdev: cannot read %s/formats: %s\n", dir, strerror(errno));
		return -errno;
	}
	ret = lgd_cap_write_section(w, LGD_SECT_FORMATS, LGD_CAP_NO_CPU, ft, fl);
	if (!ret)
		ret = cli_maybe_kallsyms(w, ft, fl, ksyms_done);
	if (!ret && *ksyms_done)
		ret = cli_write_modlog(w, dir);
	free(ft);
	if (ret)
		goto werr;
	return 0;
werr:
	fprintf(stderr, "logdev: writing capture: %s\n", strerror(-ret));
	return ret;
}

int cli_drain(struct lgd_cap_writer *w, int fd, unsigned cpu, uint8_t *buf,
	      size_t bufsz, uint32_t sbs, int *eof, uint64_t *bytes,
	      uint64_t *records)
{
	*eof = 0;
	for (;;) {
		ssize_t n = read(fd, buf, bufsz);
		int ret;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN)
				return 0;
			return -errno;
		}
		if (n == 0) {
			*eof = 1;
			return 0;
		}
		/*
		 * One section per sub-buffer: a write that fails (disk full,
		 * file size limit) then loses at most the sub-buffer it was
		 * writing, never the rest of the chunk that fitted.
		 */
		for (size_t o = 0; o < (size_t)n; o += sbs) {
			size_t len = (size_t)n - o < sbs ? (size_t)n - o : sbs;

			ret = lgd_cap_write_section(w, LGD_SECT_CPU_DATA, cpu, buf + o, len);
			if (ret)
				return ret;
			*bytes += len;
			*records += lgd_sb_count_records(buf + o, len, sbs);
		}
	}
}

int cli_nap_ms(uint64_t most, double dt, uint64_t buf_bytes)
{
	double ms;

	if (!most || !buf_bytes || !(dt > 0))
		return 0;
	/* the time @most bytes took, scaled to a quarter of the buffer */
	ms = 1000.0 * dt * ((double)buf_bytes / 4) / (double)most;
	return ms >= CLI_NAP_MAX_MS ? CLI_NAP_MAX_MS : (int)ms;
}

void cli_live_hint(const char *dir, int err)
{
	fprintf(stderr, "logdev: no live logdev buffer at %s (%s).\n", dir, strerror(err));
	if (err == EACCES || err == EPERM) {
		fprintf(stderr, "  debugfs is for root only: run logdev with sudo.\n");
		return;
	}
	fprintf(stderr,
		"  Load the module:    sudo modprobe logdev  (in the source tree: sudo insmod kernel/logdev.ko)\n"
		"  Mount debugfs:      sudo mount -t debugfs none /sys/kernel/debug\n"
		"  Another directory:  -d DIR (record) or LOGDEV_DEBUGFS=DIR\n"
		"  Or read a capture:  logdev report FILE\n");
}

int cli_live_check(const char *dir)
{
	char path[4200];

	snprintf(path, sizeof(path), "%s/header", dir);
	if (access(path, R_OK)) {
		cli_live_hint(dir, errno);
		return 1;
	}
	return 0;
}

struct lgd_filter cli_filter;

int cli_write_recorder(struct lgd_cap_writer *w)
{
	char t[32];
	int n = snprintf(t, sizeof(t), "pid %ld\n", (long)getpid());

	return lgd_cap_write_section(w, LGD_SECT_RECORDER, LGD_CAP_NO_CPU, t, (uint64_t)n);
}

int cli_is_capture(const char *path)
{
	char m[sizeof(LGD_CAP_MAGIC) - 1];
	struct stat st;
	ssize_t n;
	int fd;

	/* a regular file only: never take bytes from a FIFO's reader */
	if (stat(path, &st) || !S_ISREG(st.st_mode))
		return 0;
	fd = open(path, O_RDONLY | O_NOCTTY);
	if (fd < 0)
		return 0;
	n = read(fd, m, sizeof(m));
	close(fd);
	return n == (ssize_t)sizeof(m) && !memcmp(m, LGD_CAP_MAGIC, sizeof(m));
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

void cli_lost_notes(const struct lgd_reader *r, const char *file, int always)
{
	uint64_t total = 0, subbufs = 0;
	char line[4096];
	size_t o = 0;

	line[0] = 0;
	for (uint32_t i = 0; i < r->nr_lost; i++) {
		uint32_t cpu;
		uint64_t k[LGD_GAP_NR], n = lgd_reader_lost(r, i, k, &cpu);
		int first = 1;

		total = lgd_add_sat(total, n);
		subbufs = lgd_add_sat(subbufs, k[LGD_GAP_SUBBUFS]);
		o += (size_t)snprintf(line + o, sizeof(line) - o, "%scpu:%u %" PRIu64, i ? ", " : "",
				      cpu, n);
		if (o >= sizeof(line))
			o = sizeof(line) - 1;
		for (int j = 1; j < LGD_GAP_NR; j++) {
			if (!k[j] || j == LGD_GAP_BAD_TS)
				continue;
			o += (size_t)snprintf(line + o, sizeof(line) - o, "%s%s %" PRIu64 "%s",
					      first ? " (" : " ", lgd_gap_kind_name(j), k[j],
					      j == LGD_GAP_SUBBUFS ? " sub-buffers" :
					      j == LGD_GAP_CORRUPT ? " bytes" : "");
			if (o >= sizeof(line))
				o = sizeof(line) - 1;
			first = 0;
		}
		if (!first && o + 2 < sizeof(line))
			line[o++] = ')', line[o] = 0;
	}
	if (!total && !subbufs && !always)
		return;
	if (total || subbufs)
		cli_nwarn++;	/* records are missing from the output: exit 3 */
	fprintf(stderr, "logdev: %s%s%slost events: %s\n", total || subbufs ? "warning: " : "",
		file ? cli_diag_text(file) : "", file ? ": " : "", r->nr_lost ? line : "none");
}

void cli_filter_notes(const struct lgd_reader *r, const char *file)
{
	cli_lost_notes(r, file, 0);
	cli_left_out_notes(r, file);
}

void cli_left_out_notes(const struct lgd_reader *r, const char *file)
{
	if (lgd_filter_active(&cli_filter) && r->nr_recs_seen && !r->nr_recs_kept) {
		fprintf(stderr, "logdev: the filters left out all %" PRIu64 " record%s\n",
			r->nr_recs_seen, r->nr_recs_seen == 1 ? "" : "s");
		if (cli_filter.nr_comms && !lgd_reader_comm_matches(r))
			fprintf(stderr, "logdev: no task in the capture is named like --comm%s\n",
				r->nr_comms ? "" : " (it holds no task names: recorded without them?)");
	}
	if (r->nr_bad_type) {
		cli_nwarn++;	/* a number of the output is not what was recorded */
		fprintf(stderr, "logdev: warning: %s%s%" PRIu64 " record%s of no known type (damaged?): "
			"their messages not decoded (report shows <type? ...>); their times "
			"still count\n", file ? cli_diag_text(file) : "", file ? ": " : "",
			r->nr_bad_type, r->nr_bad_type == 1 ? "" : "s");
	}
	if (r->nr_recorder_out)
		fprintf(stderr, "logdev: %" PRIu64 " record%s of the recorder (pid %" PRId64
			") left out; --include-recorder keeps them\n", r->nr_recorder_out,
			r->nr_recorder_out == 1 ? "" : "s", r->recorder_pid);
}

/* cli_open_input()'s reader gets the filter options of the verb */
static int open_filtered(struct lgd_reader *r)
{
	int ret = lgd_reader_set_filter(r, &cli_filter);

	if (ret) {
		fprintf(stderr, "logdev: %s\n", strerror(-ret));
		lgd_reader_close(r);
		return 1;
	}
	return 0;
}

int cli_meta_capture(struct lgd_cap_writer *w, const char *dir, uint32_t *sbs, int *ksyms)
{
	FILE *tf = tmpfile();
	int fd;

	if (!tf) {
		perror("logdev: tmpfile");
		return -1;
	}
	fd = dup(fileno(tf));
	fclose(tf);
	if (fd < 0 || lgd_cap_writer_start(w, fd)) {
		perror("logdev: temporary capture");
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (cli_write_meta(w, dir, sbs, ksyms)) {
		close(fd);
		return -1;
	}
	return fd;
}

int cli_open_input(const char *file, struct lgd_reader *r)
{
	struct lgd_diag d = { 0 };
	struct lgd_cap_writer w;
	const char *dir = cli_debugfs();
	uint32_t sbs = 0;
	int ksyms = 0, n, fd, ret, opened = 0;
	unsigned *cpus = NULL;
	uint8_t *buf;
	uint64_t bytes = 0, recs = 0;

	if (file) {
		if (lgd_reader_open(r, file, cli_warn, NULL, &d)) {
			fprintf(stderr, "logdev: %s: %s%s", file, cli_diag_text(d.msg),
				d.offset >= 0 ? "" : "\n");
			if (d.offset >= 0)
				fprintf(stderr, " (offset %" PRId64 ")\n", d.offset);
			return 1;
		}
		return open_filtered(r);
	}
	/* live: snapshot the buffers into an unlinked temporary capture */
	if (cli_live_check(dir))
		return 1;
	fd = cli_meta_capture(&w, dir, &sbs, &ksyms);
	if (fd < 0)
		return 1;
	n = cli_list_cpus(dir, &cpus);
	if (n <= 0) {
		fprintf(stderr, "logdev: %s/per_cpu: %s\n", dir, n ? strerror(-n) :
			"no cpuN directories: no per-CPU buffer to read");
		close(fd);
		return 1;
	}
	ret = cli_write_str(dir, "flush", "1");
	if (ret)
		fprintf(stderr, "logdev: warning: %s/flush: %s\n", dir, strerror(-ret));
	buf = malloc((size_t)sbs * 16);
	for (int i = 0; buf && i < n; i++) {
		char name[4200];
		int cfd, eof;

		snprintf(name, sizeof(name), "%s/per_cpu/cpu%u/trace_pipe_raw", dir, cpus[i]);
		cfd = open(name, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (cfd < 0) {
			fprintf(stderr, "logdev: warning: %s: %s\n", name, strerror(errno));
			cli_nwarn++;	/* that CPU's records are missing: exit 3 */
			continue;
		}
		opened++;
		ret = cli_drain(&w, cfd, cpus[i], buf, (size_t)sbs * 16, sbs, &eof,
				&bytes, &recs);
		if (ret)
			fprintf(stderr, "logdev: %s: %s\n", name, strerror(-ret));
		close(cfd);
	}
	free(buf);
	free(cpus);
	if (!opened) {
		fprintf(stderr, "logdev: none of the %d per-CPU buffers under %s/per_cpu could be "
			"read\n", n, dir);
		close(fd);
		return 1;
	}
	{
		/*
		 * formats again, after the data, as logdev record ends: a site
		 * first fired while the buffers were drained is named, and the
		 * capture's sites are final (a site missing then is damage)
		 */
		size_t fl;
		char *ft = cli_read_text(dir, "formats", &fl);

		if (ft) {
			lgd_cap_write_section(&w, LGD_SECT_FORMATS, LGD_CAP_NO_CPU, ft, fl);
			if (!cli_maybe_kallsyms(&w, ft, fl, &ksyms) && ksyms)
				cli_write_modlog(&w, dir);
			free(ft);
		}
	}
	{
		size_t sl;
		char *st = cli_read_text(dir, "stats", &sl);

		if (st) {
			lgd_cap_write_section(&w, LGD_SECT_STATS, LGD_CAP_NO_CPU, st, sl);
			free(st);
		}
	}
	cli_write_recorder(&w);
	lgd_cap_write_end(&w);
	if (lgd_reader_open_fd(r, fd, cli_warn, NULL, &d)) {
		fprintf(stderr, "logdev: live snapshot: %s\n", cli_diag_text(d.msg));
		return 1;
	}
	return open_filtered(r);
}

void cli_dur_huge(uint64_t n)
{
	if (!n)
		return;
	cli_nwarn++;
	fprintf(stderr, "logdev: warning: %" PRIu64 " return-probe pair%s more than 2^62 ns apart "
		"(damaged timestamps?) left out of the durations\n", n, n == 1 ? "" : "s");
}

void cli_left_out_note(const char *who, const char *file, uint64_t back, uint64_t huge)
{
	char lo[256];

	if (!lgd_fmt_left_out_n(lo, sizeof(lo), back, huge))
		return;
	fprintf(stderr, "%s: warning: %s%s%s\n", who, file ? file : "", file ? ": " : "", lo);
	cli_nwarn++;
}

int cli_collect(struct lgd_reader *r, struct lgd_deltas *ds, int durations,
		struct lgd_dur_stats *st, const char *file)
{
	struct lgd_dur_stats own;
	int ret = lgd_deltas_collect(r, ds, durations, st ? st : &own);

	if (!ret)
		cli_filter_notes(r, file);
	if (!ret && durations)
		cli_dur_huge((st ? st : &own)->huge);

	if (ret == -ENOMEM)
		fprintf(stderr, "logdev: out of memory\n");
	else if (ret < 0)
		fprintf(stderr, "logdev: %s\n", strerror(-ret));
	return ret ? 1 : 0;
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

void cli_marks(char *b, unsigned int m)
{
	int n = 0;

	if (m & CLI_MARK_CUT)
		b[n++] = '!';
	if (m & CLI_MARK_UNMATCHED)
		b[n++] = '?';
	if (m & CLI_MARK_APPROX)
		b[n++] = '~';
	if (m & CLI_MARK_MISSED)
		b[n++] = '#';
	if (m & CLI_MARK_SAT)
		b[n++] = '>';
	b[n] = 0;
}

unsigned int cli_pair_marks(const struct lgd_deltas *ds, const struct lgd_pair *p)
{
	unsigned int m = 0;

	if (lgd_deltas_cut_at(ds, p->from))
		m |= CLI_MARK_CUT;
	if (p->unmatched)
		m |= CLI_MARK_UNMATCHED;
	if (p->approx)
		m |= CLI_MARK_APPROX;
	/* a sum at its limit saturated there (lgd_hist_total(), self, nested) */
	if (p->total == INT64_MAX || p->total == INT64_MIN || p->self_ns == INT64_MAX ||
	    p->self_ns == INT64_MIN || p->nested_ns >= (uint64_t)INT64_MAX)
		m |= CLI_MARK_SAT;
	return m;
}

unsigned int cli_probe_misses(const struct lgd_reader *r)
{
	struct lgd_probe_info pi;
	unsigned int n = 0;
	const char *l;

	if (!r->probes)
		return 0;
	for (l = r->probes; *l; l += strcspn(l, "\n"), l += *l == '\n') {
		char name[1024], why[256];
		uint64_t run;

		if (!lgd_probe_line(l, &pi) || !pi.missed)
			continue;
		lgd_escape(name, sizeof(name), pi.name, pi.len < 200 ? pi.len : 200);
		if (pi.len > 200)
			strcat(name, "...");	/* room: lgd_escape() of 200 bytes fits 1021 */
		run = pi.missed - pi.missed_maxactive;	/* never below: lgd_probe_line() */
		if (pi.missed_maxactive)
			snprintf(why, sizeof(why), "%" PRIu64 " for want of a free return instance "
				 "(raise maxactive: rN:...), %" PRIu64 " because a handler was already "
				 "running on that CPU", pi.missed - run, run);
		else
			snprintf(why, sizeof(why), "a handler was already running on that CPU");
		cli_nwarn++;
		n++;
		fprintf(stderr, "logdev: warning: probe %s missed %" PRIu64 " hit%s (the kernel's "
			"nmissed %s: %s); its records are short of them\n", name, pi.missed,
			pi.missed == 1 ? "" : "s",
			pi.recording ? "in this recording" : "since the probe was added", why);
	}
	return n;
}

void cli_deltas_notes(FILE *f, const char *pfx, const struct lgd_deltas *ds,
		      unsigned int used)
{
	if (ds->lost_gaps) {
		fprintf(f, "%s%slost events: %" PRIu64 " gap%s, %" PRIu64 " record%s lost%s", pfx,
			used & CLI_MARK_CUT ? "! " : "", ds->lost_gaps,
			ds->lost_gaps == 1 ? "" : "s", ds->lost, ds->lost == 1 ? "" : "s",
			ds->lost_unknown ? " and more in missing sub-buffers or corrupt data" : "");
		if (ds->st_ready)
			fprintf(f, "; %" PRIu64 " pair%s cut", ds->cut, ds->cut == 1 ? "" : "s");
		if (used & CLI_MARK_CUT)
			fputs(": counts of pairs from a site where one was cut may be short "
			      "(rows marked !)", f);
		fputc('\n', f);
	}
	else if (used & CLI_MARK_CUT)	/* cut only by records left out (absurd stamps) */
		fprintf(f, "%s! %" PRIu64 " pair%s cut by records left out of the statistics "
			"(absurd timestamps): counts of rows marked ! may be short\n", pfx,
			ds->cut, ds->cut == 1 ? "" : "s");
	if (used & CLI_MARK_UNMATCHED)
		fprintf(f, "%s? rows whose probe has entries without return: their count is "
			"short of those (summary line)\n", pfx);
	if (used & CLI_MARK_MISSED)
		fprintf(f, "%s# rows of a run-time probe that missed hits (the kernel's nmissed, "
			"warning on stderr): their counts are short of those\n", pfx);
	if (used & CLI_MARK_SAT) {
		fprintf(f, "%s> rows with a sum (total, self or nested) at its limit, 2^63-1 ns "
			"(9223372036854775.807 us): saturated, the true sum is larger\n", pfx);
		cli_nwarn++;	/* a number printed that is not the sum: exit 3 */
	}
	if (used & CLI_MARK_APPROX)
		fprintf(f, "%s~ median and p99 from a log-linear histogram (more than %d deltas): "
			"within %s of the exact value\n", pfx, LGD_HIST_EXACT_MAX,
			LGD_HIST_REL_ERROR);
}

void cli_json_str(FILE *f, const char *str)
{
	cli_json_strn(f, str, strlen(str));
}

void cli_json_strn(FILE *f, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str, *end = s + len;

	fputc('"', f);
	while (s < end) {
		uint32_t cp = 0;
		const unsigned char *run = s;
		int n;

		/* a run of plain printable ASCII in one write (the common case) */
		while (s < end && *s >= 0x20 && *s < 0x7f && *s != '"' && *s != '\\')
			s++;
		if (s > run)
			fwrite(run, 1, (size_t)(s - run), f);
		if (s == end)
			break;
		n = *s ? lgd_utf8_len(s, (size_t)(end - s) < 4 ? (size_t)(end - s) : 4, &cp) : 1;
		if (!n) {
			fputs("\\ufffd", f);
			s++;
		} else if (*s == '"' || *s == '\\') {
			fputc('\\', f);
			fputc(*s++, f);
		} else if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp <= 0x9f) ||
			   (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069)) {
			/* controls (NUL too), DEL, C1, bidi overrides: \u escapes (terminal-safe) */
			fprintf(f, "\\u%04x", (unsigned int)cp);
			s += n;
		} else {
			fwrite(s, 1, (size_t)n, f);
			s += n;
		}
	}
	fputc('"', f);
}

void cli_csv_field(FILE *f, const char *str)
{
	cli_csv_fieldn(f, str, strlen(str));
}

/* per byte: 1 it makes a CSV field quoted (',' '"' controls DEL), 2 it is
 * copied as it is (ASCII but NUL and '"'), 3 both (',' and the controls but NUL) */
static const unsigned char csv_class[256] = {
	[0x00] = 1, [0x01 ... 0x1f] = 3, [0x20 ... 0x21] = 2, ['"'] = 1,
	[0x23 ... 0x2b] = 2, [','] = 3, [0x2d ... 0x7e] = 2, [0x7f] = 3,
};

int cli_csv_needs_quote(const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str, *end = s + len;

	for (; s < end; s++)
		if (csv_class[*s] & 1)
			return 1;
	return 0;
}

/*
 * The body of a CSV field (no quotes around it) from *@sp while it is
 * before @stop (@end: the end of the whole field, so that a UTF-8 sequence
 * may end past @stop): at most 3 bytes out per byte in, plus 3.
 */
static size_t csv_body(char *dst, const unsigned char **sp, const unsigned char *stop,
		       const unsigned char *end)
{
	const unsigned char *s = *sp;
	char *o = dst;

	while (s < stop) {
		const unsigned char *run = s;
		int n;

		/* a run of ASCII other than NUL and the quote at once */
		while (s < stop && (csv_class[*s] & 2))
			s++;
		memcpy(o, run, (size_t)(s - run));
		o += s - run;
		if (s == stop)
			break;
		n = *s ? lgd_utf8_len(s, (size_t)(end - s) < 4 ? (size_t)(end - s) : 4, NULL) : 0;
		if (!n) {
			memcpy(o, "\xef\xbf\xbd", 3);	/* U+FFFD (also for a NUL) */
			o += 3;
			s++;
			continue;
		}
		if (*s == '"')
			*o++ = '"';
		memcpy(o, s, (size_t)n);
		o += n;
		s += n;
	}
	*sp = s;
	return (size_t)(o - dst);
}

size_t cli_csv_put(char *dst, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str, *end = s + len;
	int quote = cli_csv_needs_quote(str, len);
	size_t o = 0;

	if (quote)
		dst[o++] = '"';
	o += csv_body(dst + o, &s, end, end);
	if (quote)
		dst[o++] = '"';
	return o;
}

void cli_csv_fieldn(FILE *f, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str, *end = s + len;
	int quote = cli_csv_needs_quote(str, len);
	char b[3 * 1024 + 3];

	if (quote)
		fputc('"', f);
	while (s < end) {	/* 1024 bytes in at a time */
		const unsigned char *stop = end - s > 1024 ? s + 1024 : end;

		fwrite(b, 1, csv_body(b, &s, stop, end), f);
	}
	if (quote)
		fputc('"', f);
}

void cli_out_buffer(FILE *f)
{
	static char *buf;

	if (buf || isatty(fileno(f)))
		return;
	buf = malloc(CLI_OUT_BUFFER);	/* kept to the exit, which flushes it */
	if (buf && setvbuf(f, buf, _IOFBF, CLI_OUT_BUFFER)) {
		free(buf);
		buf = NULL;
	}
}

int64_t cli_site_by_label(const struct lgd_reader *r, const char *label)
{
	int64_t probe = -1;

	for (uint32_t i = 0; i < r->sites.nr; i++) {
		const struct lgd_site *st = r->sites.by_id[i];
		char *l;
		int eq;

		if (!st)
			continue;
		l = lgd_site_label_alloc(&r->sites, i);
		eq = l && !strcmp(l, label);
		free(l);
		if (eq)
			return i;
		if (probe < 0 && st->file && !strcmp(st->file, "probe") && st->func &&
		    !strcmp(st->func, label))
			probe = i;
	}
	return probe;
}
