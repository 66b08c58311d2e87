// SPDX-License-Identifier: GPL-2.0
/*
 * logdev_bench.c - cost per record of edprint() against trace_printk(), a
 * raw write to the kernel's own ring buffer, and no call at all, from one
 * kthread per online CPU, all CPUs at once.
 *
 *   echo SCENARIO > /sys/kernel/debug/logdev_bench/run   (blocks until done)
 *   echo mix > /sys/kernel/debug/logdev_bench/run        (all but nocall, interleaved)
 *   echo mixoff > /sys/kernel/debug/logdev_bench/run     (nocall, edprint*, interleaved)
 *   cat /sys/kernel/debug/logdev_bench/last              "SCENARIO NS CPUS NR" lines
 *
 * SCENARIO: nocall, edprint0, edprint2, edprint2s, edvb0, edvb2, edvb2s, tp0,
 * tp2, tp2s, rb0, rb2, rb2s, edprint2c.  edprint2c: edprint2 with the
 * writer's comm changed before every record, so that every record is
 * preceded by a comm record (LOGDEV_REC_COMM), as when the task on a CPU
 * changes at every record; edprint2 is the same task throughout.  Payload suffix: 0 = "bench", 2 = "bench %d %d", 2s = "bench %d %d
 * %s" with a 16-byte string.  edprint* records only while logdev's "enable"
 * is 1 (the guest script also runs them with 0: the static key off).
 * rbN: ring_buffer_lock_reserve()/ring_buffer_unlock_commit() of the bytes
 * edprint stores for the same payload minus its 8-byte timestamp (the ring
 * buffer keeps its own), on a private buffer of @rb_kb KiB per CPU.
 * edprint*: edprint() as built, which encodes arguments at compile time
 * (LOGDEV_REC_PRINT_SLOTS) for these formats; edvb*: the vbin_printf() path
 * (__logdev_print(), what edprint() did before and still does for %p).
 * NS is the mean over CPUs of (loop time / nr), in ns of the guest's clock.
 * Module parameter nr: records per CPU per run (default 20000).
 *
 * Paced writers (sustained recording, bench/kernel/sustained.sh):
 *   echo "SCENARIO RATE MS" > /sys/kernel/debug/logdev_bench/pace  (blocks)
 *   cat /sys/kernel/debug/logdev_bench/last   "pace SCENARIO RATE MS CPU WRITTEN NS SKIPPED" per CPU
 * One kthread per online CPU writes SCENARIO (edprint2 or tp2) at RATE
 * records/s for MS ms, paced by the clock: at every step it writes the
 * records that are due by ktime_get_ns() (at most 64 before it looks at the
 * clock again) and, when none is due, sleeps until the next one is (at least
 * 200 us, so a fast rate is written in short bursts, not one sleep per
 * record).  A writer never owes more than PACE_BACKLOG_MS of its rate: a
 * wake-up that came late (its vCPU preempted on the host, under TCG) would
 * otherwise be followed by a burst that no reader could be blamed for; the
 * records beyond are SKIPPED (not written).  At MS it writes what is still
 * due, so WRITTEN + SKIPPED = RATE * MS / 1000.  A writer that cannot keep
 * up writes flat out and skips: WRITTEN / NS is the rate it reached.  RATE 1..10000000, MS 1..600000; anything
 * else is -EINVAL.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/completion.h>
#include <linux/debugfs.h>
#include <linux/uaccess.h>
#include <linux/ring_buffer.h>
#include <linux/timekeeping.h>
#include <linux/cpumask.h>
#include <linux/cpu.h>
#include <linux/slab.h>
#include <linux/delay.h>
#include <linux/edprint.h>
#include <uapi/linux/logdev.h>
#include "logdev_compat.h"

/* edprint() as it was before compile-time encoding: always vbin_printf() */
#define edprint_vb(_fmt, ...)						\
do {									\
	static struct logdev_site __edvb_site = {			\
		.fmt = "" _fmt "", .file = __FILE__,			\
		.func = __func__, .line = __LINE__,			\
	};								\
	if (static_branch_unlikely(&logdev_key))			\
		__logdev_print(&__edvb_site, _fmt, ##__VA_ARGS__);	\
} while (0)

static unsigned int nr = 20000;
module_param(nr, uint, 0644);
MODULE_PARM_DESC(nr, "records per CPU per run");
static unsigned int rb_kb = 4096;
module_param(rb_kb, uint, 0444);
MODULE_PARM_DESC(rb_kb, "KiB per CPU of the private ring buffer (rb* scenarios)");

enum scen { S_NOCALL, S_ED0, S_ED2, S_ED2S, S_CT0, S_CT2, S_CT2S, S_TP0, S_TP2, S_TP2S, S_RB0, S_RB2, S_RB2S, S_ED2C, NR_SCEN };
static const char *const scen_name[NR_SCEN] = {
	"nocall", "edprint0", "edprint2", "edprint2s", "edvb0", "edvb2", "edvb2s", "tp0", "tp2", "tp2s", "rb0", "rb2", "rb2s",
	"edprint2c",
};
/* bytes edprint stores (header + vbin_printf payload, 8-aligned) minus ts */
static const u32 rb_bytes[3] = { 24 - 8, 32 - 8, 56 - 8 };

static const char *bench_str = "eth0-rx-queue-07";	/* 16 chars */
static struct trace_buffer *rb;
static struct dentry *dir;
static DEFINE_MUTEX(run_mutex);
static char last[1024];

static noinline void rb_write(u32 bytes, u32 a, u32 b, const char *s)
{
	struct ring_buffer_event *ev = ring_buffer_lock_reserve(rb, bytes);
	u32 *p;

	if (!ev)
		return;
	p = ring_buffer_event_data(ev);
	memset(p, 0, bytes);
	if (bytes >= 24) {
		p[4] = a;
		p[5] = b;
	}
	if (bytes >= 48)
		memcpy(&p[6], s, 17);
	ld_ring_buffer_unlock_commit(rb, ev);
}

static noinline void run_loop(enum scen s, u32 n)
{
	const char *str = READ_ONCE(bench_str);
	u32 i;

	switch (s) {
	case S_NOCALL:
		for (i = 0; i < n; i++)
			asm volatile("" : : "r"(i), "r"(i ^ 0x55) : "memory");
		break;
	case S_ED0:
		for (i = 0; i < n; i++)
			edprint("bench");
		break;
	case S_ED2:
		for (i = 0; i < n; i++)
			edprint("bench %d %d", (int)i, (int)(i ^ 0x55));
		break;
	case S_ED2S:
		for (i = 0; i < n; i++)
			edprint("bench %d %d %s", (int)i, (int)(i ^ 0x55), str);
		break;
	case S_ED2C:
		for (i = 0; i < n; i++) {
			/* a kthread's own name, NUL at 15 kept: no lock needed */
			WRITE_ONCE(current->comm[0], 'a' + (i & 1));
			edprint("bench %d %d", (int)i, (int)(i ^ 0x55));
		}
		break;
	case S_CT0:
		for (i = 0; i < n; i++)
			edprint_vb("bench");
		break;
	case S_CT2:
		for (i = 0; i < n; i++)
			edprint_vb("bench %d %d", (int)i, (int)(i ^ 0x55));
		break;
	case S_CT2S:
		for (i = 0; i < n; i++)
			edprint_vb("bench %d %d %s", (int)i, (int)(i ^ 0x55), str);
		break;
	case S_TP0:
		for (i = 0; i < n; i++)
			trace_printk("bench");
		break;
	case S_TP2:
		for (i = 0; i < n; i++)
			trace_printk("bench %d %d", (int)i, (int)(i ^ 0x55));
		break;
	case S_TP2S:
		for (i = 0; i < n; i++)
			trace_printk("bench %d %d %s", (int)i, (int)(i ^ 0x55), str);
		break;
	case S_RB0:
	case S_RB2:
	case S_RB2S:
		for (i = 0; i < n; i++)
			rb_write(rb_bytes[s - S_RB0], i, i ^ 0x55, str);
		break;
	default:
		break;
	}
}

/*
 * A run: every scenario whose bit is set in @mask, interleaved in blocks of
 * @blk records (A, B, C, A, B, C, ...) until each has done @n, so that all
 * of them see the same interference (TCG on a shared host is noisy: a
 * vCPU thread preempted on the host stretches whatever runs at the time).
 */
struct worker {
	u32 mask;
	u32 n;
	u32 blk;
	u64 ns[NR_SCEN];
	atomic_t *ready;
	int nthreads;
	struct completion done;
};

static int worker_fn(void *arg)
{
	struct worker *w = arg;
	u32 done, chunk;
	int s;
	u64 t0;

	/* start together: every CPU's writer runs at the same time */
	atomic_inc(w->ready);
	while (atomic_read(w->ready) < w->nthreads)
		cpu_relax();
	for (done = 0; done < w->n; done += chunk) {
		chunk = min(w->blk, w->n - done);
		for (s = 0; s < NR_SCEN; s++) {
			if (!(w->mask & BIT(s)))
				continue;
			t0 = ktime_get_ns();
			run_loop(s, chunk);
			w->ns[s] += ktime_get_ns() - t0;
		}
		cond_resched();
	}
	complete(&w->done);
	return 0;
}

/* mean over CPUs of ns/record per scenario into @mean_ns[] */
static int run_scenarios(u32 mask, u32 blk, u64 *mean_ns, int *ncpu)
{
	int cpus = num_online_cpus(), i = 0, cpu, started = 0, s;
	struct worker *ws;
	atomic_t ready = ATOMIC_INIT(0);

	ws = kcalloc(cpus, sizeof(*ws), GFP_KERNEL);
	if (!ws)
		return -ENOMEM;
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		struct task_struct *t;

		if (i >= cpus)
			break;
		ws[i].mask = mask;
		ws[i].n = nr;
		ws[i].blk = blk;
		ws[i].ready = &ready;
		ws[i].nthreads = cpus;
		init_completion(&ws[i].done);
		t = kthread_create_on_cpu(worker_fn, &ws[i], cpu, "ldbench/%u");
		if (IS_ERR(t)) {
			/* the ones started wait for a count that never comes: count it */
			atomic_add(cpus - i, &ready);
			break;
		}
		wake_up_process(t);
		i++;
	}
	cpus_read_unlock();
	started = i;
	for (s = 0; s < NR_SCEN; s++)
		mean_ns[s] = 0;
	for (i = 0; i < started; i++) {
		wait_for_completion(&ws[i].done);
		for (s = 0; s < NR_SCEN; s++)
			mean_ns[s] += ws[i].ns[s];
	}
	for (s = 0; s < NR_SCEN; s++)
		mean_ns[s] = started ? div_u64(mean_ns[s], (u64)started * nr) : 0;
	*ncpu = started;
	kfree(ws);
	return started == cpus ? 0 : -ENOMEM;
}

/* records a paced writer may owe before it skips the oldest, in ms of its rate */
#define PACE_BACKLOG_MS	50

/* one paced writer: @rate records/s for @ms ms; @written, @ns: what it did */
struct pacer {
	enum scen s;
	int cpu;
	u32 rate;
	u32 ms;
	u64 written;
	u64 skipped;
	u64 ns;
	struct completion done;
};

static int pace_fn(void *arg)
{
	struct pacer *p = arg;
	u64 t0 = ktime_get_ns(), now, end = t0 + (u64)p->ms * NSEC_PER_MSEC;
	u64 cap = max_t(u64, div_u64((u64)p->rate * PACE_BACKLOG_MS, MSEC_PER_SEC), 64);
	u64 done = 0, skipped = 0, due;

	for (;;) {
		now = ktime_get_ns();
		if (now >= end)
			due = div_u64((u64)p->ms * p->rate, MSEC_PER_SEC);
		else	/* < 6e14 ns * 1e7/s: fits u64 */
			due = div_u64((now - t0) * p->rate, NSEC_PER_SEC) + 1;
		/* a wake-up that came late (vCPU preempted on the host) */
		if (due > done + skipped + cap)
			skipped = due - done - cap;
		if (done + skipped < due) {
			u32 n = min_t(u64, due - done - skipped, 64);

			run_loop(p->s, n);
			done += n;
			cond_resched();
		} else if (now >= end) {
			break;
		} else {
			/* the next record is due at t0 + (done + skipped) / rate */
			u64 next = t0 + div_u64((done + skipped) * NSEC_PER_SEC, p->rate);
			u64 wait_us = next > now ? div_u64(next - now, NSEC_PER_USEC) : 0;

			wait_us = clamp_t(u64, wait_us, 200, 20000);
			usleep_range(wait_us, wait_us + 50);
		}
	}
	p->written = done;
	p->skipped = skipped;
	p->ns = ktime_get_ns() - t0;
	complete(&p->done);
	return 0;
}

/* "SCENARIO RATE MS": paced writers on every online CPU (see the top) */
static ssize_t pace_write(struct file *f, const char __user *ubuf, size_t len, loff_t *ppos)
{
	char buf[64], name[16];
	size_t n = min(len, sizeof(buf) - 1), o = 0;
	int cpus = num_online_cpus(), i = 0, started, cpu, ret = 0;

	unsigned int rate, ms;
	struct pacer *ps;
	enum scen s;

	if (copy_from_user(buf, ubuf, n))
		return -EFAULT;
	buf[n] = 0;
	if (sscanf(buf, "%15s %u %u", name, &rate, &ms) != 3 ||
	    !rate || rate > 10000000 || !ms || ms > 600000)
		return -EINVAL;
	if (!strcmp(name, "edprint2"))
		s = S_ED2;
	else if (!strcmp(name, "tp2"))
		s = S_TP2;
	else
		return -EINVAL;
	ps = kcalloc(cpus, sizeof(*ps), GFP_KERNEL);
	if (!ps)
		return -ENOMEM;
	mutex_lock(&run_mutex);
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		struct task_struct *t;

		if (i >= cpus)
			break;
		ps[i].s = s;
		ps[i].cpu = cpu;
		ps[i].rate = rate;
		ps[i].ms = ms;
		init_completion(&ps[i].done);
		t = kthread_create_on_cpu(pace_fn, &ps[i], cpu, "ldpace/%u");
		if (IS_ERR(t)) {
			ret = PTR_ERR(t);
			break;
		}
		wake_up_process(t);
		i++;
	}
	cpus_read_unlock();
	started = i;
	for (i = 0; i < started; i++)
		wait_for_completion(&ps[i].done);
	if (!ret) {
		last[0] = 0;
		for (i = 0; i < started; i++)
			o += scnprintf(last + o, sizeof(last) - o, "pace %s %u %u %d %llu %llu %llu\n",
				       name, rate, ms, ps[i].cpu, ps[i].written, ps[i].ns,
				       ps[i].skipped);
	}
	mutex_unlock(&run_mutex);
	kfree(ps);
	return ret ? ret : len;
}

/*
 * "run" accepts one scenario name (blocks of nr: one after the other), or
 * "mix" (every scenario but nocall, blocks of 64) or "mixoff" (nocall and
 * edprint0/2/2s, blocks of 4096: meant for recording off, static key off).
 */
static ssize_t run_write(struct file *f, const char __user *ubuf, size_t len, loff_t *ppos)
{
	char buf[32];
	size_t n = min(len, sizeof(buf) - 1), o = 0;
	int s, ncpu, ret;
	u64 ns[NR_SCEN];
	u32 mask, blk;

	if (copy_from_user(buf, ubuf, n))
		return -EFAULT;
	buf[n] = 0;
	strim(buf);
	if (!strcmp(buf, "mix")) {
		mask = GENMASK(NR_SCEN - 1, 0) & ~BIT(S_NOCALL);
		blk = 64;
	} else if (!strcmp(buf, "mixoff")) {
		mask = BIT(S_NOCALL) | BIT(S_ED0) | BIT(S_ED2) | BIT(S_ED2S);
		blk = 4096;
	} else {
		for (s = 0; s < NR_SCEN; s++)
			if (!strcmp(buf, scen_name[s]))
				break;
		if (s == NR_SCEN)
			return -EINVAL;
		mask = BIT(s);
		blk = nr;
	}
	if (!nr)
		return -EINVAL;
	mutex_lock(&run_mutex);
	ret = run_scenarios(mask, blk, ns, &ncpu);
	if (!ret) {
		last[0] = 0;
		for (s = 0; s < NR_SCEN; s++)
			if (mask & BIT(s))
				o += scnprintf(last + o, sizeof(last) - o, "%s %llu %d %u\n",
					       scen_name[s], ns[s], ncpu, nr);
	}
	mutex_unlock(&run_mutex);
	return ret ? ret : len;
}

static ssize_t last_read(struct file *f, char __user *ubuf, size_t len, loff_t *ppos)
{
	char *buf = kmalloc(sizeof(last), GFP_KERNEL);
	ssize_t ret;

	if (!buf)
		return -ENOMEM;
	mutex_lock(&run_mutex);
	strscpy(buf, last, sizeof(last));
	mutex_unlock(&run_mutex);
	ret = simple_read_from_buffer(ubuf, len, ppos, buf, strlen(buf));
	kfree(buf);
	return ret;
}

static const struct file_operations run_fops = {
	.owner = THIS_MODULE,
	.write = run_write,
	.llseek = noop_llseek,
};

static const struct file_operations pace_fops = {
	.owner = THIS_MODULE,
	.write = pace_write,
	.llseek = noop_llseek,
};

static const struct file_operations last_fops = {
	.owner = THIS_MODULE,
	.read = last_read,
	.llseek = default_llseek,
};

static int __init logdev_bench_init(void)
{
	rb = ring_buffer_alloc((unsigned long)rb_kb * 1024, RB_FL_OVERWRITE);
	if (!rb)
		return -ENOMEM;
	dir = debugfs_create_dir("logdev_bench", NULL);
	debugfs_create_file("run", 0200, dir, NULL, &run_fops);
	debugfs_create_file("pace", 0200, dir, NULL, &pace_fops);
	debugfs_create_file("last", 0444, dir, NULL, &last_fops);
	return 0;
}

static void __exit logdev_bench_exit(void)
{
	debugfs_remove_recursive(dir);
	ring_buffer_free(rb);
}

module_init(logdev_bench_init);
module_exit(logdev_bench_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("logdev benchmark: edprint vs trace_printk vs ring_buffer");
