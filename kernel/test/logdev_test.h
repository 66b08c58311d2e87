/* SPDX-License-Identifier: GPL-2.0 */
/*
 * logdev_test.h - between the files of the test module logdev_test.ko
 * (kernel/test/logdev_test_*.c; the debugfs files it offers are listed in
 * logdev_test_main.c): the per-CPU state of the context workloads, the
 * lock every debugfs write takes, and each file's init and files.
 */
#ifndef _LOGDEV_TEST_H
#define _LOGDEV_TEST_H

#include <linux/module.h>
#include <linux/tracepoint.h>
#include <linux/kernel.h>
#include <linux/debugfs.h>
#include <linux/kthread.h>
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/interrupt.h>
#include <linux/percpu.h>
#include <linux/cpumask.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/trace_clock.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/limits.h>
#include <linux/seq_file.h>
#include <linux/mutex.h>
#include <linux/cpu.h>
#include <linux/workqueue.h>
#include <linux/string.h>
#include "../logdev_compat.h"	/* ld_hrtimer_setup(), LD_DECLARE_TRACE_TP() */
#include <linux/vmalloc.h>
#include <asm/apic.h>
#include <asm/nmi.h>
#include <linux/edprint.h>

#define LT_NCTX		4	/* enum logdev_ctx: task, softirq, hardirq, nmi */
#define LT_CTX_TASK	0
#define LT_CTX_SOFTIRQ	1
#define LT_CTX_HARDIRQ	2
#define LT_CTX_NMI	3

#define LT_TIMER_NS	(200 * NSEC_PER_USEC)

struct lt_cpu {
	unsigned int seq[LT_NCTX];	/* edprint() calls made, per context */
	struct irq_work work;
	struct tasklet_struct tasklet;
	struct hrtimer timer;
	int nmi_pending;
	int comm_nmi;			/* comm: a self-NMI of the comm file pending */
	int pctx_nmi;			/* probe_ctx: its self-NMI pending */
	unsigned int comm_tag;
	struct irq_work comm_work;
	bool timer_on;
	/* soak's nested chain (lt_nest_*) */
	struct irq_work nest_work;
	struct tasklet_struct nest_tasklet;
	int nest_open;			/* chain reservations open on this CPU */
	int nest_hard;			/* chain irq_work pending */
	int nest_nmi;			/* chain self-NMI pending */
	struct task_struct *thread;
	struct completion done;
};

DECLARE_PER_CPU(struct lt_cpu, lt_cpu);
extern struct mutex lt_lock;		/* one debugfs action at a time */
extern bool lt_nmi_registered;		/* self-NMIs are ours (lt_nmi()) */
extern unsigned long lt_probe_sink;	/* results of the probe targets */

/* logdev_test_ctx.c: run, soak, counts; the contexts' per-CPU work, NMIs */
void lt_ctx_init(void);
void lt_ctx_exit(void);
void lt_ctx_files(struct dentry *dir);

/* logdev_test_printf.c: printf, printf_ref */
int lt_printf_init(void);
void lt_printf_exit(void);
void lt_printf_files(struct dentry *dir);

/* logdev_test_probe.c: probe_work and the probe targets */
void lt_probe_init(void);
void lt_probe_exit(void);
void lt_probe_files(struct dentry *dir);
unsigned long lt_addr_of_probe_target(void);

/* logdev_test_pctx.c: probe_ctx (probe targets in every context) */
void lt_pctx_init(void);
void lt_pctx_exit(void);
void lt_pctx_files(struct dentry *dir);
void lt_pctx_nmi(void);

/* logdev_test_feed.c: burst, comm, fill */
void lt_comm_irq_work(struct irq_work *w);
void lt_feed_init(void);
void lt_feed_files(struct dentry *dir);

/* logdev_test_dump.c: dump_seq, crash */
void lt_dump_files(struct dentry *dir);

/* logdev_test_bd.c: breakdown, breakdown_result (pairs of known cost) */
void lt_bd_init(void);
void lt_bd_exit(void);
void lt_bd_files(struct dentry *dir);

void lt_record(int ctx, unsigned int seq);

#endif /* _LOGDEV_TEST_H */
