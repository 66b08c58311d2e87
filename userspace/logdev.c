// SPDX-License-Identifier: GPL-2.0
/*
 * logdev.c: the logdev CLI entry point: a table of subcommands.
 *   logdev record|report|deltas|diff|help ...
 * Exit codes: 0 ok, 1 runtime error, 2 usage error.
 */
#include <stdio.h>
#include <string.h>
#include "cli.h"

static int cmd_help(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_usage(stdout);
	return 0;
}

static const struct cli_cmd cmds[] = {
	{ "record", cmd_record,
	  "record [-o FILE] [-d DIR] [--no-enable] [--duration S | -- COMMAND [ARGS]]" },
	{ "report", cmd_report, "report [--raw] [FILE]" },
	{ "deltas", cmd_deltas, "deltas [--durations] [--sort=total|max|p99|median|count] [FILE]" },
	{ "diff", cmd_diff, "diff [--durations] [--format text|csv|json] [--min-count N] A.cap B.cap" },
	{ "help", cmd_help, "help" },
};

void cli_usage(FILE *f)
{
	fprintf(f, "usage:\n");
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		fprintf(f, "  logdev %s\n", cmds[i].usage);
	fprintf(f, "FILE defaults to logdev.cap for record; report and deltas without FILE\n"
		   "read the live buffers (consuming).  DIR: -d, $LOGDEV_DEBUGFS, or %s.\n"
		   "record without --duration and COMMAND records until Ctrl-C or SIGTERM.\n",
		LOGDEV_DEFAULT_DEBUGFS);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		cli_usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))
		return cmd_help(0, NULL);
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		if (strcmp(argv[1], cmds[i].name))
			continue;
		/* "CMD --help" / "CMD -h" (before a "--"): usage, exit 0 */
		for (int a = 2; a < argc && strcmp(argv[a], "--"); a++) {
			if (!strcmp(argv[a], "--help") || !strcmp(argv[a], "-h")) {
				printf("usage: logdev %s\n", cmds[i].usage);
				return 0;
			}
			/* record: option values (-o FILE, -d DIR, --duration S) */
			if (!strcmp(argv[1], "record") && a + 1 < argc &&
			    (!strcmp(argv[a], "-o") || !strcmp(argv[a], "-d") ||
			     !strcmp(argv[a], "--duration")))
				a++;
		}
		return cmds[i].fn(argc - 1, argv + 1);
	}
	fprintf(stderr, "logdev: unknown command '%s'\n", argv[1]);
	cli_usage(stderr);
	return 2;
}
