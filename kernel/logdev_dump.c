// SPDX-License-Identifier: GPL-2.0
/*
 * logdev_dump.c - the buffer on the console when the kernel dies: on an
 * oops (die notifier), a panic (panic notifier) and the sysrq key 'a',
 * the last dump_records records of every CPU are printed with printk(),
 * merged by time, in `logdev report`'s text form (docs/CRASHDUMP.md):
 *
 *   logdev: dump begin (oops): 2 cpus, last 64 records per cpu, clock local, mode overwrite
 *   logdev: dump cpu:0 records=1000 shown=64 written=1008 overrun=0 dropped=0 ...
 *   logdev: [    12.345678] cpu:0 sh-93 lt_dump_seq:712 seq 900  +1.204 us
 *   logdev: dump end (oops): 115 records printed, recording stopped
 *
 * Text is made in the dying kernel, from the binary records, and printed
 * by logdev_dumpmsg.c: a LOGDEV_REC_PRINT or LOGDEV_REC_PRINT_SLOTS payload
 * is laid out as this kernel's vbin_printf() would have laid it out
 * (ld_dump_layout(), walking the site's format as edprint_fmt.h parses
 * it), then rendered by the kernel's own bstr_printf().
 *
 * Safety: runs in the die notifier (interrupts off, maybe NMI), in the
 * panic notifier (other CPUs stopped, maybe holding any lock) or in the
 * sysrq handler (interrupt context).  So: no lock (no mutex, no
 * ld_cfg_mutex, no ld_buf_rwsem), no allocation, no sleeping.  Writers are
 * stopped first by a plain store (logdev_recording = false, no
 * synchronize); an atomic keeps a second oops or panic from re-entering.
 * Only committed records are read (ld_peek_subbuf(): the consumer's test
 * on the commit counts); every walk is bounded by the sub-buffer's data
 * bytes and checked record lengths, so a damaged sub-buffer ends that CPU's
 * dump with a note, never a loop.  Per-CPU cursors are allocated at init.
 * rcu_read_lock() keeps a ring being resized from being freed under us.
 * After an oops or panic dump recording stays off; if the kernel lives on,
 * a work item switches it off properly (ld_dump_stop_fn()).
 *
 * This file: the parameters, the hooks (die and panic notifiers, sysrq),
 * debugfs dump_on_oops, and the dump's course (settle the writers, place
 * each CPU's cursor, merge by time, the time bound); logdev_dumpwalk.c
 * walks a CPU's ring, logdev_dumpmsg.c makes and prints the lines.
 *
 * Layer: features (logdev_features.h); calls the recording core, the
 * ring, logdev_dumpwalk.c and logdev_dumpmsg.c (logdev_dump.h).  Its module parameters (dump_on_oops, dump_records) become
 * logdev.dump_on_oops=1 and logdev.dump_records=N on the command line of a
 * kernel with logdev built in.
 */
/* fixed, not KBUILD_MODNAME: parsers look for it, module or built in */
#define pr_fmt(fmt) "logdev: " fmt

#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/debugfs.h>
#include <linux/kdebug.h>
#include <linux/notifier.h>
#include <linux/panic_notifier.h>
#include <linux/sysrq.h>
#include <linux/nmi.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/atomic.h>
#include <linux/irq_work.h>
#include <linux/workqueue.h>
#include <linux/delay.h>
#include <linux/sched/clock.h>
#include "logdev_compat.h"	/* ld_sysrq_key_t */
#include "logdev_core.h"
#include "logdev_features.h"
#include "logdev_dump.h"

/*
 * Per CPU.  A dump line is about 115 bytes on the console (printk's time,
 * "logdev: ", the report line); a 115200 baud serial console moves 11520
 * bytes/s (10 bits a byte), about 100 lines/s: 64 records take about 0.65 s
 * per CPU that recorded (docs/CRASHDUMP.md).
 */
#define LD_DUMP_RECORDS_DEFAULT	64
#define LD_DUMP_RECORDS_MAX	10000	/* per CPU */
#define LD_DUMP_SYSRQ_KEY	'a'	/* free in 6.1 (drivers/tty/sysrq.c) */
#define LD_DUMP_NOTE_BUSY	" (skipped: sub-buffers with an uncommitted writer)"
#define LD_DUMP_NOTE_GONE	" (skipped: sub-buffers overwritten meanwhile)"
#define LD_DUMP_NOTE_BAD	" (stopped: damaged sub-buffer)"

/*
 * Every line waits in printk's buffer until a console prints it, and lines
 * beyond the buffer's size overwrite the oldest ones not printed yet: the
 * dump's own header, and the kernel's report of the crash.  Where printk
 * prints as we go, that never happens; but it stores and prints later from
 * NMI context, in the panic notifier (ld_dump_deferred), and on kernels
 * whose console is printed by a thread (7.x's serial console: a sysrq dump
 * of 4 x 10000 records dropped messages there), and a module cannot ask
 * which.  Issue 24: "** 1027 printk messages dropped **" after an NMI panic
 * with dump_records=1000, the panic report and the dump's header gone.  So
 * a dump takes at most half of the buffer's configured size (a lower bound:
 * log_buf_len= only enlarges it), a quarter from NMI or the panic notifier
 * (the registers and every CPU's backtrace come with a crash), at
 * LD_DUMP_LINE_EST bytes a line (a line of the dump's text is 60-130 bytes;
 * printk keeps its record headers apart).  128 KiB (Debian's
 * CONFIG_LOG_BUF_SHIFT=17): 512 lines, 256 in a crash.
 */
#define LD_DUMP_LINE_EST	128
#define LD_DUMP_BUF_LINES	((1U << CONFIG_LOG_BUF_SHIFT) / LD_DUMP_LINE_EST)

/*
 * A dump runs where it cannot yield (sysrq handler, notifiers): it stops
 * printing after LD_DUMP_MAX_MS, half of RCU's CPU stall timeout (the
 * first watchdog to fire: soft and hard lockup are petted per line, hung
 * tasks wait 120 s), and says how many records it left out.  On a 115200
 * baud console that is about 500 lines (issue 24: 4 CPUs x 10000 records
 * held a CPU 37.9 s and RCU reported a stall).
 */
#if defined(CONFIG_RCU_CPU_STALL_TIMEOUT) && CONFIG_RCU_CPU_STALL_TIMEOUT < 20
#define LD_DUMP_MAX_MS		(CONFIG_RCU_CPU_STALL_TIMEOUT * 1000U / 2)
#else
#define LD_DUMP_MAX_MS		10000U
#endif

static bool ld_dump_on_oops;

/*
 * A dump_on_oops word of @n bytes at @s (not NUL-terminated): "0" or "1"
 * (ld_parse_enable()), with one trailing newline allowed (ld_parse_write(),
 * as for every control file), as a debugfs or sysfs write has it.  The
 * parameter and the debugfs file both take it: not the bool parameter's
 * kstrtobool(), which read "01" as off and "1x" or "on" as on.
 * Return: 0 or -EINVAL.
 */
static int ld_dump_on_oops_word(const char *s, size_t n, bool *on)
{
	char w[3];

	if (n > 2)
		return -EINVAL;
	memcpy(w, s, n);
	w[n] = '\0';
	return ld_parse_write(w, n) ?: ld_parse_enable(w, on);
}

static int ld_dump_on_oops_set(const char *val, const struct kernel_param *kp)
{
	bool on;

	if (ld_dump_on_oops_word(val, strlen(val), &on)) {
		pr_err("parameter %s=%s: want 0 or 1\n", kp->name, val);
		return -EINVAL;
	}
	WRITE_ONCE(*(bool *)kp->arg, on);
	return 0;
}

static int ld_dump_on_oops_get(char *buf, const struct kernel_param *kp)
{
	return scnprintf(buf, PAGE_SIZE, "%d\n", READ_ONCE(*(bool *)kp->arg));
}

static const struct kernel_param_ops ld_dump_on_oops_ops = {
	.set = ld_dump_on_oops_set,
	.get = ld_dump_on_oops_get,
};
module_param_cb(dump_on_oops, &ld_dump_on_oops_ops, &ld_dump_on_oops, 0644);
MODULE_PARM_DESC(dump_on_oops,
		 "0 or 1: print the last dump_records records of every CPU on oops and panic (default 0)");

static unsigned int ld_dump_records = LD_DUMP_RECORDS_DEFAULT;

static int ld_dump_records_set(const char *val, const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 1, LD_DUMP_RECORDS_MAX);
}

static const struct kernel_param_ops ld_dump_records_ops = {
	.set = ld_dump_records_set,
	.get = param_get_uint,
};
module_param_cb(dump_records, &ld_dump_records_ops, &ld_dump_records, 0644);
MODULE_PARM_DESC(dump_records,
		 "records per CPU the crash dump prints, 1..10000 (default 64)");

/* the time bound of one dump, ms: 100..LD_DUMP_MAX_MS (the default) */
static unsigned int ld_dump_max_ms = LD_DUMP_MAX_MS;

static int ld_dump_max_ms_set(const char *val, const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 100, LD_DUMP_MAX_MS);
}

static const struct kernel_param_ops ld_dump_max_ms_ops = {
	.set = ld_dump_max_ms_set,
	.get = param_get_uint,
};
module_param_cb(dump_max_ms, &ld_dump_max_ms_ops, &ld_dump_max_ms, 0644);
MODULE_PARM_DESC(dump_max_ms,
		 "longest a crash dump holds its CPU, ms, 100..half RCU's stall timeout (at most and by default 10000)");


/*
 * After an oops the kernel may live on: recording, stopped by a plain
 * store in the dump, is then switched off properly (static key, flush,
 * end of data for readers, enable reads 0) from process context, as a
 * write of 0 to enable does.  irq_work, then a work item: the dump may run
 * in NMI.  The mutex is only tried: the task that oopsed may hold it.
 */
#define LD_DUMP_STOP_TRIES	30	/* one a second */

static void ld_dump_stop_fn(struct work_struct *w);
static DECLARE_DELAYED_WORK(ld_dump_stop_work, ld_dump_stop_fn);
static int ld_dump_stop_tries;

static void ld_dump_stop_fn(struct work_struct *w)
{
	if (!mutex_trylock(&ld_cfg_mutex)) {
		if (++ld_dump_stop_tries < LD_DUMP_STOP_TRIES)
			schedule_delayed_work(&ld_dump_stop_work, HZ);
		else
			pr_warn("recording stopped by the dump, but enable still reads 1: write 0 to it\n");
		return;
	}
	/* unless someone switched it off and on again meanwhile */
	if (ld_cfg.enabled && !READ_ONCE(logdev_recording))
		ld_set_enabled(false);
	mutex_unlock(&ld_cfg_mutex);
}

static void ld_dump_stop_irq(struct irq_work *w)
{
	ld_dump_stop_tries = 0;
	schedule_delayed_work(&ld_dump_stop_work, 0);
}

static struct irq_work ld_dump_stop_iw = IRQ_WORK_INIT_HARD(ld_dump_stop_irq);

static struct ld_dump_cur *ld_dump_cur;	/* nr_cpu_ids entries */
static atomic_t ld_dump_running = ATOMIC_INIT(0);
static bool ld_dump_froze;	/* an oops/panic dump stopped recording */
/* ------------------------------------------------------------- the dump */

/*
 * Count @cpu's records, then place its cursor on the last @n of them, with
 * the timestamp of the one before as the base of the first delta.  Prints
 * the CPU's header line, unless the CPU never recorded.
 */
static void ld_dump_prepare(int cpu, struct ld_dump_cur *c, u64 n)
{
	struct ld_stats st;
	u64 skip, i;

	c->cb = rcu_dereference(per_cpu_ptr(ld_pcpu, cpu)->cb);
	c->first = 0;
	c->end = 0;
	if (c->cb)
		ld_peek_range(c->cb, &c->first, &c->end);
	c->last_bytes = U32_MAX;
	ld_dump_reset(c);
	for (c->total = 0, ld_dump_next(c); c->rec; ld_dump_next(c))
		c->total++;
	skip = c->total > n ? c->total - n : 0;
	c->left = c->total - skip;
	if (c->cb) {
		ld_get_stats(c->cb, &st);
		if (st.written || c->total)
			ld_dump_print("dump cpu:%d records=%llu shown=%llu written=%llu overrun=%llu dropped=%llu nesting_lost=%llu too_big=%llu%s%s%s",
				      cpu, c->total, c->left, st.written,
				      st.overrun, st.dropped, st.nesting_lost,
				      st.too_big,
				      c->busy ? LD_DUMP_NOTE_BUSY : "",
				      c->gone || c->during ? LD_DUMP_NOTE_GONE : "",
				      c->bad ? LD_DUMP_NOTE_BAD : "");
	}
	ld_dump_reset(c);
	for (i = 0, ld_dump_next(c); c->rec && i < skip; i++, ld_dump_next(c)) {
		c->prev_ts[c->rec->ctx & LOGDEV_CTX_MASK] = c->rec->ts;
		c->have_prev |= BIT(c->rec->ctx & LOGDEV_CTX_MASK);
	}
	/* losses before the first record shown belong to the part skipped */
	memset(c->lost, 0, sizeof(c->lost));
	if (!c->left)
		c->rec = NULL;
}

/*
 * Let writers past their recording check finish (bounded): until no other
 * CPU's newest sub-buffer has an uncommitted record, at most
 * LD_DUMP_SETTLE_US.  A writer this CPU interrupted, or one on a CPU the
 * panic stopped, never finishes: its sub-buffer is then skipped (busy).
 */
#define LD_DUMP_SETTLE_US	2000

static void ld_dump_settle(void)
{
	const void *p;
	u64 first, end;
	u32 bytes;
	int cpu, us;

	for (us = 0; us < LD_DUMP_SETTLE_US; us += 10) {
		bool busy = false;

		for_each_possible_cpu(cpu) {
			struct ld_cpu_buf *cb = rcu_dereference(per_cpu_ptr(ld_pcpu, cpu)->cb);

			if (!cb || cpu == raw_smp_processor_id())
				continue;
			ld_peek_range(cb, &first, &end);
			if (end > first && ld_peek_subbuf(cb, end - 1, &p, &bytes) == -EBUSY)
				busy = true;
		}
		if (!busy)
			return;
		udelay(10);
	}
}

/*
 * Records per CPU the dump shows: dump_records (@n), or fewer if the dump
 * with its header would not fit half of printk's buffer (a quarter from
 * NMI or the panic notifier); *@lines says how many lines that is.
 */
static u64 ld_dump_per_cpu(u64 n, unsigned int *lines)
{
	unsigned int ncpu = num_possible_cpus();

	*lines = LD_DUMP_BUF_LINES / (in_nmi() || ld_dump_deferred ? 4 : 2);
	/* begin, end, a cpu line and a note line per CPU */
	if (*lines <= 2 + 2 * ncpu)
		return 1;
	return min_t(u64, n, max((*lines - 2 - 2 * ncpu) / ncpu, 1U));
}

/*
 * The dump itself: @why names the trigger; @freeze leaves recording off
 * afterwards (oops, panic: the buffer keeps what led to the crash), else
 * recording goes back to what it was (sysrq).  It shows a fixed range,
 * taken when it begins (ld_dump_prepare()), and stops after LD_DUMP_MAX_MS.
 */
static void ld_dump(const char *why, bool freeze)
{
	struct ld_dump_cur *c, *best;
	u64 want = READ_ONCE(ld_dump_records), n, printed = 0, shown = 0, t0;
	unsigned int max_ms = READ_ONCE(ld_dump_max_ms), lines;
	bool was, late = false;
	char bound[96] = "";
	int cpu, bcpu;

	if (!ld_dump_cur)
		return;
	if (atomic_cmpxchg(&ld_dump_running, 0, 1)) {
		ld_dump_emit(KERN_EMERG pr_fmt("dump (%s) skipped: a dump is running\n"), why);
		return;
	}
	t0 = local_clock();
	/* stop the writers: a plain store, no synchronize (any context) */
	was = READ_ONCE(logdev_recording);
	WRITE_ONCE(logdev_recording, false);
	rcu_read_lock();
	ld_dump_settle();
	n = ld_dump_per_cpu(want, &lines);
	if (n < want)
		scnprintf(bound, sizeof(bound),
			  " (not dump_records=%llu: printk's buffer holds %u lines of a dump%s)",
			  want, lines, in_nmi() || ld_dump_deferred ? " in a crash" : "");
	ld_dump_print("dump begin (%s): %u cpus, last %llu records per cpu%s, clock %s, mode %s",
		      why, num_possible_cpus(), n, bound,
		      ld_clock_names[READ_ONCE(ld_cfg.clock)],
		      ld_mode_names[READ_ONCE(ld_cfg.mode)]);
	for_each_possible_cpu(cpu) {
		ld_dump_prepare(cpu, &ld_dump_cur[cpu], n);
		shown += ld_dump_cur[cpu].left;
	}
	/* merge by time: each step prints the CPU whose next record is oldest */
	for (;;) {
		best = NULL;
		bcpu = -1;
		for_each_possible_cpu(cpu) {
			c = &ld_dump_cur[cpu];
			if (c->rec && (!best || c->rec->ts < best->rec->ts)) {
				best = c;
				bcpu = cpu;
			}
		}
		if (!best)
			break;
		if (local_clock() - t0 > (u64)max_ms * NSEC_PER_MSEC) {
			late = true;
			break;
		}
		if (!ld_dump_record(bcpu, best)) {
			ld_dump_next(best);	/* in the next sub-buffer */
			continue;
		}
		printed++;
		if (--best->left)
			ld_dump_next(best);
		else
			best->rec = NULL;
	}
	for_each_possible_cpu(cpu) {
		c = &ld_dump_cur[cpu];
		if (c->bad)
			ld_dump_print("dump cpu:%d stopped: %s at sub-buffer %llu offset %u",
				      cpu, c->bad, c->bad_sb, c->bad_off);
	}
	rcu_read_unlock();
	if (late)
		ld_dump_print("dump cut after %u ms (dump_max_ms): %llu of %llu records not shown (a dump holds its CPU; a smaller dump_records, or logdev record, keeps them)",
			      max_ms, shown - printed, shown);
	else if (printed < shown)
		ld_dump_print("dump: %llu of %llu records not shown: their sub-buffers were consumed or overwritten while the dump read them",
			      shown - printed, shown);
	ld_dump_print("dump end (%s): %llu records printed%s%s", why, printed,
		      freeze && was ? ", recording stopped" : "",
		      ld_area_on() ? "; every record is in the flight recorder's area: logdev record --last-boot after the reboot" : "");
	if (freeze) {
		/* keep what led to the crash; if the kernel lives on, stop properly */
		if (was) {
			WRITE_ONCE(ld_dump_froze, true);
			irq_work_queue(&ld_dump_stop_iw);
		}
	} else {
		WRITE_ONCE(logdev_recording, was);
	}
	atomic_set(&ld_dump_running, 0);
}

static int ld_dump_die(struct notifier_block *nb, unsigned long val, void *data)
{
	if (val == DIE_OOPS && READ_ONCE(ld_dump_on_oops))
		ld_dump("oops", true);
	return NOTIFY_DONE;
}

static struct notifier_block ld_dump_die_nb = {
	.notifier_call = ld_dump_die,
};

static int ld_dump_panic(struct notifier_block *nb, unsigned long val, void *data)
{
	if (!READ_ONCE(ld_dump_on_oops))
		return NOTIFY_DONE;
	ld_dump_deferred = true;	/* other CPUs stopped: store, never print */
	/* an oops dump just before (oops=panic) left recording off: said */
	if (READ_ONCE(ld_dump_froze) && !READ_ONCE(logdev_recording)) {
		ld_dump_print("dump (panic): printed above, at the oops");
		return NOTIFY_DONE;
	}
	ld_dump("panic", true);
	return NOTIFY_DONE;
}

static struct notifier_block ld_dump_panic_nb = {
	.notifier_call = ld_dump_panic,
	.priority = INT_MAX,	/* before others that may not return */
};

static void ld_dump_sysrq(ld_sysrq_key_t key)
{
	ld_dump("sysrq", false);
}

static const struct sysrq_key_op ld_dump_sysrq_op = {
	.handler = ld_dump_sysrq,
	.help_msg = "logdev-dump(a)",
	.action_msg = "logdev: dump of the last records of every CPU",
	.enable_mask = SYSRQ_ENABLE_DUMP,
};

static bool ld_dump_sysrq_on;

/* ------------------------------------------------------------- debugfs */

static ssize_t ld_dump_on_oops_read(struct file *f, char __user *ubuf,
				    size_t count, loff_t *ppos)
{
	char buf[4];
	int n = scnprintf(buf, sizeof(buf), "%d\n", READ_ONCE(ld_dump_on_oops));

	return simple_read_from_buffer(ubuf, count, ppos, buf, n);
}

/*
 * "0" or "1", one trailing newline allowed (docs/DEBUGFS.md, rules common
 * to all control files); anything else is -EINVAL and the switch keeps
 * its state.
 */
static ssize_t ld_dump_on_oops_write(struct file *f, const char __user *ubuf,
				     size_t count, loff_t *ppos)
{
	char buf[2];
	bool on;

	if (count < 1 || count > 2)
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	if (ld_dump_on_oops_word(buf, count, &on))
		return -EINVAL;
	WRITE_ONCE(ld_dump_on_oops, on);
	return count;
}

static const struct file_operations ld_dump_on_oops_fops = {
	.owner = THIS_MODULE,
	.read = ld_dump_on_oops_read,
	.write = ld_dump_on_oops_write,
	.llseek = default_llseek,
};

/**
 * ld_dump_init() - allocate the cursors, hook oops, panic and sysrq, and
 * create debugfs dump_on_oops
 * @dir: logdev's debugfs directory
 *
 * Return: 0 or -ENOMEM (or the die notifier's error).
 */
int ld_dump_init(struct dentry *dir)
{
	int ret;

	ld_dump_msg_init();
	ld_dump_cur = kcalloc(nr_cpu_ids, sizeof(*ld_dump_cur), GFP_KERNEL);
	if (!ld_dump_cur)
		return -ENOMEM;
	ret = register_die_notifier(&ld_dump_die_nb);
	if (ret)
		goto err_free;
	atomic_notifier_chain_register(&panic_notifier_list, &ld_dump_panic_nb);
	/* -EBUSY: another handler has the key; -EINVAL: no CONFIG_MAGIC_SYSRQ */
	ret = register_sysrq_key(LD_DUMP_SYSRQ_KEY, &ld_dump_sysrq_op);
	if (ret == -EBUSY)
		pr_warn("sysrq key '%c' taken: no sysrq dump\n", LD_DUMP_SYSRQ_KEY);
	else if (ret)
		pr_info("no sysrq (%d): no sysrq dump\n", ret);
	ld_dump_sysrq_on = !ret;
	debugfs_create_file("dump_on_oops", 0600, dir, NULL, &ld_dump_on_oops_fops);
	return 0;

err_free:
	kfree(ld_dump_cur);
	ld_dump_cur = NULL;
	return ret;
}

/**
 * ld_dump_exit() - unhook oops, panic and sysrq; free the cursors
 *
 * After the debugfs files are gone.
 */
void ld_dump_exit(void)
{
	if (ld_dump_sysrq_on)
		unregister_sysrq_key(LD_DUMP_SYSRQ_KEY, &ld_dump_sysrq_op);
	atomic_notifier_chain_unregister(&panic_notifier_list, &ld_dump_panic_nb);
	unregister_die_notifier(&ld_dump_die_nb);
	/* a dump running on another CPU (sysrq) ends before the memory goes */
	while (atomic_read(&ld_dump_running))
		cpu_relax();
	irq_work_sync(&ld_dump_stop_iw);
	cancel_delayed_work_sync(&ld_dump_stop_work);
	kfree(ld_dump_cur);
	ld_dump_cur = NULL;
}
