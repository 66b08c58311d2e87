// SPDX-License-Identifier: GPL-2.0
/*
 * logdev_test_main.c - logdev_test.ko: drives edprint() from every context
 * for the VM tests.  This file: module init and exit; each debugfs file
 * below is made by the file of its job (logdev_test_ctx.c: run, soak,
 * counts; logdev_test_printf.c: printf, printf_ref; logdev_test_probe.c:
 * probe_work; logdev_test_feed.c: comm, burst, fill; logdev_test_dump.c:
 * dump_seq, crash; logdev_test_bd.c: breakdown, breakdown_result;
 * logdev_test.h between them).
 *
 * debugfs logdev_test/:
 *   run       write N: on every online CPU a bound kthread makes N process-
 *             context edprint() calls and, in the middle of them, raises
 *             irq_work (hardirq), a tasklet (softirq), an NMI self-IPI (NMI)
 *             while a pinned hrtimer (hardirq) ticks.  Every record is
 *             edprint("ctx=%d seq=%u", ctx, seq) with a per-CPU per-context
 *             sequence number counting from 0.  The write returns when every
 *             writer, timer, tasklet, irq_work and NMI is finished.
 *   soak      write "N K": as run, and every K-th iteration of each writer
 *             also makes a nested chain: a task record (not on PREEMPT_RT)
 *             whose reservation stays open while a softirq (tasklet run by
 *             local_bh_enable()) reserves one, which stays open while an
 *             irq_work (hardirq) reserves one, which stays open while a
 *             self-NMI records: four writers nested on one CPU (three on
 *             PREEMPT_RT, where softirqs are threads and cannot preempt an
 *             open reservation).  Same "ctx=%d seq=%u" payloads and
 *             per-CPU per-context seq counters as run, so counts stays
 *             exact (tests/vm/guest-soak.sh).
 *   counts    per CPU per context, how many edprint() calls the last run made:
 *             "cpu=N ctx=N written=N" lines; then "nmi_sent=N nmi_seen=N";
 *             then "nest_chains=N nest_deep=N nest_outer=N nest_timeouts=N":
 *             chains started by soak, NMI records made while nest_outer
 *             (3, or 2 on PREEMPT_RT) outer reservations of the chain were
 *             open, and waits for an irq_work or NMI that gave up (100 ms).
 *   printf    write anything: one edprint() per entry of a table of formats,
 *             all on one CPU, in table order.
 *   printf_ref the kernel's own text for the same call (vsnprintf()), one
 *             line per entry: "INDEX<TAB>TEXT", or
 *             "INDEX<TAB>cut=KEEP,SKIP<TAB>TEXT" for an entry whose arguments
 *             logdev must cut (expected: the first KEEP characters, the cut
 *             mark, then unless SKIP < 0 the text after SKIP more), with NUL, '\\',
 *             newline, tab and other control characters escaped as \0, \\,
 *             \n, \t, \xHH.  Then "# raw_big=ERRNO": what logdev_write_raw()
 *             returned for a record larger than any sub-buffer (written after
 *             the table; it must count as lost, too_big).
 *   probe_work write "N US D": a known workload for the run-time probes
 *             test (tests/vm/guest-probes.sh), see lt_probe_work_write().
 *   probe_ctx write N: probe targets called from every context, each
 *             recording the context it sees (logdev_test_pctx.c,
 *             tests/vm/guest-probe-ctx.sh).
 *   comm      write TAG: edprint("comm tag=%u ctx=%d") from the writing task,
 *             then from an irq_work (hardirq) and a self-NMI taken while it
 *             runs on the same CPU (both record the writer's pid), for the
 *             task names test (tests/vm/guest-comm.sh).
 *   burst     write "CPU N": N edprint("burst i=%u", i) calls on CPU (from an
 *             IPI, i counting from 0), so that a test knows exactly which
 *             records sit in that CPU's open sub-buffer.
 *   fill_pair write N: lt_fill_pair(N), N edprint("fillpair %u %u") calls
 *             from the writing task on one CPU, the pair probed by
 *             tests/vm/guest-wakeup.sh (r:fillpair).
 *   dump_seq  write "N M": a worker bound to CPU 0 makes N
 *             edprint("seq %d", i) calls and one bound to CPU 1 makes M
 *             edprint("other %d %s %c %lld %hhd %hd", ...) calls, then CPU 1
 *             one edprint("vbin %d %hhd %hd %pS") (the packed path), i counting
 *             from 0; CPU 0's last M records alternate with CPU 1's, for
 *             the crash dump test (tests/vm/guest-dump.sh).
 *   crash     write "oops" (a NULL dereference), "bug" (BUG()), "panic"
 *             (panic()) or "mid" (a NULL dereference on CPU 0 between
 *             reserving a record and committing it): the kernel dies, for
 *             the crash dump test.
 *   breakdown write "SCENARIO US" (busy, irqoff, hrtimer, softirq, preempt,
 *             sleep, nmi): one pair of edprint() calls from the writing
 *             task on its CPU with a busy loop and a cost of US us injected
 *             in a known context (hardirq, softirq, NMI, a SCHED_FIFO hog
 *             preempting, a sleep), for the time breakdown test
 *             (tests/vm/guest-breakdown.sh); "reset" forgets the results.
 *   breakdown_result one line a run since load or reset: "SCENARIO cpu=C
 *             pid=P injected_ns=N pair_ns=M culprit=NAME" (the cost as
 *             measured where it was spent, the pair's time).
 */
#include "logdev_test.h"

static struct dentry *lt_dir;

static int __init lt_init(void)
{
	int err;

	err = lt_printf_init();
	if (err)
		return err;
	lt_probe_init();
	lt_pctx_init();
	lt_ctx_init();
	lt_feed_init();
	lt_bd_init();
	lt_dir = debugfs_create_dir("logdev_test", NULL);
	if (IS_ERR(lt_dir)) {
		err = PTR_ERR(lt_dir);
		goto err_ctx;
	}
	lt_ctx_files(lt_dir);
	lt_printf_files(lt_dir);
	lt_probe_files(lt_dir);
	lt_pctx_files(lt_dir);
	lt_feed_files(lt_dir);
	lt_dump_files(lt_dir);
	lt_bd_files(lt_dir);
	return 0;

err_ctx:
	lt_bd_exit();
	lt_ctx_exit();
	lt_pctx_exit();
	lt_printf_exit();
	return err;
}

static void __exit lt_exit(void)
{
	debugfs_remove_recursive(lt_dir);
	mutex_lock(&lt_lock);	/* no run in flight */
	mutex_unlock(&lt_lock);
	lt_bd_exit();
	lt_ctx_exit();
	lt_pctx_exit();
	lt_probe_exit();
	lt_printf_exit();
}

module_init(lt_init);
module_exit(lt_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("logdev test driver: edprint from task, softirq, hardirq and NMI context");
