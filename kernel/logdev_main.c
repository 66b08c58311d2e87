// SPDX-License-Identifier: GPL-2.0
/*
 * logdev_main.c - logdev's parameters, init and exit: starts the recording
 * core (configured by the parameters, recording from the start with
 * enable=1), then lets each feature create its debugfs files in
 * /sys/kernel/debug/logdev/; tears them down in the opposite order.
 *
 * Two halves, because built into the kernel the core should record as
 * early in boot as its memory can be allocated, while debugfs files can
 * only be made once debugfs is registered (core_initcall):
 *   ld_core_start()   rings, wake-up, site table, clock; enable=1 starts
 *                     recording.  Built in: early_initcall, the first
 *                     initcall level (do_pre_smp_initcalls(): only the boot
 *                     CPU is online, but every possible CPU's ring is
 *                     allocated; vmalloc, percpu, workqueues, timers, RCU
 *                     and static keys (jump_label_init(), poking_init())
 *                     are all up, and nothing here waits for RCU).
 *   ld_files_start()  the features' debugfs files and notifiers.  Built
 *                     in: fs_initcall, after debugfs (core_initcall), the
 *                     level tracefs uses for its files.
 * As a module both run from module_init, the core first.  docs/DEBUGFS.md
 * "Parameters" says the same for users.
 *
 * Parameters (insmod logdev.ko enable=1 ..., or logdev.enable=1 ... on the
 * kernel command line when built in): enable, buffer_size_kb, subbuf_size,
 * mode, clock, ksyms.  Each is parsed by the recording core's parser of the
 * debugfs control file of the same name (ld_parse_*(), logdev_buffers.c),
 * so they accept exactly the same words.  Read-only (0444) in
 * /sys/module/logdev/parameters/, where each shows the current state (what
 * the debugfs file shows), not the value given at load.  A bad value:
 *   module    the load is refused (-EINVAL; -ENOMEM for a buffer larger
 *             than half the available memory): nothing is half-applied,
 *             and the user at the shell sees insmod fail at once;
 *   built in  the boot cannot be refused: that parameter keeps its
 *             default, the others apply, and the console says which
 *             parameter and why.
 *
 * Layer: top.  Calls the features (logdev_features.h) and the recording
 * core (logdev_core.h); nothing calls it.  The layers, top to bottom:
 *   module init    logdev_main.c
 *   features       logdev_debugfs.c logdev_pipe.c logdev_probes.c
 *                  logdev_modlog.c logdev_dump.c logdev_dumpwalk.c
 *                  logdev_dumpmsg.c
 *   probes         logdev_probe_*.c (logdev_probes.h) logdev_btf.c
 *                  logdev_ksyms.c logdev_ksyms_query.c
 *   recording core logdev_buffers.c logdev_record.c logdev_wake.c
 *                  logdev_sites.c logdev_percpu.c logdev_parse.c
 *                  logdev_vbin.c
 *   ring           logdev_ring.c logdev_ring_read.c
 *   clock, shim    logdev_clock.c logdev_shim.h, include/uapi/linux/logdev.h
 * (docs/DEVELOPING.md; tests/kernel-deps.sh fails on a call going up.)
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/kernel.h>
#include <linux/debugfs.h>
#include <linux/rcupdate.h>
#include <linux/err.h>
#include "logdev_core.h"
#include "logdev_features.h"
#include "logdev_ksyms.h"


static struct dentry *ld_dir;
static bool ld_core_up;

/* ------------------------------------------------------------- parameters */

/*
 * What the parameters asked for, stored by their set functions (at boot:
 * parse_args() in start_kernel(); as a module: before module_init) and
 * applied by ld_core_start().  -1 or 0: not given, the default stays.
 */
static struct {
	bool enable;
	int mode;		/* enum ld_mode */
	int clock;		/* enum ld_clock_id */
	u32 subbuf_size;	/* bytes */
	u64 size_kb;		/* KiB per CPU */
} ld_want = { .mode = -1, .clock = -1 };

/* A refused value: say which parameter and why; parse_args() fails it. */
static int ld_param_bad(const struct kernel_param *kp, const char *val,
			const char *want)
{
	pr_err("parameter %s=%s: want %s; %s\n", kp->name, val, want,
	       LD_BAD_PARAM);
	return -EINVAL;
}

static int ld_enable_set(const char *val, const struct kernel_param *kp)
{
	if (ld_parse_enable(val, &ld_want.enable))
		return ld_param_bad(kp, val, "0 or 1");
	return 0;
}

static int ld_enable_get(char *buf, const struct kernel_param *kp)
{
	return scnprintf(buf, PAGE_SIZE, "%d\n", READ_ONCE(ld_cfg.enabled));
}

static int ld_mode_set(const char *val, const struct kernel_param *kp)
{
	int i = ld_parse_name(val, ld_mode_names, ARRAY_SIZE(ld_mode_names));

	if (i < 0)
		return ld_param_bad(kp, val, "overwrite or discard");
	ld_want.mode = i;
	return 0;
}

static int ld_mode_get(char *buf, const struct kernel_param *kp)
{
	return scnprintf(buf, PAGE_SIZE, "%s\n",
			 ld_mode_names[READ_ONCE(ld_cfg.mode)]);
}

static int ld_clock_set(const char *val, const struct kernel_param *kp)
{
	int i = ld_parse_name(val, ld_clock_names, LD_NR_CLOCKS);

	if (i < 0)
		return ld_param_bad(kp, val, "local, global or mono");
	ld_want.clock = i;
	return 0;
}

static int ld_clock_get(char *buf, const struct kernel_param *kp)
{
	return scnprintf(buf, PAGE_SIZE, "%s\n",
			 ld_clock_names[READ_ONCE(ld_cfg.clock)]);
}

static int ld_size_kb_set(const char *val, const struct kernel_param *kp)
{
	if (ld_parse_size_kb(val, &ld_want.size_kb))
		return ld_param_bad(kp, val, "KiB per CPU, 1 to 262144");
	return 0;
}

static int ld_size_kb_get(char *buf, const struct kernel_param *kp)
{
	u64 kb;

	/* both fields of one configuration, not of a resize half done */
	mutex_lock(&ld_cfg_mutex);
	kb = (u64)ld_cfg.subbuf_size * ld_cfg.nr_subbufs / 1024;
	mutex_unlock(&ld_cfg_mutex);
	return scnprintf(buf, PAGE_SIZE, "%llu\n", kb);
}

static int ld_subbuf_set(const char *val, const struct kernel_param *kp)
{
	if (ld_parse_subbuf_size(val, &ld_want.subbuf_size))
		return ld_param_bad(kp, val,
				    "bytes, a power of two from 1024 to 65536");
	return 0;
}

static int ld_subbuf_get(char *buf, const struct kernel_param *kp)
{
	return scnprintf(buf, PAGE_SIZE, "%u\n", READ_ONCE(ld_cfg.subbuf_size));
}

/* the probes' kernel symbols: set at once (no core state), also in "ksyms" */
static int ld_ksyms_param_set(const char *val, const struct kernel_param *kp)
{
	int i = ld_parse_name(val, ld_ksyms_mode_names, LD_KSYMS_NR_MODES);

	if (i < 0)
		return ld_param_bad(kp, val, "auto, iter or procfs");
	return ld_ksyms_set_mode(i);
}

static int ld_ksyms_param_get(char *buf, const struct kernel_param *kp)
{
	return scnprintf(buf, PAGE_SIZE, "%s\n",
			 ld_ksyms_mode_names[ld_ksyms_get_mode()]);
}

/* the texts above and the descriptions below spell these out */
static_assert(LD_BUF_KB_MAX == 262144 && LD_BUF_KB_DEFAULT == 1024);
static_assert(LD_SUBBUF_MIN == 1024 && LD_SUBBUF_MAX == 65536 &&
	      LD_SUBBUF_DEFAULT == 4096);

#define LD_PARAM(name, setf, getf, desc)				\
	static const struct kernel_param_ops ld_##name##_ops = {	\
		.set = setf,						\
		.get = getf,						\
	};								\
	module_param_cb(name, &ld_##name##_ops, NULL, 0444);		\
	MODULE_PARM_DESC(name, desc)

LD_PARAM(enable, ld_enable_set, ld_enable_get,
	 "1: record from load (built in: from the early initcalls on) (0)");
LD_PARAM(buffer_size_kb, ld_size_kb_set, ld_size_kb_get,
	 "KiB per CPU, a multiple of subbuf_size, at least two sub-buffers (1024)");
LD_PARAM(subbuf_size, ld_subbuf_set, ld_subbuf_get,
	 "bytes per sub-buffer, a power of two, 1024 to 65536 (4096)");
LD_PARAM(mode, ld_mode_set, ld_mode_get,
	 "overwrite (keep the newest) or discard (keep the oldest) (overwrite)");
LD_PARAM(clock, ld_clock_set, ld_clock_get,
	 "local, global or mono (local)");
LD_PARAM(ksyms, ld_ksyms_param_set, ld_ksyms_param_get,
	 "kernel symbols for probes: auto, iter (kallsyms iterators) or procfs (/proc/kallsyms) (auto)");

/*
 * The configuration the parameters ask for, with the checks of the control
 * files (a size that is not whole sub-buffers; more than half the available
 * memory).  Module: an error refuses the load.  Built in: the buffer size
 * falls back to its default (1024 KiB: whole sub-buffers of any size).
 */
static int __init ld_want_cfg(struct ld_config *cfg)
{
	u64 kb = ld_want.size_kb ? ld_want.size_kb : LD_BUF_KB_DEFAULT;
	int ret;

	*cfg = ld_cfg;		/* the defaults */
	if (ld_want.mode >= 0)
		cfg->mode = ld_want.mode;
	if (ld_want.clock >= 0)
		cfg->clock = ld_want.clock;
	if (ld_want.subbuf_size)
		cfg->subbuf_size = ld_want.subbuf_size;

	if (ld_area_wanted()) {	/* the area decides the size (ld_area_start()) */
		if (ld_want.size_kb)
			pr_warn("parameter buffer_size_kb=%llu ignored: with persist= the area's size decides\n",
				ld_want.size_kb);
		return 0;
	}
	ret = ld_size_kb_subbufs(kb, cfg->subbuf_size, &cfg->nr_subbufs);
	if (ret) {
		pr_err("parameter buffer_size_kb=%llu: want a multiple of subbuf_size (%u bytes), at least two sub-buffers; %s\n",
		       kb, cfg->subbuf_size, LD_BAD_PARAM);
		if (!LD_BUILT_IN)
			return ret;
		kb = LD_BUF_KB_DEFAULT;
		ld_size_kb_subbufs(kb, cfg->subbuf_size, &cfg->nr_subbufs);
	}
	ret = ld_buf_size_ok(cfg->subbuf_size, &cfg->nr_subbufs);
	if (ret && kb != LD_BUF_KB_DEFAULT) {
		pr_err("parameter buffer_size_kb=%llu: %u CPUs x %llu KiB is more than half the available memory; %s\n",
		       kb, num_possible_cpus(), kb, LD_BAD_PARAM);
		if (!LD_BUILT_IN)
			return ret;
		kb = LD_BUF_KB_DEFAULT;
		ld_size_kb_subbufs(kb, cfg->subbuf_size, &cfg->nr_subbufs);
		ret = ld_buf_size_ok(cfg->subbuf_size, &cfg->nr_subbufs);
	}
	return ret;
}

/* ------------------------------------------------------------- init, exit */

/*
 * The recording core: rings in the configuration of the parameters, the
 * readers' wake-up, the site table; recording on if enable=1.  Built in:
 * an early initcall (above); nothing here waits for RCU.
 */
static int __init ld_core_start(void)
{
	struct ld_config cfg;
	int ret;

	ret = ld_want_cfg(&cfg);
	if (ret)
		goto err;
	/* before any ring: the previous boot's records are copied first */
	ret = ld_area_start(cfg.subbuf_size, ld_clock_names[cfg.clock],
			    &cfg.nr_subbufs);
	if (ret)
		goto err;
	ret = ld_buffers_init(&cfg);
	if (ret)
		goto err_area;
	ld_wake_init();
	ret = ld_sites_init();
	if (ret)
		goto err_percpu;
	if (ld_want.enable) {
		mutex_lock(&ld_cfg_mutex);
		ld_set_enabled(true);	/* cannot fail when turning on */
		mutex_unlock(&ld_cfg_mutex);
	}
	ld_core_up = true;
	return 0;

err_percpu:
	ld_percpu_exit();
err_area:
	ld_area_exit();
err:
	pr_err("not recording: %d\n", ret);
	return ret;
}

/*
 * The features: the control and description files, probes, module log,
 * trace_pipe_raw.  Built in: fs_initcall (above).
 */
static int __init ld_files_start(void)
{
	int ret;

	if (!ld_core_up)	/* built in, and the core said why */
		return -ENODEV;
	ld_dir = debugfs_create_dir("logdev", NULL);
	if (IS_ERR(ld_dir)) {
		ret = PTR_ERR(ld_dir);
		goto err;
	}
	ld_debugfs_init(ld_dir);
	ret = ld_probes_init(ld_dir);
	if (ret)
		goto err_dir;
	ret = ld_modlog_init(ld_dir);
	if (ret)
		goto err_probes;
	ld_pipe_init(ld_dir);
	ld_calib_init(ld_dir);
	ret = ld_dump_init(ld_dir);
	if (ret)
		goto err_modlog;
	ld_persist_init(ld_dir);
	return 0;

err_modlog:
	ld_modlog_exit();
err_probes:
	ld_probes_exit();
err_dir:
	debugfs_remove_recursive(ld_dir);
err:
	pr_err("no debugfs files: %d\n", ret);
	return ret;
}

#ifdef MODULE
static void ld_core_stop(void)
{
	mutex_lock(&ld_cfg_mutex);
	ld_set_enabled(false);
	mutex_unlock(&ld_cfg_mutex);
	ld_wake_exit();
	synchronize_rcu();
	ld_area_end(LOGDEV_END_UNLOAD, "module unloaded");
	ld_percpu_exit();
	ld_area_exit();
	ld_sites_exit();
}

static int __init logdev_init(void)
{
	int ret;

	ret = ld_core_start();
	if (ret)
		return ret;
	ret = ld_files_start();
	if (ret)
		ld_core_stop();
	return ret;
}

static void __exit logdev_exit(void)
{
	/* no file can be open: each holds a module reference */
	debugfs_remove_recursive(ld_dir);
	ld_persist_exit();
	ld_dump_exit();
	ld_probes_exit();
	ld_modlog_exit();
	ld_core_stop();
}

module_init(logdev_init);
module_exit(logdev_exit);
#else
early_initcall(ld_core_start);
fs_initcall(ld_files_start);
#endif

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("logdev: binary per-CPU print probes (edprint)");
