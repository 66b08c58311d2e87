// SPDX-License-Identifier: GPL-2.0
/*
 * logdev_test.ko: drives edprint() from every context for the VM tests.
 *
 * debugfs logdev_test/:
 *   run       write N: on every online CPU a bound kthread makes N process-
 *             context edprint() calls and, in the middle of them, raises
 *             irq_work (hardirq), a tasklet (softirq), an NMI self-IPI (NMI)
 *             while a pinned hrtimer (hardirq) ticks.  Every record is
 *             edprint("ctx=%d seq=%u", ctx, seq) with a per-CPU per-context
 *             sequence number counting from 0.  The write returns when every
 *             writer, timer, tasklet, irq_work and NMI is finished.
 *   soak      write "N K": as run, and every K-th iteration of each writer
 *             also makes a nested chain: a task record (not on PREEMPT_RT)
 *             whose reservation stays open while a softirq (tasklet run by
 *             local_bh_enable()) reserves one, which stays open while an
 *             irq_work (hardirq) reserves one, which stays open while a
 *             self-NMI records: four writers nested on one CPU (three on
 *             PREEMPT_RT, where softirqs are threads and cannot preempt an
 *             open reservation).  Same "ctx=%d seq=%u" payloads and
 *             per-CPU per-context seq counters as run, so counts stays
 *             exact (tests/vm/guest-soak.sh).
 *   counts    per CPU per context, how many edprint() calls the last run made:
 *             "cpu=N ctx=N written=N" lines; then "nmi_sent=N nmi_seen=N";
 *             then "nest_chains=N nest_deep=N nest_outer=N nest_timeouts=N":
 *             chains started by soak, NMI records made while nest_outer
 *             (3, or 2 on PREEMPT_RT) outer reservations of the chain were
 *             open, and waits for an irq_work or NMI that gave up (100 ms).
 *   printf    write anything: one edprint() per entry of a table of formats,
 *             all on one CPU, in table order.
 *   printf_ref the kernel's own text for the same call (vsnprintf()), one
 *             line per entry: "INDEX<TAB>TEXT", or
 *             "INDEX<TAB>cut=KEEP,SKIP<TAB>TEXT" for an entry whose arguments
 *             logdev must cut (expected: the first KEEP characters, the cut
 *             mark, then unless SKIP < 0 the text after SKIP more), with NUL, '\\',
 *             newline, tab and other control characters escaped as \0, \\,
 *             \n, \t, \xHH.  Then "# raw_big=ERRNO": what logdev_write_raw()
 *             returned for a record larger than any sub-buffer (written after
 *             the table; it must count as lost, too_big).
 *   probe_work write "N US D": a known workload for the run-time probes
 *             test (tests/vm/guest-probes.sh), see lt_probe_work_write().
 *   comm      write TAG: edprint("comm tag=%u ctx=%d") from the writing task,
 *             then from an irq_work (hardirq) and a self-NMI taken while it
 *             runs on the same CPU (both record the writer's pid), for the
 *             task names test (tests/vm/guest-comm.sh).
 *   burst     write "CPU N": N edprint("burst i=%u", i) calls on CPU (from an
 *             IPI, i counting from 0), so that a test knows exactly which
 *             records sit in that CPU's open sub-buffer.
 *   dump_seq  write "N M": a worker bound to CPU 0 makes N
 *             edprint("seq %d", i) calls and one bound to CPU 1 makes M
 *             edprint("other %d %s %c %lld %hhd %hd", ...) calls, then CPU 1
 *             one edprint("vbin %d %hhd %hd %pS") (the packed path), i counting
 *             from 0; CPU 0's last M records alternate with CPU 1's, for
 *             the crash dump test (tests/vm/guest-dump.sh).
 *   crash     write "oops" (a NULL dereference), "bug" (BUG()), "panic"
 *             (panic()) or "mid" (a NULL dereference on CPU 0 between
 *             reserving a record and committing it): the kernel dies, for
 *             the crash dump test.
 */
#include <linux/module.h>
#include <linux/tracepoint.h>
#include <linux/kernel.h>
#include <linux/debugfs.h>
#include <linux/kthread.h>
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/interrupt.h>
#include <linux/percpu.h>
#include <linux/cpumask.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/trace_clock.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/limits.h>
#include <linux/seq_file.h>
#include <linux/mutex.h>
#include <linux/cpu.h>
#include <linux/workqueue.h>
#include <linux/string.h>
#include "../logdev_compat.h"	/* ld_hrtimer_setup(), LD_DECLARE_TRACE_TP() */
#include <linux/vmalloc.h>
#include <asm/apic.h>
#include <asm/nmi.h>
#include <linux/edprint.h>

#define LT_NCTX		4	/* enum logdev_ctx: task, softirq, hardirq, nmi */
#define LT_CTX_TASK	0
#define LT_CTX_SOFTIRQ	1
#define LT_CTX_HARDIRQ	2
#define LT_CTX_NMI	3

#define LT_TIMER_NS	(200 * NSEC_PER_USEC)

struct lt_cpu {
	unsigned int seq[LT_NCTX];	/* edprint() calls made, per context */
	struct irq_work work;
	struct tasklet_struct tasklet;
	struct hrtimer timer;
	int nmi_pending;
	int comm_nmi;			/* comm: a self-NMI of the comm file pending */
	unsigned int comm_tag;
	struct irq_work comm_work;
	bool timer_on;
	/* soak's nested chain (lt_nest_*) */
	struct irq_work nest_work;
	struct tasklet_struct nest_tasklet;
	int nest_open;			/* chain reservations open on this CPU */
	int nest_hard;			/* chain irq_work pending */
	int nest_nmi;			/* chain self-NMI pending */
	struct task_struct *thread;
	struct completion done;
};

static DEFINE_PER_CPU(struct lt_cpu, lt_cpu);
static DEFINE_MUTEX(lt_lock);
static struct dentry *lt_dir;
static unsigned long lt_iters;
static atomic_t lt_nmi_sent, lt_nmi_seen;
static bool lt_nmi_registered;
static unsigned long lt_nest_every;	/* soak: chain every N iterations, 0 off */
static atomic_t lt_nest_chains, lt_nest_deep, lt_nest_timeouts;
/* outer chain reservations open when the chain's NMI records */
#define LT_NEST_OUTER	(IS_ENABLED(CONFIG_PREEMPT_RT) ? 2 : 3)

/*
 * One record; seq is taken and used without leaving the context.  Records
 * are 32 or 40 bytes (a pseudo-random half carry a u64 more) so that some
 * sub-buffers fill to their very last byte.
 */
static void lt_record(int ctx)
{
	struct lt_cpu *c = this_cpu_ptr(&lt_cpu);
	unsigned int seq = c->seq[ctx]++;

	if ((seq * 2654435761U) & 0x10000)
		edprint("ctx=%d seq=%u pad=%llx", ctx, seq, 0x5a5a5a5a5a5a5a5aULL);
	else
		edprint("ctx=%d seq=%u", ctx, seq);
}

static void lt_irq_work(struct irq_work *w)
{
	lt_record(LT_CTX_HARDIRQ);
}

static void lt_tasklet(unsigned long data)
{
	lt_record(LT_CTX_SOFTIRQ);
}

static enum hrtimer_restart lt_timer(struct hrtimer *t)
{
	lt_record(LT_CTX_HARDIRQ);
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
		lt_record(LT_CTX_NMI);
		WRITE_ONCE(c->nest_nmi, 0);
		ret = NMI_HANDLED;
	}
	if (READ_ONCE(c->comm_nmi)) {
		edprint("comm tag=%u ctx=%d", c->comm_tag, LT_CTX_NMI);
		WRITE_ONCE(c->comm_nmi, 0);
		return NMI_HANDLED;
	}
	/* Only our own self-NMIs: anything else belongs to someone else. */
	if (!READ_ONCE(c->nmi_pending))
		return ret;
	lt_record(LT_CTX_NMI);
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
		lt_record(LT_CTX_TASK);
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

/* ---- printf table ---------------------------------------------------- */

#define LT_PF_MAX	160
#define LD_TEST_RAW_BIG	(64 * 1024 + 8)	/* more than the largest sub-buffer */
#define LT_PF_LINE	1024	/* longest entry: 600 characters */
#define LT_PF_TEXT	700
static char *lt_pf_ref;		/* LT_PF_MAX lines of LT_PF_LINE bytes */
static int lt_pf_count;

/* @len bytes of @src (NULs included: %c of 0 prints one) */
static void lt_escape(char *dst, size_t size, const char *src, size_t len)
{
	const char *lim = src + len;
	size_t n = 0;

	for (; src < lim && n + 5 < size; src++) {
		unsigned char ch = *src;

		if (ch == '\0') {
			dst[n++] = '\\';
			dst[n++] = '0';
		} else if (ch == '\\') {
			dst[n++] = '\\';
			dst[n++] = '\\';
		} else if (ch == '\n') {
			dst[n++] = '\\';
			dst[n++] = 'n';
		} else if (ch == '\t') {
			dst[n++] = '\\';
			dst[n++] = 't';
		} else if (ch < 0x20 || ch == 0x7f) {
			n += scnprintf(dst + n, size - n, "\\x%02x", ch);
		} else {
			dst[n++] = ch;
		}
	}
	dst[n] = '\0';
}

/*
 * The kernel's own text for fmt+args (vsnprintf(), what printk would print)
 * as entry lt_pf_count.  @keep >= 0: logdev cannot store all of it (payload
 * limits); the expected text is then the first @keep characters, the cut
 * mark, and unless @skip < 0 the text after the next @skip characters (the
 * part of the argument that was cut); the line reads
 * "cut=KEEP,SKIP<TAB>TEXT".
 */
static __printf(3, 4) void lt_pf_ref_add(int keep, int skip, const char *fmt, ...)
{
	char *text, *line;
	va_list ap;
	int n, len;

	if (lt_pf_count >= LT_PF_MAX)
		return;
	text = kmalloc(LT_PF_TEXT, GFP_ATOMIC);
	if (!text)
		return;
	va_start(ap, fmt);
	len = vsnprintf(text, LT_PF_TEXT, fmt, ap);
	va_end(ap);
	len = min(len, LT_PF_TEXT - 1);
	line = lt_pf_ref + lt_pf_count * LT_PF_LINE;
	n = keep >= 0 ? scnprintf(line, LT_PF_LINE, "cut=%d,%d\t", keep, skip) : 0;
	lt_escape(line + n, LT_PF_LINE - n, text, len);
	kfree(text);
	lt_pf_count++;
}

/* Each entry: one edprint() call site with a literal format, same args. */
#define LT_PF(fmt, ...) do {				\
	edprint(fmt, ##__VA_ARGS__);			\
	lt_pf_ref_add(-1, 0, fmt, ##__VA_ARGS__);	\
} while (0)

static unsigned long lt_probe_sink;
static noinline __noclone unsigned long lt_probe_target(unsigned long i,
							unsigned long magic);

/* An entry whose arguments logdev must cut (see lt_pf_ref_add()). */
#define LT_PF_CUT(keep, skip, fmt, ...) do {		\
	edprint(fmt, ##__VA_ARGS__);			\
	lt_pf_ref_add(keep, skip, fmt, ##__VA_ARGS__);	\
} while (0)

/* arguments of the issue 7 entries */
static const u8 lt_mac[6] = { 0x00, 0x11, 0x22, 0x33, 0x44, 0x5a };
static const u8 lt_bytes3[3] = { 0x01, 0x02, 0xfe };
static const u8 lt_uuid[16] = { 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
				0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f };
static const unsigned long lt_bitmap[1] = { 0xf0f0fUL };
static const char lt_bytes3_s[3] = { 'a', 'b', 'c' };	/* no NUL */
static const char lt_mac_s[2] = { 'd', 'e' };
static char lt_s600[601];
static u8 lt_raw_big[LD_TEST_RAW_BIG];
static int lt_raw_big_ret;
static char lt_s300[301];
/* a string of @n (<= 600) characters: the tail of lt_s600 */
#define LT_S(n)	(lt_s600 + sizeof(lt_s600) - 1 - (n))

static void lt_oddfiles(int i);

/*
 * Every width and precision form of a conversion, as the kernel's
 * format_decode() reads them (issue 24 item 6: "%.s" is no precision there,
 * not C's 0): each row one precision form P of one conversion C, with no
 * width, a width, '-' and a width, a '*' width and '-' with a '*' width.
 * The forms gcc's format check refuses (0 with - or with a precision, #
 * of %d, any flag but - of %s) are left out.
 */
#define LT_PF_FORMS(P, C, v)						\
	LT_PF("[%" P C "][%6" P C "][%-6" P C "][%*" P C "][%-*" P C "]",	\
	      v, v, v, 6, v, 6, v)
#define LT_PF_FORMS_STAR(C, p, v)					\
	LT_PF("[%.*" C "][%6.*" C "][%-6.*" C "][%*.*" C "][%-*.*" C "]",	\
	      p, v, p, v, p, v, 6, p, v, 6, p, v)
#define LT_PF_FORMS_ALL(C, v) do {					\
	LT_PF_FORMS("", C, v);						\
	LT_PF_FORMS(".", C, v);						\
	LT_PF_FORMS(".0", C, v);					\
	LT_PF_FORMS(".2", C, v);					\
	LT_PF_FORMS(".9", C, v);					\
	LT_PF_FORMS_STAR(C, 2, v);					\
	LT_PF_FORMS_STAR(C, 0, v);					\
	LT_PF_FORMS_STAR(C, -1, v);					\
} while (0)

static noinline void lt_printf_forms(void)
{
	LT_PF_FORMS_ALL("s", "abcdef");
	LT_PF_FORMS_ALL("d", -42);
	LT_PF_FORMS_ALL("d", 0);
	LT_PF_FORMS_ALL("x", 0x2aU);
	LT_PF_FORMS_ALL("x", 0U);
	/* the forms of the report (issue 24 item 6) */
	LT_PF("[%.s] [%-3.s] [%.s|%.0s|%.*s]", "123456", "ab", "x", "y", 1, "zz");
	/* the sign, space and # flags with every precision form, of 0 and not */
	LT_PF("[%+.d][% .d][%+.0d][% .0d][%+.2d][%+.*d]", 0, 0, 0, 0, 0, -1, 0);
	LT_PF("[%+.d][% .d][%+.0d][% .0d][%+.2d][%+.*d]", 5, 5, 5, 5, 5, -1, 5);
	LT_PF("[%#.x][%#.0x][%#.2x][%#6.x][%#-6.0x][%#.*x]", 0U, 0U, 0U, 0U, 0U, 0, 0U);
	LT_PF("[%#.x][%#.0x][%#.2x][%#6.x][%#-6.0x][%#.*x]", 9U, 9U, 9U, 9U, 9U, 0, 9U);
	LT_PF("[%#.o][%#.0o][%.o][%.0o]", 0U, 0U, 0U, 0U);
}

static noinline void lt_printf_table(struct dentry *dentry, char *pg)
{
	/* hidden from the compiler: a NULL it sees is a -Wformat-overflow */
	const char *nullstr = NULL;
	/*
	 * lt_probe_target + 4, computed at run time: a constant would be a
	 * relocation to the middle of a function, which objtool refuses
	 * under IBT (not an ENDBR)
	 */
	unsigned long in_target = (unsigned long)lt_probe_target;
	static const u8 ip[4] = { 192, 168, 7, 42 };
	void *ptr = (void *)0xffff888012345678UL;
	struct {
		unsigned int u3:3;
		int s5:5;
		u64 w40:40;
		bool b:1;
	} bf = { 5, -3, 0x123456789aULL, true };

	OPTIMIZER_HIDE_VAR(nullstr);
	OPTIMIZER_HIDE_VAR(in_target);
	in_target += 4;
	lt_pf_count = 0;
	LT_PF("plain text, no args");
	LT_PF("%d %d %d", 0, 1, -1);
	LT_PF("int min %d max %d", INT_MIN, INT_MAX);
	LT_PF("%u %u", 0U, UINT_MAX);
	LT_PF("hh %hhd %hhu %hhx", (signed char)-5, (unsigned char)250, (unsigned char)0xab);
	LT_PF("h %hd %hu %hx", (short)-12345, (unsigned short)65535, (unsigned short)0xbeef);
	LT_PF("l %ld %lu %lx", LONG_MIN, ULONG_MAX, 0xdeadbeefcafeUL);
	LT_PF("ll %lld %llu %llx", LLONG_MIN, ULLONG_MAX, 0x0123456789abcdefULL);
	LT_PF("z %zu %zd t %td", (size_t)4096, (ssize_t)-4096, (ptrdiff_t)-77);
	LT_PF("width [%5d] [%-5d] [%05d]", 42, 42, 42);
	LT_PF("sign [%+d] [% d] [%+d]", 7, 7, -7);
	LT_PF("prec [%.3d] [%8.3d] [%-8.3d|]", 5, 5, -5);
	LT_PF("star [%*d] [%-*d] [%.*d]", 6, 3, 6, 3, 4, 9);
	LT_PF("hex %x %X %#x %#X %08x", 0xabcdefU, 0xabcdefU, 255U, 255U, 0x1fU);
	LT_PF("oct %o %#o %lo", 8U, 8U, 0777UL);
	LT_PF("llhex %016llx %#llx", 0xfedcba9876543210ULL, 1ULL);
	LT_PF("neg as hex %x %lx %hx", -1, -1L, (short)-1);
	LT_PF("char [%c] [%3c] [%-3c]", 'A', 'b', 'c');
	LT_PF("str [%s] [%10s] [%-10s]", "abc", "right", "left");
	LT_PF("str prec [%.2s] [%8.3s] [%-8.1s]", "abcdef", "xyzw", "qq");
	LT_PF("str null [%s]", nullstr);
	LT_PF("str empty [%s] then %d", "", 5);
	LT_PF("%s=%d, %s=%u, %s=%llx", "a", -1, "b", 2U, "c", 3ULL);
	LT_PF("escapes: tab\there \\ back newline\nend");
	LT_PF("string with newline [%s]", "two\nlines");
	LT_PF("percent 100%% and %d%%", 50);
	LT_PF("ptr %px", ptr);
	LT_PF("ptr null %px", (void *)NULL);
	LT_PF("ipv4 %pI4", ip);
	LT_PF("mix %c%c%c %d %s %lu", 'x', 'y', 'z', 123, "mid", 456UL);
	LT_PF("many %d %d %d %d %d %d %d %d %d %d", 1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
	/*
	 * the word form (__logdev_words()): an 8-byte value across two
	 * words, 32 bytes exactly, 28 (padding in the last word), 8 (one word)
	 */
	LT_PF("words straddle %d %llx %d %lx", -7, 0x1122334455667788ULL, 9,
	      0x99aabbccddeeff00UL);
	LT_PF("words 32 %u %lld %d %lld %d %d", UINT_MAX, -2LL, 3, -4LL, 5, 6);
	LT_PF("words 28 %d %d %d %d %d %d %d", 1, -2, 3, -4, 5, -6, 7);
	LT_PF("words 8 %lx", 0xffffffff00000001UL);
	LT_PF("long string [%s]",
	      "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789");
	/* symbols: what the kernel prints for each kind of address */
	LT_PF("sym null %pS|%ps|%pB", NULL, NULL, NULL);
	LT_PF("sym percpu %pS", (void *)0x10UL);
	LT_PF("sym vmlinux text %pS|%ps", (void *)kmem_cache_free + 3, (void *)kmem_cache_free);
	LT_PF("sym vmlinux data %pS|%ps", (void *)&jiffies, (void *)&jiffies);
	LT_PF("sym module text %pS|%ps|%pB", (void *)in_target,
	      (void *)lt_probe_target, (void *)in_target);
	LT_PF("sym module data %pS", (void *)&lt_probe_sink);
	/* module_log format 2: data and rodata are regions of their own (6.4+) */
	LT_PF("sym module data %ps|%pS rodata %pS", (void *)&lt_probe_sink,
	      (char *)&lt_probe_sink + 4, (void *)lt_bytes3_s);
	LT_PF("sym heap %pS", (void *)lt_pf_ref);

	/* issue 7, fault 1: every byte of a record comes from its own call */
	memset(lt_s600, 'Z', sizeof(lt_s600) - 1);
	memset(lt_s300, 'y', sizeof(lt_s300) - 1);
	LT_PF("%s%s", "secret-from-previous-record", "");
	LT_PF_CUT(511, -1, "%s%s", lt_s600, "");	/* vbin: the rest is lost */
	LT_PF("%c %d %px|%s", 'q', 7, ptr, "ok");
	LT_PF_CUT(7 + 255, 45, "slots [%s]", lt_s300);	/* slots: the rest follows */
	LT_PF_CUT(7 + 255, 45, "slots [%s] %d", lt_s300, 42);
	LT_PF("exact 255 [%s]", lt_s300 + 45);
	/* issue 7, fault 2: pointer extensions with width and flags */
	LT_PF("[%20pb]", lt_bitmap);
	LT_PF("[%*pb]", 20, lt_bitmap);
	LT_PF("[%-12pd2]", dentry);
	LT_PF("[%3ph]", lt_bytes3);
	LT_PF("[%20pM]", lt_mac);
	LT_PF("[%-20pI4]", ip);
	LT_PF("[%40pUb]", lt_uuid);
	LT_PF("[%px] [%s]", lt_bytes3, "after");
	LT_PF("xxx%cyyy", '\0');
	/* a precision bounds what is read of a %s (arrays without a NUL) */
	LT_PF("[%.3s] [%.*s] [%.0s]", lt_bytes3_s, 2, lt_mac_s, lt_bytes3_s);
	/*
	 * ... even at the end of a page with nothing mapped after it
	 * (vmalloc's guard page): vbin_printf()'s strlen() faulted there
	 * (ld_vbin_pack()); and every kind of argument around such a %s,
	 * which is packed by logdev's own code then
	 */
	if (pg) {	/* a vmalloc page (lt_printf_write()) */
		memcpy(pg + PAGE_SIZE - 3, "xyz", 3);
		LT_PF("edge [%.3s] [%.*s]", pg + PAGE_SIZE - 3, 2, pg + PAGE_SIZE - 2);
	}
	LT_PF("mixed [%.3s] %d %lld %hhx %hd %c [%*.*s] %pI4 [%-6.2s] %u %s",
	      lt_bytes3_s, -7, -8LL, (unsigned char)0xab, (short)-3, 'Z', 6, 2, lt_mac_s,
	      ip, "abcdef", 9U, "end");
	/*
	 * issue 7 follow-up: arguments ending at the last bytes of a
	 * vbin_printf() record (LOGDEV_MAX_PAYLOAD 512; vbin layout: %px 8
	 * bytes, a string and a pointer text each with its NUL, numbers
	 * aligned to their size up to 4).  A string ending at byte 511, 512,
	 * 513 of the record (two strings: more than one slots record holds, so
	 * vbin_printf(); %px: vbin_printf())...
	 */
	LT_PF("A [%s][%s]", LT_S(255), LT_S(254));
	LT_PF("A [%s][%s]", LT_S(255), LT_S(255));
	LT_PF_CUT(3 + 255 + 2 + 255, -1, "A [%s][%s]", LT_S(255), LT_S(256));
	LT_PF("B %px [%s] end", ptr, LT_S(502));
	LT_PF("B %px [%s] end", ptr, LT_S(503));
	LT_PF_CUT(2 + 16 + 2 + 503, -1, "B %px [%s] end", ptr, LT_S(504));
	LT_PF("%px [%s] %c", ptr, LT_S(502), 'c');
	LT_PF_CUT(16 + 2 + 503, -1, "%px [%s] %c", ptr, LT_S(503), 'c');
	LT_PF("%px [%s] %d", ptr, LT_S(499), -3);
	/*
	 * ...a %pI4 text ("192.168.7.42", 12 characters after a string of
	 * N) ending at byte 510, 511, 512, then a 1-byte (%c, %hhd) or a
	 * 4-byte (%d) number: what does not fit is cut and marked.
	 */
	LT_PF("v0 %s%pI4%c", LT_S(497), ip, 'Q');
	LT_PF_CUT(3 + 498 + 12, -1, "v0 %s%pI4%c", LT_S(498), ip, 'Q');
	LT_PF_CUT(3 + 499 + 11, -1, "v0 %s%pI4%c", LT_S(499), ip, 'Q');
	LT_PF("v1 %s%pI4%hhd", LT_S(497), ip, (signed char)-7);
	LT_PF_CUT(3 + 498 + 12, -1, "v1 %s%pI4%hhd", LT_S(498), ip, (signed char)-7);
	LT_PF_CUT(3 + 499 + 11, -1, "v1 %s%pI4%hhd", LT_S(499), ip, (signed char)-7);
	LT_PF_CUT(3 + 497 + 12, -1, "v2 %s%pI4%d", LT_S(497), ip, 123456);
	LT_PF_CUT(3 + 498 + 12, -1, "v2 %s%pI4%d", LT_S(498), ip, 123456);
	LT_PF_CUT(3 + 499 + 11, -1, "v2 %s%pI4%d", LT_S(499), ip, 123456);
	/*
	 * %hh and %h in a record packed at run time (a %p: not the slots), at
	 * every alignment after a string: Linux 7.x's vbin_printf() stores
	 * them as ints, logdev's records as 1 and 2 bytes (ld_vbin_pack())
	 */
	LT_PF("narrow %pI4 %s|%hhd %hd %hhu %hx %c %hhx %hu|%s", ip, "a", (signed char)-7,
	      (short)-300, (unsigned char)200, (unsigned short)0xbeef, 'k',
	      (unsigned char)0x5a, (unsigned short)65000, "end");
	LT_PF("narrow %pI4 %s|%hd %hhd %hd|%s", ip, "ab", (short)-2, (signed char)-128,
	      (short)32767, "end");
	LT_PF("narrow %pI4 %s|%hhx %hd|%s", ip, "abc", (unsigned char)0xff, (short)-1, "end");
	LT_PF("v3 %s%pI4", LT_S(498), ip);
	LT_PF_CUT(3 + 499 + 11, -1, "v3 %s%pI4", LT_S(499), ip);
	/* slots: a %s of 256 characters is cut at 255 and marked */
	LT_PF_CUT(7 + 255, 1, "slots [%s]", LT_S(256));
	/*
	 * issue 13 item 5: plain %p, %pK and %pe of a non-error pointer print
	 * what the kernel's "%p" prints (a hash of its boot key), NULL and
	 * error pointers as they are, %px raw; also in a cut record
	 */
	LT_PF("hashed %p|%20p|%-18p|%pK|%pe", ptr, ptr, ptr, ptr, ptr);
	LT_PF("hashed null %p err %p %pe", NULL, ERR_PTR(-ENOMEM), ERR_PTR(-ENOMEM));
	LT_PF("hashed %p then %px %d", lt_bytes3, lt_bytes3, 5);
	LT_PF_CUT(2 + 16 + 2 + 503, -1, "C %p [%s] end", ptr, LT_S(504));
	/*
	 * bit-fields as arguments (EDP_RV(): the value after the usual
	 * conversions, as a call passes it): the word form, then the slots
	 * form (a string), then one wider than int (cast, as printf's check
	 * wants for a u64:40)
	 */
	LT_PF("bits %u %d %d", bf.u3, bf.s5, bf.b);
	LT_PF("bits %u [%s] %d", bf.u3, "str", bf.s5);
	LT_PF("bits wide %llx %d", (unsigned long long)bf.w40, bf.s5);
	lt_printf_forms();
	/* sites in files whose names hold a tab, a quote, a newline */
	lt_oddfiles(7);
	/* a raw record larger than a sub-buffer: refused, counted as too_big */
	lt_raw_big_ret = logdev_write_raw(0, lt_raw_big, sizeof(lt_raw_big));
}

static ssize_t lt_printf_write(struct file *f, const char __user *ubuf,
			       size_t len, loff_t *ppos)
{
	/* allocated here: the table runs with preemption off */
	char *pg = vmalloc(PAGE_SIZE);

	mutex_lock(&lt_lock);
	preempt_disable();	/* one CPU, table order */
	lt_printf_table(f->f_path.dentry, pg);
	preempt_enable();
	mutex_unlock(&lt_lock);
	vfree(pg);
	return len;
}

static const struct file_operations lt_printf_fops = {
	.owner = THIS_MODULE,
	.write = lt_printf_write,
	.llseek = noop_llseek,
};

static int lt_printf_ref_show(struct seq_file *m, void *v)
{
	int i;

	mutex_lock(&lt_lock);
	for (i = 0; i < lt_pf_count; i++)
		seq_printf(m, "%d\t%s\n", i, lt_pf_ref + i * LT_PF_LINE);
	seq_printf(m, "# raw_big=%d\n", lt_raw_big_ret);
	mutex_unlock(&lt_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(lt_printf_ref);

/* ---- probe workload (tests/vm/guest-probes.sh) ------------------------ */

static struct kmem_cache *lt_probe_cache;

/*
 * A tracepoint of this module (no trace event: a bare DECLARE_TRACE), hit
 * once per lt_probe_target() call: "t:logdev_test:lt_probe_tp" reaches it
 * through logdev's tracepoint module notifier, and is gone while this
 * module is away (tests/vm/guest-probes-reload.sh).
 */
LD_DECLARE_TRACE_TP(lt_probe, TP_PROTO(unsigned long i, unsigned long magic),
		    TP_ARGS(i, magic));
DEFINE_TRACE(lt_probe_tp, TP_PROTO(unsigned long i, unsigned long magic),
	     TP_ARGS(i, magic));

/* Probe targets: kept out of line and unchanged in signature. */
static noinline __noclone unsigned long lt_probe_target(unsigned long i,
							unsigned long magic)
{
	barrier();
	trace_lt_probe_tp(i, magic);
	return i * 2 + magic;
}

/*
 * Called 3 times (i = 0..2) from lt_init(), in .init.text: a probe written
 * while this module is not loaded ("p logdev_test:lt_probe_init_target",
 * pending) fires during its init, then is gone when the init text is freed
 * (tests/vm/guest-probes-reload.sh).
 */
static noinline __noclone __init unsigned long lt_probe_init_target(unsigned long i)
{
	barrier();
	return i + 1;
}

/*
 * Target of the typed-argument probes (tests/vm/guest-probes.sh, ftrace's
 * fetch arguments): a string, a structure to dereference (+0, +8, +16 of
 * @o on x86-64: neg, val, name), a signed number, a function pointer for
 * :symbol, and lt_probe_magic for @SYM.
 */
struct lt_probe_obj {
	long neg;		/* +0 */
	u32 val;		/* +8 */
	const char *name;	/* +16 */
};
u32 lt_probe_magic = 0x1234;

static noinline __noclone long lt_probe_typed(const char *s,
					       struct lt_probe_obj *o, long n,
					       void *fn)
{
	barrier();
	return n + o->val + (s[0] == 'h') + (fn != NULL);
}

/*
 * Busy-wait @us microseconds of trace_clock_local(), logdev's default clock
 * (call with migration disabled).  Not udelay(): under QEMU TCG the delay
 * loop calibration is off (udelay(500) measured 203 us on a secondary CPU).
 */
static noinline __noclone unsigned long lt_probe_delay(unsigned long us)
{
	u64 t0 = trace_clock_local();

	while (trace_clock_local() - t0 < us * NSEC_PER_USEC)
		cpu_relax();
	return us;
}

/*
 * "N US D": between two edprint() markers, in this task, without migrating:
 * N calls of lt_probe_target(i, 0xabcd), N kmem_cache_alloc() then N
 * kmem_cache_free() on our own cache, and D calls of lt_probe_delay(US)
 * (returns US after US microseconds of trace_clock_local()), then 3 calls of
 * lt_probe_typed() (i = 0..2: n = -5 - i, o->neg = -7 - i, o->val =
 * 0xfffffff0 + i).
 */
static ssize_t lt_probe_work_write(struct file *f, const char __user *ubuf,
				   size_t len, loff_t *ppos)
{
	unsigned long n, us, d, i;
	char buf[64];
	void **objs;
	int ret = 0;

	if (!len || len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	if (sscanf(buf, "%lu %lu %lu", &n, &us, &d) != 3 || n > 100000 ||
	    us > 100000 || d > 10000)
		return -EINVAL;
	objs = kcalloc(n ?: 1, sizeof(*objs), GFP_KERNEL);
	if (!objs)
		return -ENOMEM;
	mutex_lock(&lt_lock);
	if (!lt_probe_cache)
		lt_probe_cache = kmem_cache_create("logdev_test_probe", 64, 0, 0, NULL);
	if (!lt_probe_cache) {
		ret = -ENOMEM;
		goto out;
	}
	migrate_disable();
	edprint("probe_work begin n=%lu us=%lu d=%lu", n, us, d);
	for (i = 0; i < n; i++)
		lt_probe_sink += lt_probe_target(i, 0xabcd);
	for (i = 0; i < n; i++)
		objs[i] = kmem_cache_alloc(lt_probe_cache, GFP_KERNEL);
	for (i = 0; i < n; i++)
		if (objs[i])
			kmem_cache_free(lt_probe_cache, objs[i]);
	for (i = 0; i < d; i++)
		lt_probe_sink += lt_probe_delay(us);
	for (i = 0; i < 3; i++) {
		struct lt_probe_obj o = { -7 - (long)i, 0xfffffff0 + i, "obj-name" };

		lt_probe_sink += lt_probe_typed("hello \"typed\"", &o, -5 - (long)i,
						lt_probe_delay);
	}
	edprint("probe_work end");
	migrate_enable();
out:
	mutex_unlock(&lt_lock);
	kfree(objs);
	return ret ? ret : len;
}

static const struct file_operations lt_probe_work_fops = {
	.owner = THIS_MODULE,
	.write = lt_probe_work_write,
	.llseek = noop_llseek,
};

/* ---- comm (tests/vm/guest-comm.sh) ------------------------------------ */

static void lt_comm_irq_work(struct irq_work *w)
{
	struct lt_cpu *c = container_of(w, struct lt_cpu, comm_work);

	edprint("comm tag=%u ctx=%d", c->comm_tag, LT_CTX_HARDIRQ);
}

static ssize_t lt_comm_write(struct file *f, const char __user *ubuf,
			     size_t len, loff_t *ppos)
{
	struct lt_cpu *c;
	unsigned int tag;
	int ret, waited;

	ret = kstrtouint_from_user(ubuf, len, 0, &tag);
	if (ret)
		return ret;
	mutex_lock(&lt_lock);
	preempt_disable();
	c = this_cpu_ptr(&lt_cpu);
	c->comm_tag = tag;
	edprint("comm tag=%u ctx=%d", tag, LT_CTX_TASK);
	irq_work_queue(&c->comm_work);
	/*
	 * Preemption is off (the record must come from this CPU): wait as
	 * irq_work_sync() does for a hard irq_work, without its might_sleep()
	 * (a DEBUG_ATOMIC_SLEEP kernel reported "sleeping function called
	 * from invalid context" here: make check-debug, vm-comm)
	 */
	while (irq_work_is_busy(&c->comm_work))
		cpu_relax();
	if (lt_nmi_registered) {
		WRITE_ONCE(c->comm_nmi, 1);
		apic->send_IPI_self(NMI_VECTOR);
		for (waited = 0; READ_ONCE(c->comm_nmi) && waited < 1000; waited++)
			udelay(100);
		if (READ_ONCE(c->comm_nmi)) {
			WRITE_ONCE(c->comm_nmi, 0);
			ret = -ETIMEDOUT;
		}
	}
	preempt_enable();
	mutex_unlock(&lt_lock);
	return ret ? ret : len;
}

static const struct file_operations lt_comm_fops = {
	.owner = THIS_MODULE,
	.write = lt_comm_write,
	.llseek = noop_llseek,
};

/* ---- fill (tests/vm/guest-comm.sh: vmtool cross) ------------------------ */

/*
 * 507 'x' and the NUL (lt_init()): "fill %u %s" of it is a
 * LOGDEV_MAX_PAYLOAD payload
 */
static char lt_fill_pad[LOGDEV_MAX_PAYLOAD - 4];

/*
 * "N BYTES [FIRST]": N records of the writing task numbered FIRST (default
 * 0) on, each with a payload of BYTES (8: "fill %u %u", two ints through
 * edprint()'s word path; 12 to 512: "fill %u %s" with a string of
 * BYTES - 5 characters, vbin_printf()'s u32 then the string and its NUL;
 * 0: "fill %u %s" with the string's length cycling 0..300 with the number,
 * the variable sizes of tests/vm/guest-stream.sh).  On the writer's CPU:
 * the caller pins itself.
 */
static ssize_t lt_fill_write(struct file *f, const char __user *ubuf,
			     size_t len, loff_t *ppos)
{
	unsigned int i, n, bytes, first = 0;
	char buf[40];
	int got;

	if (!len || len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	got = sscanf(buf, "%u %u %u", &n, &bytes, &first);
	if (got < 2 || n > 1000 || first > UINT_MAX - n ||
	    (bytes && bytes != 8 && (bytes < 12 || bytes > LOGDEV_MAX_PAYLOAD)))
		return -EINVAL;
	for (i = first; i < first + n; i++) {
		const char *end = lt_fill_pad + sizeof(lt_fill_pad) - 1;

		if (bytes == 8)
			edprint("fill %u %u", i, n);
		else if (bytes)
			edprint("fill %u %s", i, end - (bytes - 5));
		else
			edprint("fill %u %s", i, end - i % 301);
	}
	return len;
}

static const struct file_operations lt_fill_fops = {
	.owner = THIS_MODULE,
	.write = lt_fill_write,
	.llseek = noop_llseek,
};

/* ---- burst (tests/vm/guest-stop.sh) ----------------------------------- */

static void lt_burst_fn(void *arg)
{
	unsigned int i, n = *(unsigned int *)arg;

	for (i = 0; i < n; i++)
		edprint("burst i=%u", i);
}

static ssize_t lt_burst_write(struct file *f, const char __user *ubuf,
			      size_t len, loff_t *ppos)
{
	unsigned int cpu, n;
	char buf[32];
	int ret;

	if (!len || len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	if (sscanf(buf, "%u %u", &cpu, &n) != 2 || n > 1000 || cpu >= nr_cpu_ids)
		return -EINVAL;
	cpus_read_lock();
	if (cpu_online(cpu))
		ret = smp_call_function_single(cpu, lt_burst_fn, &n, 1);
	else
		ret = -ENODEV;
	cpus_read_unlock();
	return ret ? ret : len;
}

static const struct file_operations lt_burst_fops = {
	.owner = THIS_MODULE,
	.write = lt_burst_write,
	.llseek = noop_llseek,
};

/* ---- crash dump (tests/vm/guest-dump.sh) -------------------------------- */

struct lt_dump_work {
	struct work_struct work;
	int cpu;
	int n;
	int m;			/* records that alternate with the other CPU */
	atomic_t *turn;
	u64 deadline;		/* ktime_get_ns(): no waiting after it */
};

/*
 * CPU 0's last M records and CPU 1's M records alternate (a turn counter),
 * so that the two CPUs' records interleave in time: seq N-M, other 0,
 * seq N-M+1, other 1, ...  The waits end at a deadline 10 s after the
 * write (a vCPU the host does not run for that long: no alternation, and
 * the test says so), never later.
 */
static void lt_dump_turn(atomic_t *turn, int parity, u64 deadline)
{
	while ((atomic_read(turn) & 1) != parity && ktime_get_ns() < deadline)
		cpu_relax();
}

static void lt_dump_fn(struct work_struct *w)
{
	struct lt_dump_work *d = container_of(w, struct lt_dump_work, work);
	int i;

	if (d->cpu == 0) {
		for (i = 0; i < d->n; i++) {
			if (i >= d->n - d->m)
				lt_dump_turn(d->turn, 0, d->deadline);
			edprint("seq %d", i);
			if (i >= d->n - d->m)
				atomic_inc(d->turn);
		}
		return;
	}
	for (i = 0; i < d->n; i++) {
		if (i < d->m)
			lt_dump_turn(d->turn, 1, d->deadline);
		/* %hhd %hd: laid out for the kernel's bstr_printf() (ints in 7.x) */
		edprint("other %d %s %c %lld %hhd %hd", i, i & 1 ? "odd" : "even", 'a' + i % 26,
			-1000000000000LL * i, (signed char)(i % 100 - 50), (short)(i - 1000));
		atomic_inc(d->turn);
	}
	edprint("vbin %d %hhd %hd %pS", d->n, (signed char)-7, (short)-300, lt_dump_fn);
}

static ssize_t lt_dump_seq_write(struct file *f, const char __user *ubuf,
				 size_t len, loff_t *ppos)
{
	struct lt_dump_work d[2];
	atomic_t turn = ATOMIC_INIT(0);
	char buf[32];
	int n, m, i;

	if (!len || len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	if (sscanf(buf, "%d %d", &n, &m) != 2 || n < 0 || m < 0 || n > 1000000 ||
	    m > 1000000)
		return -EINVAL;
	if (!cpu_online(0) || !cpu_online(1))
		return -ENODEV;
	for (i = 0; i < 2; i++) {
		INIT_WORK_ONSTACK(&d[i].work, lt_dump_fn);
		d[i].cpu = i;
		d[i].n = i ? m : n;
		d[i].m = min(n, m);
		d[i].turn = &turn;
		d[i].deadline = ktime_get_ns() + 10 * NSEC_PER_SEC;
	}
	queue_work_on(1, system_highpri_wq, &d[1].work);
	queue_work_on(0, system_highpri_wq, &d[0].work);
	for (i = 0; i < 2; i++) {
		flush_work(&d[i].work);
		destroy_work_on_stack(&d[i].work);
	}
	return len;
}

static const struct file_operations lt_dump_seq_fops = {
	.owner = THIS_MODULE,
	.write = lt_dump_seq_write,
	.llseek = noop_llseek,
};

/*
 * "mid": a writer dies between reserving a record and committing it, on
 * CPU 0: the record edprint() would make, reserved by hand.
 */
static struct logdev_site __used __section("__logdev_sites") lt_mid_site = {
	.fmt = "mid %d",
	.file = __FILE__,
	.func = "lt_crash_mid",
	.line = __LINE__,
};

static long lt_crash_mid(void *arg)
{
	struct logdev_resv r;
	u32 *p = __logdev_reserve(&lt_mid_site, sizeof(*p), &r);

	if (p)
		*p = 42;
	*(volatile int *)NULL = 1;	/* before __logdev_commit() */
	return 0;
}

static ssize_t lt_crash_write(struct file *f, const char __user *ubuf,
			      size_t len, loff_t *ppos)
{
	char buf[16];

	if (!len || len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	if (sysfs_streq(buf, "oops"))
		*(volatile int *)NULL = 1;
	else if (sysfs_streq(buf, "bug"))
		BUG();
	else if (sysfs_streq(buf, "panic"))
		panic("logdev_test: panic requested");
	else if (sysfs_streq(buf, "mid"))
		work_on_cpu(0, lt_crash_mid, NULL);
	else
		return -EINVAL;
	return len;
}

static const struct file_operations lt_crash_fops = {
	.owner = THIS_MODULE,
	.write = lt_crash_write,
	.llseek = noop_llseek,
};

static int __init lt_init(void)
{
	unsigned long i;
	unsigned int cpu;
	int err;

	lt_pf_ref = kvcalloc(LT_PF_MAX, LT_PF_LINE, GFP_KERNEL);
	if (!lt_pf_ref)
		return -ENOMEM;
	for (i = 0; i < 3; i++)
		lt_probe_sink += lt_probe_init_target(i);
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

	memset(lt_fill_pad, 'x', sizeof(lt_fill_pad) - 1);
	lt_dir = debugfs_create_dir("logdev_test", NULL);
	if (IS_ERR(lt_dir)) {
		err = PTR_ERR(lt_dir);
		goto err_nmi;
	}
	debugfs_create_file("run", 0200, lt_dir, NULL, &lt_run_fops);
	debugfs_create_file("soak", 0200, lt_dir, NULL, &lt_soak_fops);
	debugfs_create_file("counts", 0444, lt_dir, NULL, &lt_counts_fops);
	debugfs_create_file("printf", 0200, lt_dir, NULL, &lt_printf_fops);
	debugfs_create_file("printf_ref", 0444, lt_dir, NULL, &lt_printf_ref_fops);
	debugfs_create_file("probe_work", 0200, lt_dir, NULL, &lt_probe_work_fops);
	debugfs_create_file("burst", 0200, lt_dir, NULL, &lt_burst_fops);
	debugfs_create_file("comm", 0200, lt_dir, NULL, &lt_comm_fops);
	debugfs_create_file("fill", 0200, lt_dir, NULL, &lt_fill_fops);
	debugfs_create_file("dump_seq", 0200, lt_dir, NULL, &lt_dump_seq_fops);
	debugfs_create_file("crash", 0200, lt_dir, NULL, &lt_crash_fops);
	return 0;

err_nmi:
	if (lt_nmi_registered)
		unregister_nmi_handler(NMI_LOCAL, "logdev_test");
	kvfree(lt_pf_ref);
	return err;
}

static void __exit lt_exit(void)
{
	unsigned int cpu;

	debugfs_remove_recursive(lt_dir);
	mutex_lock(&lt_lock);	/* no run in flight */
	mutex_unlock(&lt_lock);
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
	kmem_cache_destroy(lt_probe_cache);
	kvfree(lt_pf_ref);
}

module_init(lt_init);
module_exit(lt_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("logdev test driver: edprint from task, softirq, hardirq and NMI context");

/*
 * Two sites at one func:line in two files with a tab, a quote and a newline
 * in their names (issue 7 follow-up, class 9): "formats" must escape them,
 * and reports name both sites with their files.  Last in this file: the
 * #line directives change __FILE__ for everything after them.
 */
static noinline void lt_oddfiles(int i)
{
#line 500 "dir\twith tab/we\"ird,name.c"
	edprint("oddfile %d", i);
#line 500 "new\nline.c"
	edprint("nlfile %d", i);
}
