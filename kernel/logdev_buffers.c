// SPDX-License-Identifier: GPL-2.0
/*
 * logdev_buffers.c - buffer control: the configuration (sub-buffer size
 * and count, mode, clock, recording on/off) and the operations behind the
 * debugfs control files: resize, mode, clock, clear, flush, enable, stats.
 *
 * Layer: recording core (logdev_core.h), its top: calls the per-CPU state,
 * the reader wake-up, the clock and the ring, and switches the recording
 * path on and off (logdev_recording, logdev_key).  Buffers are only
 * replaced or reset while recording is off and after synchronize_rcu(),
 * so a writer never sees a buffer change under it.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/cpu.h>
#include <linux/smp.h>
#include <linux/rcupdate.h>
#include <linux/jump_label.h>
#include <linux/lockdep.h>
#include "logdev_core.h"

struct ld_config ld_cfg = {
	.subbuf_size = LD_SUBBUF_DEFAULT,
	.nr_subbufs = LD_BUF_KB_DEFAULT * 1024 / LD_SUBBUF_DEFAULT,
	.mode = LD_MODE_OVERWRITE,
	.clock = LD_CLOCK_LOCAL,
};
DEFINE_MUTEX(ld_cfg_mutex);

const char * const ld_mode_names[2] = {
	[LD_MODE_OVERWRITE] = "overwrite",
	[LD_MODE_DISCARD] = "discard",
};

/**
 * ld_buf_size_ok() - the ring geometry that will be allocated, if it fits
 * @subbuf_size: bytes per sub-buffer
 * @nr:          sub-buffers per CPU; rounded down to the power of two the
 *               ring uses (so only what it uses is allocated)
 *
 * Like ftrace's resize, never takes more than half of the memory
 * available, counting every possible CPU.
 *
 * Return: 0, or -ENOMEM if it would.
 */
int ld_buf_size_ok(u32 subbuf_size, u32 *nr)
{
	*nr = rounddown_pow_of_two(*nr);
	if ((u64)subbuf_size * *nr * num_possible_cpus() / PAGE_SIZE >
	    si_mem_available() / 2)
		return -ENOMEM;
	return 0;
}

/* -------------------------------------------------------------------------- */

/**
 * ld_buffers_init() - allocate every CPU's ring in the given configuration
 * @cfg: subbuf_size, nr_subbufs (checked by ld_buf_size_ok()), mode and
 *       clock; @cfg->enabled is ignored (ld_set_enabled() starts recording)
 *
 * Initialisation of the recording core (logdev_main.c), before anything
 * can record or read.  Does not sleep for RCU, so it can run in an early
 * initcall.  ld_percpu_exit() frees what it allocated.
 *
 * Return: 0, or -ENOMEM (then nothing stays allocated and ld_cfg is
 * unchanged).
 */
int ld_buffers_init(const struct ld_config *cfg)
{
	int ret;

	mutex_lock(&ld_cfg_mutex);
	ret = ld_percpu_init(cfg->subbuf_size, cfg->nr_subbufs, cfg->mode);
	if (!ret) {
		ld_cfg.subbuf_size = cfg->subbuf_size;
		ld_cfg.nr_subbufs = cfg->nr_subbufs;
		ld_cfg.mode = cfg->mode;
		ld_clock_select(cfg->clock);
		ld_cfg.clock = cfg->clock;
	}
	mutex_unlock(&ld_cfg_mutex);
	return ret;
}

/*
 * Replace every CPU's buffer by a new one of @nr_subbufs sub-buffers of
 * @subbuf_size bytes.  All new buffers are allocated first: on failure the
 * old ones stay in place.  Refused as ld_may_reset() says, and with
 * -EBUSY while the rings are in the flight recorder's area (fixed at load).
 */
int ld_resize(u32 subbuf_size, u32 nr_subbufs)
{
	struct ld_cpu_buf **tmp;
	int cpu, ret;

	lockdep_assert_held(&ld_cfg_mutex);
	ret = ld_may_reset();
	if (ret)
		return ret;
	if (ld_area_on())	/* the area's layout is fixed at load */
		return -EBUSY;
	ret = -ENOMEM;
	if (ld_buf_size_ok(subbuf_size, &nr_subbufs))
		return -ENOMEM;
	tmp = kcalloc(nr_cpu_ids, sizeof(*tmp), GFP_KERNEL);
	if (!tmp)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		tmp[cpu] = ld_buf_alloc(cpu, subbuf_size, nr_subbufs, ld_cfg.mode);
		if (!tmp[cpu])
			goto out;
	}

	down_write(&ld_buf_rwsem);
	for_each_possible_cpu(cpu) {
		tmp[cpu] = rcu_replace_pointer(per_cpu_ptr(ld_pcpu, cpu)->cb,
					       tmp[cpu], true);
		ld_readers[cpu].have = false;
		ld_comm_forget(cpu);
	}
	ld_cfg.subbuf_size = subbuf_size;
	ld_cfg.nr_subbufs = nr_subbufs;
	up_write(&ld_buf_rwsem);
	synchronize_rcu();	/* pollers may still look at the old rings */
	ret = 0;
out:
	for_each_possible_cpu(cpu)
		ld_buf_free(tmp[cpu]);
	kfree(tmp);
	return ret;
}

/* Empty every buffer in @mode; writers must be stopped. */
static void ld_reset_all(enum ld_mode mode)
{
	int cpu;

	down_write(&ld_buf_rwsem);
	for_each_possible_cpu(cpu) {
		ld_cpu_buf_reset(ld_cb(cpu), mode);
		ld_readers[cpu].have = false;
		ld_comm_forget(cpu);
	}
	up_write(&ld_buf_rwsem);
}

/**
 * ld_may_reset() - may the buffers be emptied or reconfigured now?
 *
 * With ld_cfg_mutex held.  Return: 0, or -EBUSY while recording or while
 * a consuming reader (trace_pipe_raw) is open: it has not read what a
 * reset would throw away, and after a clock change would read two clocks
 * as one.
 */
int ld_may_reset(void)
{
	lockdep_assert_held(&ld_cfg_mutex);
	return ld_cfg.enabled || ld_cfg.consumers ? -EBUSY : 0;
}

/* A trace_pipe_raw file was opened (counted under ld_cfg_mutex). */
void ld_consumer_open(void)
{
	mutex_lock(&ld_cfg_mutex);
	ld_cfg.consumers++;
	mutex_unlock(&ld_cfg_mutex);
}

/* A trace_pipe_raw file was closed. */
void ld_consumer_close(void)
{
	mutex_lock(&ld_cfg_mutex);
	if (!WARN_ON_ONCE(!ld_cfg.consumers))
		ld_cfg.consumers--;
	mutex_unlock(&ld_cfg_mutex);
}

int ld_set_mode(enum ld_mode mode)
{
	int ret = ld_may_reset();

	if (ret)
		return ret;
	ld_reset_all(mode);
	ld_cfg.mode = mode;
	return 0;
}

int ld_set_clock(enum ld_clock_id clock)
{
	int ret = ld_may_reset();

	if (ret)
		return ret;
	ld_clock_select(clock);
	ld_cfg.clock = clock;
	ld_reset_all(ld_cfg.mode);
	ld_area_set_clock(ld_clock_names[clock]);	/* a kept area says which */
	return 0;
}

/*
 * Empty every buffer, recording or not; -EBUSY while a consuming reader is
 * open (ld_may_reset()), 0 otherwise.
 */
int ld_clear_all(void)
{
	lockdep_assert_held(&ld_cfg_mutex);
	if (ld_cfg.consumers)
		return -EBUSY;
	if (ld_cfg.enabled) {
		WRITE_ONCE(logdev_recording, false);
		synchronize_rcu();
	}
	ld_reset_all(ld_cfg.mode);
	if (ld_cfg.enabled)
		WRITE_ONCE(logdev_recording, true);
	return 0;
}

/*
 * Close @cpu's partial sub-buffer; the record that next opens one names its
 * task first (ld_comm_stale()).  On @cpu, or while no writer of it runs.
 */
static bool ld_flush_cpu(int cpu)
{
	bool done = ld_flush(ld_cb(cpu));

	ld_comm_stale(per_cpu_ptr(ld_pcpu, cpu));
	return done;
}

static void ld_flush_ipi(void *info)
{
	ld_flush_cpu(smp_processor_id());
}

/* Close every CPU's partial sub-buffer, on its own CPU if it is online. */
void ld_flush_all(void)
{
	int cpu;

	lockdep_assert_held(&ld_cfg_mutex);
	cpus_read_lock();
	for_each_possible_cpu(cpu) {
		if (cpu_online(cpu))
			smp_call_function_single(cpu, ld_flush_ipi, NULL, 1);
		else
			ld_flush_cpu(cpu);
	}
	cpus_read_unlock();
	ld_wake_readers();
}

/**
 * ld_flush_stopped() - flush one CPU's buffer if recording is stopped
 * @cpu: the CPU
 *
 * For a consumer at the end of its data: with recording stopped no writer
 * can run, so the flush may run here; it also emits losses still pending
 * once the consumer has made room (discard mode).
 *
 * Return: true if it flushed.
 */
bool ld_flush_stopped(int cpu)
{
	bool done = false;

	mutex_lock(&ld_cfg_mutex);
	if (!ld_cfg.enabled) {
		down_read(&ld_buf_rwsem);
		done = ld_flush_cpu(cpu);
		up_read(&ld_buf_rwsem);
	}
	mutex_unlock(&ld_cfg_mutex);
	return done;
}

int ld_set_enabled(bool on)
{
	lockdep_assert_held(&ld_cfg_mutex);
	if (on == ld_cfg.enabled)
		return 0;
	if (on) {
		ld_set_stopped(false);
		ld_cfg.enabled = true;
		WRITE_ONCE(logdev_recording, true);
		static_branch_enable(&logdev_key);
		return 0;
	}
	WRITE_ONCE(logdev_recording, false);
	static_branch_disable(&logdev_key);
	synchronize_rcu();	/* no writer is inside a record any more */
	ld_cfg.enabled = false;
	ld_flush_all();
	/* only now may a reader that finds nothing conclude end-of-data */
	ld_set_stopped(true);
	ld_wake_readers();
	return 0;
}

void ld_cpu_stats(int cpu, struct ld_stats *st)
{
	down_read(&ld_buf_rwsem);
	ld_get_stats(ld_cb(cpu), st);
	up_read(&ld_buf_rwsem);
}
