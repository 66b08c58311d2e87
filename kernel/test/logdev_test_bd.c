// SPDX-License-Identifier: GPL-2.0
/*
 * logdev_test_bd.c - logdev_test.ko: pairs of known cost for the time
 * breakdown (issue 28, tests/vm/guest-breakdown.sh).  Writing "SCENARIO US"
 * to logdev_test/breakdown runs one pair from the writing task, in process
 * context, on its CPU (migration off for the pair): an opening and a
 * closing edprint() of the scenario's own function ("bd SCENARIO in",
 * "bd SCENARIO out"), a busy loop of LT_BD_BUSY_US between them, and a cost
 * of US microseconds injected in a known place:
 *   busy     the busy loop alone, of US (own time; no LT_BD_BUSY_US)
 *   irqoff   US with interrupts off, between the busy loop's halves (own
 *            time; an interrupt that came meanwhile runs at the restore)
 *   hrtimer  a pinned hard hrtimer 50 us ahead whose callback spins US in
 *            hardirq; the writer spins until LT_BD_BUSY_US + 2 * US after
 *            the opening record (the callback runs inside), then waits for
 *            the callback if it is late: pair = busy + 2 * US, of it US
 *            hardirq
 *   softirq  a tasklet spinning US, run by local_bh_enable() between the
 *            halves: in softirq context on this CPU; on PREEMPT_RT in the
 *            writer's own task (softirq_entry/exit around it all the same)
 *   preempt  lt_bd_hog, a SCHED_FIFO kthread bound to this CPU, woken
 *            between the halves: it preempts the writer (at once under
 *            full preemption, at the writer's next cond_resched() under
 *            voluntary), spins US and sleeps; the writer waits for it
 *   sleep    usleep_range(US, US) (msleep() from 20 ms): blocked, woken by
 *            the sleep's hrtimer
 *   nmi      an NMI self-IPI whose handler spins US (if the handler could
 *            be registered)
 * injected_ns is the cost as measured where it is spent (around the
 * callback's, tasklet's, hog's, NMI handler's spin, the stall, the sleep),
 * pair_ns the time between the two edprint() calls, both in ns of logdev's
 * default clock (lt_bd_now()).  logdev_test/breakdown_result: one line
 * a run since load or since "reset" was written to breakdown:
 *   SCENARIO cpu=C pid=P injected_ns=N pair_ns=M culprit=NAME
 * (NAME: "lt_bd_hog-PID" for preempt, "hrtimer", "tasklet", else "-").
 */
#include "logdev_test.h"
#include <linux/sched.h>

#define LT_BD_BUSY_US	200		/* every scenario's busy loop but busy's */
#define LT_BD_TIMER_US	50		/* hrtimer: armed this far ahead */
#define LT_BD_WAIT_NS	(1000 * NSEC_PER_MSEC)	/* give up on a cost never seen */
#define LT_BD_MAX_RES	256		/* result lines kept */

struct lt_bd_res {
	const char *name;
	int cpu;
	pid_t pid;
	u64 injected_ns;
	u64 pair_ns;
	char culprit[TASK_COMM_LEN + 12];
};

/* one run at a time (lt_lock): the run's state, shared with its cost */
static struct {
	unsigned int us;		/* the cost to inject */
	u64 injected_ns;		/* as measured where it was spent */
	int done;			/* the cost has run */
	int hog_go;			/* lt_bd_hog: spin now */
	int nmi_pending;		/* lt_bd_nmi: spin now */
	struct hrtimer timer;
	struct tasklet_struct tasklet;
	struct task_struct *hog;
	unsigned int hog_cpu;		/* the CPU lt_bd_hog is bound to */
	unsigned int nmi_cpu;		/* the CPU of the self-NMI */
	bool nmi_registered;
} lt_bd;

static struct lt_bd_res lt_bd_res[LT_BD_MAX_RES];
static unsigned int lt_bd_nres;

/*
 * The clock of every time here: logdev's default (local, sched_clock()),
 * per CPU, which everything measured stays on; safe in NMI.  Not
 * ktime_get_ns(): under QEMU TCG its clocksource is the HPET, each read an
 * emulated MMIO access under QEMU's global lock, and a spin on it overran
 * its deadline by hundreds of us while the other vCPU held the lock.
 */
static u64 lt_bd_now(void)
{
	return trace_clock_local();
}

/* Spin until @us have passed; return the time spun in ns. */
static u64 lt_bd_spin(u64 us)
{
	u64 t0 = lt_bd_now();
	u64 t;

	while ((t = lt_bd_now()) - t0 < us * NSEC_PER_USEC)
		cpu_relax();
	return t - t0;
}

/*
 * Wait (cond_resched() between looks: a preempting hog gets the CPU here
 * under voluntary preemption) for the cost to have run; false after
 * LT_BD_WAIT_NS.
 */
static bool lt_bd_wait(int *flag)
{
	u64 t0 = lt_bd_now();

	while (!smp_load_acquire(flag)) {
		if (lt_bd_now() - t0 > LT_BD_WAIT_NS)
			return false;
		cond_resched();
		cpu_relax();
	}
	return true;
}

/* ---- the costs --------------------------------------------------------- */

static enum hrtimer_restart lt_bd_timer_fn(struct hrtimer *t)
{
	lt_bd.injected_ns = lt_bd_spin(lt_bd.us);
	smp_store_release(&lt_bd.done, 1);
	return HRTIMER_NORESTART;
}

static void lt_bd_tasklet_fn(unsigned long data)
{
	lt_bd.injected_ns = lt_bd_spin(lt_bd.us);
	smp_store_release(&lt_bd.done, 1);
}

static int lt_bd_nmi(unsigned int type, struct pt_regs *regs)
{
	if (!READ_ONCE(lt_bd.nmi_pending) || READ_ONCE(lt_bd.nmi_cpu) != smp_processor_id())
		return NMI_DONE;
	lt_bd.injected_ns = lt_bd_spin(lt_bd.us);
	WRITE_ONCE(lt_bd.nmi_pending, 0);
	smp_store_release(&lt_bd.done, 1);
	return NMI_HANDLED;
}

static int lt_bd_hog_fn(void *arg)
{
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop())
			break;
		if (!READ_ONCE(lt_bd.hog_go)) {
			schedule();
			continue;
		}
		__set_current_state(TASK_RUNNING);
		WRITE_ONCE(lt_bd.hog_go, 0);
		lt_bd.injected_ns = lt_bd_spin(lt_bd.us);
		smp_store_release(&lt_bd.done, 1);
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

/* The hog on @cpu: made at first use, made again if the writer's CPU changed. */
static int lt_bd_hog_on(unsigned int cpu)
{
	struct task_struct *t;

	if (lt_bd.hog && lt_bd.hog_cpu == cpu)
		return 0;
	if (lt_bd.hog) {
		kthread_stop(lt_bd.hog);
		lt_bd.hog = NULL;
	}
	t = kthread_create(lt_bd_hog_fn, NULL, "lt_bd_hog");
	if (IS_ERR(t))
		return PTR_ERR(t);
	kthread_bind(t, cpu);
	sched_set_fifo(t);
	lt_bd.hog = t;
	lt_bd.hog_cpu = cpu;
	wake_up_process(t);	/* to its sleep, until a run's hog_go */
	return 0;
}

/* ---- the scenarios: each its own pair of call sites --------------------- */

static noinline void lt_bd_busy(struct lt_bd_res *r)
{
	u64 t0, t1;

	edprint("bd busy in");
	t0 = lt_bd_now();
	lt_bd.injected_ns = lt_bd_spin(lt_bd.us);
	t1 = lt_bd_now();
	edprint("bd busy out");
	r->pair_ns = t1 - t0;
}

static noinline void lt_bd_irqoff(struct lt_bd_res *r)
{
	unsigned long flags;
	u64 t0, t1;

	edprint("bd irqoff in");
	t0 = lt_bd_now();
	lt_bd_spin(LT_BD_BUSY_US / 2);
	local_irq_save(flags);
	lt_bd.injected_ns = lt_bd_spin(lt_bd.us);
	local_irq_restore(flags);
	lt_bd_spin(LT_BD_BUSY_US / 2);
	t1 = lt_bd_now();
	edprint("bd irqoff out");
	r->pair_ns = t1 - t0;
}

static noinline void lt_bd_hrtimer(struct lt_bd_res *r)
{
	u64 t0, t1;

	edprint("bd hrtimer in");
	t0 = lt_bd_now();
	hrtimer_start(&lt_bd.timer, ns_to_ktime(LT_BD_TIMER_US * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_PINNED_HARD);
	/*
	 * to a deadline from t0: hrtimer_start() took up to 300 us under
	 * TCG (the HPET's reads), the spin after it is what is left
	 */
	while (lt_bd_now() - t0 < (LT_BD_BUSY_US + 2 * lt_bd.us) * NSEC_PER_USEC)
		cpu_relax();
	if (!lt_bd_wait(&lt_bd.done))
		hrtimer_cancel(&lt_bd.timer);
	t1 = lt_bd_now();
	edprint("bd hrtimer out");
	r->pair_ns = t1 - t0;
	strscpy(r->culprit, "hrtimer", sizeof(r->culprit));
}

static noinline void lt_bd_softirq(struct lt_bd_res *r)
{
	u64 t0, t1;

	edprint("bd softirq in");
	t0 = lt_bd_now();
	lt_bd_spin(LT_BD_BUSY_US / 2);
	local_bh_disable();
	tasklet_schedule(&lt_bd.tasklet);
	local_bh_enable();	/* runs it, here */
	lt_bd_wait(&lt_bd.done);
	lt_bd_spin(LT_BD_BUSY_US / 2);
	t1 = lt_bd_now();
	edprint("bd softirq out");
	r->pair_ns = t1 - t0;
	strscpy(r->culprit, "tasklet", sizeof(r->culprit));
}

static noinline void lt_bd_preempt(struct lt_bd_res *r)
{
	u64 t0, t1;

	edprint("bd preempt in");
	t0 = lt_bd_now();
	lt_bd_spin(LT_BD_BUSY_US / 2);
	WRITE_ONCE(lt_bd.hog_go, 1);
	wake_up_process(lt_bd.hog);
	lt_bd_wait(&lt_bd.done);
	lt_bd_spin(LT_BD_BUSY_US / 2);
	t1 = lt_bd_now();
	edprint("bd preempt out");
	r->pair_ns = t1 - t0;
	snprintf(r->culprit, sizeof(r->culprit), "%s-%d", lt_bd.hog->comm,
		 task_pid_nr(lt_bd.hog));
}

static noinline void lt_bd_sleep(struct lt_bd_res *r)
{
	u64 t0, t1, s0;

	edprint("bd sleep in");
	t0 = lt_bd_now();
	lt_bd_spin(LT_BD_BUSY_US / 2);
	s0 = lt_bd_now();
	if (lt_bd.us >= 20000)
		msleep(lt_bd.us / 1000);
	else
		usleep_range(lt_bd.us, lt_bd.us);
	lt_bd.injected_ns = lt_bd_now() - s0;
	lt_bd_spin(LT_BD_BUSY_US / 2);
	t1 = lt_bd_now();
	edprint("bd sleep out");
	r->pair_ns = t1 - t0;
}

static noinline void lt_bd_nmi_pair(struct lt_bd_res *r)
{
	u64 t0, t1;

	edprint("bd nmi in");
	t0 = lt_bd_now();
	lt_bd_spin(LT_BD_BUSY_US / 2);
	preempt_disable();
	WRITE_ONCE(lt_bd.nmi_cpu, smp_processor_id());
	WRITE_ONCE(lt_bd.nmi_pending, 1);
	apic->send_IPI_self(NMI_VECTOR);
	preempt_enable();
	if (!lt_bd_wait(&lt_bd.done))
		WRITE_ONCE(lt_bd.nmi_pending, 0);
	lt_bd_spin(LT_BD_BUSY_US / 2);
	t1 = lt_bd_now();
	edprint("bd nmi out");
	r->pair_ns = t1 - t0;
}

static const struct lt_bd_scen {
	const char *name;
	void (*run)(struct lt_bd_res *r);
	unsigned int max_us;
} lt_bd_scens[] = {
	{ "busy", lt_bd_busy, 1000000 },
	{ "irqoff", lt_bd_irqoff, 10000 },
	{ "hrtimer", lt_bd_hrtimer, 10000 },
	{ "softirq", lt_bd_softirq, 10000 },
	{ "preempt", lt_bd_preempt, 100000 },
	{ "sleep", lt_bd_sleep, 1000000 },
	{ "nmi", lt_bd_nmi_pair, 10000 },
};

/* One run of @s with a cost of @us, under lt_lock; its line kept. */
static int lt_bd_run(const struct lt_bd_scen *s, unsigned int us)
{
	struct lt_bd_res *r;
	int err = 0;

	if (lt_bd_nres >= LT_BD_MAX_RES)
		return -ENOSPC;
	if (s->run == lt_bd_nmi_pair && !lt_bd.nmi_registered)
		return -EOPNOTSUPP;
	/* the hog is made before the pair: its creation is no part of it */
	if (s->run == lt_bd_preempt)
		err = lt_bd_hog_on(raw_smp_processor_id());
	if (err)
		return err;
	migrate_disable();
	if (s->run == lt_bd_preempt && lt_bd.hog_cpu != raw_smp_processor_id()) {
		migrate_enable();
		return -EAGAIN;	/* the writer moved meanwhile: pin it */
	}
	r = &lt_bd_res[lt_bd_nres];
	memset(r, 0, sizeof(*r));
	strscpy(r->culprit, "-", sizeof(r->culprit));
	r->name = s->name;
	r->cpu = raw_smp_processor_id();
	r->pid = task_pid_nr(current);
	lt_bd.us = us;
	lt_bd.injected_ns = 0;
	lt_bd.done = 0;
	s->run(r);
	r->injected_ns = READ_ONCE(lt_bd.injected_ns);
	migrate_enable();
	lt_bd_nres++;
	return 0;
}

static ssize_t lt_bd_write(struct file *f, const char __user *ubuf,
			   size_t len, loff_t *ppos)
{
	char buf[40], name[16];
	unsigned int i, us;
	int err = -EINVAL;

	if (!len || len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	mutex_lock(&lt_lock);
	if (sysfs_streq(buf, "reset")) {
		lt_bd_nres = 0;
		err = 0;
		goto out;
	}
	if (sscanf(buf, "%15s %u", name, &us) != 2 || !us)
		goto out;
	for (i = 0; i < ARRAY_SIZE(lt_bd_scens); i++) {
		if (strcmp(name, lt_bd_scens[i].name))
			continue;
		if (us <= lt_bd_scens[i].max_us)
			err = lt_bd_run(&lt_bd_scens[i], us);
		break;
	}
out:
	mutex_unlock(&lt_lock);
	return err ? err : len;
}

static const struct file_operations lt_bd_fops = {
	.owner = THIS_MODULE,
	.write = lt_bd_write,
	.llseek = noop_llseek,
};

static int lt_bd_result_show(struct seq_file *m, void *v)
{
	unsigned int i;

	mutex_lock(&lt_lock);
	for (i = 0; i < lt_bd_nres; i++) {
		struct lt_bd_res *r = &lt_bd_res[i];

		seq_printf(m, "%s cpu=%d pid=%d injected_ns=%llu pair_ns=%llu culprit=%s\n",
			   r->name, r->cpu, r->pid, r->injected_ns, r->pair_ns,
			   r->culprit);
	}
	mutex_unlock(&lt_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(lt_bd_result);

/**
 * lt_bd_init() - breakdown's timer, tasklet and NMI handler; module init
 *
 * The hog kthread is made at the first preempt run.  Without an NMI
 * handler the nmi scenario is refused (-EOPNOTSUPP), nothing else.
 */
void lt_bd_init(void)
{
	int err;

	ld_hrtimer_setup(&lt_bd.timer, lt_bd_timer_fn, CLOCK_MONOTONIC,
			 HRTIMER_MODE_REL_PINNED_HARD);
	tasklet_init(&lt_bd.tasklet, lt_bd_tasklet_fn, 0);
	lt_bd.hog_cpu = UINT_MAX;
	err = register_nmi_handler(NMI_LOCAL, lt_bd_nmi, 0, "logdev_test_bd");
	if (err)
		pr_warn("logdev_test: no breakdown NMI handler (%d)\n", err);
	else
		lt_bd.nmi_registered = true;
}

/**
 * lt_bd_exit() - stop the hog, the timer and the tasklet; module exit
 *
 * Called after the debugfs files are gone and no run is in flight.
 */
void lt_bd_exit(void)
{
	if (lt_bd.hog)
		kthread_stop(lt_bd.hog);
	lt_bd.hog = NULL;
	hrtimer_cancel(&lt_bd.timer);
	tasklet_kill(&lt_bd.tasklet);
	if (lt_bd.nmi_registered)
		unregister_nmi_handler(NMI_LOCAL, "logdev_test_bd");
}

/**
 * lt_bd_files() - make breakdown and breakdown_result in @dir
 * @dir: logdev_test's debugfs directory
 */
void lt_bd_files(struct dentry *dir)
{
	debugfs_create_file("breakdown", 0200, dir, NULL, &lt_bd_fops);
	debugfs_create_file("breakdown_result", 0444, dir, NULL, &lt_bd_result_fops);
}
