// SPDX-License-Identifier: GPL-2.0
/*
 * logdev_test_pctx.c - logdev_test.ko: probe targets called from every
 * context, each saying which context it runs in (tests/vm/guest-probe-ctx.sh:
 * a probe hit must be recorded in the context the probed code has, whether
 * the kprobe is hit through ftrace, its breakpoint or its optimised jump).
 *
 * probe_ctx: write N: on this CPU, N calls of lt_pctx_fn() then N of
 * lt_pctx_notrace() from the writing task, then the same from a tasklet
 * (softirq), a hard irq_work (hardirq) and, if logdev_test has its NMI
 * handler, a self-NMI.  Each call records edprint("pctx want=%d self=%d"):
 * want the context its caller meant, self the one the function sees itself
 * (in_nmi(), in_hardirq(), in_serving_softirq()).  The write fails with
 * -ETIMEDOUT if a context did not run within a second.
 */
#include "logdev_test.h"

static int lt_self_ctx(void)
{
	if (in_nmi())
		return LT_CTX_NMI;
	if (in_hardirq())
		return LT_CTX_HARDIRQ;
	if (in_serving_softirq())
		return LT_CTX_SOFTIRQ;
	return LT_CTX_TASK;
}

/* An ftrace-able target: a kprobe at its entry uses ftrace, past it int3. */
static noinline __noclone unsigned long lt_pctx_fn(unsigned long want)
{
	int self = lt_self_ctx();

	edprint("pctx want=%d self=%d", (int)want, self);
	return want * 3 + self;
}

/* notrace: no fentry, a kprobe at its entry is a breakpoint (or a jump). */
static noinline __noclone notrace unsigned long lt_pctx_notrace(unsigned long want)
{
	int self = lt_self_ctx();

	edprint("pctx want=%d self=%d", (int)want, self);
	return want * 5 + self;
}

static unsigned long lt_pctx_n;
static struct completion lt_pctx_done;

static void lt_pctx_calls(int want)
{
	unsigned long i;

	for (i = 0; i < lt_pctx_n; i++)
		lt_probe_sink += lt_pctx_fn(want);
	for (i = 0; i < lt_pctx_n; i++)
		lt_probe_sink += lt_pctx_notrace(want);
}

static void lt_pctx_tasklet_fn(unsigned long data)
{
	lt_pctx_calls(LT_CTX_SOFTIRQ);
	complete(&lt_pctx_done);
}

static void lt_pctx_irq_work_fn(struct irq_work *w)
{
	lt_pctx_calls(LT_CTX_HARDIRQ);
	complete(&lt_pctx_done);
}

static struct tasklet_struct lt_pctx_tasklet;
static struct irq_work lt_pctx_work = IRQ_WORK_INIT_HARD(lt_pctx_irq_work_fn);

/* From lt_nmi() (logdev_test_ctx.c) when this CPU's pctx_nmi is set. */
void lt_pctx_nmi(void)
{
	lt_pctx_calls(LT_CTX_NMI);
}

/* The self-NMI, waited for with preemption off: it comes to this CPU. */
static int lt_pctx_in_nmi(void)
{
	struct lt_cpu *c;
	u64 t0;
	int ret = 0;

	if (!lt_nmi_registered)
		return 0;
	preempt_disable();
	c = this_cpu_ptr(&lt_cpu);
	WRITE_ONCE(c->pctx_nmi, 1);
	apic->send_IPI_self(NMI_VECTOR);
	t0 = trace_clock_local();
	while (READ_ONCE(c->pctx_nmi) && trace_clock_local() - t0 < NSEC_PER_SEC)
		cpu_relax();
	if (READ_ONCE(c->pctx_nmi)) {
		WRITE_ONCE(c->pctx_nmi, 0);
		ret = -ETIMEDOUT;
	}
	preempt_enable();
	return ret;
}

static ssize_t lt_pctx_write(struct file *f, const char __user *ubuf,
			     size_t len, loff_t *ppos)
{
	unsigned long n;
	int ret;

	ret = kstrtoul_from_user(ubuf, len, 10, &n);
	if (ret)
		return ret;
	if (!n || n > 10000)
		return -EINVAL;
	mutex_lock(&lt_lock);
	lt_pctx_n = n;
	migrate_disable();	/* every context on this CPU */
	lt_pctx_calls(LT_CTX_TASK);
	reinit_completion(&lt_pctx_done);
	tasklet_schedule(&lt_pctx_tasklet);
	if (!wait_for_completion_timeout(&lt_pctx_done, HZ)) {
		ret = -ETIMEDOUT;
		goto out;
	}
	reinit_completion(&lt_pctx_done);
	irq_work_queue(&lt_pctx_work);
	if (!wait_for_completion_timeout(&lt_pctx_done, HZ)) {
		ret = -ETIMEDOUT;
		goto out;
	}
	ret = lt_pctx_in_nmi();
out:
	migrate_enable();
	mutex_unlock(&lt_lock);
	return ret ? ret : len;
}

static const struct file_operations lt_pctx_fops = {
	.owner = THIS_MODULE,
	.write = lt_pctx_write,
	.llseek = noop_llseek,
};

void lt_pctx_init(void)
{
	init_completion(&lt_pctx_done);
	tasklet_init(&lt_pctx_tasklet, lt_pctx_tasklet_fn, 0);
}

/* module exit: after the file is gone; a timed-out context may still run */
void lt_pctx_exit(void)
{
	tasklet_kill(&lt_pctx_tasklet);
	irq_work_sync(&lt_pctx_work);
}

void lt_pctx_files(struct dentry *dir)
{
	debugfs_create_file("probe_ctx", 0200, dir, NULL, &lt_pctx_fops);
}
