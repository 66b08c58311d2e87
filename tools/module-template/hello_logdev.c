// SPDX-License-Identifier: GPL-2.0
/*
 * hello_logdev.ko: the smallest module that records through logdev.  Copy
 * this directory (installed as PREFIX/share/logdev/module-template/), rename
 * the file and the object in Kbuild, and put edprint() where you want a
 * timestamp.  It records "hello N" for N = 0 .. n-1 when loaded:
 *
 *	make                              (Makefile: finds the headers and
 *	                                   logdev's Module.symvers)
 *	sudo modprobe logdev
 *	sudo logdev record -o hello.cap -- insmod hello_logdev.ko n=10
 *	logdev report hello.cap
 *
 * Parameter: n, the number of records (default 10).
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/edprint.h>

static int n = 10;
module_param(n, int, 0444);
MODULE_PARM_DESC(n, "records to write at load (default 10)");

static int __init hello_logdev_init(void)
{
	int i;

	for (i = 0; i < n; i++)
		edprint("hello %d", i);
	return 0;
}

static void __exit hello_logdev_exit(void)
{
}

module_init(hello_logdev_init);
module_exit(hello_logdev_exit);
MODULE_DESCRIPTION("logdev module template: edprint(\"hello %d\") n times at load");
MODULE_LICENSE("GPL");
