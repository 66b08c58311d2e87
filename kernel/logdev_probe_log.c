// SPDX-License-Identifier: GPL-2.0
/*
 * logdev_probe_log.c - why a command to the "probes" file was refused:
 * ld_fail() keeps the first reason and where in the command it points, and
 * ld_errlog_add() keeps the last LD_ERRLOG_MAX of them for the debugfs
 * "error_log" (shown by logdev_probes.c, as ftrace's error_log).
 *
 * Layer: probes, its bottom file (logdev_probes.h): the parser, the symbol
 * and tracepoint lookups and the arming all report through ld_fail(), so it
 * calls nothing of logdev.  Also holds ld_probes_mutex, which guards the
 * probes and this log.  Portable: built in userspace by tests/fuzz
 * (fuzz_probespec), through tests/fuzz/kshim/ldk_probe.h.
 */
#ifdef __KERNEL__
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/sched/clock.h>
#include <linux/string.h>
#endif
#include "logdev_probes.h"

#ifdef __KERNEL__
DEFINE_MUTEX(ld_probes_mutex);
#endif

/* a ring of the last LD_ERRLOG_MAX; under ld_probes_mutex */
struct ld_err ld_errlog[LD_ERRLOG_MAX];
u32 ld_errlog_next, ld_errlog_count;

/**
 * ld_fail() - refuse the command parsed in @c, unless it already is
 * @c:   the parsing context
 * @at:  where in @c->buf the fault is (NULL: the command's start)
 * @err: the negative errno the write returns
 * @fmt: the reason, printf-style (kept in @c->reason, cut at its size)
 *
 * Only the first failure of a command is kept: a later one returns the
 * first one's error.
 * Return: the error of the command (@err, or the first one's).
 */
int ld_fail(struct ld_pctx *c, const char *at, int err, const char *fmt, ...)
{
	va_list ap;

	if (c->err)
		return c->err;
	c->err = err;
	c->at = at ? at : c->buf;
	va_start(ap, fmt);
	vscnprintf(c->reason, sizeof(c->reason), fmt, ap);
	va_end(ap);
	return err;
}

/**
 * ld_errlog_add() - keep @c's refusal (reason, command, position) in the
 * error log, dropping the oldest of LD_ERRLOG_MAX; under ld_probes_mutex
 * @c: a context ld_fail() refused
 */
void ld_errlog_add(const struct ld_pctx *c)
{
	struct ld_err *e = &ld_errlog[ld_errlog_next];

	lockdep_assert_held(&ld_probes_mutex);
	e->ts = local_clock();
	strscpy(e->reason, c->reason, sizeof(e->reason));
	strscpy(e->cmd, c->text, sizeof(e->cmd));
	e->pos = min_t(u32, c->at - c->buf, strlen(e->cmd));
	ld_errlog_next = (ld_errlog_next + 1) % LD_ERRLOG_MAX;
	if (ld_errlog_count < LD_ERRLOG_MAX)
		ld_errlog_count++;
}
