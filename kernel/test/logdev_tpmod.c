// SPDX-License-Identifier: GPL-2.0
/*
 * logdev_tpmod.ko - a module with a tracepoint and nothing of logdev's (it
 * does not depend on logdev.ko, so it can be loaded before logdev and stay
 * after it), for the probes on modules' tracepoints
 * (tests/vm/guest-probes-reload.sh).
 *
 * debugfs logdev_tpmod/fire, write N: N hits of the tracepoint
 * ltp_fire_tp(i, 0x5eed), i = 0..N-1.
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/debugfs.h>
#include <linux/tracepoint.h>
#include <linux/uaccess.h>
#include "../logdev_compat.h"	/* LD_DECLARE_TRACE_TP() */

LD_DECLARE_TRACE_TP(ltp_fire, TP_PROTO(unsigned long i, unsigned long magic),
		    TP_ARGS(i, magic));
DEFINE_TRACE(ltp_fire_tp, TP_PROTO(unsigned long i, unsigned long magic),
	     TP_ARGS(i, magic));

static struct dentry *ltp_dir;

static ssize_t ltp_fire_write(struct file *file, const char __user *ubuf,
			      size_t len, loff_t *ppos)
{
	unsigned long i, n;
	int ret = kstrtoul_from_user(ubuf, len, 0, &n);

	if (ret)
		return ret;
	if (n > 1000000)
		return -EINVAL;
	for (i = 0; i < n; i++)
		trace_ltp_fire_tp(i, 0x5eed);
	return len;
}

static const struct file_operations ltp_fire_fops = {
	.owner = THIS_MODULE,
	.write = ltp_fire_write,
	.llseek = noop_llseek,
};

static int __init ltp_init(void)
{
	ltp_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	if (IS_ERR(ltp_dir))
		return PTR_ERR(ltp_dir);
	debugfs_create_file("fire", 0200, ltp_dir, NULL, &ltp_fire_fops);
	return 0;
}

static void __exit ltp_exit(void)
{
	debugfs_remove_recursive(ltp_dir);
}

module_init(ltp_init);
module_exit(ltp_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("logdev test module: a tracepoint in a module that does not use logdev");
