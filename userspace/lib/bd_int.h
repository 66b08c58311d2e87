/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bd_int.h: the breakdown's timelines, between breakdown.c (fed by the
 * markers) and bdsplit.c (reads them to split a pair).  Library-private.
 * Times are the records' trace clock, ns.
 */
#ifndef LGD_BD_INT_H
#define LGD_BD_INT_H

#include <stddef.h>
#include <stdint.h>
#include "lgd_breakdown.h"

/* a CPU's time from @start to @end in one bucket (LGD_BD_*), by @who/@id */
struct bd_seg {
	uint64_t start, end;
	uint32_t bucket, who;
	uint64_t id;
};

/* an interrupt open on a CPU since @start */
struct bd_open {
	uint32_t bucket, who;
	uint64_t id;
	uint64_t start;
};

/*
 * a time of a CPU whose picture is not known (lost events, a marker that
 * could not be read or does not fit what came before): a split with a
 * window there is incomplete
 */
struct bd_range {
	uint64_t from, to;
};

#define BD_DEPTH	8	/* interrupts open on one CPU (softirq, hardirq, ...) */

/*
 * per CPU: interrupt segments and NMIs in time order; the unknown ranges,
 * in the order found (their ends ascending; @bad_span the longest); the
 * time of its latest record of each context level (0: none yet)
 */
struct bd_cpu {
	struct bd_seg *seg, *nmi;
	size_t nr_seg, cap_seg, nr_nmi, cap_nmi;
	struct bd_range *bad;
	size_t nr_bad, cap_bad;
	uint64_t bad_span;
	struct bd_open stack[BD_DEPTH];
	uint32_t depth;
	uint64_t seg_start;	/* of the innermost open interrupt's segment */
	uint64_t last[4];
};

/*
 * a task's time off CPU: out at @s1, woken at @w (0: not seen, or
 * @runnable: switched out runnable), back at @s2 on @in_cpu; @next ran
 * after it at @s1 (a task_struct address), @ran_pid before it at @s2
 */
struct bd_off {
	uint64_t s1, w, s2;
	uint32_t in_cpu;
	uint16_t runnable;
	uint16_t lost;		/* where the task was from @s1 to @s2 is not known */
	uint64_t next;
	uint32_t ran_pid;
	struct lgd_bd_who waker;
};

/*
 * a task by its task_struct address: its pid (0 until it switched out
 * once), its open time off CPU, the time of its latest switch record
 * (@seen), a time it was not known where it was, waiting for its pid
 * (@lost_from .. @lost_to, 0: none), and on PREEMPT_RT the softirqs it
 * takes with it off CPU (softirqs there are a task's, not a CPU's: it can
 * be preempted while serving one, and serves it on where it comes back)
 */
struct bd_task {
	uint64_t ptr;		/* bd_table's key */
	uint32_t pid;
	int open, runnable;
	uint64_t s1, w, next;
	struct lgd_bd_who waker;
	uint64_t seen, lost_from, lost_to;
	struct bd_open *softirq;	/* PREEMPT_RT: the softirqs it was serving when
					 * switched out, @nsoftirq of them (malloc'd) */
	uint32_t nsoftirq;
};

/* a pid's intervals off CPU, in time order, and its latest address */
struct bd_pid {
	uint64_t key;		/* pid + 1 (bd_table's key: 0 is a free slot) */
	uint64_t ptr;
	struct bd_off *off;
	size_t nr_off, cap_off;
};

/*
 * a hash table (open addressing, at most half full) of @cap entries, each
 * starting with its u64 key (0: a free slot), @nr in use
 */
struct bd_table {
	void *v;
	size_t cap, nr;
};

struct lgd_bd {
	const struct lgd_sites *sites;
	unsigned int have;
	uint64_t met, fed;	/* marker records met; of them, read */
	struct bd_cpu *cpus;
	uint32_t nr_cpu;
	struct bd_table tasks;		/* struct bd_task by address */
	struct bd_table pids;		/* struct bd_pid by pid + 1 */
};

/* breakdown.c: lookups (@create: added if new); NULL: none, or no memory */
struct bd_pid *lgd_bd_pid(struct lgd_bd *bd, uint32_t pid, int create);
struct bd_task *lgd_bd_task(struct lgd_bd *bd, uint64_t ptr, int create);
/* breakdown.c: the arguments marker kind @m's records carry */
unsigned int lgd_bd_nargs(unsigned int m);
/* bdfeed.c: room for one more of @size bytes in *@v (*@nr of *@cap): 0 or -ENOMEM */
int lgd_bd_grow(void **v, size_t *nr, size_t *cap, size_t size);
struct bd_cpu *lgd_bd_cpu(struct lgd_bd *bd, uint32_t cpu, int create);
/* breakdown.c: is the task of pid @pid off CPU since before @ts (a switch back lost)? */
int lgd_bd_off_since(struct lgd_bd *bd, uint32_t pid, uint64_t ts);

/*
 * breakdown.c: the time from which the task of @o counted as runnable
 * (preempted): at once if switched out runnable; from its wake-up if a task
 * held the CPU it came back on; else @o->s2 (never: asleep until the switch,
 * a CPU leaving idle for it counting as the sleep's end, not as a task in
 * its way); and *@ran the culprit of that part (the task that ran instead)
 */
uint64_t lgd_bd_runnable_from(struct lgd_bd *bd, const struct bd_off *o, struct lgd_bd_who *ran);

#endif /* LGD_BD_INT_H */
