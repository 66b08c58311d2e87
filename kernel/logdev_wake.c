// SPDX-License-Identifier: GPL-2.0
/*
 * logdev_wake.c - waking the readers of trace_pipe_raw, and the end of
 * data they wait for.
 *
 * Layer: recording core (logdev_core.h); calls logdev_percpu.c's state and
 * the ring.  Writers never wake readers (they may run in NMI): a writer
 * that completes a sub-buffer while its CPU's reader waits queues that
 * CPU's irq_work (logdev_record.c), and a sleeping reader also arms a
 * timer that polls every 50 ms.
 */
#include <linux/kernel.h>
#include <linux/jiffies.h>
#include <linux/timer.h>
#include <linux/irq_work.h>
#include <linux/cpumask.h>
#include "logdev_compat.h"	/* ld_timer_delete_sync() */
#include "logdev_core.h"

#define LD_WAKE_JIFFIES	max(1, HZ / 20)	/* 50 ms */

/*
 * True once recording is off AND every CPU's buffer was flushed after the
 * last writer left: published with smp_store_release() after that flush,
 * cleared before recording starts.  Readers end (EOF, POLLHUP) only on it,
 * never on logdev_recording, which is also cleared for a while by "clear"
 * and before the final flush.  docs/DEBUGFS.md "End of data".
 */
static bool ld_stopped = true;

static struct timer_list ld_wake_timer;

/**
 * ld_is_stopped() - has recording stopped and the final flush completed?
 *
 * Acquire: a caller that sees true also sees every sub-buffer the final
 * flush completed, so "nothing readable" checked after this call returned
 * true means nothing is left but losses still pending (ld_flush_stopped()).
 *
 * Return: true from the end of ld_set_enabled(false) until the next
 * ld_set_enabled(true).
 */
bool ld_is_stopped(void)
{
	return smp_load_acquire(&ld_stopped);	/* pairs with ld_set_stopped(true) */
}

/**
 * ld_set_stopped() - publish or withdraw the end of data
 * @stopped: true once recording is off and the final flush is done
 *           (release: pairs with ld_is_stopped()); false before
 *           recording starts
 *
 * Called by ld_set_enabled() only, under ld_cfg_mutex.
 */
void ld_set_stopped(bool stopped)
{
	if (stopped)
		/* the final flush before the stop: pairs with ld_is_stopped() */
		smp_store_release(&ld_stopped, true);
	else
		WRITE_ONCE(ld_stopped, false);
}

/* Whether @cpu has a complete sub-buffer; any context but NMI. */
bool ld_cpu_readable(int cpu)
{
	struct ld_cpu_buf *cb;
	bool ret;

	rcu_read_lock();
	cb = rcu_dereference(per_cpu_ptr(ld_pcpu, cpu)->cb);
	ret = cb && ld_readable(cb);
	rcu_read_unlock();
	return ret;
}

/*
 * Writers never wake readers (they may run in NMI).  A sleeping reader sets
 * its waiting flag and arms this timer, which polls every 50 ms.
 */
static void ld_wake_fn(struct timer_list *t)
{
	bool again = false;
	int cpu;

	for_each_possible_cpu(cpu) {
		struct ld_reader *r = &ld_readers[cpu];

		if (!READ_ONCE(r->waiting))
			continue;
		if (ld_is_stopped() || ld_cpu_readable(cpu)) {
			WRITE_ONCE(r->waiting, false);
			wake_up_interruptible_all(&r->wq);
		} else {
			again = true;
		}
	}
	if (again)
		mod_timer(&ld_wake_timer, jiffies + LD_WAKE_JIFFIES);
}

static void ld_wake_work_fn(struct irq_work *w)
{
	struct ld_reader *r = &ld_readers[container_of(w, struct ld_pcpu, wake_work)->cpu];

	WRITE_ONCE(r->waiting, false);
	wake_up_interruptible_all(&r->wq);
}

/* The reader of @cpu is about to sleep: poll for it until it is woken. */
void ld_reader_arm(int cpu)
{
	WRITE_ONCE(ld_readers[cpu].waiting, true);
	if (!timer_pending(&ld_wake_timer))
		mod_timer(&ld_wake_timer, jiffies + LD_WAKE_JIFFIES);
}

/* Wake every reader and poller (flush, end of recording). */
void ld_wake_readers(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		WRITE_ONCE(ld_readers[cpu].waiting, false);
		wake_up_interruptible_all(&ld_readers[cpu].wq);
	}
}

/**
 * ld_wake_init() - set up the irq_work of every CPU and the timer
 *
 * Module init, after ld_percpu_init() and before recording can start.
 */
void ld_wake_init(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		init_irq_work(&per_cpu_ptr(ld_pcpu, cpu)->wake_work, ld_wake_work_fn);
	timer_setup(&ld_wake_timer, ld_wake_fn, 0);
}

/**
 * ld_wake_exit() - stop the timer (module exit; no reader is left)
 *
 * The irq_works are waited for by ld_percpu_exit().
 */
void ld_wake_exit(void)
{
	ld_timer_delete_sync(&ld_wake_timer);
}
