// SPDX-License-Identifier: GPL-2.0
/*
 * logdev_calib.c - probe cost calibration: debugfs "probe_cost".
 *
 * Layer: features (logdev_features.h); calls the probes layer (a probe is
 * added and removed as a write to "probes" does) and the recording core.
 *
 * A write of "calibrate" measures what one hit of each kind of probe costs
 * here (struct logdev_probe_cost, include/uapi/linux/logdev.h): a probe of
 * that kind is attached to a calibration function of this file, and runs
 * of LD_CAL_CALLS calls of it and of its unprobed twin (the same code, one
 * constant apart so that the compiler cannot fold the two) are timed with
 * the trace clock, preemption off, on one CPU; each run gives a per-hit
 * cost, (probed - twin) / calls, and the LD_CAL_RUNS runs their spread.
 * The runs are taken in rounds, one run of every kind a round, the rounds
 * LD_CAL_GAP_MS apart (about half a second in all, ld_cal_rounds()): the
 * figures stand for a stretch of time, not a moment.
 * Recording is switched on for it (a hit's cost is the cost of writing its
 * record) and the buffers are emptied afterwards, so it is refused while
 * recording or while a consuming reader is open (-EBUSY): no calibration
 * record reaches a capture.  A read returns the last figures (all zero,
 * ts 0, before the first calibration), for "logdev record" to keep in the
 * capture.
 *
 * A kprobe not on a function's ftrace entry is hit through int3 until the
 * kprobes optimiser replaces it by a jump, a few jiffies after it was
 * registered (and never with /proc/sys/debug/kprobes-optimization at 0):
 * the int3 runs are the first ones after registration (first of all, after
 * LD_CAL_QUIET_MS for work the optimiser had pending) while the probed
 * byte is an int3 (the int3 figure may then have fewer runs: @runs says how
 * many); the optimised runs once it is the jump, waiting up to
 * LD_CAL_OPT_WAIT_MS.  A tracepoint probe is timed by calling the
 * probe function as the tracepoint calls it (the tracepoint's own
 * dispatch, a few ns, is not included: LOGDEV_COST_F_DIRECT).
 *
 * The pair floor (@pair_ps: the part of a kind's own two records inside
 * the pair they make) is measured for kretprobes and edprint from the
 * records themselves: each round, a run into emptied buffers, then this
 * CPU's records walked with the crash dump's walker (logdev_dumpwalk.c,
 * ld_cal_round_floor()); the figure is the rounds' median.
 */
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/preempt.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#ifdef CONFIG_X86
#include <asm/text-patching.h>	/* INT3_INSN_OPCODE, JMP32_INSN_OPCODE */
#endif
#include <linux/edprint.h>
#include "logdev_core.h"
#include "logdev_dump.h"
#include "logdev_features.h"
#include "logdev_probes.h"

#define LD_CAL_CALLS		100	/* calls per run */
#define LD_CAL_RUNS		31	/* runs per kind */
#define LD_CAL_QUIET_MS		100	/* for the optimiser's pending work, first */
#define LD_CAL_OPT_WAIT_MS	2000
#define LD_CAL_GAP_MS		10	/* between rounds: ~0.5 s in all */
#define LD_CAL_PAIR_MIN		16	/* pairs a round needs for a floor */

/* times LD_CAL_CALLS direct calls of one calibration function (ns) */
typedef u64 (*ld_cal_fn)(void);

static struct logdev_probe_cost ld_cost;	/* under ld_cfg_mutex */
static int ld_cal_sink;

/*
 * The calibration functions: each pair differs in one constant.  Their
 * names are the probes' targets below.
 */
static noinline __noclone int ld_calib_fn(int x)
{
	x = x * 3 + 1;
	barrier();
	return x ^ (x >> 3);
}

static noinline __noclone int ld_calib_fn_twin(int x)
{
	x = x * 3 + 2;
	barrier();
	return x ^ (x >> 3);
}

static noinline __noclone int ld_calib_ret(int x)
{
	x = x * 11 + 1;
	barrier();
	return x ^ (x >> 3);
}

static noinline __noclone int ld_calib_ret_twin(int x)
{
	x = x * 11 + 2;
	barrier();
	return x ^ (x >> 3);
}

static noinline __noclone notrace int ld_calib_nt(int x)
{
	x = x * 5 + 1;
	barrier();
	return x ^ (x >> 3);
}

static noinline __noclone notrace int ld_calib_nt_twin(int x)
{
	x = x * 5 + 2;
	barrier();
	return x ^ (x >> 3);
}

static noinline __noclone int ld_calib_edp(int x)
{
	x = x * 7 + 1;
	edprint("logdev calibration %d", x);
	return x ^ (x >> 3);
}

static noinline __noclone int ld_calib_edp_twin(int x)
{
	x = x * 7 + 2;
	barrier();
	return x ^ (x >> 3);
}

static struct ld_probe *ld_cal_tp;	/* the tracepoint probe being timed */

static noinline __noclone int ld_calib_tp(int x)
{
	x = x * 9 + 1;
#if LD_TP_MAX_ARGS == 5
	ld_tp_probe(ld_cal_tp, x, 0, 0, 0, 0);
#else
	ld_tp_probe(ld_cal_tp);
#endif
	return x ^ (x >> 3);
}

static noinline __noclone int ld_calib_tp_twin(int x)
{
	x = x * 9 + 2;
	barrier();
	return x ^ (x >> 3);
}

/*
 * ld_cal_time_FN(): LD_CAL_CALLS direct calls of FN timed with the trace
 * clock (direct, as the probed code calls its callees: an indirect call
 * and its return cost more than a direct one, more so under emulation)
 */
#define LD_CAL_TIMER(fn)						\
static noinline u64 ld_cal_time_##fn(void)				\
{									\
	u64 t0, t1;							\
	int i, x = 0;							\
									\
	t0 = ld_clock_now();						\
	for (i = 0; i < LD_CAL_CALLS; i++)				\
		x += fn(i);						\
	t1 = ld_clock_now();						\
	WRITE_ONCE(ld_cal_sink, x);					\
	return t1 - t0;							\
}
LD_CAL_TIMER(ld_calib_fn)
LD_CAL_TIMER(ld_calib_fn_twin)
LD_CAL_TIMER(ld_calib_ret)
LD_CAL_TIMER(ld_calib_ret_twin)
LD_CAL_TIMER(ld_calib_nt)
LD_CAL_TIMER(ld_calib_nt_twin)
LD_CAL_TIMER(ld_calib_edp)
LD_CAL_TIMER(ld_calib_edp_twin)
LD_CAL_TIMER(ld_calib_tp)
LD_CAL_TIMER(ld_calib_tp_twin)

/*
 * one run: the per-hit cost in ps (the twin first on odd runs).  Preemption
 * off, interrupts on, as most probed code runs: with interrupts off a hit
 * costs less (measured: a kretprobe 1.40 us against 2.01 us inside a
 * PREEMPT_RT workload under QEMU), and an interrupt that lands in a run
 * only moves that run, not the median.
 */
static s64 ld_cal_run(ld_cal_fn probed, ld_cal_fn twin, int n)
{
	u64 tp, tt;

	preempt_disable();
	if (n & 1) {
		tt = twin();
		tp = probed();
	} else {
		tp = probed();
		tt = twin();
	}
	preempt_enable();
	return ((s64)tp - (s64)tt) * 1000 / LD_CAL_CALLS;
}

static int ld_cal_cmp(const void *a, const void *b)
{
	s64 x = *(const s64 *)a, y = *(const s64 *)b;

	return x < y ? -1 : x > y;
}

static u32 ld_cal_ps(s64 v)
{
	return v < 0 ? 0 : v > U32_MAX ? U32_MAX : (u32)v;
}

/* the figures of @n runs @v (sorted here) into @k */
static void ld_cal_fill(struct logdev_cost_kind *k, s64 *v, int n, u32 flags)
{
	sort(v, n, sizeof(*v), ld_cal_cmp, NULL);
	k->flags = LOGDEV_COST_F_MEASURED | flags;
	k->runs = n;
	k->calls = LD_CAL_CALLS;
	k->min_ps = ld_cal_ps(v[0]);
	k->p10_ps = ld_cal_ps(v[DIV_ROUND_UP(n * 10, 100) - 1]);
	k->median_ps = ld_cal_ps(v[DIV_ROUND_UP(n * 50, 100) - 1]);
	k->p90_ps = ld_cal_ps(v[DIV_ROUND_UP(n * 90, 100) - 1]);
	k->max_ps = ld_cal_ps(v[n - 1]);
}

/* the two sites of @probe's pairs, entry and return; false if unknown */
static bool ld_cal_pair_sites(const char *probe, u32 *a, u32 *b)
{
	struct ld_probe *p;

	mutex_lock(&ld_probes_mutex);
	p = ld_probe_find(probe);
	if (p && p->site && p->ret_site) {
		*a = READ_ONCE(p->site->id);
		*b = READ_ONCE(p->ret_site->id);
	}
	mutex_unlock(&ld_probes_mutex);
	return *a && *b;
}

/*
 * The time apart (ps) of the pairs among this CPU's records, at most @max
 * into @v: a task-context record directly followed by the next one, with
 * nothing lost, skipped or of another context between, whose sites are
 * @a then @b (@a 0: any site, twice).  Return: how many.
 */
static int ld_cal_walk_pairs(struct ld_dump_cur *c, u32 a, u32 b, s64 *v, int max)
{
	u64 pts = 0, moved, pmoved = 0;
	u32 psite = 0;
	bool have = false;
	int n = 0, i;

	c->cb = ld_cb(raw_smp_processor_id());
	ld_peek_range(c->cb, &c->first, &c->end);
	c->last_bytes = U32_MAX;
	ld_dump_reset(c);
	for (ld_dump_next(c); c->rec && n < max; ld_dump_next(c)) {
		u32 site = READ_ONCE(c->rec->site);
		u64 ts = READ_ONCE(c->rec->ts);
		bool task = (READ_ONCE(c->rec->ctx) & LOGDEV_CTX_MASK) == LOGDEV_CTX_TASK;

		moved = (u64)c->busy + c->gone + c->during;
		for (i = 0; i < LD_NR_REFUSALS; i++)
			moved += c->lost[i];
		if (have && task && moved == pmoved && ts >= pts &&
		    (a ? psite == a && site == b : site == psite))
			v[n++] = (s64)(ts - pts) * 1000;
		have = task;
		psite = site;
		pts = ts;
		pmoved = moved;
	}
	return n;
}

/*
 * One kind in the calibration's rounds: its timed calls (probed, twin), a
 * cost a hit per round (@v, ps) and, for a pair floor (@pair: a kretprobe
 * named @probe, or edprint: NULL), the floor per round (@floor, ps) and
 * the pairs walked for them (@npairs).
 */
struct ld_cal_kind_run {
	unsigned int kind;	/* enum logdev_cost_kinds */
	ld_cal_fn probed, twin;
	u32 flags;
	bool pair;
	const char *probe;
	int nfloor;
	u32 npairs;
	s64 v[LD_CAL_RUNS];
	s64 floor[LD_CAL_RUNS];
};

struct ld_cal_plan {
	int nr;
	struct ld_cal_kind_run k[LOGDEV_COST_NR_KINDS];
	s64 buf[LD_CAL_CALLS];	/* one run's pair times */
	struct ld_dump_cur cur;
};

static void ld_cal_plan_add(struct ld_cal_plan *pl, unsigned int kind, ld_cal_fn probed,
			    ld_cal_fn twin, u32 flags, bool pair, const char *probe)
{
	struct ld_cal_kind_run *k = &pl->k[pl->nr++];

	k->kind = kind;
	k->probed = probed;
	k->twin = twin;
	k->flags = flags;
	k->pair = pair;
	k->probe = probe;
}

/*
 * One round's pair floor of @k: after an untimed run, into emptied
 * buffers, a run of the twin and one of @k->probed (preemption off); the
 * pairs of this run walked, their median time apart less the twin's call,
 * timed just before
 */
static void ld_cal_round_floor(struct ld_cal_plan *pl, struct ld_cal_kind_run *k)
{
	u32 a = 0, b = 0;
	u64 tt;
	int n;

	if (k->probe && !ld_cal_pair_sites(k->probe, &a, &b))
		return;
	k->probed();	/* warm */
	ld_clear_all();
	preempt_disable();
	tt = k->twin();
	k->probed();
	preempt_enable();
	n = ld_cal_walk_pairs(&pl->cur, a, b, pl->buf, LD_CAL_CALLS);
	if (n < LD_CAL_PAIR_MIN)
		return;
	sort(pl->buf, n, sizeof(*pl->buf), ld_cal_cmp, NULL);
	k->floor[k->nfloor++] = pl->buf[n / 2] - (s64)tt * 1000 / LD_CAL_CALLS;
	k->npairs += n;
}

/*
 * The rounds: each times one run of every kind of @pl (and a pair floor
 * where asked), then sleeps LD_CAL_GAP_MS, so that the runs spread over
 * about half a second: a machine whose speed moves (a VM's host, frequency
 * scaling; under QEMU's TCG a hit's cost moved 2x in stretches of tens of
 * ms to seconds, docs/PERFORMANCE.md section 7) shows it in the spread, and the median stands
 * for a workload of that length, not for one moment.  Each run follows an
 * untimed one of the same kind: the cost of a hit in code that runs often
 * (the other kinds' runs between would make the first calls cold), the
 * pair floor's too.  The figures go to @pc; a pair floor needs half the
 * rounds' floors.
 */
static void ld_cal_rounds(struct ld_cal_plan *pl, struct logdev_probe_cost *pc)
{
	struct ld_cal_kind_run *k;
	int r;

	for (r = 0; r < LD_CAL_RUNS; r++) {
		for (k = pl->k; k < pl->k + pl->nr; k++)
			if (k->pair)
				ld_cal_round_floor(pl, k);
		ld_clear_all();
		for (k = pl->k; k < pl->k + pl->nr; k++) {
			k->probed();	/* warm again: the hit of code that runs often */
			k->twin();
			k->v[r] = ld_cal_run(k->probed, k->twin, r);
		}
		msleep(LD_CAL_GAP_MS);
	}
	for (k = pl->k; k < pl->k + pl->nr; k++) {
		struct logdev_cost_kind *out = &pc->kind[k->kind];

		ld_cal_fill(out, k->v, LD_CAL_RUNS, k->flags);
		if (k->nfloor < LD_CAL_RUNS / 2)
			continue;
		sort(k->floor, k->nfloor, sizeof(*k->floor), ld_cal_cmp, NULL);
		out->pair_ps = ld_cal_ps(k->floor[k->nfloor / 2]);
		out->pair_n = k->npairs;
		out->flags |= LOGDEV_COST_F_PAIR;
	}
}

/* add probe @spec as a write to "probes" would; 0 or -errno */
static int ld_cal_add(const char *spec)
{
	struct ld_pctx c = { };
	char *cmd = kstrdup(spec, GFP_KERNEL);
	int ret;

	if (!cmd)
		return -ENOMEM;
	c.text = spec;
	c.buf = cmd;
	mutex_lock(&ld_probes_mutex);
	ret = ld_probe_add(&c, cmd);
	mutex_unlock(&ld_probes_mutex);
	kfree(c.tpp);
	kfree(cmd);
	return ret;
}

static void ld_cal_del(const char *name)
{
	struct ld_probe *p;

	mutex_lock(&ld_probes_mutex);
	p = ld_probe_find(name);
	if (p)
		ld_probe_remove(p);
	mutex_unlock(&ld_probes_mutex);
}

#ifdef CONFIG_X86
/* the first byte of the instruction a kprobe at @addr put there */
static u8 ld_cal_op(const u8 *addr)
{
	u8 b = 0;

	if (copy_from_kernel_nofault(&b, addr, 1))
		return 0;
	return b;
}

/*
 * int3, then optimised, told apart by the byte at the probed address: int3
 * (0xcc) until the optimiser writes its jump (0xe9).  The int3 runs are the
 * runs that began and ended on an int3 (at least one: the probe was just
 * registered, the optimiser waits a few jiffies), back to back: they
 * cannot wait for the rounds.  Then the jump is waited for (up to
 * LD_CAL_OPT_WAIT_MS).  Return: true if the probe is optimised, left
 * attached for the rounds (ld_cal_all() removes it).
 */
static bool ld_cal_int3_opt(struct logdev_probe_cost *pc)
{
	s64 v[LD_CAL_RUNS];
	struct ld_probe *p;
	const u8 *addr = NULL;
	int n = 0, waited;

	msleep(LD_CAL_QUIET_MS);
	if (ld_cal_add("p:logdev_calib_int3 ld_calib_nt"))
		return false;
	mutex_lock(&ld_probes_mutex);
	p = ld_probe_find("logdev_calib_int3");
	if (p && p->armed)
		addr = (const u8 *)p->kp.addr;
	mutex_unlock(&ld_probes_mutex);
	if (!addr)
		return false;
	ld_cal_time_ld_calib_nt();
	ld_cal_time_ld_calib_nt_twin();
	while (n < LD_CAL_RUNS && ld_cal_op(addr) == INT3_INSN_OPCODE) {
		v[n] = ld_cal_run(ld_cal_time_ld_calib_nt, ld_cal_time_ld_calib_nt_twin, n);
		if (ld_cal_op(addr) != INT3_INSN_OPCODE)
			break;	/* optimised during the run: not counted */
		n++;
	}
	if (n)
		ld_cal_fill(&pc->kind[LOGDEV_COST_KPROBE_INT3], v, n, 0);
	for (waited = 0; waited < LD_CAL_OPT_WAIT_MS; waited += 10) {
		if (ld_cal_op(addr) == JMP32_INSN_OPCODE)
			return true;
		msleep(10);
	}
	return false;
}
#else
/* elsewhere the probed bytes are not known here: int3 and optimised unmeasured */
static bool ld_cal_int3_opt(struct logdev_probe_cost *pc)
{
	return false;
}
#endif

/* every kind: int3 first (before others' registrations kick the optimiser), then the rounds */
static void ld_cal_all(struct logdev_probe_cost *pc)
{
	struct ld_cal_plan *pl = kzalloc(sizeof(*pl), GFP_KERNEL);

	if (!pl)
		return;
	if (ld_cal_int3_opt(pc))
		ld_cal_plan_add(pl, LOGDEV_COST_KPROBE_OPT, ld_cal_time_ld_calib_nt,
				ld_cal_time_ld_calib_nt_twin, 0, false, NULL);
	ld_clear_all();
	ld_cal_plan_add(pl, LOGDEV_COST_EDPRINT, ld_cal_time_ld_calib_edp,
			ld_cal_time_ld_calib_edp_twin, 0, true, NULL);
	if (!ld_cal_add("p:logdev_calib_ftrace ld_calib_fn"))
		ld_cal_plan_add(pl, LOGDEV_COST_KPROBE_FTRACE, ld_cal_time_ld_calib_fn,
				ld_cal_time_ld_calib_fn_twin, 0, false, NULL);
	if (!ld_cal_add("r:logdev_calib_ret ld_calib_ret"))
		ld_cal_plan_add(pl, LOGDEV_COST_KRETPROBE, ld_cal_time_ld_calib_ret,
				ld_cal_time_ld_calib_ret_twin, 0, true, "logdev_calib_ret");
	if (!ld_cal_add("t:logdev_calib_tp module:module_load")) {
		mutex_lock(&ld_probes_mutex);
		ld_cal_tp = ld_probe_find("logdev_calib_tp");
		mutex_unlock(&ld_probes_mutex);
		if (ld_cal_tp)
			ld_cal_plan_add(pl, LOGDEV_COST_TRACEPOINT, ld_cal_time_ld_calib_tp,
					ld_cal_time_ld_calib_tp_twin, LOGDEV_COST_F_DIRECT,
					false, NULL);
	}
	ld_cal_rounds(pl, pc);
	ld_cal_del("logdev_calib_tp");
	ld_cal_tp = NULL;
	ld_cal_del("logdev_calib_ret");
	ld_cal_del("logdev_calib_ftrace");
	ld_cal_del("logdev_calib_int3");
	kfree(pl);
}

/* the whole calibration, under ld_cfg_mutex; 0 or -EBUSY */
static int ld_calibrate(void)
{
	struct logdev_probe_cost *pc;
	int ret;

	pc = kzalloc(sizeof(*pc), GFP_KERNEL);
	if (!pc)
		return -ENOMEM;
	mutex_lock(&ld_cfg_mutex);
	ret = ld_may_reset();
	if (ret)
		goto out;
	ld_set_enabled(true);
	pc->magic = LOGDEV_COST_MAGIC;
	pc->version = LOGDEV_COST_VERSION;
	pc->nr_kinds = LOGDEV_COST_NR_KINDS;
	pc->size = sizeof(*pc);
	pc->clock = ld_cfg.clock;
	migrate_disable();
	pc->cpu = raw_smp_processor_id();
	pc->ts = ld_clock_now();
	ld_cal_all(pc);
	migrate_enable();
	ld_set_enabled(false);
	ld_clear_all();
	ld_cost = *pc;
out:
	mutex_unlock(&ld_cfg_mutex);
	kfree(pc);
	return ret;
}

static ssize_t ld_cost_read(struct file *f, char __user *ubuf, size_t count,
			    loff_t *ppos)
{
	struct logdev_probe_cost pc;

	mutex_lock(&ld_cfg_mutex);
	pc = ld_cost;
	mutex_unlock(&ld_cfg_mutex);
	if (!pc.magic) {	/* never calibrated: the header, no figures */
		pc.magic = LOGDEV_COST_MAGIC;
		pc.version = LOGDEV_COST_VERSION;
		pc.nr_kinds = LOGDEV_COST_NR_KINDS;
		pc.size = sizeof(pc);
	}
	return simple_read_from_buffer(ubuf, count, ppos, &pc, sizeof(pc));
}

static ssize_t ld_cost_write(struct file *f, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	char buf[16];
	size_t n = min(count, sizeof(buf) - 1);
	int ret;

	if (copy_from_user(buf, ubuf, n))
		return -EFAULT;
	buf[n] = '\0';
	if (count >= sizeof(buf) || strcmp(strim(buf), "calibrate"))
		return -EINVAL;
	ret = ld_calibrate();
	return ret ? ret : count;
}

static const struct file_operations ld_cost_fops = {
	.owner = THIS_MODULE,
	.read = ld_cost_read,
	.write = ld_cost_write,
	.llseek = default_llseek,
};

/**
 * ld_calib_init() - create debugfs "probe_cost" in @dir
 * @dir: logdev's debugfs directory
 */
void ld_calib_init(struct dentry *dir)
{
	BUILD_BUG_ON(sizeof(struct logdev_probe_cost) != LOGDEV_PROBE_COST_SIZE);
	BUILD_BUG_ON(offsetof(struct logdev_probe_cost, kind) != LOGDEV_COST_HDR_SIZE);
	debugfs_create_file("probe_cost", 0600, dir, NULL, &ld_cost_fops);
}
