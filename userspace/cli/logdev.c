// SPDX-License-Identifier: GPL-2.0
/*
 * logdev.c: the logdev CLI entry point: a table of subcommands, each in its
 * own file (logdev-VERB.c, cmd_VERB()) parsing its own options with
 * getopt_long().
 *   logdev [--help | --version] | logdev VERB [OPTIONS] ... | logdev VERB --help
 * Exit codes: 0 ok, 1 runtime error, 2 usage error.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "version.h"

static int cmd_help(int argc, char **argv);

static const struct cli_cmd cmd_help_entry = {
	"help", cmd_help, "help [VERB]", "  VERB                 the help of VERB (as logdev VERB --help)\n",
};

/* the subcommands, in the order the usage lists them */
static const struct cli_cmd *const cmds[] = {
	&cli_cmd_record, &cli_cmd_report, &cli_cmd_deltas, &cli_cmd_diff, &cli_cmd_hist, &cli_cmd_export,
	&cli_cmd_convert, &cli_cmd_callees, &cmd_help_entry,
};
#define NR_CMDS	(sizeof(cmds) / sizeof(cmds[0]))

void cli_usage(FILE *f)
{
	fprintf(f, "usage:\n");
	for (size_t i = 0; i < NR_CMDS; i++)
		fprintf(f, "  logdev %s\n", cmds[i]->usage);
	fprintf(f, "  logdev --version\n"
		   "FILE defaults to logdev.cap for record; report, deltas, hist, export and\n"
		   "convert without FILE read the live buffers (consuming); report --follow and\n"
		   "deltas --follow read them as they fill, until Ctrl-C.\n"
		   "DIR: -d, $LOGDEV_DEBUGFS, or %s.\n"
		   "record without --duration and COMMAND records until Ctrl-C or SIGTERM.\n"
		   "examples:\n"
		   "  sudo logdev record -o demo.cap --duration 5\n"
		   "  logdev report demo.cap | less\n"
		   "  logdev deltas demo.cap\n"
		   "Text output is terminal-safe: control bytes in recorded strings print\n"
		   "escaped (\\x1b, \\n, \\t, \\0, \\\\).\n"
		   "%s"
		   "logdev VERB --help: the options and examples of VERB; man logdev: all.\n",
		LOGDEV_DEFAULT_DEBUGFS, cli_exit_text);
}

static const struct cli_cmd *find_cmd(const char *name)
{
	for (size_t i = 0; i < NR_CMDS; i++)
		if (!strcmp(name, cmds[i]->name))
			return cmds[i];
	return NULL;
}

static void print_version(void)
{
	printf("logdev %s (record format %d, capture format %d, area format %d)\n",
	       LOGDEV_VERSION, LOGDEV_FORMAT_VERSION, LGD_CAP_VERSION, LOGDEV_AREA_VERSION);
}

static int cmd_help(int argc, char **argv)
{
	const struct cli_cmd *c;

	if (argc > 2) {
		fprintf(stderr, "logdev help: one VERB only\n");
		return 2;
	}
	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")))
		return cli_verb_help(&cmd_help_entry);
	if (argc == 2) {
		c = find_cmd(argv[1]);
		if (!c) {
			fprintf(stderr, "logdev help: unknown command '%s'\n", argv[1]);
			cli_usage(stderr);
			return 2;
		}
		return cli_verb_help(c);
	}
	cli_usage(stdout);
	return fflush(stdout) ? 1 : 0;
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const struct cli_cmd *cmd;
	int c;

	/* "+": the first non-option is the verb; its options are its own */
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+hV", lo, NULL)) != -1) {
		switch (c) {
		case 'h':
			cli_usage(stdout);
			return fflush(stdout) ? 1 : 0;
		case 'V':
			if (optind < argc) {	/* "--version extra": not silently ignored */
				fprintf(stderr, "logdev: --version takes no arguments ('%s')\n",
					argv[optind]);
				return 2;
			}
			print_version();
			return fflush(stdout) ? 1 : 0;
		default:
			cli_opt_error("", c, optopt, argv, optind);
			cli_usage(stderr);
			return 2;
		}
	}
	if (optind >= argc) {
		cli_usage(stderr);
		return 2;
	}
	cmd = find_cmd(argv[optind]);
	if (!cmd) {
		fprintf(stderr, "logdev: unknown command '%s'\n", argv[optind]);
		cli_usage(stderr);
		return 2;
	}
	/* the verb's argv[0] is its name; its getopt_long starts afresh */
	argc -= optind;
	argv += optind;
	optind = 0;
	cli_current = cmd;
	return cmd->fn(argc, argv);
}
