// SPDX-License-Identifier: GPL-2.0
/*
 * logdev_pipe.c - /sys/kernel/debug/logdev/per_cpu/cpuN/trace_pipe_raw: the
 * consuming per-CPU readers, whole sub-buffers at a time
 * (docs/DEBUGFS.md).
 *
 * Layer: feature (logdev_features.h); calls the recording core: the
 * per-CPU state, the reader wake-up, ld_flush_stopped() and the ring's
 * ld_consume().
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/debugfs.h>
#include <linux/uaccess.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/poll.h>
#include "logdev_core.h"
#include "logdev_features.h"


static int pipe_open(struct inode *inode, struct file *f)
{
	int cpu = (long)inode->i_private;
	struct ld_reader *r = &ld_readers[cpu];
	int ret = 0;

	f->private_data = r;
	mutex_lock(&r->lock);
	if (!r->bounce) {
		r->bounce = kvmalloc(LD_SUBBUF_MAX, GFP_KERNEL);
		if (!r->bounce)
			ret = -ENOMEM;
	}
	mutex_unlock(&r->lock);
	if (!ret)
		ret = nonseekable_open(inode, f);
	if (!ret)
		ld_consumer_open();
	return ret;
}

/* Last close of an open file: the buffers may be reset again. */
static int pipe_release(struct inode *inode, struct file *f)
{
	ld_consumer_close();
	return 0;
}

/*
 * Copy out as many whole sub-buffers as fit in @count.  A sub-buffer that
 * was consumed but could not be copied stays in the bounce buffer for the
 * next read.  Returns bytes copied, 0 if none available, or -errno.
 */
static ssize_t pipe_copy(struct ld_reader *r, int cpu, char __user *ubuf,
			 size_t count)
{
	struct ld_cpu_buf *cb;
	ssize_t copied = 0;
	u32 size;

	down_read(&ld_buf_rwsem);
	cb = rcu_dereference_protected(per_cpu_ptr(ld_pcpu, cpu)->cb, true);
	size = cb->subbuf_size;
	if (count < size) {
		copied = -EINVAL;
		goto out;
	}
	while (copied + size <= count) {
		if (!r->have) {
			if (ld_consume(cb, r->bounce) != 1)
				break;
			r->have = true;
		}
		if (copy_to_user(ubuf + copied, r->bounce, size)) {
			if (!copied)
				copied = -EFAULT;
			break;
		}
		r->have = false;
		copied += size;
	}
out:
	up_read(&ld_buf_rwsem);
	return copied;
}

/*
 * End of data (read 0, POLLHUP) only when ld_is_stopped() was true BEFORE
 * the check that found nothing readable: the stop is published after the
 * final flush, so that check saw the flushed sub-buffers.  Losses still
 * pending (discard mode, no room at the flush) are flushed here first.
 * See docs/DEBUGFS.md "End of data" for every ordering.
 */
static ssize_t pipe_read(struct file *f, char __user *ubuf, size_t count,
			 loff_t *ppos)
{
	struct ld_reader *r = f->private_data;
	int cpu = r - ld_readers;
	bool stopped;
	ssize_t ret;

	if (mutex_lock_interruptible(&r->lock))
		return -ERESTARTSYS;
	for (;;) {
		stopped = ld_is_stopped();
		ret = pipe_copy(r, cpu, ubuf, count);
		if (ret)
			break;
		if (stopped) {
			/* losses still pending become an empty sub-buffer */
			if (ld_flush_stopped(cpu))
				continue;
			break;		/* 0: EOF */
		}
		if (f->f_flags & O_NONBLOCK) {
			ret = -EAGAIN;
			break;
		}
		/*
		 * Back to the top (copy, arm again) whenever our waiting flag
		 * was cleared: a wake-up clears it (the poll timer's, a
		 * flush's, the end of recording's), and a sub-buffer closed
		 * while a writer still has a record open there is not
		 * readable yet; sleeping on with the flag clear, the timer
		 * would never wake us (a soak run's reader slept until the
		 * end: tests/vm/soaktool.c, "longest wait in read()").
		 */
		ld_reader_arm(cpu);
		if (wait_event_interruptible(r->wq, ld_is_stopped() ||
					     ld_cpu_readable(cpu) ||
					     !READ_ONCE(r->waiting))) {
			ret = -ERESTARTSYS;
			break;
		}
	}
	mutex_unlock(&r->lock);
	return ret;
}

static __poll_t pipe_poll(struct file *f, poll_table *wait)
{
	struct ld_reader *r = f->private_data;
	int cpu = r - ld_readers;
	bool stopped;

	poll_wait(f, &r->wq, wait);
	stopped = ld_is_stopped();	/* before the readability check */
	if (READ_ONCE(r->have) || ld_cpu_readable(cpu))
		return EPOLLIN | EPOLLRDNORM;
	if (stopped) {
		/* as pipe_read(): pending losses first, then a read returns 0 */
		if (ld_flush_stopped(cpu))
			return EPOLLIN | EPOLLRDNORM;
		return EPOLLHUP;
	}
	ld_reader_arm(cpu);
	return 0;
}

static const struct file_operations pipe_fops = {
	.owner = THIS_MODULE,
	.open = pipe_open,
	.release = pipe_release,
	.read = pipe_read,
	.poll = pipe_poll,
	/* no .llseek: pipe_open()'s nonseekable_open() makes lseek -ESPIPE */
};

/**
 * ld_pipe_init() - create per_cpu/cpuN/trace_pipe_raw for every possible CPU
 * @dir: the logdev debugfs directory
 *
 * Module init, after the per-CPU state is allocated.
 */
void ld_pipe_init(struct dentry *dir)
{
	struct dentry *pcpu, *d;
	char name[16];
	int cpu;

	pcpu = debugfs_create_dir("per_cpu", dir);
	for_each_possible_cpu(cpu) {
		snprintf(name, sizeof(name), "cpu%d", cpu);
		d = debugfs_create_dir(name, pcpu);
		debugfs_create_file("trace_pipe_raw", 0400, d,
				    (void *)(long)cpu, &pipe_fops);
	}
}
