/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli-follow.h: --follow of report and deltas (cli-follow.c; layer: CLI).
 */
#ifndef LOGDEV_CLI_FOLLOW_H
#define LOGDEV_CLI_FOLLOW_H

#include <stdint.h>
#include "liblogdev.h"

/*
 * --follow of report and deltas (cli-follow.c): the live buffers read as
 * they fill, merged by time through the library's live merge (lgd_live).
 */
/* sub-buffers held for reordering at most (bytes; at least 2 per CPU) */
#define CLI_FOLLOW_MAX_BYTES	(4u << 20)
/* default reorder window (ms): trace clock and wall time */
#define CLI_FOLLOW_WINDOW_MS	100

/**
 * struct cli_follow - the follow loop's state: @r the live metadata
 * (header, formats, symbols; task names as they come), @lv the live merge,
 * @n CPU files @fds of CPUs @cpus (@idle: at their end, looked at again
 * every half window), @buf one read (16 sub-buffers)
 */
struct cli_follow {
	const char *dir;
	struct lgd_reader r;
	struct lgd_live lv;
	int *fds;
	uint8_t *idle;
	uint32_t *cpus;
	uint32_t n;
	uint8_t *buf;
	size_t bufsz;
	uint32_t formats_tried;	/* highest site id "formats" was re-read for */
};
/* an item handed out (LGD_LIVE_* @flags); non-zero stops (a write error) */
typedef int (*cli_follow_item_fn)(void *arg, const struct lgd_item *it, unsigned int flags);
/* every tick_ns of wall time; non-zero stops */
typedef int (*cli_follow_tick_fn)(void *arg, uint64_t now_ns);
/** cli_mono_ns() - CLOCK_MONOTONIC in ns. */
uint64_t cli_mono_ns(void);
/**
 * cli_follow_open() - the live metadata of $LOGDEV_DEBUGFS (or the default
 * directory) with the filter options applied, every CPU's trace_pipe_raw
 * opened non-blocking, a live merge with window @window_ns handing out
 * @items (enum lgd_items).  Prints errors (no live buffer:
 * cli_live_hint()).  Return: 0, or 1 (unusable).
 */
int cli_follow_open(struct cli_follow *f, uint64_t window_ns, unsigned int items);
/**
 * cli_follow_run() - follow until SIGINT or SIGTERM (cli-follow.c's file
 * comment: flush cadence, the final drain), handing every item to @fn in
 * merge order and calling @tick (if not NULL) every @tick_ns.
 * Return: 0, or 1 after printing an error (I/O, memory, @fn failed).
 */
int cli_follow_run(struct cli_follow *f, cli_follow_item_fn fn, cli_follow_tick_fn tick,
		   uint64_t tick_ns, void *arg);
/**
 * cli_follow_summary() - on stderr: records handed out, late and early
 * ones, and the lost events per CPU ("logdev: lost events: cpu:0 0, cpu:1
 * 12 (overrun 12)"); lost events, late or early records count as
 * warnings (exit 3).
 */
void cli_follow_summary(struct cli_follow *f);
void cli_follow_close(struct cli_follow *f);
/**
 * cli_window_arg() - parse --window MS (a whole number of ms, 1 to 60000)
 * of @verb into *@ns.  Return: 0, or 2 (usage, said why).
 */
int cli_window_arg(const char *verb, const char *arg, uint64_t *ns);

#endif /* LOGDEV_CLI_FOLLOW_H */
