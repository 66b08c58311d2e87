// SPDX-License-Identifier: GPL-2.0
/*
 * breakdown.c: the timelines of the context markers, fed in merge order
 * (docs/ANALYSIS.md, "Breakdown"; design: docs/log/DESIGN-breakdown.md).
 *
 * - Per CPU, the interrupts as flat segments: each time is in exactly one
 *   segment of the innermost interrupt running (a hardirq inside a softirq
 *   ends the softirq's segment and starts its own; the softirq's goes on
 *   at the hardirq's exit), in time order.  Hardirqs are the irq handlers
 *   (irq:irq_handler_entry/exit: the handler only, not the generic entry
 *   code around it) and the local timer (irq_vectors:local_timer_*),
 *   softirqs softirq_entry/exit.  NMIs apart: nmi:nmi_handler fires after
 *   each handler with its delta_ns, so its start is its record's time less
 *   that; bdsplit.c takes an NMI out of the segment it lies in.
 * - Per task, its off-CPU intervals from sched_switch: out at s1 (prev),
 *   back at s2 (next, any CPU); runnable when switched out preempted or in
 *   state TASK_RUNNING (0), else sleeping until the sched_waking of it
 *   (at w: blocked s1..w, waiting on a run queue w..s2).  Tasks are told
 *   apart by their task_struct address (prev, next, p), its pid learned
 *   from the records a task makes when it switches out (their pid).
 * - Per CPU, the times of lost-events gaps: a split that meets one is
 *   incomplete.
 * Memory: about 50 bytes per marker record (segments and intervals are
 * kept for the whole capture: a pair may start anywhere before its end).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "liblogdev.h"
#include "bd_int.h"

static const struct {
	const char *name, *spec, *args;	/* args: the format's first names */
	int optional;
} marks[LGD_BDM_NR] = {
	[LGD_BDM_IRQ_IN] = { "logdev_bd_irq_in", "irq:irq_handler_entry irq", "irq=", 0 },
	[LGD_BDM_IRQ_OUT] = { "logdev_bd_irq_out", "irq:irq_handler_exit irq", "irq=", 0 },
	[LGD_BDM_SIRQ_IN] = { "logdev_bd_sirq_in", "irq:softirq_entry vec_nr", "vec_nr=", 0 },
	[LGD_BDM_SIRQ_OUT] = { "logdev_bd_sirq_out", "irq:softirq_exit vec_nr", "vec_nr=", 0 },
	[LGD_BDM_SWITCH] = { "logdev_bd_switch", "sched:sched_switch preempt prev next prev_state",
			     "preempt=", 0 },
	[LGD_BDM_WAKING] = { "logdev_bd_waking", "sched:sched_waking p", "p=", 0 },
	[LGD_BDM_NMI] = { "logdev_bd_nmi", "nmi:nmi_handler handler delta_ns", "handler=", 1 },
	[LGD_BDM_TIMER_IN] = { "logdev_bd_timer_in", "irq_vectors:local_timer_entry vector",
			       "vector=", 1 },
	[LGD_BDM_TIMER_OUT] = { "logdev_bd_timer_out", "irq_vectors:local_timer_exit vector",
				"vector=", 1 },
};

/* the arguments each kind needs (the probe spec's, in its order) */
static const unsigned int mark_nargs[LGD_BDM_NR] = {
	[LGD_BDM_IRQ_IN] = 1, [LGD_BDM_IRQ_OUT] = 1, [LGD_BDM_SIRQ_IN] = 1,
	[LGD_BDM_SIRQ_OUT] = 1, [LGD_BDM_SWITCH] = 4, [LGD_BDM_WAKING] = 1,
	[LGD_BDM_NMI] = 2, [LGD_BDM_TIMER_IN] = 1, [LGD_BDM_TIMER_OUT] = 1,
};

const char *lgd_bd_mark_name(unsigned int m)
{
	return m && m < LGD_BDM_NR ? marks[m].name : NULL;
}

const char *lgd_bd_mark_spec(unsigned int m, int *optional)
{
	static char spec[LGD_BDM_NR][128];

	if (!m || m >= LGD_BDM_NR)
		return NULL;
	if (optional)
		*optional = marks[m].optional;
	if (!spec[m][0])
		snprintf(spec[m], sizeof(spec[m]), "t:%s=%s", marks[m].name, marks[m].spec);
	return spec[m];
}

unsigned int lgd_bd_mark_of(const struct lgd_site *s)
{
	int kinds[8];

	if (!s || !s->file || strcmp(s->file, "probe") || !s->func || !s->fmt ||
	    strncmp(s->func, "logdev_bd_", 10))
		return 0;
	for (unsigned int m = 1; m < LGD_BDM_NR; m++)
		if (!strcmp(s->func, marks[m].name))
			return !strncmp(s->fmt, marks[m].args, strlen(marks[m].args)) &&
			       lgd_fmt_arg_kinds(s->fmt, kinds, 8) >= (int)mark_nargs[m] ? m : 0;
	return 0;
}

const char *lgd_bd_bucket_name(unsigned int b)
{
	static const char *const n[LGD_BD_NR] = { "own", "hardirq", "softirq", "nmi",
						  "preempted", "blocked" };

	return b < LGD_BD_NR ? n[b] : "?";
}

/* include/linux/interrupt.h's softirq vectors, 0..9 (the same since 2.6.37) */
const char *lgd_bd_softirq_name(uint64_t v)
{
	static const char *const n[] = { "HI", "TIMER", "NET_TX", "NET_RX", "BLOCK",
					 "IRQ_POLL", "TASKLET", "SCHED", "HRTIMER", "RCU" };

	return v < sizeof(n) / sizeof(n[0]) ? n[v] : NULL;
}

/* ---- growing arrays and hash tables ------------------------------------ */

/* room for one more of @size bytes in *@v of *@nr (*@cap): 0 or -ENOMEM */
static int grow(void **v, size_t *nr, size_t *cap, size_t size)
{
	void *nv;
	size_t nc;

	if (*nr < *cap)
		return 0;
	nc = *cap ? *cap * 2 : 16;
	nv = realloc(*v, nc * size);
	if (!nv)
		return -ENOMEM;
	*v = nv;
	*cap = nc;
	return 0;
}

static size_t hash64(uint64_t k, size_t cap)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;	/* MurmurHash3's fmix64 */
	k ^= k >> 33;
	return (size_t)k & (cap - 1);
}

/* the task of address @ptr (@create: added if new), NULL if none or no memory */
static struct bd_task *task_of(struct lgd_bd *bd, uint64_t ptr, int create)
{
	size_t i;

	if (create && 2 * (bd->nr_tasks + 1) > bd->tasks_cap) {
		size_t nc = bd->tasks_cap ? bd->tasks_cap * 2 : 256;
		struct bd_task *nt = calloc(nc, sizeof(*nt));

		if (!nt)
			return NULL;
		for (size_t j = 0; j < bd->tasks_cap; j++) {
			if (!bd->tasks[j].ptr)
				continue;
			for (i = hash64(bd->tasks[j].ptr, nc); nt[i].ptr; i = (i + 1) & (nc - 1))
				;
			nt[i] = bd->tasks[j];
		}
		free(bd->tasks);
		bd->tasks = nt;
		bd->tasks_cap = nc;
	}
	if (!bd->tasks_cap || !ptr)
		return NULL;
	for (i = hash64(ptr, bd->tasks_cap); bd->tasks[i].ptr; i = (i + 1) & (bd->tasks_cap - 1))
		if (bd->tasks[i].ptr == ptr)
			return &bd->tasks[i];
	if (!create)
		return NULL;
	bd->nr_tasks++;
	bd->tasks[i].ptr = ptr;
	return &bd->tasks[i];
}

struct bd_pid *lgd_bd_pid(struct lgd_bd *bd, uint32_t pid, int create)
{
	size_t i;

	if (create && 2 * (bd->nr_pids + 1) > bd->pids_cap) {
		size_t nc = bd->pids_cap ? bd->pids_cap * 2 : 256;
		struct bd_pid *np = calloc(nc, sizeof(*np));

		if (!np)
			return NULL;
		for (size_t j = 0; j < bd->pids_cap; j++) {
			if (!bd->pids[j].used)
				continue;
			for (i = hash64(bd->pids[j].pid, nc); np[i].used; i = (i + 1) & (nc - 1))
				;
			np[i] = bd->pids[j];
		}
		free(bd->pids);
		bd->pids = np;
		bd->pids_cap = nc;
	}
	if (!bd->pids_cap)
		return NULL;
	for (i = hash64(pid, bd->pids_cap); bd->pids[i].used; i = (i + 1) & (bd->pids_cap - 1))
		if (bd->pids[i].pid == pid)
			return &bd->pids[i];
	if (!create)
		return NULL;
	bd->nr_pids++;
	bd->pids[i].used = 1;
	bd->pids[i].pid = pid;
	return &bd->pids[i];
}

struct bd_cpu *lgd_bd_cpu(struct lgd_bd *bd, uint32_t cpu, int create)
{
	if (cpu >= LGD_STREAMS_MAX_CPU)
		return NULL;
	if (cpu >= bd->nr_cpu) {
		struct bd_cpu *nc;

		if (!create)
			return NULL;
		nc = realloc(bd->cpus, (cpu + 1) * sizeof(*nc));
		if (!nc)
			return NULL;
		memset(nc + bd->nr_cpu, 0, (cpu + 1 - bd->nr_cpu) * sizeof(*nc));
		bd->cpus = nc;
		bd->nr_cpu = cpu + 1;
	}
	return &bd->cpus[cpu];
}

/* ---- feeding ----------------------------------------------------------- */

/* is marker @m listed in PROBES text @probes ("t:NAME SYSTEM:EVENT ..." lines)? */
static int listed(const char *probes, unsigned int m)
{
	size_t n = strlen(marks[m].name);

	for (const char *l = probes; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : "")
		if (!strncmp(l, "t:", 2) && !strncmp(l + 2, marks[m].name, n) && l[2 + n] == ' ')
			return 1;
	return 0;
}

int lgd_bd_open(struct lgd_bd **out, const struct lgd_sites *sites, const char *probes,
		unsigned int *have)
{
	struct lgd_bd *bd = calloc(1, sizeof(*bd));
	unsigned int need = 1u << LGD_BDM_SWITCH | 1u << LGD_BDM_IRQ_IN | 1u << LGD_BDM_IRQ_OUT |
			    1u << LGD_BDM_SIRQ_IN | 1u << LGD_BDM_SIRQ_OUT;

	*out = NULL;
	if (!bd)
		return -ENOMEM;
	bd->sites = sites;
	for (uint32_t id = 0; id < sites->nr; id++)
		bd->have |= 1u << lgd_bd_mark_of(lgd_sites_get(sites, id));
	for (unsigned int m = 1; m < LGD_BDM_NR; m++)
		if (listed(probes, m))
			bd->have |= 1u << m;
	bd->have &= ~1u;
	if (have)
		*have = bd->have;
	if ((bd->have & need) != need) {
		free(bd);
		return -ENOENT;
	}
	*out = bd;
	return 0;
}

/* a segment of @c: [@c->seg_start, @now) of its innermost open interrupt */
static int seg_emit(struct bd_cpu *c, uint64_t now)
{
	const struct bd_open *o = &c->stack[c->depth - 1];

	if (now <= c->seg_start)
		return 0;
	if (grow((void **)&c->seg, &c->nr_seg, &c->cap_seg, sizeof(*c->seg)))
		return -ENOMEM;
	c->seg[c->nr_seg++] = (struct bd_seg){ c->seg_start, now, o->bucket, o->who, o->id };
	return 0;
}

static int irq_in(struct bd_cpu *c, uint64_t ts, unsigned int bucket, uint32_t who, uint64_t id)
{
	if (c->depth && seg_emit(c, ts))
		return -ENOMEM;
	if (c->depth == BD_DEPTH) {	/* deeper than any kernel nests: start over */
		c->depth = 0;
		c->broken_at = ts;
	}
	c->stack[c->depth++] = (struct bd_open){ bucket, who, id };
	c->seg_start = ts;
	return 0;
}

static int irq_out(struct bd_cpu *c, uint64_t ts, uint32_t who)
{
	if (!c->depth || c->stack[c->depth - 1].who != who) {
		c->depth = 0;	/* an exit of an entry not seen: before the recording */
		return 0;
	}
	if (seg_emit(c, ts))
		return -ENOMEM;
	c->depth--;
	c->seg_start = ts;
	return 0;
}

/* sched_switch on CPU @cpu at @ts by task @pid: args preempt, prev, next, prev_state */
static int on_switch(struct lgd_bd *bd, const struct lgd_item *it, const uint64_t *a)
{
	struct bd_task *t = task_of(bd, a[2], 0);
	struct bd_pid *p;

	if (t && t->open) {	/* next comes back */
		p = lgd_bd_pid(bd, t->pid, 1);
		if (!p || grow((void **)&p->off, &p->nr_off, &p->cap_off, sizeof(*p->off)))
			return -ENOMEM;
		p->off[p->nr_off++] = (struct bd_off){ t->s1, t->w, it->ts, it->cpu,
						       t->runnable, t->next, it->rec.pid, t->waker };
		t->open = 0;
	}
	if (!it->rec.pid)	/* the idle tasks: no pairs of theirs are split */
		return 0;
	t = task_of(bd, a[1], 1);
	p = lgd_bd_pid(bd, it->rec.pid, 1);
	if (!t || !p)
		return -ENOMEM;
	t->pid = it->rec.pid;
	t->open = 1;
	t->s1 = it->ts;
	t->w = 0;
	t->runnable = a[0] || !(uint32_t)a[3];
	t->next = a[2];
	p->ptr = a[1];
	return 0;
}

/* sched_waking of task @ptr: its waker, the record's task or interrupt */
static void on_waking(struct lgd_bd *bd, const struct lgd_item *it, uint64_t ptr)
{
	struct bd_task *t = task_of(bd, ptr, 0);
	unsigned int ctx = it->rec.ctx & LOGDEV_CTX_MASK;
	struct bd_cpu *c = lgd_bd_cpu(bd, it->cpu, 0);

	if (!t || !t->open || t->runnable || t->w)
		return;
	t->w = it->ts;
	if (ctx == LOGDEV_CTX_TASK)
		t->waker = (struct lgd_bd_who){ LGD_BDW_TASK, it->cpu, it->rec.pid, it->ts, 0 };
	else if (ctx != LOGDEV_CTX_NMI && c && c->depth)
		t->waker = (struct lgd_bd_who){ c->stack[c->depth - 1].who, it->cpu,
						c->stack[c->depth - 1].id, it->ts, 0 };
	else
		t->waker = (struct lgd_bd_who){ LGD_BDW_CTX, it->cpu, ctx, it->ts, 0 };
}

int lgd_bd_feed(struct lgd_bd *bd, const struct lgd_item *it, unsigned int mark)
{
	struct bd_cpu *c = lgd_bd_cpu(bd, it->cpu, 1);
	struct lgd_bp_args a;
	uint64_t v[4] = { 0 };

	if (!c)
		return -ENOMEM;
	if (it->kind == LGD_ITEM_GAP) {
		c->depth = 0;	/* what was open may have ended in the gap */
		if (grow((void **)&c->gap, &c->nr_gap, &c->cap_gap, sizeof(*c->gap)))
			return -ENOMEM;
		c->gap[c->nr_gap++] = it->ts;
		return 0;
	}
	if (it->kind != LGD_ITEM_REC || !mark || mark >= LGD_BDM_NR || !bd->sites)
		return 0;
	lgd_bprintf_args(lgd_sites_get(bd->sites, it->rec.site)->fmt, it->payload,
			 it->rec.arg_bytes, (it->rec.type == LOGDEV_REC_PRINT_SLOTS ? LGD_BP_SLOTS : 0) |
			 (it->rec_flags & LOGDEV_REC_F_CUT ? LGD_BP_CUT : 0), &a);
	if (a.nr < mark_nargs[mark])
		return 0;	/* a record cut short: its CPU's segments go on */
	for (unsigned int i = 0; i < mark_nargs[mark]; i++)
		v[i] = a.num[i];
	bd->fed++;
	switch (mark) {
	case LGD_BDM_IRQ_IN:
		return irq_in(c, it->ts, LGD_BD_HARDIRQ, LGD_BDW_IRQ, v[0]);
	case LGD_BDM_TIMER_IN:
		return irq_in(c, it->ts, LGD_BD_HARDIRQ, LGD_BDW_TIMER, v[0]);
	case LGD_BDM_SIRQ_IN:
		return irq_in(c, it->ts, LGD_BD_SOFTIRQ, LGD_BDW_SOFTIRQ, v[0]);
	case LGD_BDM_IRQ_OUT:
		return irq_out(c, it->ts, LGD_BDW_IRQ);
	case LGD_BDM_TIMER_OUT:
		return irq_out(c, it->ts, LGD_BDW_TIMER);
	case LGD_BDM_SIRQ_OUT:
		return irq_out(c, it->ts, LGD_BDW_SOFTIRQ);
	case LGD_BDM_NMI:
		if (grow((void **)&c->nmi, &c->nr_nmi, &c->cap_nmi, sizeof(*c->nmi)))
			return -ENOMEM;
		c->nmi[c->nr_nmi++] = (struct bd_seg){ (int64_t)v[1] > 0 && v[1] < it->ts ?
						       it->ts - v[1] : it->ts, it->ts,
						       LGD_BD_NMI, LGD_BDW_NMI, v[0] };
		return 0;
	case LGD_BDM_SWITCH:
		return on_switch(bd, it, v);
	case LGD_BDM_WAKING:
		on_waking(bd, it, v[0]);
		return 0;
	}
	return 0;
}

int lgd_bd_ptr_pid(struct lgd_bd *bd, uint64_t ptr, uint32_t *pid)
{
	const struct bd_task *t = task_of(bd, ptr, 0);

	if (!t || !t->pid)
		return 0;
	*pid = t->pid;
	return 1;
}

int lgd_bd_off_since(struct lgd_bd *bd, uint32_t pid, uint64_t ts)
{
	const struct bd_pid *p = lgd_bd_pid(bd, pid, 0);
	const struct bd_task *t = p ? task_of(bd, p->ptr, 0) : NULL;

	return t && t->open && t->pid == pid && t->s1 < ts;
}

int lgd_bd_site_marks(const struct lgd_sites *sites, uint8_t **out)
{
	uint8_t *m = NULL;

	*out = NULL;
	for (uint32_t id = 0; id < sites->nr; id++) {
		unsigned int k = lgd_bd_mark_of(lgd_sites_get(sites, id));

		if (!k)
			continue;
		if (!m && !(m = calloc(sites->nr, 1)))
			return -ENOMEM;
		m[id] = (uint8_t)k;
	}
	*out = m;
	return 0;
}

uint64_t lgd_bd_runnable_from(struct lgd_bd *bd, const struct bd_off *o, struct lgd_bd_who *ran)
{
	uint32_t pid = o->ran_pid;

	/* the name at the end: a new kthread runs first as its parent's */
	*ran = (struct lgd_bd_who){ LGD_BDW_TASK, o->in_cpu, o->ran_pid, o->s2, 0 };
	if (o->runnable) {
		if (lgd_bd_ptr_pid(bd, o->next, &pid))
			ran->id = pid;	/* the task that took the CPU */
		return o->s1;
	}
	return o->w && o->ran_pid ? o->w : o->s2;
}

/* task @pid's intervals off CPU, and the running between them, to @cb */
static int walk_pid(struct lgd_bd *bd, const struct bd_pid *p,
		    int (*cb)(void *arg, const struct lgd_bd_slice *s), void *arg)
{
	struct lgd_bd_slice sl;
	int ret;

	for (size_t i = 0; i < p->nr_off; i++) {
		const struct bd_off *o = &p->off[i];
		struct lgd_bd_who ran;
		uint64_t w = lgd_bd_runnable_from(bd, o, &ran);

		if (i && p->off[i - 1].s2 < o->s1) {
			sl = (struct lgd_bd_slice){ p->off[i - 1].s2, o->s1, p->off[i - 1].in_cpu,
						    p->pid, LGD_BD_OWN, { 0 } };
			if ((ret = cb(arg, &sl)))
				return ret;
		}
		if (!o->runnable && w > o->s1) {
			sl = (struct lgd_bd_slice){ o->s1, w, o->in_cpu, p->pid, LGD_BD_BLOCKED,
						    o->w ? o->waker : (struct lgd_bd_who){ 0 } };
			if ((ret = cb(arg, &sl)))
				return ret;
		}
		if (o->s2 > w) {
			sl = (struct lgd_bd_slice){ w, o->s2, o->in_cpu, p->pid, LGD_BD_PREEMPTED,
						    ran };
			if ((ret = cb(arg, &sl)))
				return ret;
		}
	}
	return 0;
}

int lgd_bd_walk(struct lgd_bd *bd, int (*cb)(void *arg, const struct lgd_bd_slice *s),
		void *arg)
{
	struct lgd_bd_slice sl;
	int ret;

	for (uint32_t c = 0; c < bd->nr_cpu; c++) {
		const struct bd_cpu *cp = &bd->cpus[c];

		for (int nmi = 0; nmi < 2; nmi++) {
			const struct bd_seg *v = nmi ? cp->nmi : cp->seg;
			size_t n = nmi ? cp->nr_nmi : cp->nr_seg;

			for (size_t i = 0; i < n; i++) {
				sl = (struct lgd_bd_slice){ v[i].start, v[i].end, c, 0, v[i].bucket,
							    { v[i].who, c, v[i].id, v[i].start, 0 } };
				if ((ret = cb(arg, &sl)))
					return ret;
			}
		}
	}
	for (size_t i = 0; i < bd->pids_cap; i++)
		if (bd->pids[i].used && (ret = walk_pid(bd, &bd->pids[i], cb, arg)))
			return ret;
	return 0;
}

uint64_t lgd_bd_markers(const struct lgd_bd *bd)
{
	return bd ? bd->fed : 0;
}

void lgd_bd_close(struct lgd_bd *bd)
{
	if (!bd)
		return;
	for (uint32_t i = 0; i < bd->nr_cpu; i++) {
		free(bd->cpus[i].seg);
		free(bd->cpus[i].nmi);
		free(bd->cpus[i].gap);
	}
	for (size_t i = 0; i < bd->pids_cap; i++)
		free(bd->pids[i].off);
	free(bd->cpus);
	free(bd->pids);
	free(bd->tasks);
	free(bd);
}
