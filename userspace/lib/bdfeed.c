// SPDX-License-Identifier: GPL-2.0
/*
 * bdfeed.c: the breakdown's timelines fed in merge order (the structures:
 * bd_int.h; docs/BREAKDOWN.md, "How a pair is split").
 *
 * - Interrupts: each marker entry pushes on its CPU's stack, its exit pops;
 *   the time in between is cut into flat segments of the innermost one.
 * - Off CPU: a task's sched_switch out opens an interval, its switch back
 *   in (next = it, any CPU) closes it; sched_waking notes the waker.
 * - What does not add up is never guessed (a number a user reads must be
 *   right or say it is not): a lost-events gap, a marker that cannot be
 *   read or carries an impossible value, an exit of an interrupt that is
 *   not the one open, an interrupt still open under a record of a
 *   shallower context, an NMI without a usable delta_ns, each mark a range
 *   of their CPU unknown (bd_range); a task switched out twice, or in
 *   without having been seen out, a time of that task unknown (a lost
 *   bd_off).  bdsplit.c makes a pair that meets one incomplete.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "liblogdev.h"
#include "bd_int.h"

#define NR_SOFTIRQ	10	/* include/linux/interrupt.h's NR_SOFTIRQS, 2.6.37 on */

int lgd_bd_grow(void **v, size_t *nr, size_t *cap, size_t size)
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

/* @c's picture from @from to @to is not known */
static int bad(struct bd_cpu *c, uint64_t from, uint64_t to)
{
	if (from > to)
		from = to;
	if (lgd_bd_grow((void **)&c->bad, &c->nr_bad, &c->cap_bad, sizeof(*c->bad)))
		return -ENOMEM;
	c->bad[c->nr_bad++] = (struct bd_range){ from, to };
	if (to - from > c->bad_span)
		c->bad_span = to - from;
	return 0;
}

/* the latest record of @c shallower than context level @lvl (0: none) */
static uint64_t last_below(const struct bd_cpu *c, unsigned int lvl)
{
	uint64_t t = 0;

	for (unsigned int l = 0; l < lvl && l < 4; l++)
		t = c->last[l] > t ? c->last[l] : t;
	return t;
}

/* a segment of @c: [@c->seg_start, @now) of its innermost open interrupt */
static int seg_emit(struct bd_cpu *c, uint64_t now)
{
	const struct bd_open *o = &c->stack[c->depth - 1];

	if (now <= c->seg_start)
		return 0;
	if (lgd_bd_grow((void **)&c->seg, &c->nr_seg, &c->cap_seg, sizeof(*c->seg)))
		return -ENOMEM;
	c->seg[c->nr_seg++] = (struct bd_seg){ c->seg_start, now, o->bucket, o->who, o->id };
	return 0;
}

/* what @c had open is not known to have ended as recorded: unknown, forgotten */
static int drop_open(struct bd_cpu *c, uint64_t now)
{
	uint64_t from = c->depth ? c->stack[0].start : now;

	c->depth = 0;
	return bad(c, from, now);
}

static int irq_in(struct bd_cpu *c, uint64_t ts, unsigned int bucket, uint32_t who, uint64_t id)
{
	if (c->depth && seg_emit(c, ts))
		return -ENOMEM;
	if (c->depth == BD_DEPTH && drop_open(c, ts))	/* deeper than any kernel nests */
		return -ENOMEM;
	c->stack[c->depth++] = (struct bd_open){ bucket, who, id, ts };
	c->seg_start = ts;
	return 0;
}

static int irq_out(struct bd_cpu *c, uint64_t ts, uint32_t who, unsigned int lvl)
{
	if (!c->depth)	/* its entry not seen: it began after the last shallower record */
		return bad(c, last_below(c, lvl), ts);
	if (c->stack[c->depth - 1].who != who)	/* not the one open: a marker lost */
		return drop_open(c, ts);
	if (seg_emit(c, ts))
		return -ENOMEM;
	c->depth--;
	c->seg_start = ts;
	return 0;
}

/* where task @t was from @from to @to is not known */
static int task_lost(struct lgd_bd *bd, struct bd_task *t, uint64_t from, uint64_t to)
{
	struct bd_pid *p;

	if (!t->pid) {	/* no pid yet: kept until it switches out */
		t->lost_from = t->lost_to ? t->lost_from : from;
		t->lost_to = to;
		return 0;
	}
	p = lgd_bd_pid(bd, t->pid, 1);
	if (!p || lgd_bd_grow((void **)&p->off, &p->nr_off, &p->cap_off, sizeof(*p->off)))
		return -ENOMEM;
	p->off[p->nr_off++] = (struct bd_off){ .s1 = from, .s2 = to, .in_cpu = UINT32_MAX,
					       .lost = 1 };
	return 0;
}

/*
 * the interrupts open on @c as task @t switches out: PREEMPT_RT's softirqs
 * go with the task (bd_task); anything else open at a switch is a marker lost
 */
static int switch_out_open(struct bd_cpu *c, struct bd_task *t, uint64_t ts)
{
	uint32_t i;

	for (i = 0; i < c->depth && c->stack[i].bucket == LGD_BD_SOFTIRQ; i++)
		;
	if (!c->depth)
		return 0;
	if (i < c->depth || !t || t->nsoftirq)
		return drop_open(c, ts);
	if (seg_emit(c, ts))
		return -ENOMEM;
	t->softirq = malloc(c->depth * sizeof(*t->softirq));
	if (!t->softirq)
		return -ENOMEM;
	memcpy(t->softirq, c->stack, c->depth * sizeof(*t->softirq));
	t->nsoftirq = c->depth;
	c->depth = 0;
	return 0;
}

/* task @t back on @c: the softirqs it took off CPU go on there */
static int switch_in_open(struct bd_cpu *c, struct bd_task *t, uint64_t ts)
{
	int ret = 0;

	if (!t->nsoftirq)
		return 0;
	if (c->depth)	/* the CPU busy in an interrupt as a task comes back */
		ret = drop_open(c, ts);
	memcpy(c->stack, t->softirq, t->nsoftirq * sizeof(*t->softirq));
	c->depth = t->nsoftirq;
	c->seg_start = ts;
	free(t->softirq);
	t->softirq = NULL;
	t->nsoftirq = 0;
	return ret;
}

/* sched_switch at @it by task @it->rec.pid: args preempt, prev, next, prev_state */
static int on_switch(struct lgd_bd *bd, const struct lgd_item *it, const uint64_t *a)
{
	struct bd_cpu *c = lgd_bd_cpu(bd, it->cpu, 0);
	struct bd_task *t = lgd_bd_task(bd, a[1], 1), *n;
	struct bd_pid *p;

	if ((!t && a[1]) || (c && switch_out_open(c, it->rec.pid ? t : NULL, it->ts)))
		return -ENOMEM;
	t = n = lgd_bd_task(bd, a[2], 1);
	if (!t)
		return a[2] ? -ENOMEM : 0;
	if (t->open) {	/* next comes back */
		p = lgd_bd_pid(bd, t->pid, 1);
		if (!p || lgd_bd_grow((void **)&p->off, &p->nr_off, &p->cap_off, sizeof(*p->off)))
			return -ENOMEM;
		p->off[p->nr_off++] = (struct bd_off){ t->s1, t->w, it->ts, it->cpu,
						       (uint16_t)t->runnable, 0, t->next,
						       it->rec.pid, t->waker };
		t->open = 0;
	} else if (a[2] != a[1] && task_lost(bd, t, t->seen, it->ts)) {
		return -ENOMEM;	/* back in, not seen out: its switch out was lost */
	}
	t->seen = it->ts;
	if (c && a[2] != a[1] && switch_in_open(c, n, it->ts))
		return -ENOMEM;
	if (!it->rec.pid)	/* the idle tasks: no pairs of theirs are split */
		return 0;
	t = lgd_bd_task(bd, a[1], 1);
	if (!t)
		return -ENOMEM;
	if (t->open && task_lost(bd, t, t->s1, it->ts))	/* out twice: its switch in lost */
		return -ENOMEM;
	t->pid = it->rec.pid;
	if (t->lost_to && task_lost(bd, t, t->lost_from, t->lost_to))
		return -ENOMEM;
	t->lost_to = 0;
	t->open = 1;
	t->seen = t->s1 = it->ts;
	t->w = 0;
	t->runnable = a[0] || !(uint32_t)a[3];
	t->next = a[2];
	/* looked up last: task_lost() may have grown (moved) the pid table */
	p = lgd_bd_pid(bd, it->rec.pid, 1);
	if (!p)
		return -ENOMEM;
	p->ptr = a[1];
	return 0;
}

/* sched_waking of task @ptr: its waker, the record's task or interrupt */
static void on_waking(struct lgd_bd *bd, const struct lgd_item *it, uint64_t ptr)
{
	struct bd_task *t = lgd_bd_task(bd, ptr, 0);
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

/* nmi_handler: the handler @h ran @delta ns up to the record's time */
static int on_nmi(struct bd_cpu *c, const struct lgd_item *it, uint64_t h, uint64_t delta)
{
	uint64_t from = last_below(c, LOGDEV_CTX_NMI);

	/* it began after the CPU's last other record: a delta beyond that is wrong */
	if ((int64_t)delta <= 0 || delta > it->ts || it->ts - delta < from)
		return bad(c, from, it->ts);
	if (lgd_bd_grow((void **)&c->nmi, &c->nr_nmi, &c->cap_nmi, sizeof(*c->nmi)))
		return -ENOMEM;
	c->nmi[c->nr_nmi++] = (struct bd_seg){ it->ts - delta, it->ts, LGD_BD_NMI, LGD_BDW_NMI, h };
	return 0;
}

/* marker @mark's values @v (read) at @it on @c */
static int on_marker(struct lgd_bd *bd, struct bd_cpu *c, const struct lgd_item *it,
		     unsigned int mark, const uint64_t *v)
{
	switch (mark) {
	case LGD_BDM_IRQ_IN:
		return irq_in(c, it->ts, LGD_BD_HARDIRQ, LGD_BDW_IRQ, v[0]);
	case LGD_BDM_TIMER_IN:
		return irq_in(c, it->ts, LGD_BD_HARDIRQ, LGD_BDW_TIMER, v[0]);
	case LGD_BDM_SIRQ_IN:
		return irq_in(c, it->ts, LGD_BD_SOFTIRQ, LGD_BDW_SOFTIRQ, v[0]);
	case LGD_BDM_IRQ_OUT:
		return irq_out(c, it->ts, LGD_BDW_IRQ, LOGDEV_CTX_HARDIRQ);
	case LGD_BDM_TIMER_OUT:
		return irq_out(c, it->ts, LGD_BDW_TIMER, LOGDEV_CTX_HARDIRQ);
	case LGD_BDM_SIRQ_OUT:
		return irq_out(c, it->ts, LGD_BDW_SOFTIRQ, LOGDEV_CTX_SOFTIRQ);
	case LGD_BDM_NMI:
		return on_nmi(c, it, v[0], v[1]);
	case LGD_BDM_SWITCH:
		return on_switch(bd, it, v);
	case LGD_BDM_WAKING:
		on_waking(bd, it, v[0]);
		return 0;
	}
	return 0;
}

/* the values of marker record @it (kind @mark) into @v: 1, or 0 if unreadable */
static int read_marker(const struct lgd_bd *bd, const struct lgd_item *it, unsigned int mark,
		       uint64_t *v)
{
	const struct lgd_site *s = lgd_sites_get(bd->sites, it->rec.site);
	unsigned int n = lgd_bd_nargs(mark);
	struct lgd_bp_args a;

	if (!s || !s->fmt || (it->rec.type != LOGDEV_REC_PRINT &&
			      it->rec.type != LOGDEV_REC_PRINT_SLOTS))
		return 0;
	lgd_bprintf_args(s->fmt, it->payload, it->rec.arg_bytes,
			 (it->rec.type == LOGDEV_REC_PRINT_SLOTS ? LGD_BP_SLOTS : 0) |
			 (it->rec_flags & LOGDEV_REC_F_CUT ? LGD_BP_CUT : 0), &a);
	if (a.nr < n)
		return 0;
	for (unsigned int i = 0; i < n; i++) {
		if (a.kind[i] == LGD_ARG_STR)
			return 0;
		v[i] = a.num[i];
	}
	/* values no kernel gives: a softirq vector past NR_SOFTIRQS, a negative irq */
	if ((mark == LGD_BDM_SIRQ_IN || mark == LGD_BDM_SIRQ_OUT) && v[0] >= NR_SOFTIRQ)
		return 0;
	if ((mark == LGD_BDM_IRQ_IN || mark == LGD_BDM_IRQ_OUT) && v[0] > INT32_MAX)
		return 0;
	return 1;
}

int lgd_bd_feed(struct lgd_bd *bd, const struct lgd_item *it, unsigned int mark)
{
	struct bd_cpu *c = lgd_bd_cpu(bd, it->cpu, 1);
	unsigned int ctx = it->rec.ctx & LOGDEV_CTX_MASK;
	uint64_t v[4] = { 0 }, prev;

	if (!c)
		return it->cpu >= LGD_STREAMS_MAX_CPU ? 0 : -ENOMEM;
	if (it->kind == LGD_ITEM_GAP) {	/* lost since the CPU's last record */
		prev = last_below(c, 4);
		c->depth = 0;
		return bad(c, prev, it->ts);
	}
	if (it->kind != LGD_ITEM_REC || it->ts_absurd)
		return 0;
	/* an interrupt open under a record of a shallower context: its exit lost */
	if (ctx != LOGDEV_CTX_NMI && c->depth && c->stack[0].bucket != LGD_BD_NMI &&
	    (c->stack[0].bucket == LGD_BD_SOFTIRQ ? LOGDEV_CTX_SOFTIRQ : LOGDEV_CTX_HARDIRQ) > ctx &&
	    drop_open(c, it->ts))
		return -ENOMEM;
	c->last[ctx] = it->ts;
	if (!mark || mark >= LGD_BDM_NR)
		return 0;
	bd->met++;
	if (!read_marker(bd, it, mark, v))	/* what it would have said is not known */
		return bad(c, it->ts, it->ts);
	bd->fed++;
	return on_marker(bd, c, it, mark, v);
}
