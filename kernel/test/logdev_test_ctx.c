// SPDX-License-Identifier: GPL-2.0
/*
 * logdev_test_ctx.c - logdev_test.ko: edprint() from every context: the run and soak
 * workloads (a bound kthread per CPU, irq_work, tasklets, a pinned hrtimer,
 * self-NMIs, and soak's chain of four nested writers) and their counts
 */
#include "logdev_test.h"

DEFINE_PER_CPU(struct lt_cpu, lt_cpu);
DEFINE_MUTEX(lt_lock);
static unsigned long lt_iters;
static atomic_t lt_nmi_sent, lt_nmi_seen;
bool lt_nmi_registered;
static unsigned long lt_nest_every;	/* soak: chain every N iterations, 0 off */
static atomic_t lt_nest_chains, lt_nest_deep, lt_nest_timeouts;
/* outer chain reservations open when the chain's NMI records */
#define LT_NEST_OUTER	(IS_ENABLED(CONFIG_PREEMPT_RT) ? 2 : 3)

/*
 * One record; seq is taken and used without leaving the context.  Records
 * are 32 or 40 bytes (a pseudo-random half carry a u64 more) so that some
 * sub-buffers fill to their very last byte.
 */
noinline void lt_record(int ctx, unsigned int seq)
{
	if ((seq * 2654435761U) & 0x10000)
		edprint("ctx=%d seq=%u pad=%llx", ctx, seq, 0x5a5a5a5a5a5a5a5aULL);
	else
		edprint("ctx=%d seq=%u", ctx, seq);
}

/*
 * lt_record() takes seq as an argument and is not inlined, so that
 * ftrace's kprobe event "p:ltrec logdev_test:lt_record ctx=%di seq=%si"
 * records the same calls (tests/vm/guest-persist.sh: the flight recorder
 * beside ftrace's persistent instance).
 */
static void lt_rec(int ctx)
{
	struct lt_cpu *c = this_cpu_ptr(&lt_cpu);

	lt_record(ctx, c->seq[ctx]++);
}

static void lt_irq_work(struct irq_work *w)
{
	lt_rec(LT_CTX_HARDIRQ);
}

static void lt_tasklet(unsigned long data)
{
	lt_rec(LT_CTX_SOFTIRQ);
}

static enum hrtimer_restart lt_timer(struct hrtimer *t)
{
	lt_rec(LT_CTX_HARDIRQ);
	if (!READ_ONCE(this_cpu_ptr(&lt_cpu)->timer_on))
		return HRTIMER_NORESTART;
	hrtimer_forward_now(t, ns_to_ktime(LT_TIMER_NS));
	return HRTIMER_RESTART;
}

static int lt_nmi(unsigned int type, struct pt_regs *regs)
{
	struct lt_cpu *c = this_cpu_ptr(&lt_cpu);
	int ret = NMI_DONE;

	/* soak's chain; a self-NMI of run's may have been merged into this one */
	if (READ_ONCE(c->nest_nmi)) {
		if (c->nest_open == LT_NEST_OUTER)
			atomic_inc(&lt_nest_deep);
		lt_rec(LT_CTX_NMI);
		WRITE_ONCE(c->nest_nmi, 0);
		ret = NMI_HANDLED;
	}
	if (READ_ONCE(c->pctx_nmi)) {
		lt_pctx_nmi();
		WRITE_ONCE(c->pctx_nmi, 0);
		return NMI_HANDLED;
	}
	if (READ_ONCE(c->comm_nmi)) {
		edprint("comm tag=%u ctx=%d", c->comm_tag, LT_CTX_NMI);
		WRITE_ONCE(c->comm_nmi, 0);
		return NMI_HANDLED;
	}
	/* Only our own self-NMIs: anything else belongs to someone else. */
	if (!READ_ONCE(c->nmi_pending))
		return ret;
	lt_rec(LT_CTX_NMI);
	atomic_inc(&lt_nmi_seen);
	WRITE_ONCE(c->nmi_pending, 0);
	return NMI_HANDLED;
}

/* ---- soak's nested chain --------------------------------------------- */

/*
 * The nested records: the payload edprint("ctx=%d seq=%u") would store
 * (two u32 slots), reserved by hand so that the reservation stays open
 * while a deeper context records.
 */
static struct logdev_site __used __section("__logdev_sites") lt_nest_site = {
	.fmt = "ctx=%d seq=%u",
	.file = __FILE__,
	.func = "lt_nest",
	.line = __LINE__,
};

/* Reserve this context's chain record; preemption off until lt_nest_commit(). */
static u32 *lt_nest_reserve(struct lt_cpu *c, int ctx, struct logdev_resv *r)
{
	unsigned int seq = c->seq[ctx]++;
	u32 *p = __logdev_reserve(&lt_nest_site, 2 * sizeof(u32), r);

	if (p) {
		p[0] = ctx;
		p[1] = seq;
		c->nest_open++;
	}
	return p;
}

static void lt_nest_commit(struct lt_cpu *c, struct logdev_resv *r)
{
	c->nest_open--;
	__logdev_commit(r);
}

/* Wait (at most 100 ms of trace_clock_local()) for a deeper context to clear @flag. */
static void lt_nest_wait(int *flag)
{
	u64 t0 = trace_clock_local();

	while (READ_ONCE(*flag) && trace_clock_local() - t0 < 100 * NSEC_PER_MSEC)
		cpu_relax();
	if (READ_ONCE(*flag))
		atomic_inc(&lt_nest_timeouts);
}

/* hardirq (irq_work): record, and keep the record open across a self-NMI */
static void lt_nest_hard(struct irq_work *w)
{
	struct lt_cpu *c = container_of(w, struct lt_cpu, nest_work);
	struct logdev_resv r;
	u32 *p = lt_nest_reserve(c, LT_CTX_HARDIRQ, &r);

	if (lt_nmi_registered) {
		WRITE_ONCE(c->nest_nmi, 1);
		apic->send_IPI_self(NMI_VECTOR);
		lt_nest_wait(&c->nest_nmi);
	}
	if (p)
		lt_nest_commit(c, &r);
	WRITE_ONCE(c->nest_hard, 0);
}

/* softirq (tasklet): record, and keep the record open across the irq_work */
static void lt_nest_soft(unsigned long data)
{
	struct lt_cpu *c = this_cpu_ptr(&lt_cpu);
	struct logdev_resv r;
	u32 *p = lt_nest_reserve(c, LT_CTX_SOFTIRQ, &r);

	WRITE_ONCE(c->nest_hard, 1);
	irq_work_queue(&c->nest_work);	/* a self-IPI: interrupts are on here */
	lt_nest_wait(&c->nest_hard);
	if (p)
		lt_nest_commit(c, &r);
}

/*
 * Task context, on the writer's own CPU, preemption on: a task record open
 * while local_bh_enable() runs the tasklet in softirq context on top of it.
 * On PREEMPT_RT softirqs run in a thread (here, in this task at
 * local_bh_enable()) and that needs preemption on, which an open
 * reservation has off: the chain starts at softirq there.
 */
static void lt_nest_task(struct lt_cpu *c)
{
	struct logdev_resv r;
	u32 *p = NULL;

	atomic_inc(&lt_nest_chains);
	if (!IS_ENABLED(CONFIG_PREEMPT_RT)) {
		preempt_disable();
		p = lt_nest_reserve(c, LT_CTX_TASK, &r);
	}
	local_bh_disable();
	tasklet_schedule(&c->nest_tasklet);
	local_bh_enable();
	if (p)
		lt_nest_commit(c, &r);
	if (!IS_ENABLED(CONFIG_PREEMPT_RT))
		preempt_enable();
}

static int lt_thread(void *arg)
{
	struct lt_cpu *c = arg;
	unsigned long i;

	hrtimer_start(&c->timer, ns_to_ktime(LT_TIMER_NS), HRTIMER_MODE_REL_PINNED_HARD);
	for (i = 0; i < lt_iters; i++) {
		/*
		 * Preemption off so the seq counter and the record stay on one
		 * CPU; interrupts stay on so they land inside our edprint().
		 */
		preempt_disable();
		lt_rec(LT_CTX_TASK);
		if (i % 4 == 1)
			irq_work_queue(&c->work);
		if (i % 8 == 3)
			tasklet_schedule(&c->tasklet);
		if (lt_nmi_registered && i % 16 == 5 && !READ_ONCE(c->nmi_pending)) {
			WRITE_ONCE(c->nmi_pending, 1);
			atomic_inc(&lt_nmi_sent);
			apic->send_IPI_self(NMI_VECTOR);
		}
		preempt_enable();
		if (lt_nest_every && i % lt_nest_every == lt_nest_every - 1)
			lt_nest_task(c);
		if (i % 64 == 63)
			cond_resched();
	}
	WRITE_ONCE(c->timer_on, false);
	hrtimer_cancel(&c->timer);
	complete(&c->done);
	/* Stay alive until kthread_stop() so the task_struct stays valid. */
	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop())
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

static int lt_run(unsigned long iters)
{
	unsigned int cpu;
	int err = 0, waited;

	lt_iters = iters;
	atomic_set(&lt_nmi_sent, 0);
	atomic_set(&lt_nmi_seen, 0);
	atomic_set(&lt_nest_chains, 0);
	atomic_set(&lt_nest_deep, 0);
	atomic_set(&lt_nest_timeouts, 0);
	cpus_read_lock();
	for_each_possible_cpu(cpu) {
		struct lt_cpu *c = per_cpu_ptr(&lt_cpu, cpu);

		memset(c->seq, 0, sizeof(c->seq));
		c->nmi_pending = 0;
		c->thread = NULL;
	}
	for_each_online_cpu(cpu) {
		struct lt_cpu *c = per_cpu_ptr(&lt_cpu, cpu);
		struct task_struct *t;

		init_completion(&c->done);
		c->timer_on = true;
		t = kthread_create_on_cpu(lt_thread, c, cpu, "logdev_test/%u");
		if (IS_ERR(t)) {
			err = PTR_ERR(t);
			break;
		}
		c->thread = t;
	}
	for_each_online_cpu(cpu) {
		struct lt_cpu *c = per_cpu_ptr(&lt_cpu, cpu);

		if (c->thread && !err)
			wake_up_process(c->thread);
	}
	for_each_online_cpu(cpu) {
		struct lt_cpu *c = per_cpu_ptr(&lt_cpu, cpu);

		if (!c->thread)
			continue;
		/*
		 * In slices: a soak run takes minutes, and a task blocked
		 * uninterruptibly that long without a context switch is what
		 * the hung-task detector reports (tools/vm/run.sh fails the
		 * boot on it).
		 */
		while (!err && !wait_for_completion_timeout(&c->done, 10 * HZ))
			;
		kthread_stop(c->thread);
		c->thread = NULL;
	}
	/* Let every deferred piece of work finish before counts are read. */
	for_each_online_cpu(cpu) {
		struct lt_cpu *c = per_cpu_ptr(&lt_cpu, cpu);

		hrtimer_cancel(&c->timer);
		irq_work_sync(&c->work);
		irq_work_sync(&c->comm_work);
		tasklet_kill(&c->tasklet);
		tasklet_kill(&c->nest_tasklet);
		irq_work_sync(&c->nest_work);
		for (waited = 0; (READ_ONCE(c->nmi_pending) || READ_ONCE(c->nest_nmi)) &&
		     waited < 1000; waited++)
			msleep(1);
		if (READ_ONCE(c->nest_nmi)) {
			pr_warn("logdev_test: cpu %u: chain self-NMI never arrived\n", cpu);
			c->nest_nmi = 0;
		}
		if (READ_ONCE(c->nmi_pending)) {
			pr_warn("logdev_test: cpu %u: self-NMI never arrived\n", cpu);
			c->nmi_pending = 0;
		}
	}
	cpus_read_unlock();
	return err;
}

static ssize_t lt_run_write(struct file *f, const char __user *ubuf,
			    size_t len, loff_t *ppos)
{
	unsigned long iters;
	int err;

	err = kstrtoul_from_user(ubuf, len, 0, &iters);
	if (err)
		return err;
	if (!iters || iters > 100000000UL)
		return -EINVAL;
	mutex_lock(&lt_lock);
	lt_nest_every = 0;
	err = lt_run(iters);
	mutex_unlock(&lt_lock);
	return err ? err : len;
}

/* "N K": run N with a nested chain every K iterations (K >= 1) */
static ssize_t lt_soak_write(struct file *f, const char __user *ubuf,
			     size_t len, loff_t *ppos)
{
	unsigned long iters, every;
	char buf[48];
	int err;

	if (!len || len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	if (sscanf(buf, "%lu %lu", &iters, &every) != 2 || !iters ||
	    iters > 100000000UL || !every || every > 100000000UL)
		return -EINVAL;
	mutex_lock(&lt_lock);
	lt_nest_every = every;
	err = lt_run(iters);
	lt_nest_every = 0;
	mutex_unlock(&lt_lock);
	return err ? err : len;
}

static const struct file_operations lt_soak_fops = {
	.owner = THIS_MODULE,
	.write = lt_soak_write,
	.llseek = noop_llseek,
};

static const struct file_operations lt_run_fops = {
	.owner = THIS_MODULE,
	.write = lt_run_write,
	.llseek = noop_llseek,
};

static int lt_counts_show(struct seq_file *m, void *v)
{
	unsigned int cpu;
	int ctx;

	mutex_lock(&lt_lock);
	for_each_online_cpu(cpu)
		for (ctx = 0; ctx < LT_NCTX; ctx++)
			seq_printf(m, "cpu=%u ctx=%d written=%u\n", cpu, ctx,
				   per_cpu_ptr(&lt_cpu, cpu)->seq[ctx]);
	seq_printf(m, "nmi_sent=%d nmi_seen=%d\n", atomic_read(&lt_nmi_sent),
		   atomic_read(&lt_nmi_seen));
	seq_printf(m, "nest_chains=%d nest_deep=%d nest_outer=%d nest_timeouts=%d\n",
		   atomic_read(&lt_nest_chains), atomic_read(&lt_nest_deep),
		   LT_NEST_OUTER, atomic_read(&lt_nest_timeouts));
	mutex_unlock(&lt_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(lt_counts);


/* the per-CPU work of the contexts, and the NMI handler; module init */
void lt_ctx_init(void)
{
	unsigned int cpu;
	int err;

	for_each_possible_cpu(cpu) {
		struct lt_cpu *c = per_cpu_ptr(&lt_cpu, cpu);

		/* _HARD: on PREEMPT_RT both would otherwise run in a thread */
		c->work = IRQ_WORK_INIT_HARD(lt_irq_work);
		c->comm_work = IRQ_WORK_INIT_HARD(lt_comm_irq_work);
		tasklet_init(&c->tasklet, lt_tasklet, 0);
		c->nest_work = IRQ_WORK_INIT_HARD(lt_nest_hard);
		tasklet_init(&c->nest_tasklet, lt_nest_soft, 0);
		ld_hrtimer_setup(&c->timer, lt_timer, CLOCK_MONOTONIC,
				 HRTIMER_MODE_REL_PINNED_HARD);
	}
	err = register_nmi_handler(NMI_LOCAL, lt_nmi, 0, "logdev_test");
	if (err)
		pr_warn("logdev_test: no NMI handler (%d): NMI context not tested\n", err);
	else
		lt_nmi_registered = true;
}

/* module exit, after the debugfs files are gone */
void lt_ctx_exit(void)
{
	unsigned int cpu;

	if (lt_nmi_registered)
		unregister_nmi_handler(NMI_LOCAL, "logdev_test");
	for_each_possible_cpu(cpu) {
		struct lt_cpu *c = per_cpu_ptr(&lt_cpu, cpu);

		hrtimer_cancel(&c->timer);
		irq_work_sync(&c->work);
		irq_work_sync(&c->comm_work);
		tasklet_kill(&c->tasklet);
		tasklet_kill(&c->nest_tasklet);
		irq_work_sync(&c->nest_work);
	}
}

void lt_ctx_files(struct dentry *dir)
{
	debugfs_create_file("run", 0200, dir, NULL, &lt_run_fops);
	debugfs_create_file("soak", 0200, dir, NULL, &lt_soak_fops);
	debugfs_create_file("counts", 0444, dir, NULL, &lt_counts_fops);
}
