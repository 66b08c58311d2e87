/* SPDX-License-Identifier: GPL-2.0 */
/*
 * logdev_core.h - the recording core: per-CPU state, the call-site table,
 * the recording path, buffer control and reader wake-up.
 *
 * Layer: recording core, between the features above (logdev_features.h:
 * debugfs files, probes, module log) and the ring (logdev_ring.h) and
 * clock (logdev_clock.h) below.  Included by the core's own files and by
 * the layers above; never by logdev_ring.c or logdev_clock.c.
 *
 * Inside the core, calls run one way too (docs/DEVELOPING.md, checked by
 * tests/kernel-deps.sh):
 *   logdev_buffers.c -> logdev_record.c (data only), logdev_wake.c,
 *                       logdev_percpu.c
 *   logdev_record.c  -> logdev_sites.c, logdev_percpu.c, logdev_vbin.c
 *   logdev_wake.c    -> logdev_percpu.c
 */
#ifndef _LOGDEV_CORE_H
#define _LOGDEV_CORE_H

#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <linux/wait.h>
#include <linux/timer.h>
#include <linux/percpu.h>
#include <asm/local.h>
#include <linux/rcupdate.h>
#include <linux/edprint.h>
#include "logdev_ring_write.h"
#include "logdev_clock.h"

struct seq_file;
#include "logdev_parse.h"

#define LD_MAX_SITES		8192	/* call-site table entries; id 0 unused */

/* ------------------------------------------ per-CPU state: logdev_percpu.c */

/**
 * struct ld_pcpu - writer-side per-CPU state
 * @cb:      this CPU's ring; replaced (RCU) only while recording is off
 * @comm_pid, @comm, @comm_sb: the task of this CPU's last comm record
 *           (LOGDEV_REC_COMM), its comm as read then, and the sub-buffer it
 *           is in; @comm_pid LD_COMM_PID_NONE (ld_comm_stale()): none that
 *           still counts, write one before the next record
 * @depth:   edprint() nesting depth on this CPU, indexes ld_scratch's levels
 * @cpu:     the CPU this belongs to
 * @comm_written: comm records this CPU's writers tried to store (included
 *           in the ring's written count; the stats file's comm=)
 *
 * The write path reaches each field with this_cpu_read(ld_pcpu->field)
 * (ld_this_cb(), ld_note_task(), ld_commit_rec()): one %gs-relative load
 * off the ld_pcpu pointer, with no this_cpu_off load to make this CPU's
 * address and no such address kept across the clock call
 * (docs/PERFORMANCE.md, "The kernel fast path per kernel").  Not a static
 * DEFINE_PER_CPU, which would save the pointer's load: a module's per-CPU
 * symbol is in /proc/kallsyms at its per-CPU offset (0x34000 or so), and the
 * reader's symbol lookup for a module without its layout in the capture
 * then took heap addresses for that symbol's (vm-printf-hashed, entry 43).
 */
struct ld_pcpu {
	struct ld_cpu_buf __rcu *cb;
	u32 comm_pid;
	int depth;
	u64 comm[LOGDEV_COMM_LEN / sizeof(u64)];
	u64 comm_sb;
	local_t comm_written;
	int cpu;
};

/*
 * One argument buffer (ld_vbin_pack()) per nesting level, twice the payload
 * limit: the packer skips a string whose NUL would be the last byte of its
 * buffer and cuts a pointer text there, so a record is exact only if it
 * ends well before the buffer does (__logdev_print()).  Allocated per CPU
 * (alloc_percpu(): 4 KiB a CPU, too big for the module's static per-CPU
 * share).
 */
#define LD_SCRATCH_WORDS	(2 * LOGDEV_MAX_PAYLOAD / sizeof(u32))
struct ld_scratch {
	u32 buf[LD_MAX_NESTING][LD_SCRATCH_WORDS];
};

#define LD_COMM_SB_NONE		(~0ULL)
#define LD_COMM_PID_NONE	(~0U)	/* no task's: pids are below 2^22 */

/*
 * The next record on @pc's CPU is preceded by a comm record.  On that CPU
 * (a plain store: a writer it interrupts at worst writes one comm record
 * more), or while no writer of it runs.
 */
static inline void ld_comm_stale(struct ld_pcpu *pc)
{
	WRITE_ONCE(pc->comm_pid, LD_COMM_PID_NONE);
}

/**
 * struct ld_reader - consumer-side state of one CPU's trace_pipe_raw
 * @lock:    one reader at a time
 * @wq:      readers and pollers sleep here
 * @waiting: set by a sleeper, cleared by its wake-up
 * @polled_pos: this CPU's write position at the last look of @timer
 *           (ld_wake_fn(): written to since, poll again in a jiffy)
 * @timer:   polls for the sleeper, pinned to the CPU it sleeps on
 * @have:    @bounce holds a consumed sub-buffer not yet copied to user
 * @bounce:  LD_SUBBUF_MAX bytes, allocated at first open
 */
struct ld_reader {
	struct mutex lock;
	wait_queue_head_t wq;
	bool waiting;
	bool have;
	u64 polled_pos;
	struct timer_list timer;
	void *bounce;
};

extern struct rw_semaphore ld_buf_rwsem;
extern struct ld_pcpu __percpu *ld_pcpu;
extern struct ld_scratch __percpu *ld_scratch;
extern struct ld_reader *ld_readers;

/* @cpu's ring; callers hold ld_cfg_mutex or ld_buf_rwsem: no replacement can run */
static inline struct ld_cpu_buf *ld_cb(int cpu)
{
	return rcu_dereference_protected(per_cpu_ptr(ld_pcpu, cpu)->cb, true);
}

/*
 * This CPU's ring, for a writer (preemption disabled, recording seen on):
 * rcu_dereference_sched() of its ld_pcpu->cb as one %gs-relative load.  A
 * ring is replaced only while recording is off and after
 * synchronize_rcu(); the writer's acquire load of logdev_recording
 * (ld_recording()) orders this load after the publication of the ring.
 */
static __always_inline struct ld_cpu_buf *ld_this_cb(void)
{
	return (struct ld_cpu_buf __force *)this_cpu_read(ld_pcpu->cb);
}

struct ld_cpu_buf *ld_buf_alloc(int cpu, u32 subbuf_size, u32 nr,
				enum ld_mode mode);
void ld_buf_free(struct ld_cpu_buf *cb);
int ld_percpu_init(u32 subbuf_size, u32 nr_subbufs, enum ld_mode mode);
void ld_percpu_exit(void);
void ld_comm_forget(int cpu);
u64 ld_comm_written(int cpu);

/* What a refused module parameter does: the end of its error message */
#ifdef MODULE
#define LD_BUILT_IN	false
#define LD_BAD_PARAM	"insmod refused"
#else
#define LD_BUILT_IN	true
#define LD_BAD_PARAM	"the default is kept"
#endif

/* --------------------------- the flight recorder's area: logdev_area.c */

int ld_area_start(u32 subbuf_size, const char *clock, u32 *nr_subbufs);
int ld_area_find(const struct ld_persist_spec *want, u64 *addr, u64 *size);
bool ld_area_ring(struct ld_cpu_buf *cb, int cpu, u32 subbuf_size, u32 nr,
		  void **mem, ld_local_t **commit);
bool ld_area_owns(const void *p);
bool ld_area_on(void);
bool ld_area_wanted(void);
void ld_area_set_clock(const char *name);
void ld_area_identify(void);
char *ld_area_text_slot(u32 *bytes);
void ld_area_text_publish(u32 len);
void ld_area_oops(const char *msg);
void ld_area_end(u32 reason, const char *msg);
const void *ld_area_prev(u64 *bytes);
void ld_area_prev_release(void);
void ld_area_show(struct seq_file *m);
void ld_area_exit(void);

/* ------------------------------------------- call-site table: logdev_sites.c */

extern struct mutex ld_sites_mutex;

/* logdev_site_id() with its fast path (id already assigned) inline */
static __always_inline u32 ld_site_id(struct logdev_site *site)
{
	u32 id = READ_ONCE(site->id);

	return likely(id) ? id : logdev_site_id(site);
}

/* the first line of the "formats" text, then ld_site_show() per id */
#define LD_FORMATS_HEAD		"# id\tfile\tline\tfunc\tformat\n"

u32 ld_nr_sites(void);
void ld_site_show(struct seq_file *m, u32 id);
struct logdev_site *ld_site_get(u32 id);
void ld_site_adopt(struct logdev_site *s);
struct logdev_site *ld_site_reclaim(const char *file, const char *func,
				    const char *fmt, u32 line);
int ld_sites_init(void);
void ld_sites_exit(void);

/* ------------------------------------------------ recording: logdev_record.c */

extern bool logdev_recording;

int ld_write_print(u32 site_id, const void *payload, u32 bytes, bool int3);

/* ---------------------------------------- printf arguments: logdev_vbin.c */

int ld_vbin_pack(u32 *bin, u32 size_words, const char *fmt, va_list ap);
u32 ld_vbin_walk(u8 *buf, const char *fmt, va_list ap, u32 end);

/* --------------------------------------------- reader wake-up: logdev_wake.c */

bool ld_cpu_readable(int cpu);
void ld_reader_arm(int cpu);
void ld_wake_readers(void);
bool ld_is_stopped(void);
void ld_set_stopped(bool stopped);
void ld_wake_init(void);
void ld_wake_exit(void);

/* ---------------------------------------- buffer control: logdev_buffers.c */

/* Configuration; changed only under ld_cfg_mutex. */
/*
 * @consumers: open trace_pipe_raw files (ld_consumer_open()); while any is
 *             open, whatever would empty or re-clock the buffers (mode,
 *             clock, sizes, clear) is refused with -EBUSY: a consuming
 *             reader would lose its unread records with no mark, or get
 *             records of two clocks under one label (issue 24, item 2).
 */
struct ld_config {
	u32 subbuf_size;
	u32 nr_subbufs;
	enum ld_mode mode;
	enum ld_clock_id clock;
	bool enabled;
	unsigned int consumers;
};

extern struct ld_config ld_cfg;
extern struct mutex ld_cfg_mutex;
extern const char * const ld_mode_names[2];

int ld_buf_size_ok(u32 subbuf_size, u32 *nr);

int ld_buffers_init(const struct ld_config *cfg);

/* Control operations, all called with ld_cfg_mutex held. */
int ld_set_enabled(bool on);
int ld_set_mode(enum ld_mode mode);
int ld_set_clock(enum ld_clock_id clock);
int ld_resize(u32 subbuf_size, u32 nr_subbufs);
int ld_clear_all(void);
int ld_may_reset(void);
void ld_consumer_open(void);
void ld_consumer_close(void);
void ld_flush_all(void);

bool ld_flush_stopped(int cpu);
void ld_cpu_stats(int cpu, struct ld_stats *st);

#endif /* _LOGDEV_CORE_H */
