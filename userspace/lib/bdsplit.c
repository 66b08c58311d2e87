// SPDX-License-Identifier: GPL-2.0
/*
 * bdsplit.c: one pair's time split into buckets (lgd_breakdown.h) with the
 * markers' timelines (breakdown.c), and the rows' sums.
 *
 * A pair of task T in task context from a to b: T's intervals off CPU
 * inside [a, b] are preempted (switched out runnable; or woken and waiting
 * for a CPU, from its sched_waking on) or blocked (asleep until woken); the
 * rest of [a, b] are windows where T ran, each on one CPU (a's, then the
 * CPU it came back on).  In each window, the interrupt segments of that CPU
 * deeper than the pair's own context count as hardirq or softirq, NMIs as
 * nmi (out of the segment they hit); own is what is left.  A pair in an
 * interrupt's context is one window on its CPU with the deeper interrupts
 * only.  A window holding a lost-events gap, or a task whose switch back
 * was not seen, makes the split incomplete: it is counted, never summed.
 * The culprit of a bucket is who took most of its time in that pair: the
 * irq, the local timer, the softirq vector, the NMI handler, the task that
 * ran instead (preempted), the waker (blocked).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "liblogdev.h"
#include "bd_int.h"

#define BD_WHO_MAX	8	/* culprits told apart per bucket and pair */

struct acc {
	struct lgd_bd_who c[LGD_BD_NR][BD_WHO_MAX];
	unsigned int n[LGD_BD_NR];
};

/* @ns of bucket @b to @sp, and to culprit @w (NULL: none known) */
static void charge(struct lgd_bd_split *sp, struct acc *ac, unsigned int b, int64_t ns,
		   const struct lgd_bd_who *w)
{
	unsigned int i;

	if (ns <= 0)
		return;
	sp->ns[b] += ns;
	if (!w || w->kind == LGD_BDW_NONE)
		return;
	for (i = 0; i < ac->n[b]; i++)
		if (ac->c[b][i].kind == w->kind && ac->c[b][i].id == w->id)
			break;
	if (i == ac->n[b]) {
		if (i == BD_WHO_MAX)
			return;
		ac->c[b][ac->n[b]++] = *w;
		ac->c[b][i].ns = 0;
	}
	ac->c[b][i].ns += ns;
}

/* the keys the searches below go by: a segment's end, a range's, an interval's return */
static uint64_t seg_end(const void *v, size_t i)
{
	return ((const struct bd_seg *)v)[i].end;
}

static uint64_t range_to(const void *v, size_t i)
{
	return ((const struct bd_range *)v)[i].to;
}

static uint64_t off_s2(const void *v, size_t i)
{
	return ((const struct bd_off *)v)[i].s2;
}

/*
 * the first of the @n elements of @v whose @key is above @x, the keys
 * being in ascending order: a binary search
 */
static size_t upper(const void *v, size_t n, uint64_t (*key)(const void *v, size_t i),
		    uint64_t x)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (key(v, mid) <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* the first of @n segments (in time order) that ends after @x */
static size_t first_after(const struct bd_seg *v, size_t n, uint64_t x)
{
	return upper(v, n, seg_end, x);
}

static unsigned int level(uint32_t bucket)
{
	return bucket == LGD_BD_SOFTIRQ ? LOGDEV_CTX_SOFTIRQ :
	       bucket == LGD_BD_HARDIRQ ? LOGDEV_CTX_HARDIRQ : LOGDEV_CTX_NMI;
}

static uint64_t max64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

static uint64_t min64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/*
 * is a range of @c whose picture is not known inside (@x, @y]?  The ranges
 * come in the order their ends were found: from the first that ends after
 * @x, none that ends at @y + the longest range's span or later can reach
 * back before @y.
 */
static int bad_in(const struct bd_cpu *c, uint64_t x, uint64_t y)
{
	size_t lo = upper(c->bad, c->nr_bad, range_to, x);

	for (; lo < c->nr_bad && c->bad[lo].to - c->bad_span <= y; lo++)
		if (c->bad[lo].from <= y)
			return 1;
	return 0;
}

/* the interrupts deeper than @ctx on @cpu from @x to @y, into @sp */
static void window(struct lgd_bd *bd, struct lgd_bd_split *sp, struct acc *ac,
		   unsigned int ctx, uint32_t cpu, uint64_t x, uint64_t y)
{
	struct bd_cpu *c = lgd_bd_cpu(bd, cpu, 0);
	struct lgd_bd_who w;
	size_t i;

	if (!c || y <= x)
		return;
	if (bad_in(c, x, y))
		sp->incomplete = 1;
	for (i = first_after(c->seg, c->nr_seg, x); i < c->nr_seg && c->seg[i].start < y; i++) {
		const struct bd_seg *s = &c->seg[i];

		if (level(s->bucket) <= ctx)
			continue;
		w = (struct lgd_bd_who){ s->who, cpu, s->id, s->start, 0 };
		charge(sp, ac, s->bucket, (int64_t)(min64(s->end, y) - max64(s->start, x)), &w);
	}
	if (ctx >= LOGDEV_CTX_NMI)
		return;
	for (i = first_after(c->nmi, c->nr_nmi, x); i < c->nr_nmi && c->nmi[i].start < y; i++) {
		const struct bd_seg *n = &c->nmi[i];
		uint64_t from = max64(n->start, x), to = min64(n->end, y);

		w = (struct lgd_bd_who){ n->who, cpu, n->id, n->start, 0 };
		charge(sp, ac, LGD_BD_NMI, (int64_t)(to - from), &w);
		/* out of every interrupt segment it hit (own is what is left anyway) */
		for (size_t k = first_after(c->seg, c->nr_seg, from);
		     k < c->nr_seg && c->seg[k].start < to; k++)
			if (level(c->seg[k].bucket) > ctx)
				sp->ns[c->seg[k].bucket] -= (int64_t)(min64(c->seg[k].end, to) -
								      max64(c->seg[k].start, from));
	}
}

/* T's time off CPU in interval @o, clipped to [@s1, @s2] */
static void off_cpu(struct lgd_bd *bd, struct lgd_bd_split *sp, struct acc *ac,
		    const struct bd_off *o, uint64_t s1, uint64_t s2)
{
	struct lgd_bd_who ran;
	uint64_t w = lgd_bd_runnable_from(bd, o, &ran);

	w = w < s1 ? s1 : w > s2 ? s2 : w;
	charge(sp, ac, LGD_BD_BLOCKED, (int64_t)(w - s1), o->w ? &o->waker : NULL);
	charge(sp, ac, LGD_BD_PREEMPTED, (int64_t)(s2 - w), &ran);
}

void lgd_bd_split(struct lgd_bd *bd, uint32_t a_pid, uint32_t pid, unsigned int ctx, uint64_t a,
		  uint32_t a_cpu, uint64_t b, uint32_t b_cpu, struct lgd_bd_split *out)
{
	struct acc acc, *ac = &acc;	/* 2 KB: only its counts need zeroing */
	uint64_t cur = a;
	uint32_t cur_cpu = a_cpu;
	int64_t rest;

	memset(out, 0, sizeof(*out));
	memset(ac->n, 0, sizeof(ac->n));
	out->start = a;
	out->len = b > a ? (int64_t)(b - a) : 0;
	out->pid = pid;
	out->cpu = b_cpu;
	ctx &= LOGDEV_CTX_MASK;
	if (ctx == LOGDEV_CTX_TASK && a_pid != pid) {	/* two tasks' records: not one's time */
		out->mixed = 1;
		return;
	}
	if (ctx == LOGDEV_CTX_TASK && pid) {
		const struct bd_pid *p = lgd_bd_pid(bd, pid, 0);
		/* the first interval back after @a */
		size_t lo = p ? upper(p->off, p->nr_off, off_s2, a) : 0;

		for (; p && lo < p->nr_off && p->off[lo].s1 < b; lo++) {
			const struct bd_off *o = &p->off[lo];
			uint64_t s1 = max64(o->s1, a), s2 = min64(o->s2, b);

			if (o->lost) {	/* where it was then is not known */
				out->incomplete = 1;
				continue;
			}
			if (s1 > cur)
				window(bd, out, ac, ctx, cur_cpu, cur, s1);
			off_cpu(bd, out, ac, o, s1, s2);
			cur = max64(cur, s2);
			cur_cpu = o->in_cpu;
		}
		if (lgd_bd_off_since(bd, pid, b))	/* running, but its return lost */
			out->incomplete = 1;
	}
	if (cur < b)
		window(bd, out, ac, ctx, cur_cpu, cur, b);
	rest = out->len;
	for (unsigned int k = 1; k < LGD_BD_NR; k++) {
		rest -= out->ns[k];
		out->incomplete |= out->ns[k] < 0;
	}
	/* more than the pair's time: CPUs' clocks apart, or markers that do not
	 * add up (a pid with two tasks): never clamped into a smaller figure */
	out->incomplete |= rest < 0;
	out->ns[LGD_BD_OWN] = rest;
	for (unsigned int k = 1; k < LGD_BD_NR; k++)
		for (unsigned int i = 0; i < ac->n[k]; i++)
			if (ac->c[k][i].ns > out->who[k].ns)
				out->who[k] = ac->c[k][i];
}

int lgd_bd_row_add(struct lgd_bd_row **row, const struct lgd_bd_split *sp)
{
	struct lgd_bd_row *r = *row;
	unsigned int slot;
	uint32_t i;

	if (!r && !(r = *row = calloc(1, sizeof(*r))))
		return -ENOMEM;
	r->n++;
	if (sp->mixed || sp->incomplete) {
		r->mixed += sp->mixed != 0;
		r->incomplete += !sp->mixed;
		return 0;
	}
	slot = sp->len > 0 ? 64u - (unsigned int)__builtin_clzll((uint64_t)sp->len) : 0;
	for (unsigned int k = 0; k < LGD_BD_NR; k++) {
		r->ns[k] = r->ns[k] > INT64_MAX - sp->ns[k] ? INT64_MAX : r->ns[k] + sp->ns[k];
		r->log2[slot][k] = r->log2[slot][k] > INT64_MAX - sp->ns[k] ? INT64_MAX :
				   r->log2[slot][k] + sp->ns[k];
	}
	for (i = r->nworst; i > 0 && r->worst[i - 1].len < sp->len; i--)
		if (i < LGD_BD_WORST)
			r->worst[i] = r->worst[i - 1];
	if (i < LGD_BD_WORST) {
		r->worst[i] = *sp;
		if (r->nworst < LGD_BD_WORST)
			r->nworst++;
	}
	return 0;
}
