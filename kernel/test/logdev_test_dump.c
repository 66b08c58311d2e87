// SPDX-License-Identifier: GPL-2.0
/*
 * logdev_test_dump.c - logdev_test.ko: the crash dump's workloads (tests/vm/guest-dump*.sh):
 * dump_seq (two CPUs' records interleaved in time) and crash (oops, BUG,
 * panic, or an oops between a reservation and its commit)
 */
#include "logdev_test.h"

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


void lt_dump_files(struct dentry *dir)
{
	debugfs_create_file("dump_seq", 0200, dir, NULL, &lt_dump_seq_fops);
	debugfs_create_file("crash", 0200, dir, NULL, &lt_crash_fops);
}
