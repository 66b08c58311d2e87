// SPDX-License-Identifier: GPL-2.0
/*
 * streams.c: which record pairs with which, the one rule of report's
 * "+D us" (render.c) and of deltas and diff (deltas.c).  A record pairs
 * with the previous record of its stream (lgd_ts_step() then says whether
 * the step between them is a delta):
 *
 *   --by context (LGD_BY_CONTEXT, the default): stream = (CPU, context
 *       level: task, softirq, hardirq, NMI).  An interrupt that records
 *       between a task's two records leaves the task's pair whole.
 *   --by cpu (LGD_BY_CPU): stream = CPU, whatever the context (the rule
 *       before issue 11: consecutive records of one CPU).
 *   --by task (LGD_BY_TASK): task-context records of a pid other than 0
 *       pair across CPUs (code that migrates); records of pid 0 (each
 *       CPU's idle task) and of interrupt contexts (whose pid is only the
 *       interrupted task's) pair as with --by context.
 *
 * Nested time (not with --by cpu): a "run" is a maximal sequence of
 * consecutive records of one CPU (in merge order) whose context is deeper
 * than a level L (task < softirq < hardirq < NMI).  When a run ends (a
 * record of level L or shallower on that CPU), its span (last ts - first
 * ts, 0 if the clock went back) and its number of records are added to
 * the stream that owns level L on that CPU: with --by context the CPU's
 * stream of level L; with --by task, for level 0, the stream whose
 * previous record is the CPU's latest task-context record (a task's
 * stream, or the CPU's pid-0 stream), whatever pid the run's records
 * carry (an interrupt while the task slept and the CPU idled carries pid
 * 0, yet ran between the task's two records on that CPU: --by context
 * counts it there too); if that task has recorded on another CPU since
 * (or the CPU has no task-context record yet), the task stream of the
 * pid the run's first record interrupted (a task that migrated to this
 * CPU and was interrupted before its first record here; pid 0: the CPU's
 * pid-0 stream).  A pair (A, B)
 * reports what its stream gathered between A and B:
 * the sum of the spans of the runs of deeper records between them, and
 * their records.  That is a lower bound of the time the interrupts took:
 * a run of one record spans 0 ns (the time before its first and after its
 * last record is not seen).
 *
 * Filters (filter.c): a record the filter left out (lgd_item.filtered)
 * takes its place in its stream like any other, and neither it nor the
 * record after it has a pair: pairs are made on every record and kept
 * only where both ends pass the filter, so a filter chooses rows of the
 * unfiltered table and never joins two records across a third.
 *
 * Lost events: a gap on a CPU forgets that CPU's streams and runs (a pair
 * never spans a gap); each stream forgotten with a previous record is a
 * pair cut (@on_cut).  With --by task, a task stream whose previous record
 * is on that CPU is forgotten when its next record comes (a per-CPU gap
 * count, compared in O(1)), or by lgd_streams_finish().  A task stream
 * whose previous record is on another CPU stays valid: a task's records
 * lost on a CPU it visited in between are not seen.
 *
 * Memory: 4 streams, 3 runs and the latest task pid per CPU; with --by task one stream per
 * pid seen in task context (a hash table).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "liblogdev.h"

/**
 * struct lgd_stream - a stream's previous record (@valid), and what its
 * deeper contexts did since: @nested_ns (sum of run spans, saturating),
 * @nested_recs (records in those runs).  @used: task hash slot; @pid its
 * key there, and any stream's previous record's pid;
 * @gap_seen: its CPU's gap count at that record (LGD_BY_TASK).
 */
struct lgd_stream {
	uint64_t ts;		/* ns */
	uint64_t nested_ns;
	uint64_t nested_recs;
	uint64_t gap_seen;
	uint32_t site, cpu, pid;
	uint8_t valid, used;
	uint8_t kept;		/* the previous record was not .filtered */
};

/** struct lgd_run - a run of records deeper than one level on one CPU. */
struct lgd_run {
	uint64_t first, last;	/* ns */
	uint64_t n;		/* records; 0: no run */
	uint32_t pid;		/* of its first record */
};

#define NLEV	4	/* context levels: enum logdev_ctx */
#define NRUN	3	/* runs deeper than level 0, 1, 2 */

int lgd_by_parse(const char *name)
{
	if (!strcmp(name, "context"))
		return LGD_BY_CONTEXT;
	if (!strcmp(name, "cpu"))
		return LGD_BY_CPU;
	if (!strcmp(name, "task"))
		return LGD_BY_TASK;
	return -EINVAL;
}

const char *lgd_by_name(int by)
{
	switch (by) {
	case LGD_BY_CONTEXT: return "context";
	case LGD_BY_CPU: return "cpu";
	case LGD_BY_TASK: return "task";
	}
	return "?";
}

void lgd_streams_open(struct lgd_streams *s, int by, void (*on_cut)(void *arg, uint32_t site),
		      void *cut_arg)
{
	memset(s, 0, sizeof(*s));
	s->by = by;
	s->on_cut = on_cut;
	s->cut_arg = cut_arg;
}

void lgd_streams_free(struct lgd_streams *s)
{
	int by = s->by;
	void (*on_cut)(void *, uint32_t) = s->on_cut;
	void *arg = s->cut_arg;

	free(s->cs);
	free(s->runs);
	free(s->gaps);
	free(s->cur_pid);
	free(s->tasks);
	lgd_streams_open(s, by, on_cut, arg);
}

static int grow_cpu(struct lgd_streams *s, uint32_t cpu)
{
	uint32_t n = cpu + 1, o = s->nr_cpu;
	struct lgd_stream *cs;
	struct lgd_run *runs;
	uint64_t *gaps;
	uint32_t *cur;

	if (cpu < o)
		return 0;
	cs = realloc(s->cs, (size_t)n * NLEV * sizeof(*cs));
	if (!cs)
		return -ENOMEM;
	s->cs = cs;
	runs = realloc(s->runs, (size_t)n * NRUN * sizeof(*runs));
	if (!runs)
		return -ENOMEM;
	s->runs = runs;
	gaps = realloc(s->gaps, (size_t)n * sizeof(*gaps));
	if (!gaps)
		return -ENOMEM;
	s->gaps = gaps;
	cur = realloc(s->cur_pid, (size_t)n * sizeof(*cur));
	if (!cur)
		return -ENOMEM;
	s->cur_pid = cur;
	memset(cur + o, 0, (size_t)(n - o) * sizeof(*cur));
	memset(cs + (size_t)o * NLEV, 0, (size_t)(n - o) * NLEV * sizeof(*cs));
	memset(runs + (size_t)o * NRUN, 0, (size_t)(n - o) * NRUN * sizeof(*runs));
	memset(gaps + o, 0, (size_t)(n - o) * sizeof(*gaps));
	s->nr_cpu = n;
	return 0;
}

static uint32_t pid_hash(uint32_t pid)
{
	return pid * 2654435761u;	/* Knuth's multiplicative hash */
}

/* the task stream of @pid (created if @create), NULL if absent or no memory */
static struct lgd_stream *task_stream(struct lgd_streams *s, uint32_t pid, int create)
{
	size_t mask, i;

	if (create && (s->nr_tasks + 1) * 2 > s->tasks_cap) {
		size_t nc = s->tasks_cap ? s->tasks_cap * 2 : 256;
		struct lgd_stream *nt = calloc(nc, sizeof(*nt));

		if (!nt)
			return NULL;
		for (size_t k = 0; k < s->tasks_cap; k++) {
			if (!s->tasks[k].used)
				continue;
			for (i = pid_hash(s->tasks[k].pid) & (nc - 1); nt[i].used; i = (i + 1) & (nc - 1))
				;
			nt[i] = s->tasks[k];
		}
		free(s->tasks);
		s->tasks = nt;
		s->tasks_cap = nc;
	}
	if (!s->tasks_cap)
		return NULL;
	mask = s->tasks_cap - 1;
	for (i = pid_hash(pid) & mask; s->tasks[i].used; i = (i + 1) & mask)
		if (s->tasks[i].pid == pid)
			return &s->tasks[i];
	if (!create)
		return NULL;
	memset(&s->tasks[i], 0, sizeof(s->tasks[i]));
	s->tasks[i].used = 1;
	s->tasks[i].pid = pid;
	s->nr_tasks++;
	return &s->tasks[i];
}

/* forget @st's previous record; a pair it would have started is cut */
static void cut(struct lgd_streams *s, struct lgd_stream *st)
{
	if (st->valid) {
		s->cut++;
		if (s->on_cut)
			s->on_cut(s->cut_arg, st->site);
	}
	st->valid = 0;
	st->nested_ns = 0;
	st->nested_recs = 0;
}

/* a task stream whose previous record's CPU had a gap since: forgotten */
static void task_check(struct lgd_streams *s, struct lgd_stream *st)
{
	if (st->valid && st->cpu < s->nr_cpu && s->gaps[st->cpu] != st->gap_seen)
		cut(s, st);
}

/* the stream owning level @lev of @cpu, for a run whose first record had @pid */
static struct lgd_stream *owner(struct lgd_streams *s, uint32_t cpu, int lev, uint32_t pid)
{
	struct lgd_stream *st;

	if (s->by == LGD_BY_TASK && lev == LOGDEV_CTX_TASK) {
		uint32_t cur = s->cur_pid[cpu];	/* the CPU's latest task record's */

		st = cur ? task_stream(s, cur, 0) : &s->cs[(size_t)cpu * NLEV];
		if (st && cur)
			task_check(s, st);
		if (st && st->valid && st->cpu == cpu)
			return st;
		if (!pid)
			return &s->cs[(size_t)cpu * NLEV];
		st = task_stream(s, pid, 0);
		if (st)
			task_check(s, st);
		return st;
	}
	return &s->cs[(size_t)cpu * NLEV + lev];
}

/* is a run of a CPU's (its NRUN) open?  If not, a task record ends none */
_Static_assert(NRUN == 3, "runs_open() reads three runs");
static inline int runs_open(const struct lgd_run *ru)
{
	return ru[0].n || ru[1].n || ru[2].n;
}

/*
 * record @it (of @cpu, context @ctx) on its stream @st: *@step from the
 * stream's previous record, if it has one kept, else all 0
 */
static inline int take(struct lgd_streams *s, struct lgd_stream *st, const struct lgd_item *it,
		       uint32_t cpu, int ctx, struct lgd_stream_step *step)
{
	if (ctx == LOGDEV_CTX_TASK)
		s->cur_pid[cpu] = it->rec.pid;
	if (st->valid && st->kept && !it->filtered) {
		step->has_prev = 1;
		step->kind = lgd_ts_step(st->ts, it->ts, &step->ns);
		s->left_back += step->kind == LGD_STEP_BACK;
		s->left_huge += step->kind == LGD_STEP_HUGE;
		step->from_site = st->site;
		step->from_cpu = st->cpu;
		step->from_pid = st->pid;
		step->nested_ns = st->nested_ns;
		step->nested_recs = st->nested_recs;
	} else {
		memset(step, 0, sizeof(*step));
	}
	st->valid = 1;
	st->kept = !it->filtered;
	st->ts = it->ts;
	st->site = it->rec.site;
	st->cpu = cpu;
	st->pid = it->rec.pid;	/* a task stream's key already: the same */
	st->gap_seen = s->gaps[cpu];
	st->nested_ns = 0;
	st->nested_recs = 0;
	return 0;
}

int lgd_streams_add(struct lgd_streams *s, const struct lgd_item *it,
		   struct lgd_stream_step *step)
{
	uint32_t cpu = it->cpu;
	int ctx = it->rec.ctx & LOGDEV_CTX_MASK;
	struct lgd_stream *st;

	/*
	 * The common record, straight to take(): task context on a known CPU,
	 * not a marker, and (--by context) no deeper-context run open to end
	 */
	if (ctx == LOGDEV_CTX_TASK && it->kind == LGD_ITEM_REC && !it->ts_absurd &&
	    cpu < s->nr_cpu && s->by != LGD_BY_TASK &&
	    !(s->skip && it->rec.site < s->nr_skip && s->skip[it->rec.site]) &&
	    (s->by == LGD_BY_CPU || !runs_open(&s->runs[(size_t)cpu * NRUN])))
		return take(s, &s->cs[(size_t)cpu * NLEV], it, cpu, ctx, step);
	memset(step, 0, sizeof(*step));
	if (cpu >= LGD_STREAMS_MAX_CPU)
		return 0;
	if (cpu >= s->nr_cpu && grow_cpu(s, cpu))
		return -ENOMEM;
	/* a gap, or a record with an absurd stamp (the report shows it, no
	 * statistic may: lgd_ts_absurd()), cuts every stream of its CPU */
	if (it->kind == LGD_ITEM_GAP || it->ts_absurd) {
		for (int l = 0; l < NLEV; l++)
			cut(s, &s->cs[(size_t)cpu * NLEV + l]);
		for (int l = 0; l < NRUN; l++)
			s->runs[(size_t)cpu * NRUN + l].n = 0;
		s->gaps[cpu]++;
		return 0;
	}
	if (it->kind == LGD_ITEM_REC && s->skip && it->rec.site < s->nr_skip &&
	    s->skip[it->rec.site])
		return 0;	/* a marker: no pair, no nesting */
	if (s->by == LGD_BY_CPU) {
		ctx = 0;	/* one stream per CPU, no nesting */
	} else if (ctx || runs_open(&s->runs[(size_t)cpu * NRUN])) {
		for (int l = 0; l < NRUN; l++) {
			struct lgd_run *ru = &s->runs[(size_t)cpu * NRUN + l];

			if (l < ctx) {		/* deeper than @l: the run goes on */
				if (!ru->n) {
					ru->first = it->ts;
					ru->pid = it->rec.pid;
				}
				ru->last = it->ts;
				ru->n++;
			} else if (ru->n) {	/* ends: to the owner of level @l */
				struct lgd_stream *o = owner(s, cpu, l, ru->pid);

				if (o && o->valid) {
					uint64_t span = ru->last >= ru->first ? ru->last - ru->first : 0;

					o->nested_ns = o->nested_ns + span < o->nested_ns ?
						       UINT64_MAX : o->nested_ns + span;
					o->nested_recs += ru->n;
				}
				ru->n = 0;
			}
		}
	}
	if (s->by == LGD_BY_TASK && ctx == LOGDEV_CTX_TASK && it->rec.pid) {
		st = task_stream(s, it->rec.pid, 1);
		if (!st)
			return -ENOMEM;
		task_check(s, st);
	} else {
		st = &s->cs[(size_t)cpu * NLEV + ctx];
	}
	return take(s, st, it, cpu, ctx, step);
}

void lgd_streams_finish(struct lgd_streams *s)
{
	for (size_t i = 0; i < s->tasks_cap; i++)
		if (s->tasks[i].used)
			task_check(s, &s->tasks[i]);
}
