/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli-callees.h: CLI: the callees verb (logdev-callees.c): the callees of a
 * function as logdev callees finds them, and record's probe options
 * (-p, --probe-file, --callees) into its probe lines.
 */
#ifndef LOGDEV_CLI_CALLEES_H
#define LOGDEV_CLI_CALLEES_H

#include <stddef.h>
#include <stdio.h>

struct lgd_callees;
/**
 * cli_callees_get() - the callees of @func on the running kernel
 * (lgd_callees_find() on /proc/kcore, /proc/kallsyms, the kprobes
 * blacklist).  Return: 0; after saying why on stderr, 2 where @func names
 * no function to read (none, or several of that name: a bad argument, as
 * record --callees says) and 1 where the system's files cannot be read.
 */
int cli_callees_get(const char *func, struct lgd_callees *cs);
/**
 * cli_callees_probes() - append to *@lines (*@n of them, malloc'd) the
 * probes-file lines of a return probe on @func and on each callee that can
 * be probed; on @notes (NULL: nothing) what was found and each callee
 * skipped with its reason.  Return: 0, or cli_callees_get()'s 1 or 2.
 */
int cli_callees_probes(const char *func, char ***lines, size_t *n, FILE *notes);

int cmd_callees(int argc, char **argv);
/**
 * cli_callees_specs() - add to @ps the return probes of record --callees
 * @func: on @func and each callee that can be probed (logdev-callees.c),
 * lines already there left out; what was found and skipped said on stderr.
 * Return: 0, or 2 after saying why (not found, unreadable, no memory).
 */
struct cli_probe_specs;
int cli_callees_specs(struct cli_probe_specs *ps, const char *func);
/**
 * cli_probe_opt() - record's -p (@opt 'p'), --probe-file ('P') or --callees
 * ('C') @arg into @ps.  Return: 0, 1 (no memory) or 2 (said on stderr).
 */
int cli_probe_opt(struct cli_probe_specs *ps, int opt, const char *arg);

#endif /* LOGDEV_CLI_CALLEES_H */
