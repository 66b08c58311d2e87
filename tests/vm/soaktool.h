/*
 * soaktool.h: what the soak test's guest tool shares between its files:
 * soaktool.c (the run: setup, writers, sampling and the checks) and
 * soaktool_read.c (the per-CPU readers, checking every record as read).
 */
#ifndef SOAKTOOL_H
#define SOAKTOOL_H

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/logdev.h>

#define D	"/sys/kernel/debug/logdev"
#define T	"/sys/kernel/debug/logdev_test"
#define MAXCPU	64
#define NCTX	4
#define RDBUF	(64 * 1024)
#define MAXSITE	8192
#define STALL_MAX_S	5	/* longest wait in one read() allowed while writers run */
#define ASLEEP_MAX_S	2	/* longest sleep after data became readable (40 timer polls) */

enum { L_OVERRUN, L_DROPPED, L_NESTING_LOST, L_TOO_BIG, L_NR };

/* one reader per CPU: what it read, and the sampler's view of it */
struct rd {
	pthread_t th;
	int cpu;
	unsigned int sb;
	uint64_t subbufs, bytes;
	uint64_t read[NCTX], gaps[NCTX], next[NCTX];
	uint64_t comm, lost[L_NR];
	uint64_t bad_sb, ctx_bad, order_bad, other, eof_early, errors;
	volatile double last_ret;	/* now() when read() last returned */
	volatile uint64_t nreads;	/* read() calls returned */
	volatile int tid;		/* the reader thread, for /proc */
	double stall;			/* longest wait in one read() seen (s) */
	double stall_cpu;		/* the same, only while its CPU's writers wrote (s) */
	double idle_at;			/* last sample that found its CPU's writers idle */
	uint64_t w_prev;		/* its CPU's stats written at the last sample */
	/* the sampler's view of the current read() (see "wake-ups" above) */
	uint64_t s_nreads, s_pcount, s_written, s_written0;
	char s_state;
	double s_t, s_asleep_since, s_ready_since;
	double w_runnable, w_rdelay0;	/* this read(): s runnable not run, run delay at start (ns) */
	/* worst figures over the run */
	double asleep_ready;		/* longest sleep after its CPU completed a sub-buffer (s) */
	/* that sleep: when it was last seen (s after the start), records its
	 * CPU attempted and dropped (stats) since it fell asleep, sub-buffers read */
	double ar_at;
	uint64_t ar_written, ar_dropped, ar_subbufs;
	uint64_t s_dropped, s_dropped0;
	double runnable_max;		/* most time runnable but not run in one read() (s) */
	double rdelay_max;		/* most run delay in one read() (s, schedstat) */
	int no_proc;			/* /proc/self/task/TID unreadable */
	char ex[200];		/* first problem, for the FAIL line */
};

/* set when the soak write returned: an EOF before it is a failure */
extern volatile int writers_done;

/* CLOCK_MONOTONIC in seconds */
double now(void);
/* reader thread for struct rd @arg: drains its CPU's trace_pipe_raw to EOF */
void *reader(void *arg);

#endif
