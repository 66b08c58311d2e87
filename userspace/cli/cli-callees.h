/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli-callees.h: CLI: the callees of a function as logdev callees finds
 * them (logdev-callees.c), for record --callees.
 */
#ifndef LOGDEV_CLI_CALLEES_H
#define LOGDEV_CLI_CALLEES_H

#include <stddef.h>
#include <stdio.h>

struct lgd_callees;
/**
 * cli_callees_get() - the callees of @func on the running kernel
 * (lgd_callees_find() on /proc/kcore, /proc/kallsyms, the kprobes
 * blacklist).  Return: 0, or 1 after saying why on stderr.
 */
int cli_callees_get(const char *func, struct lgd_callees *cs);
/**
 * cli_callees_probes() - append to *@lines (*@n of them, malloc'd) the
 * probes-file lines of a return probe on @func and on each callee that can
 * be probed; on @notes (NULL: nothing) what was found and each callee
 * skipped with its reason.  Return: 0, or 1 after saying why on stderr.
 */
int cli_callees_probes(const char *func, char ***lines, size_t *n, FILE *notes);

#endif /* LOGDEV_CLI_CALLEES_H */
