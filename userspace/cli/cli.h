/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli.h: helpers shared by the logdev subcommands (they print; the library
 * does not).  Exit codes: 0 ok, 1 runtime or I/O error, 2 usage error, 3
 * decoded with warnings (cli_exit_status()).
 */
#ifndef LOGDEV_CLI_H
#define LOGDEV_CLI_H

#include "liblogdev.h"
#include "cli-follow.h"
#include "cli-output.h"
#include "cli-recorder.h"
#include "cli-callees.h"
#include "cli-lastboot.h"

#define LOGDEV_DEFAULT_DEBUGFS	"/sys/kernel/debug/logdev"

/* one subcommand: logdev.c's dispatch table */
struct cli_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);	/* argv[0] is the subcommand */
	const char *usage;			/* "VERB [OPTIONS] ..." */
	const char *options;			/* one line per option, for --help */
};

/* each verb's file defines its entry (name, function, usage, options) */
extern const struct cli_cmd cli_cmd_record, cli_cmd_report, cli_cmd_deltas, cli_cmd_diff,
	cli_cmd_convert, cli_cmd_hist, cli_cmd_export, cli_cmd_callees;
int cmd_hist(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_deltas(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_convert(int argc, char **argv);
void cli_usage(FILE *f);
/*
 * cli_current - the verb being run (set by main before its function), for
 * the usage line of cli_opt_error(); cli_exit_text - the exit statuses of
 * the decoding verbs, as their --help and `logdev --help` print them.
 */
extern const struct cli_cmd *cli_current;
extern const char cli_exit_text[];
/**
 * cli_verb_help() - on stdout: "usage: logdev VERB ...", the options, -h,
 * the verb's examples and exit statuses.  Return: 0, or 1 if stdout failed.
 */
int cli_verb_help(const struct cli_cmd *c);
/** cli_verb_usage_error() - "usage: logdev VERB ..." on stderr; Return: 2. */
int cli_verb_usage_error(const struct cli_cmd *c);
/**
 * cli_opt_error() - after getopt_long() (opterr 0, optstring starting with
 * ':' or "+:") returned @c '?' or ':': say which option of @verb is unknown
 * or lacks its value, then the verb's usage line.  Pass optopt, argv and
 * optind.  Return: 2.
 */
int cli_opt_error(const char *verb, int c, int optopt_, char **argv, int optind_);
/**
 * struct cli_getopt - a verb's options for cli_getopt(): @cmd the verb,
 * @shortopts (starting with ':'), @longopts (with CLI_FILTER_LONGOPTS for a
 * verb that reads records), @by where -b/--by goes (NULL: the verb has
 * none); @status the exit status when cli_getopt() returned 0.
 */
struct option;
struct cli_getopt {
	const struct cli_cmd *cmd;
	const char *shortopts;
	const struct option *longopts;
	int *by;
	int status;
};
/**
 * cli_getopt() - the next option of a verb's command line, getopt_long()
 * with opterr 0 (optarg, optind as it sets them): the filter options go to
 * cli_filter (cli_filter_opt()), -b/--by to *@g->by (cli_by_arg()), -h and
 * --help print the verb's help, an unknown option or a missing value is
 * said (cli_opt_error()).  Return: an option for the verb to handle, -1
 * after the last option, or 0: the verb returns @g->status (0 or 1 after
 * its help, 2 a usage error) at once.
 */
int cli_getopt(struct cli_getopt *g, int argc, char **argv);
/**
 * cli_file_arg() - the optional FILE operand after the options (argv[optind_]):
 * *@file set (NULL: none).  Return: 0, or 2 after "logdev VERB: one FILE only".
 */
int cli_file_arg(const char *verb, int argc, char **argv, int optind_, const char **file);

/**
 * cli_parse_uint() - the value of a whole-number option, strictly: decimal
 * digits only (no sign, space, point, exponent or hex), within [@lo, @hi].
 * @cmd: subcommand ("diff") and @opt: option ("--min-count"), for the message.
 * Return: 0 with *@v set, or 2 (the usage exit status) after printing
 * "logdev CMD: bad OPT 'TEXT': expected a whole number from LO to HI".
 */
int cli_parse_uint(const char *cmd, const char *opt, const char *s, uint64_t lo,
		   uint64_t hi, uint64_t *v);
/**
 * cli_parse_real() - the value of a decimal option, strictly: digits with an
 * optional fraction and exponent ("2", "0.25", "5e-1"; no sign, space, hex,
 * nan or inf), finite, representable (no overflow or underflow), within
 * [@lo, @hi].  @what names the unit ("seconds"); @hint (or NULL) is added to
 * the message.  Return: 0 with *@v set, or 2 after printing
 * "logdev CMD: bad OPT 'TEXT': expected a decimal number of WHAT from LO to HI".
 */
int cli_parse_real(const char *cmd, const char *opt, const char *s, double lo,
		   double hi, const char *what, const char *hint, double *v);
/**
 * cli_warn() - lgd_warn_fn printing "logdev: warning: ..." to stderr and
 * counting it in cli_nwarn: "truncated at byte N (CPU C, sub-buffer seq Q):
 * why" for a capture cut short (-ENODATA), "corrupt at byte N (...): why"
 * for bytes present but wrong (-EINVAL, -EPROTO), "at byte N (...): why"
 * for the rest (a clock going back, -ERANGE).  With cli_warn_converted
 * set (a raw flight-recorder area read through a temporary capture), the
 * byte is "byte N of the capture converted from IMAGE": not the image's.
 */
/* cli_diag_text() - @msg escaped for the terminal (valid until the next call) */
const char *cli_diag_text(const char *msg);
void cli_warn(void *arg, const struct lgd_diag *d);
/*
 * cli_nwarn - warnings said so far about the data (cli_warn() and the
 * verbs' own: records left out of statistics, damaged records): a verb
 * that decoded everything but warned exits 3.
 */
extern unsigned long cli_nwarn;
/* the raw area the input was converted from, or NULL (cli_warn()) */
extern const char *cli_warn_converted;
/**
 * cli_exit_status() - the exit status of a decoding verb: 1 if @failed (an
 * I/O error, no memory, an unusable capture), else 3 if any warning was
 * counted in cli_nwarn, else 0.  Usage errors exit 2 before decoding.
 */
int cli_exit_status(int failed);
/** cli_debugfs() - $LOGDEV_DEBUGFS or the default directory. */
const char *cli_debugfs(void);
/**
 * cli_meta_capture() - start a capture in an unlinked temporary file and
 * write @dir's metadata into it (cli_write_meta(): @sbs sub-buffer size in
 * bytes, @ksyms whether symbols were saved).  Prints why on failure.
 * Return: the file's descriptor (the caller adds data, ends and reads it),
 * or -1.
 */
int cli_meta_capture(struct lgd_cap_writer *w, const char *dir, uint32_t *sbs, int *ksyms);

/**
 * cli_live_hint() - say that there is no live buffer at @dir (@err an
 * errno) and how to get one: load the module (modprobe, insmod), mount
 * debugfs, or run as root for EACCES/EPERM.
 */
void cli_live_hint(const char *dir, int err);
/** cli_live_check() - is @dir/header readable?  0, or 1 after cli_live_hint(). */
int cli_live_check(const char *dir);
/**
 * cli_open_input() - open @file, or with @file NULL snapshot the live
 * debugfs buffers (flush, drain non-blocking; consuming) into a temporary
 * capture (metadata, the data, formats again so its sites are final,
 * stats, END).  A @file that is a raw flight-recorder area is converted
 * into a temporary capture first (cli_area_input()); a capture of a
 * previous boot's buffer has its banner said (cli_last_boot_banner()).
 * Prints errors: no live buffer (cli_live_hint()), no per-CPU
 * buffer or none readable (1); one CPU's unreadable (a warning, counted).
 * Return 0 or 1 (unusable).
 */
int cli_open_input(const char *file, struct lgd_reader *r);
/**
 * cli_left_out_note() - on stderr, "WHO: warning: [FILE: ]N pairs left out:
 * clock went backwards (K), step over 2^62 ns (J)" (@who "logdev" or
 * "logdev diff"; @file NULL: not named), counted as a warning (exit 3);
 * nothing when @back + @huge is 0.  The one note of every verb that shows
 * deltas (hist, diff, export, report; deltas prints it under its table).
 */
void cli_left_out_note(const char *who, const char *file, uint64_t back, uint64_t huge);
/**
 * cli_cost_raw_note() - on @f, "@prefix" then a line saying that durations
 * shown by logdev @verb hold the probes' own cost, which deltas --durations
 * takes out, if @r's capture has a calibration (else nothing: deltas too
 * shows them as measured, and says why).  A note, not a warning.
 */
void cli_cost_raw_note(FILE *f, const char *prefix, const struct lgd_reader *r,
		       const char *verb);
/**
 * cli_clock_header() - "# clock: CLOCK (ftrace clock F)" and a newline on @f:
 * the trace clock of @r's records (lgd_clock_desc()), the first line of
 * report's text form.
 */
void cli_clock_header(FILE *f, const struct lgd_reader *r);
/**
 * cli_clocks_differ() - when @a's and @b's records were stamped by different
 * trace clocks: on stderr "WHO: warning: A was recorded on clock X, B on
 * clock Y: ...", counted as a warning (exit 3).  Return: 1 if they differ.
 */
int cli_clocks_differ(const char *who, const struct lgd_reader *a, const char *fa,
		      const struct lgd_reader *b, const char *fb);
/* cli_jobs: threads for record deltas (deltas --jobs, its default the CPUs online); 0 or 1: one */
extern unsigned int cli_jobs;
/**
 * cli_collect() - lgd_deltas_collect() (record deltas: lgd_deltas_collect_par()
 * on cli_jobs threads) with its errors printed, then cli_filter_notes()
 * (@file: the capture's name, or NULL) and, with @durations, cli_dur_huge().
 * Return: 0, or 1 (out of memory / read error).
 */
int cli_collect(struct lgd_reader *r, struct lgd_deltas *ds, int durations,
		struct lgd_dur_stats *st, const char *file);
/**
 * cli_dur_huge() - if @n (lgd_dur_stats.huge) is not 0, warn on stderr
 * (cli_nwarn) that @n return-probe pairs more than 2^62 ns apart were left
 * out of the durations.
 */
void cli_dur_huge(uint64_t n);
/**
 * cli_by_arg() - parse a --by value (cpu, task, context) of @verb into
 * *@by; prints a usage error.  Return: 0, or 2 (usage).
 */
int cli_by_arg(const char *verb, const char *arg, int *by);
/*
 * Marks at the end of a delta-table row, with the footnotes that explain
 * them (cli_deltas_notes()): '!' pairs from the row's first site were cut
 * by lost events (its count may be short); '?' entries of its probe were
 * left without return (--durations); '~' median and p99 from the
 * histogram (within LGD_HIST_REL_ERROR); '>' a sum of the row (total,
 * self, nested) reached its limit, 2^63-1 ns, and saturated there: the true
 * sum is larger (a warning, exit 3).
 */
#define CLI_MARK_CUT		1
#define CLI_MARK_UNMATCHED	2
#define CLI_MARK_APPROX		4
#define CLI_MARK_MISSED		8
#define CLI_MARK_SAT		16

/**
 * cli_probe_misses() - warn (stderr, cli_nwarn) once per run-time probe of
 * reader @r whose kernel probe missed hits (nmissed of the capture's PROBES
 * section) and that has a site in @r; returns how many probes.
 */
struct lgd_reader;
unsigned int cli_probe_misses(const struct lgd_reader *r);
/**
 * cli_probe_redefined() - warn (stderr) once per probe name of @r that
 * stands for different definitions (its sites at one offset with different
 * formats: labels NAME:OFF#1, #2...), naming each label and format; the
 * figures are right (each definition its own rows), so not counted in
 * cli_nwarn.  Returns how many names.
 */
unsigned int cli_probe_redefined(const struct lgd_reader *r);
/** cli_marks() - the marks of bits @m as text ("" if none) into @b (>= 6 bytes). */
void cli_marks(char *b, unsigned int m);
/** cli_pair_marks() - the CLI_MARK_* bits of pair @p of @ds. */
unsigned int cli_pair_marks(const struct lgd_deltas *ds, const struct lgd_pair *p);
/**
 * cli_deltas_notes() - the footnotes of marks @used (CLI_MARK_* bits) for
 * the table of @ds on @f, each line starting with @pfx; and, when @ds has
 * lost events though no row is marked, a line saying how many.  A '>'
 * (CLI_MARK_SAT) in @used is counted as a warning (cli_nwarn: exit 3).
 */
void cli_deltas_notes(FILE *f, const char *pfx, const struct lgd_deltas *ds,
		      unsigned int used);

/**
 * cli_site_by_label() - the id of the site of @r labelled @label
 * (lgd_site_label(): "func:line", as deltas prints it), else of the probe
 * named @label (file "probe", func @label: "vfs_read", "vfs_read%return"):
 * lgd_site_find().
 * Return: the id, or -1 if none, -2 if @label is a probe name with several
 * labels.
 */
int64_t cli_site_by_label(const struct lgd_reader *r, const char *label);
#define CLI_SITE_HINTS	5
/**
 * cli_site_unknown() - after an error line about site argument @arg that
 * names no site of @r: a line naming the closest labels (up to
 * CLI_SITE_HINTS, lgd_site_closest()), or the labels of the probe @arg
 * names when it has several, escaped for the terminal.
 */
void cli_site_unknown(const struct lgd_reader *r, const char *arg);

/*
 * logdev hist and diff --svg (logdev-hist.c)
 */
/**
 * cli_hist_load() - open @file (NULL: live), collect its delta table (@by;
 * @durations: durations, with FROM,TO as an edprint pair in @user_pair when
 * FROM is not a probe), finish it in deltas' default order, and point *@pp
 * at the pair of sites labelled @from, @to (cli_site_by_label()), or with
 * @like the sites at the places of @like[0], @like[1] (sites of another
 * capture, matched as diff matches them: lgd_site_match(); @from, @to
 * their labels for messages), or with @from NULL at row @nth (1-based).
 * With @bd (--breakdown), the pairs are split too (cli_bd_open(): *@bd
 * and *@have; a capture without markers refused).
 * Prints errors as "logdev VERB: ...".
 * Return: 0 (@r, @ds and *@bd to free), 1 (unusable, no such pair), 2 (no
 * site with that label, no markers).
 */
int cli_hist_load(const char *file, struct lgd_reader *r, struct lgd_deltas *ds,
		  const char *verb, const char *from, const char *to,
		  const struct lgd_site *const like[2], uint64_t nth,
		  int durations, int by, uint32_t user_pair[1][2], const struct lgd_pair **pp,
		  struct lgd_bd **bd, unsigned int *have);
/** cli_hist_title() - "FROM -> TO (FILE, by STREAM|durations)", raw, malloc'd. */
char *cli_hist_title(const struct lgd_reader *r, const struct lgd_pair *p, const char *file,
		     int durations, int by);
/** cli_hist_marks_text() - the meaning of marks @mk (CLI_MARK_*) for an SVG legend. */
void cli_hist_marks_text(char *b, size_t n, unsigned int mk);
/**
 * cli_hist_svg_write() - lgd_svg_hist() into file @out (cli_out_open():
 * never one of @inputs[@ninputs], an older file kept on failure).
 * Return: 0, or 1/2 (said why).
 */
int cli_hist_svg_write(const char *out, const char *const *inputs, int ninputs,
		       const char *title, const struct lgd_svg_series *s,
		       int n, const char *verb);

/*
 * Filters (filter.c), shared by report, deltas, diff, convert (and any verb
 * that opens its input with cli_open_input()): put CLI_FILTER_LONGOPTS in
 * the verb's getopt_long() table, hand every option to cli_filter_opt()
 * first, and add CLI_FILTER_HELP to its option lines.  cli_open_input()
 * applies cli_filter to the reader; cli_filter_notes() says what was left
 * out.
 */
enum {
	CLI_OPT_CPU = 0x100, CLI_OPT_PID, CLI_OPT_COMM, CLI_OPT_SITE, CLI_OPT_CONTEXT,
	CLI_OPT_FROM, CLI_OPT_TO, CLI_OPT_INCLUDE_RECORDER, CLI_OPT_KALLSYMS,
};
#define CLI_FILTER_LONGOPTS \
	{ "cpu", required_argument, NULL, CLI_OPT_CPU }, \
	{ "pid", required_argument, NULL, CLI_OPT_PID }, \
	{ "comm", required_argument, NULL, CLI_OPT_COMM }, \
	{ "site", required_argument, NULL, CLI_OPT_SITE }, \
	{ "context", required_argument, NULL, CLI_OPT_CONTEXT }, \
	{ "from", required_argument, NULL, CLI_OPT_FROM }, \
	{ "to", required_argument, NULL, CLI_OPT_TO }, \
	{ "include-recorder", no_argument, NULL, CLI_OPT_INCLUDE_RECORDER }, \
	{ "kallsyms", required_argument, NULL, CLI_OPT_KALLSYMS }
#define CLI_FILTER_HELP \
	"  filters (kinds AND, values of one kind OR; pairs only where both ends pass):\n" \
	"      --cpu LIST           CPUs: 0,2-3\n" \
	"      --pid LIST           pids: 100-200,4242\n" \
	"      --comm NAME          task name or glob: 'kworker*'\n" \
	"      --site PATTERN       glob on func:line, file:func:line or probe name\n" \
	"      --context LIST       task,softirq,hardirq,nmi\n" \
	"      --from TIME          records at or after TIME: seconds as report prints\n" \
	"                           them (4.026146), a unit (200ms, 5us), or +TIME from\n" \
	"                           the first record (+1.5s)\n" \
	"      --to TIME            records before TIME (same forms)\n" \
	"      --include-recorder   keep the records of the recording process itself\n" \
	"                           (left out by default, and counted on stderr)\n" \
	"  a raw flight-recorder area as FILE (a previous boot's buffer):\n" \
	"      --kallsyms FILE      vmlinux's symbols of that boot for %pS: its\n" \
	"                           /proc/kallsyms saved while it ran, or the System.map\n" \
	"                           of its -dbg package (default: /proc/kallsyms when\n" \
	"                           this kernel's build-id is the area's)\n"
/** cli_filter - the filter options given (cli_filter_opt()). */
extern struct lgd_filter cli_filter;
/**
 * cli_filter_opt() - option @c of getopt_long() with value @arg: a filter
 * option is added to cli_filter (--kallsyms, the input's, to cli_kallsyms).
 * Return: -1 not a filter option, 0 taken,
 * 2 after "logdev VERB: bad --OPT 'VALUE': expected ..." (usage error).
 */
int cli_filter_opt(const char *verb, int c, const char *arg);
/**
 * cli_filter_notes() - on stderr, after a verb's output: the lost events
 * of the merge whose counts are @c (cli_lost_notes(), only if any; @file
 * names the capture or is NULL), then cli_left_out_notes() (@r: its reader).
 */
void cli_filter_notes(const struct lgd_reader *r, const struct lgd_merge_counts *c,
		      const char *file);
/**
 * cli_left_out_notes() - on stderr: that the filters left out every record
 * (and why --comm matched none), how many of the recorder's own records
 * the merge with counts @c over @r left out ("logdev: N records of the
 * recorder (pid P) left out; --include-recorder keeps them"), records of
 * no known type.  Not a warning about the data (no exit 3), but for those.
 */
void cli_left_out_notes(const struct lgd_reader *r, const struct lgd_merge_counts *c,
			const char *file);
/**
 * cli_lost_notes() - on stderr, the lost events in the gaps a merge kept
 * (its counts @c), per CPU: "logdev: warning: [FILE: ]lost events: cpu:0 0,
 * cpu:1 12 (overrun 12)" (kinds as lgd_gap_kind_name(); sub-buffers
 * missing and corrupt bytes say their unit).  Records or sub-buffers lost
 * are a warning about the data (cli_nwarn: exit 3, in every verb); without
 * any the line is printed only if @always (--follow: "logdev: lost events:
 * cpu:0 0, cpu:1 0").
 */
void cli_lost_notes(const struct lgd_merge_counts *c, const char *file, int always);

/**
 * cli_is_capture() - does @path name a regular file that starts as a logdev
 * capture or a raw flight-recorder area (cli_is_area(): a verb reads both)?
 */
int cli_is_capture(const char *path);
/**
 * cli_is_area() - does @path name a regular file or block device that
 * starts with LOGDEV_AREA_MAGIC (a raw flight-recorder area)?  Nothing is
 * read from anything else (a FIFO's bytes would be lost).  Return: 1 or 0.
 */
int cli_is_area(const char *path);

#endif /* LOGDEV_CLI_H */
