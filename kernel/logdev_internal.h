/* SPDX-License-Identifier: GPL-2.0 */
/*
 * logdev_internal.h - shared between logdev_main.c (buffers, recording,
 * call sites, control operations) and logdev_debugfs.c (the files).
 */
#ifndef _LOGDEV_INTERNAL_H
#define _LOGDEV_INTERNAL_H

#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <linux/wait.h>
#include <linux/percpu.h>
#include <linux/irq_work.h>
#include <linux/edprint.h>
#include "logdev_ring.h"

struct module;

#define LD_MAX_SITES		8192	/* call-site table entries; id 0 unused */
#define LD_SUBBUF_MIN		1024	/* bytes */
#define LD_SUBBUF_MAX		65536	/* bytes */
#define LD_SUBBUF_DEFAULT	4096	/* bytes */
#define LD_BUF_KB_DEFAULT	1024	/* per CPU */
#define LD_BUF_KB_MAX		(256 * 1024)	/* per CPU */

enum ld_clock_id {
	LD_CLOCK_LOCAL = 0,
	LD_CLOCK_GLOBAL,
	LD_CLOCK_MONO,
	LD_NR_CLOCKS,
};

/**
 * struct ld_pcpu - writer-side per-CPU state
 * @cb:      this CPU's ring; replaced (RCU) only while recording is off
 * @depth:   edprint() nesting depth on this CPU, indexes @scratch
 * @wake_work: queued by a writer that completed a sub-buffer while this
 *           CPU's reader waits; wakes the reader
 * @cpu:     the CPU this belongs to
 * @scratch: one vbin_printf() buffer per nesting level, twice the payload
 *           limit: vbin_printf() skips a string whose NUL would be the last
 *           byte of its buffer and lets a 1-byte number overwrite a
 *           pointer text's NUL there, so a record is exact only if it ends
 *           well before the buffer does (__logdev_print())
 */
struct ld_pcpu {
	struct ld_cpu_buf __rcu *cb;
	int depth;
	struct irq_work wake_work;
	int cpu;
	u32 scratch[LD_MAX_NESTING][2 * LOGDEV_MAX_PAYLOAD / sizeof(u32)];
};

/**
 * struct ld_reader - consumer-side state of one CPU's trace_pipe_raw
 * @lock:    one reader at a time
 * @wq:      readers and pollers sleep here
 * @waiting: set by a sleeper, cleared by the wake-up timer
 * @have:    @bounce holds a consumed sub-buffer not yet copied to user
 * @bounce:  LD_SUBBUF_MAX bytes, allocated at first open
 */
struct ld_reader {
	struct mutex lock;
	wait_queue_head_t wq;
	bool waiting;
	bool have;
	void *bounce;
};

/* Configuration; changed only under ld_cfg_mutex. */
struct ld_config {
	u32 subbuf_size;
	u32 nr_subbufs;
	enum ld_mode mode;
	enum ld_clock_id clock;
	bool enabled;
};

extern struct ld_config ld_cfg;
extern struct mutex ld_cfg_mutex;
extern struct rw_semaphore ld_buf_rwsem;
extern struct mutex ld_sites_mutex;
extern struct ld_pcpu __percpu *ld_pcpu;
extern struct ld_reader *ld_readers;
extern bool logdev_recording;
extern const char * const ld_clock_names[LD_NR_CLOCKS];
extern const char * const ld_mode_names[2];

/* Control operations, all called with ld_cfg_mutex held. */
int ld_set_enabled(bool on);
int ld_set_mode(enum ld_mode mode);
int ld_set_clock(enum ld_clock_id clock);
int ld_resize(u32 subbuf_size, u32 nr_subbufs);
void ld_clear_all(void);
void ld_flush_all(void);
bool ld_flush_stopped(int cpu);
bool ld_is_stopped(void);

bool ld_cpu_readable(int cpu);
void ld_reader_arm(int cpu);
void ld_wake_readers(void);
void ld_cpu_stats(int cpu, struct ld_stats *st);
u32 ld_nr_sites(void);
struct logdev_site *ld_site_get(u32 id);

int ld_write_print(u32 site_id, const void *payload, u32 bytes);
void ld_site_adopt(struct logdev_site *s);

/* Run-time probes (logdev_probes.c): the debugfs "probes" file. */
extern const struct file_operations ld_probes_fops;
void ld_probes_exit(void);

/* The module log (logdev_modlog.c): the debugfs "module_log" file. */
extern const struct file_operations ld_modlog_fops;
void ld_modlog_event(struct module *mod, unsigned long action);
void ld_modlog_exit(void);

/* Probe errors (logdev_probes.c): the debugfs "error_log" file. */
extern const struct file_operations ld_errlog_fops;

int ld_debugfs_init(void);
void ld_debugfs_exit(void);

#endif /* _LOGDEV_INTERNAL_H */
