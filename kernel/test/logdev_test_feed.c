// SPDX-License-Identifier: GPL-2.0
/*
 * logdev_test_feed.c - logdev_test.ko: records a reader test knows in advance: comm
 * (the writer's name from task, hardirq and NMI), fill (records of set
 * sizes), burst (records in one CPU's open sub-buffer), fill_pair (a probed
 * pair that completes sub-buffers)
 */
#include "logdev_test.h"

/* ---- comm (tests/vm/guest-comm.sh) ------------------------------------ */

void lt_comm_irq_work(struct irq_work *w)
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

/* ---- fill_pair (tests/vm/guest-wakeup.sh) ------------------------------ */

/*
 * The measured pair of guest-wakeup.sh (r:fillpair): N edprint() calls of
 * 8 payload bytes from one task, enough to complete sub-buffers while a
 * reader waits; nothing else, so the pair's time is the records' own.
 */
static noinline __noclone void lt_fill_pair(unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		edprint("fillpair %u %u", (u32)i, (u32)n);
}

static ssize_t lt_fill_pair_write(struct file *f, const char __user *ubuf,
				  size_t len, loff_t *ppos)
{
	unsigned long n;
	int ret = kstrtoul_from_user(ubuf, len, 10, &n);

	if (ret)
		return ret;
	if (n > 1000000)
		return -EINVAL;
	migrate_disable();
	lt_fill_pair(n);
	migrate_enable();
	return len;
}

static const struct file_operations lt_fill_pair_fops = {
	.owner = THIS_MODULE,
	.write = lt_fill_pair_write,
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


/* module init: the fill string */
void lt_feed_init(void)
{
	memset(lt_fill_pad, 'x', sizeof(lt_fill_pad) - 1);
}

void lt_feed_files(struct dentry *dir)
{
	debugfs_create_file("burst", 0200, dir, NULL, &lt_burst_fops);
	debugfs_create_file("fill_pair", 0200, dir, NULL, &lt_fill_pair_fops);
	debugfs_create_file("comm", 0200, dir, NULL, &lt_comm_fops);
	debugfs_create_file("fill", 0200, dir, NULL, &lt_fill_fops);
}
