// SPDX-License-Identifier: GPL-2.0
/*
 * breakdown.c: the timelines of the context markers, fed in merge order
 * (docs/BREAKDOWN.md; design: docs/log/DESIGN-breakdown.md).
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
 * - Per CPU, the ranges whose picture is not known, per task the times
 *   its whereabouts are not: a split that meets one is incomplete.
 * This file: the markers (names, specs, formats), the tables, opening,
 * lookups and the walk; bdfeed.c feeds the timelines, bdsplit.c splits.
 * Memory: about 50 to 90 bytes per marker record (segments and intervals are
 * kept for the whole capture: a pair may start anywhere before its end).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "liblogdev.h"
#include "bd_int.h"

/*
 * The markers: probe name, what `record --breakdown` attaches (SYSTEM:EVENT
 * then the tracepoint's arguments by name, the order the reader reads them
 * in), and whether a kernel may lack the tracepoint.
 */
static const struct {
	const char *name, *spec;
	int optional;
} marks[LGD_BDM_NR] = {
	[LGD_BDM_IRQ_IN] = { "logdev_bd_irq_in", "irq:irq_handler_entry irq", 0 },
	[LGD_BDM_IRQ_OUT] = { "logdev_bd_irq_out", "irq:irq_handler_exit irq", 0 },
	[LGD_BDM_SIRQ_IN] = { "logdev_bd_sirq_in", "irq:softirq_entry vec_nr", 0 },
	[LGD_BDM_SIRQ_OUT] = { "logdev_bd_sirq_out", "irq:softirq_exit vec_nr", 0 },
	[LGD_BDM_SWITCH] = { "logdev_bd_switch", "sched:sched_switch preempt prev next prev_state",
			     0 },
	[LGD_BDM_WAKING] = { "logdev_bd_waking", "sched:sched_waking p", 0 },
	[LGD_BDM_NMI] = { "logdev_bd_nmi", "nmi:nmi_handler handler delta_ns", 1 },
	[LGD_BDM_TIMER_IN] = { "logdev_bd_timer_in", "irq_vectors:local_timer_entry vector", 1 },
	[LGD_BDM_TIMER_OUT] = { "logdev_bd_timer_out", "irq_vectors:local_timer_exit vector", 1 },
};

unsigned int lgd_bd_nargs(unsigned int m)
{
	unsigned int n = 0;

	for (const char *p = m && m < LGD_BDM_NR ? marks[m].spec : ""; *p; p++)
		n += *p == ' ';
	return n;
}

/*
 * does format @fmt hold exactly @m's arguments: "NAME=CONV" for each name
 * of its spec, in order, one space apart, each a number?
 */
static int fmt_fits(const char *fmt, unsigned int m)
{
	const char *name = strchr(marks[m].spec, ' ');
	int kinds[8], n = lgd_fmt_arg_kinds(fmt, kinds, 8);

	if (n != (int)lgd_bd_nargs(m))
		return 0;
	for (int i = 0; i < n; i++)
		if (kinds[i] == LGD_ARG_STR)
			return 0;
	while (name) {
		size_t len = strcspn(++name, " ");

		if (strncmp(fmt, name, len) || fmt[len] != '=')
			return 0;
		fmt += strcspn(fmt, " ");
		fmt += *fmt == ' ';
		name = strchr(name, ' ');
	}
	return !*fmt;
}

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

/* the marker kind named like site @s, LGD_BDM_BAD for another logdev_bd_*, else 0 */
static unsigned int mark_named(const struct lgd_site *s)
{
	if (!s || !s->file || strcmp(s->file, "probe") || !s->func ||
	    strncmp(s->func, "logdev_bd_", 10))
		return 0;
	for (unsigned int m = 1; m < LGD_BDM_NR; m++)
		if (!strcmp(s->func, marks[m].name))
			return m;
	return LGD_BDM_BAD;	/* the name is reserved: never paired */
}

unsigned int lgd_bd_mark_of(const struct lgd_site *s)
{
	unsigned int m = mark_named(s);

	return m && m < LGD_BDM_NR && !(s->fmt && fmt_fits(s->fmt, m)) ? LGD_BDM_BAD : m;
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

static size_t hash64(uint64_t k, size_t cap)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;	/* MurmurHash3's fmix64 */
	k ^= k >> 33;
	return (size_t)k & (cap - 1);
}

/* @t grown to twice its size (256 at first), its entries of @size bytes rehashed */
static int table_grow(struct bd_table *t, size_t size)
{
	size_t nc = t->cap ? t->cap * 2 : 256, i;
	char *nv = calloc(nc, size);
	uint64_t k;

	if (!nv)
		return -ENOMEM;
	for (size_t j = 0; j < t->cap; j++) {
		const char *e = (const char *)t->v + j * size;

		memcpy(&k, e, sizeof(k));
		if (!k)
			continue;
		for (i = hash64(k, nc); memcpy(&k, nv + i * size, sizeof(k)), k;
		     i = (i + 1) & (nc - 1))
			;
		memcpy(nv + i * size, e, size);
	}
	free(t->v);
	t->v = nv;
	t->cap = nc;
	return 0;
}

/*
 * the entry of @key (not 0) in @t (entries of @size bytes); @create: added,
 * zeroed but its key, if absent.  NULL: absent, or no memory
 */
static void *table_entry(struct bd_table *t, size_t size, uint64_t key, int create)
{
	uint64_t k;

	if (!key || (create && 2 * (t->nr + 1) > t->cap && table_grow(t, size)))
		return NULL;
	for (size_t i = t->cap ? hash64(key, t->cap) : 0; t->cap; i = (i + 1) & (t->cap - 1)) {
		char *e = (char *)t->v + i * size;

		memcpy(&k, e, sizeof(k));
		if (k == key)
			return e;
		if (k)
			continue;
		if (!create)
			return NULL;
		memcpy(e, &key, sizeof(key));
		t->nr++;
		return e;
	}
	return NULL;
}

struct bd_task *lgd_bd_task(struct lgd_bd *bd, uint64_t ptr, int create)
{
	return table_entry(&bd->tasks, sizeof(struct bd_task), ptr, create);
}

struct bd_pid *lgd_bd_pid(struct lgd_bd *bd, uint32_t pid, int create)
{
	return table_entry(&bd->pids, sizeof(struct bd_pid), (uint64_t)pid + 1, create);
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
			    1u << LGD_BDM_SIRQ_IN | 1u << LGD_BDM_SIRQ_OUT, bad = 0;

	*out = NULL;
	if (!bd)
		return -ENOMEM;
	bd->sites = sites;
	for (uint32_t id = 0; id < sites->nr; id++) {
		const struct lgd_site *st = lgd_sites_get(sites, id);
		unsigned int m = mark_named(st), k = lgd_bd_mark_of(st);

		if (m && m < LGD_BDM_NR)	/* a marker's site: usable, or not */
			*(k == m ? &bd->have : &bad) |= 1u << m;
	}
	/* with the probes listed, they say what was attached while it recorded (a
	 * site stays from an earlier recording of the same boot); without, the sites */
	if (probes)
		bd->have = 0;
	for (unsigned int m = 1; m < LGD_BDM_NR; m++)
		if (listed(probes, m))
			bd->have |= 1u << m;
	bd->have &= ~bad;	/* a site of its name in another format: unusable */
	if (have)
		*have = bd->have;
	if ((bd->have & need) != need) {
		free(bd);
		return -ENOENT;
	}
	*out = bd;
	return 0;
}

/* the task at address @ptr now (*@pid), 0 if not known */
static int ptr_pid(struct lgd_bd *bd, uint64_t ptr, uint32_t *pid)
{
	const struct bd_task *t = lgd_bd_task(bd, ptr, 0);

	if (!t || !t->pid)
		return 0;
	*pid = t->pid;
	return 1;
}

int lgd_bd_off_since(struct lgd_bd *bd, uint32_t pid, uint64_t ts)
{
	const struct bd_pid *p = lgd_bd_pid(bd, pid, 0);
	const struct bd_task *t = p ? lgd_bd_task(bd, p->ptr, 0) : NULL;

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
		if (ptr_pid(bd, o->next, &pid))
			ran->id = pid;	/* the task that took the CPU */
		return o->s1;
	}
	return o->w && o->ran_pid ? o->w : o->s2;
}

/*
 * task @pid's intervals off CPU, and the running between them, to @cb; a
 * time its whereabouts are not known (a lost interval) gives no slice
 */
static int walk_pid(struct lgd_bd *bd, const struct bd_pid *p,
		    int (*cb)(void *arg, const struct lgd_bd_slice *s), void *arg)
{
	const uint32_t pid = (uint32_t)(p->key - 1);
	struct lgd_bd_slice sl;
	int ret;

	for (size_t i = 0; i < p->nr_off; i++) {
		const struct bd_off *o = &p->off[i];
		struct lgd_bd_who ran;
		uint64_t w = lgd_bd_runnable_from(bd, o, &ran);

		if (o->lost)
			continue;
		if (i && !p->off[i - 1].lost && p->off[i - 1].s2 < o->s1) {
			sl = (struct lgd_bd_slice){ p->off[i - 1].s2, o->s1, p->off[i - 1].in_cpu,
						    pid, LGD_BD_OWN, { 0 } };
			if ((ret = cb(arg, &sl)))
				return ret;
		}
		if (!o->runnable && w > o->s1) {
			sl = (struct lgd_bd_slice){ o->s1, w, o->in_cpu, pid, LGD_BD_BLOCKED,
						    o->w ? o->waker : (struct lgd_bd_who){ 0 } };
			if ((ret = cb(arg, &sl)))
				return ret;
		}
		if (o->s2 > w) {
			sl = (struct lgd_bd_slice){ w, o->s2, o->in_cpu, pid, LGD_BD_PREEMPTED,
						    ran };
			if ((ret = cb(arg, &sl)))
				return ret;
		}
	}
	return 0;
}

static int by_key(const void *a, const void *b)
{
	uint64_t x = (*(const struct bd_pid *const *)a)->key;
	uint64_t y = (*(const struct bd_pid *const *)b)->key;

	return x < y ? -1 : x > y;
}

/* every task's slices, by pid (the table's order is its hash's) */
static int walk_pids(struct lgd_bd *bd, int (*cb)(void *arg, const struct lgd_bd_slice *s),
		     void *arg)
{
	const struct bd_pid **v = malloc((bd->pids.nr ? bd->pids.nr : 1) * sizeof(*v));
	size_t n = 0;
	int ret = 0;

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < bd->pids.cap; i++)
		if (((const struct bd_pid *)bd->pids.v)[i].key)
			v[n++] = (const struct bd_pid *)bd->pids.v + i;
	qsort(v, n, sizeof(*v), by_key);
	for (size_t i = 0; i < n && !ret; i++)
		ret = walk_pid(bd, v[i], cb, arg);
	free(v);
	return ret;
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
	return walk_pids(bd, cb, arg);
}

uint64_t lgd_bd_markers(const struct lgd_bd *bd, uint64_t *met)
{
	if (met)
		*met = bd ? bd->met : 0;
	return bd ? bd->fed : 0;
}

void lgd_bd_close(struct lgd_bd *bd)
{
	if (!bd)
		return;
	for (uint32_t i = 0; i < bd->nr_cpu; i++) {
		free(bd->cpus[i].seg);
		free(bd->cpus[i].nmi);
		free(bd->cpus[i].bad);
	}
	for (size_t i = 0; i < bd->pids.cap; i++)
		free(((struct bd_pid *)bd->pids.v)[i].off);
	for (size_t i = 0; i < bd->tasks.cap; i++)
		free(((struct bd_task *)bd->tasks.v)[i].softirq);
	free(bd->cpus);
	free(bd->pids.v);
	free(bd->tasks.v);
	free(bd);
}
