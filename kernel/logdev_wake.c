// SPDX-License-Identifier: GPL-2.0
/*
 * logdev_wake.c - waking the readers of trace_pipe_raw, and the end of
 * data they wait for.
 *
 * Layer: recording core (logdev_core.h); calls logdev_percpu.c's state and
 * the ring.  Writers never wake readers, nor queue anything that would
 * (issue 26, item 4): an irq_work's self-IPI and try_to_wake_up() ran in
 * the writer's caller, inside the probed code's measured pair (a ksys_read
 * pair of 8.4 ms under TCG).  Each sleeping reader polls instead, with its
 * own timer pinned to the CPU it went to sleep on, so the poll and the
 * wake-up run there (a local wake-up, no IPI) and not in the writers: every
 * jiffy while the CPU it reads was written to since the last poll (a
 * sub-buffer may complete any time), every HZ / 100 jiffies (8 ms at
 * HZ=250) while it was not.  A sub-buffer completed while its CPU is busy
 * is found within a jiffy or two; the first one of a burst that starts
 * after a quiet time within that and a jiffy.  docs/PERFORMANCE.md "Reader wake-up" has the
 * latencies and the writers' cost measured.
 */
#include <linux/kernel.h>
#include <linux/jiffies.h>
#include <linux/timer.h>
#include <linux/cpumask.h>
#include "logdev_compat.h"	/* ld_timer_delete_sync() */
#include "logdev_core.h"

#define LD_WAKE_JIFFIES	max(1, HZ / 100)	/* ~10 ms: nothing written */
#define LD_WAKE_BUSY	1		/* a jiffy: writes since the last poll */

/*
 * True once recording is off AND every CPU's buffer was flushed after the
 * last writer left: published with smp_store_release() after that flush,
 * cleared before recording starts.  Readers end (EOF, POLLHUP) only on it,
 * never on logdev_recording, which is also cleared for a while by "clear"
 * and before the final flush.  docs/DEBUGFS.md "End of data".
 */
static bool ld_stopped = true;

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
 * Where @cpu's writers are (its ring's write position, bytes ever reserved)
 * or 0 without a ring; any context but NMI.  It moves with every record,
 * so two polls that see it unchanged saw no write in between.
 */
static u64 ld_cpu_write_pos(int cpu)
{
	struct ld_cpu_buf *cb;
	u64 pos = 0;

	rcu_read_lock();
	cb = rcu_dereference(per_cpu_ptr(ld_pcpu, cpu)->cb);
	if (cb)
		pos = ld_local_read_remote(&cb->write_off);
	rcu_read_unlock();
	return pos;
}

/*
 * A reader's poll (timer softirq, on the CPU the reader sleeps on): wake
 * it if its CPU has a complete sub-buffer (or at the end of data), else
 * come back in a jiffy if its CPU was written to since the last poll, or
 * in LD_WAKE_JIFFIES.  Stops once the reader is awake (r->waiting clear).
 */
static void ld_wake_fn(struct timer_list *t)
{
	struct ld_reader *r = container_of(t, struct ld_reader, timer);
	int cpu = r - ld_readers;
	u64 pos;

	if (!READ_ONCE(r->waiting))
		return;
	if (ld_is_stopped() || ld_cpu_readable(cpu)) {
		WRITE_ONCE(r->waiting, false);
		wake_up_interruptible_all(&r->wq);
		return;
	}
	pos = ld_cpu_write_pos(cpu);
	if (pos != READ_ONCE(r->polled_pos)) {
		WRITE_ONCE(r->polled_pos, pos);
		mod_timer(&r->timer, jiffies + LD_WAKE_BUSY);
	} else {
		mod_timer(&r->timer, jiffies + LD_WAKE_JIFFIES);
	}
}

/*
 * The reader of @cpu is about to sleep: poll for it until it is woken, from
 * this CPU (a pinned timer is queued where mod_timer() runs).  In a jiffy
 * if @cpu was written to since its last poll, else in LD_WAKE_JIFFIES; a poll
 * already due earlier stays (timer_reduce()).
 */
void ld_reader_arm(int cpu)
{
	struct ld_reader *r = &ld_readers[cpu];
	u64 pos = ld_cpu_write_pos(cpu);
	unsigned long when = LD_WAKE_JIFFIES;

	WRITE_ONCE(r->waiting, true);
	if (pos != READ_ONCE(r->polled_pos)) {
		WRITE_ONCE(r->polled_pos, pos);
		when = LD_WAKE_BUSY;
	}
	timer_reduce(&r->timer, jiffies + when);
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
 * ld_wake_init() - set up every reader's poll timer
 *
 * Module init, after ld_percpu_init() and before recording can start.
 */
void ld_wake_init(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		timer_setup(&ld_readers[cpu].timer, ld_wake_fn, TIMER_PINNED);
}

/**
 * ld_wake_exit() - stop the timers (module exit; no reader is left)
 */
void ld_wake_exit(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		ld_timer_delete_sync(&ld_readers[cpu].timer);
}
