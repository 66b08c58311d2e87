/* SPDX-License-Identifier: GPL-2.0 */
/*
 * logdev_features.h - the features' entry points: each creates its own
 * debugfs files in the directory module init gives it.
 *
 * Layer: features, above the recording core (logdev_core.h).  Included by
 * logdev_main.c (module init/exit) and by the feature files that define
 * these functions; features do not call each other, but for one call: the
 * flight recorder (logdev_persist.c) takes module_log's module map
 * (ld_modlog_map()) into its area.
 */
#ifndef _LOGDEV_FEATURES_H
#define _LOGDEV_FEATURES_H

#include <linux/types.h>
#include <linux/atomic.h>

struct dentry;

/*
 * logdev_debugfs.c: enable, mode, clock, buffer_size_kb, subbuf_size,
 * clear, flush, formats, header, stats
 */
void ld_debugfs_init(struct dentry *dir);

/* logdev_probes.c: probes, error_log, probe_functions (logdev_probes.h) */
int ld_probes_init(struct dentry *dir);
void ld_probes_exit(void);

/* logdev_modlog.c: module_log (and its module notifier) */
int ld_modlog_init(struct dentry *dir);
void ld_modlog_exit(void);

/* the flight recorder's module map (ld_modlog_map()): modules in it */
struct ld_modmap_counts {
	u32 listed, bare, out;	/* with or without symbols; left out */
};
extern atomic_t ld_modmap_gen;	/* changes with every module load/unload */
size_t ld_modlog_map(char *buf, size_t size, struct ld_modmap_counts *map);

/* logdev_pipe.c: per_cpu/cpuN/trace_pipe_raw */
void ld_pipe_init(struct dentry *dir);

/* logdev_calib.c: probe_cost (the probe cost calibration) */
void ld_calib_init(struct dentry *dir);

/*
 * logdev_dump.c: the last records on the console on oops, panic and sysrq;
 * dump_on_oops
 */
int ld_dump_init(struct dentry *dir);
void ld_dump_exit(void);

/*
 * logdev_persist.c: the flight recorder's hooks (panic, oops, reboot) and
 * files: persist, last_boot/area, last_boot/release
 */
void ld_persist_init(struct dentry *dir);
void ld_persist_exit(void);

#endif /* _LOGDEV_FEATURES_H */
