// SPDX-License-Identifier: GPL-2.0
/*
 * logdev_main.c - the logdev module's init and exit: sets up the recording
 * core, then lets each feature create its debugfs files in
 * /sys/kernel/debug/logdev/; tears them down in the opposite order.
 *
 * Layer: top.  Calls the features (logdev_features.h) and the recording
 * core (logdev_core.h); nothing calls it.  The layers, top to bottom:
 *   module init    logdev_main.c
 *   features       logdev_debugfs.c logdev_pipe.c logdev_probes.c
 *                  logdev_modlog.c logdev_dump.c
 *   recording core logdev_buffers.c logdev_record.c logdev_wake.c
 *                  logdev_sites.c logdev_percpu.c
 *   ring           logdev_ring.c
 *   clock, shim    logdev_clock.c logdev_shim.h, include/uapi/linux/logdev.h
 * (docs/DEVELOPING.md; tests/kernel-deps.sh fails on a call going up.)
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/debugfs.h>
#include <linux/rcupdate.h>
#include <linux/err.h>
#include "logdev_core.h"
#include "logdev_features.h"

static struct dentry *ld_dir;

static int __init logdev_init(void)
{
	int ret;

	ret = ld_percpu_init(ld_cfg.subbuf_size, ld_cfg.nr_subbufs, ld_cfg.mode);
	if (ret)
		goto err;
	ld_wake_init();
	ret = ld_sites_init();
	if (ret)
		goto err_percpu;

	ld_dir = debugfs_create_dir("logdev", NULL);
	if (IS_ERR(ld_dir)) {
		ret = PTR_ERR(ld_dir);
		goto err_sites;
	}
	ld_debugfs_init(ld_dir);
	ld_probes_init(ld_dir);
	ret = ld_modlog_init(ld_dir);
	if (ret)
		goto err_dir;
	ld_pipe_init(ld_dir);
	ret = ld_dump_init(ld_dir);
	if (ret)
		goto err_modlog;
	return 0;

err_modlog:
	ld_modlog_exit();
err_dir:
	debugfs_remove_recursive(ld_dir);
err_sites:
	ld_sites_exit();
err_percpu:
	ld_percpu_exit();
err:
	return ret;
}

static void __exit logdev_exit(void)
{
	/* no file can be open: each holds a module reference */
	debugfs_remove_recursive(ld_dir);
	ld_dump_exit();
	ld_probes_exit();
	mutex_lock(&ld_cfg_mutex);
	ld_set_enabled(false);
	mutex_unlock(&ld_cfg_mutex);
	ld_modlog_exit();
	ld_wake_exit();
	synchronize_rcu();
	ld_percpu_exit();
	ld_sites_exit();
}

module_init(logdev_init);
module_exit(logdev_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("logdev: binary per-CPU print probes (edprint)");
