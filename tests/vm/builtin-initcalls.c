// SPDX-License-Identifier: GPL-2.0
/*
 * builtin-initcalls.c - a built-in caller of edprint() for
 * tests/vm/guest-params-builtin.sh: records from a core_initcall (before
 * logdev's debugfs files exist: they come at fs_initcall), 100 from a
 * device_initcall and one from a late_initcall.  Not part of logdev: it is
 * linked into a test kernel beside logdev (CONFIG_LOGDEV=y), e.g. as
 * obj-y += builtin-initcalls.o in the tree's logdev directory.
 */
#include <linux/init.h>
#include <linux/edprint.h>

static int __init ldb_core(void)
{
	edprint("boot core_initcall %d", 1);
	return 0;
}
core_initcall(ldb_core);

static int __init ldb_device(void)
{
	int i;

	for (i = 0; i < 100; i++)
		edprint("boot device_initcall i=%d", i);
	return 0;
}
device_initcall(ldb_device);

static int __init ldb_late(void)
{
	edprint("boot late_initcall");
	return 0;
}
late_initcall(ldb_late);
