// SPDX-License-Identifier: GPL-2.0
/*
 * logdev-convert.c: "logdev convert [-o OUT.dat] [FILE]": the capture as a
 * trace-cmd trace.dat (version 6), read by trace-cmd report, libtraceevent
 * and KernelShark (the library's convert.c: events of system "logdev", one
 * per call site; docs/TRACE-CMD.md).  Without -o the file goes to stdout.
 * Options: -o/--output FILE, --cpu-max BYTES (one CPU's data in the file,
 * default LGD_TDW_CPU_MAX: what trace-cmd reads whole; 0: no limit),
 * -h/--help; "--" ends them.
 * Prints to stderr what it wrote: "logdev: convert: R records, S events,
 * G lost-events gaps (U without a count) -> OUT", then "logdev: convert:
 * clock local (ftrace clock local): the file's trace_clock, ..." (the
 * capture's trace clock and the ftrace clock that stamps the same way).
 * Exit: 0 written, 3 written with warnings (the capture's, on stderr), 1
 * unusable capture, refusal or write error (no partial output: an older
 * OUT is kept, cli-output.c), 2 usage.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"

const struct cli_cmd cli_cmd_convert = {
	"convert", cmd_convert, "convert [-o OUT.dat] [--cpu-max BYTES] [FILTERS] [FILE]",
	"  -o, --output FILE    write the trace.dat there (default, or -: stdout)\n"
	"      --cpu-max BYTES  refuse to write more of one CPU's data (default\n"
	"                       2147479552: trace-cmd 3.1.6 and 3.3.1 read a CPU's\n"
	"                       data of 2 GiB or more cut short, without a word);\n"
	"                       0: no limit\n"
	CLI_FILTER_HELP,
};

int cmd_convert(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "cpu-max", required_argument, NULL, 'M' },
		{ "help", no_argument, NULL, 'h' },
		CLI_FILTER_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct lgd_convert_stats st;
	struct lgd_merge_counts n = { 0 };
	struct lgd_reader r;
	const char *file = NULL, *outp = NULL;
	struct cli_out out;
	struct cli_getopt g = { &cli_cmd_convert, ":o:h", lo, NULL, 0 };
	uint64_t cpu_max = 0;
	char *end, cd[128];
	int c, ret;

	while ((c = cli_getopt(&g, argc, argv)) > 0) {
		if (c == 'o') {
			outp = optarg;
			continue;
		}
		errno = 0;	/* --cpu-max: decimal bytes */
		cpu_max = strtoull(optarg, &end, 10);
		if (!isdigit((unsigned char)optarg[0]) || *end || errno) {
			fprintf(stderr, "logdev: convert: bad --cpu-max '%s': expected bytes, 0 for no limit\n",
				optarg);
			return 2;
		}
		if (!cpu_max)
			cpu_max = UINT64_MAX;
	}
	if (!c)
		return g.status;
	if (cli_file_arg("convert", argc, argv, optind, &file))
		return 2;
	if (outp && !strcmp(outp, "-"))
		outp = NULL;		/* "-": stdout, as for record */
	if (!outp && isatty(STDOUT_FILENO)) {
		fprintf(stderr, "logdev: convert: stdout is a terminal; give -o OUT.dat\n");
		return 2;
	}
	if (cli_open_input(file, &r))
		return 1;
	c = cli_out_open(&out, outp, "convert", &file, 1);
	if (c) {
		lgd_reader_close(&r);
		return c;
	}
	ret = lgd_convert_tracedat(&r, out.f, cpu_max, &st, &n);
	if (!ret)
		cli_filter_notes(&r, &n, NULL);
	lgd_clock_desc(&r.hdr, cd, sizeof(cd));
	lgd_merge_counts_free(&n);
	lgd_reader_close(&r);
	if (ret) {
		cli_out_abort(&out);	/* an older OUT kept, a device never removed */
	} else if (cli_out_commit(&out)) {
		return 1;
	}
	if (ret == -EOVERFLOW) {
		fprintf(stderr, "logdev: convert: cpu %u's data would pass %" PRIu64 " bytes, "
			"and trace-cmd (3.1.6, 3.3.1) reads a CPU's data of 2 GiB or more cut short, "
			"without a word: nothing written; convert a part at a time (--from/--to, "
			"--cpu), or raise --cpu-max for a trace-cmd that reads more\n",
			st.full_cpu, st.cpu_max);
		return 1;
	}
	if (ret) {
		fprintf(stderr, "logdev: convert: %s\n", strerror(-ret));
		return 1;
	}
	fprintf(stderr, "logdev: convert: %" PRIu64 " records, %u events, %" PRIu64
		" lost-events gaps (%" PRIu64 " without a count) -> %s\n", st.records, st.sites,
		st.gaps, st.gaps_unknown, outp ? outp : "stdout");
	fprintf(stderr, "logdev: convert: clock %s: the file's trace_clock, as trace-cmd report "
		"shows its times\n", cd);
	cli_dur_huge(st.dur_huge);
	if (st.too_big)
		cli_nwarn++, fprintf(stderr, "logdev: convert: warning: %" PRIu64 " records too big for a "
			"trace.dat page left out\n", st.too_big);
	return cli_exit_status(0);
}
