// SPDX-License-Identifier: GPL-2.0
/*
 * logdev_percpu.c - the per-CPU state: each CPU's ring and writer state
 * (struct ld_pcpu; its scratch buffers, struct ld_scratch) and its reader's state (struct ld_reader), allocated at
 * module init and freed at exit.
 *
 * Layer: recording core (logdev_core.h), its bottom: calls only the ring.
 * Rings are replaced (logdev_buffers.c) only while recording is off, under
 * ld_buf_rwsem for writing and after synchronize_rcu(), so a writer never
 * sees a buffer change under it.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/mm.h>
#include <linux/cpumask.h>
#include <linux/topology.h>
#include "logdev_core.h"

DECLARE_RWSEM(ld_buf_rwsem);	/* write: buffers reset or replaced; read: consume */

struct ld_pcpu __percpu *ld_pcpu;
struct ld_scratch __percpu *ld_scratch;
struct ld_reader *ld_readers;

/**
 * ld_buf_free() - free a ring allocated by ld_buf_alloc()
 * @cb: the ring, or NULL
 */
void ld_buf_free(struct ld_cpu_buf *cb)
{
	if (!cb)
		return;
	if (!ld_area_owns(cb->mem)) {	/* the area's memory stays */
		vfree(cb->mem);
		kvfree(cb->commit);
	}
	kfree(cb);
}

/**
 * ld_buf_alloc() - allocate an empty ring for @cpu
 * @cpu:         the CPU (memory comes from its node, or from the flight
 *               recorder's area when it holds a ring of this shape)
 * @subbuf_size: bytes per sub-buffer
 * @nr:          number of sub-buffers
 * @mode:        overwrite or discard
 *
 * Process context, may sleep.
 *
 * Return: the ring, or NULL if out of memory.
 */
struct ld_cpu_buf *ld_buf_alloc(int cpu, u32 subbuf_size, u32 nr,
				enum ld_mode mode)
{
	int node = cpu_to_node(cpu);
	struct ld_cpu_buf *cb;
	void *mem;
	ld_local_t *commit;

	cb = kzalloc_node(sizeof(*cb), GFP_KERNEL, node);
	if (!cb)
		goto err;
	if (ld_area_ring(cb, cpu, subbuf_size, nr, &mem, &commit)) {
		if (ld_cpu_buf_init(cb, mem, commit, cpu, subbuf_size, nr, mode))
			goto err_cb;
		return cb;
	}
	/* fail rather than wake the OOM killer: a too-big size is -ENOMEM */
	mem = __vmalloc((size_t)subbuf_size * nr,
			GFP_KERNEL | __GFP_ZERO | __GFP_RETRY_MAYFAIL | __GFP_NOWARN);
	if (!mem)
		goto err_cb;
	commit = kvcalloc(nr, sizeof(*commit), GFP_KERNEL);
	if (!commit)
		goto err_mem;
	if (ld_cpu_buf_init(cb, mem, commit, cpu, subbuf_size, nr, mode))
		goto err_commit;
	return cb;

err_commit:
	kvfree(commit);
err_mem:
	vfree(mem);
err_cb:
	kfree(cb);
err:
	return NULL;
}

static void ld_free_all(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		ld_buf_free(ld_cb(cpu));
		RCU_INIT_POINTER(per_cpu_ptr(ld_pcpu, cpu)->cb, NULL);
		kvfree(ld_readers[cpu].bounce);
	}
}

/**
 * ld_comm_forget() - the next record on @cpu is preceded by a comm record
 * @cpu: the CPU
 *
 * For a ring that was emptied or replaced: its sub-buffer numbers start
 * again, so the sub-buffer of the CPU's last comm record means nothing;
 * its count of comm records starts again with the ring's statistics.
 * Call while no writer runs (recording off, after synchronize_rcu()).
 */
void ld_comm_forget(int cpu)
{
	struct ld_pcpu *pc = per_cpu_ptr(ld_pcpu, cpu);

	WRITE_ONCE(pc->comm_sb, LD_COMM_SB_NONE);
	ld_comm_stale(pc);
	local_set(&pc->comm_written, 0);
}

/* comm records @cpu's writers tried to store since its ring was emptied */
u64 ld_comm_written(int cpu)
{
	return local_read(&per_cpu_ptr(ld_pcpu, cpu)->comm_written);
}

/**
 * ld_percpu_init() - allocate every CPU's state and ring
 * @subbuf_size: bytes per sub-buffer
 * @nr_subbufs:  sub-buffers per CPU
 * @mode:        overwrite or discard
 *
 * Module init.  The readers' wake-up timer is set up afterwards by
 * ld_wake_init().
 *
 * Return: 0 or -ENOMEM (then nothing stays allocated).
 */
int ld_percpu_init(u32 subbuf_size, u32 nr_subbufs, enum ld_mode mode)
{
	struct ld_cpu_buf *cb;
	int cpu;

	ld_pcpu = alloc_percpu(struct ld_pcpu);
	if (!ld_pcpu)
		goto err;
	ld_scratch = alloc_percpu(struct ld_scratch);
	if (!ld_scratch)
		goto err_pcpu;
	ld_readers = kcalloc(nr_cpu_ids, sizeof(*ld_readers), GFP_KERNEL);
	if (!ld_readers)
		goto err_scratch;
	for_each_possible_cpu(cpu) {
		per_cpu_ptr(ld_pcpu, cpu)->cpu = cpu;
		ld_comm_forget(cpu);
		mutex_init(&ld_readers[cpu].lock);
		init_waitqueue_head(&ld_readers[cpu].wq);
		cb = ld_buf_alloc(cpu, subbuf_size, nr_subbufs, mode);
		if (!cb)
			goto err_bufs;
		RCU_INIT_POINTER(per_cpu_ptr(ld_pcpu, cpu)->cb, cb);
	}
	return 0;

err_bufs:
	ld_free_all();
	kfree(ld_readers);
err_scratch:
	free_percpu(ld_scratch);
err_pcpu:
	free_percpu(ld_pcpu);
err:
	return -ENOMEM;
}

/**
 * ld_percpu_exit() - free everything ld_percpu_init() allocated
 *
 * Module exit: recording is off, no file is open, and synchronize_rcu()
 * has run since the last writer could start; the readers' bounce buffers
 * (allocated at their first open) are freed here too.
 */
void ld_percpu_exit(void)
{
	ld_free_all();
	kfree(ld_readers);
	free_percpu(ld_scratch);
	free_percpu(ld_pcpu);
}
