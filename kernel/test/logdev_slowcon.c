// SPDX-License-Identifier: GPL-2.0
/*
 * logdev_slowcon.c - a console that takes @us microseconds a line, as a
 * 115200 baud serial console takes about 10 ms for a 110-byte line
 * (tests/vm/guest-dump-load.sh: the crash dump's time bound, dump_max_ms,
 * must cut a dump such a console would hold for longer).  Not part of
 * logdev; it does not use it.
 *
 *   insmod logdev_slowcon.ko us=10000
 *
 * The kernel calls .write with the console lock held, maybe with
 * interrupts off (a legacy console, printed by the task that printed on
 * kernels that do so, by a thread on those that print from one): it only
 * waits, bounded by @us (at most 100 ms a line).
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/console.h>
#include <linux/delay.h>

static unsigned int us = 10000;
module_param(us, uint, 0444);
MODULE_PARM_DESC(us, "microseconds each console write takes, 0..100000 (default 10000)");

static void lt_slowcon_write(struct console *con, const char *s, unsigned int n)
{
	unsigned int left = min(us, 100000U);

	/* udelay() of a large value overflows on some arches: steps of 1 ms */
	while (left) {
		unsigned int step = min(left, 1000U);

		udelay(step);
		left -= step;
	}
}

static struct console lt_slowcon = {
	.name = "ldslow",
	.write = lt_slowcon_write,
	.flags = CON_ENABLED,
	.index = -1,
};

static int __init lt_slowcon_init(void)
{
	register_console(&lt_slowcon);
	pr_info("logdev_slowcon: a console of %u us a line\n", us);
	return 0;
}

static void __exit lt_slowcon_exit(void)
{
	unregister_console(&lt_slowcon);
}

module_init(lt_slowcon_init);
module_exit(lt_slowcon_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("a slow console for logdev's crash dump tests");
