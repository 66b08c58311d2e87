// SPDX-License-Identifier: GPL-2.0
/*
 * logdev_persist.c - the flight recorder's hooks and files, over the area
 * of logdev_area.c (persist=memmap:SIZE@ADDR; docs/CRASHDUMP.md):
 *
 *  - the "formats" text kept in the area, so that a reader of the previous
 *    boot's records needs no module: written at init, again within
 *    LD_PERSIST_SYNC_MS of a new call site (a delayed work), and at the end;
 *  - the end of the boot: the panic notifier (sysrq-c, NMI watchdog, oops
 *    with panic_on_oops) stops recording and seals the area, the die
 *    notifier notes an oops, the reboot notifier stops recording properly
 *    and seals; an emergency restart (sysrq-b) or a hard reset leaves no
 *    end, which the reader reports as such;
 *  - debugfs "persist" (the area's placement and layout) and, when a
 *    previous boot's buffer was kept, "last_boot/area" (its raw bytes,
 *    what `logdev record --last-boot` reads) and "last_boot/release"
 *    (write 1: free the copy; "area" goes with it).
 *
 * Layer: features (logdev_features.h); calls the recording core.
 */
#define pr_fmt(fmt) "logdev: " fmt

#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/debugfs.h>
#include <linux/kdebug.h>
#include <linux/notifier.h>
#include <linux/panic_notifier.h>
#include <linux/reboot.h>
#include <linux/seq_file.h>
#include <linux/workqueue.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include "logdev_core.h"
#include "logdev_features.h"

#define LD_PERSIST_SYNC_MS	250	/* new sites reach the area within this */

static DEFINE_MUTEX(ld_persist_mutex);	/* text writer; the copy's readers */
static struct dentry *ld_persist_area;	/* last_boot/area, gone once released */
static u32 ld_persist_sites = ~0U;	/* ld_nr_sites() the text was made of */
static bool ld_persist_up;

/*
 * The module map (ld_modlog_map()) as last made: rebuilt when a module
 * came or went (ld_modmap_gen), in process context, and in the panic
 * notifier where that needs no lock (logdev a module); else the panic
 * keeps the last one.  ld_persist_map is the area's text size, allocated
 * at init (none: the text carries no map).
 */
static char *ld_persist_map;
static size_t ld_persist_map_len;
static int ld_persist_map_gen;
static struct ld_modmap_counts ld_persist_map_n;

/* does the area's text lag behind the sites, or the module map behind the modules? */
static bool ld_persist_stale(void)
{
	return ld_nr_sites() != ld_persist_sites ||
	       (ld_persist_map && atomic_read(&ld_modmap_gen) != ld_persist_map_gen);
}

static void ld_persist_map_make(size_t room, bool locks)
{
	int gen = atomic_read(&ld_modmap_gen);

	if (!ld_persist_map || (!locks && !IS_ENABLED(MODULE)))
		return;
	ld_persist_map_len = ld_modlog_map(ld_persist_map, room, &ld_persist_map_n);
	ld_persist_map_gen = gen;
}

/*
 * Write the text into the area's free slot and make it current: the
 * "formats" text, then a NUL and the module map (docs/FORMAT.md).  Whole
 * lines only: a site or a module that does not fit is left out (warned
 * once).  Under ld_persist_mutex and ld_sites_mutex (@locks), or in a
 * panic (nothing else runs).
 */
static void ld_persist_text(bool locks)
{
	struct seq_file m = { };
	u32 id, n = ld_nr_sites(), bytes;
	size_t whole, room, len;
	char *slot = ld_area_text_slot(&bytes);

	if (!slot)
		return;
	m.buf = slot;
	m.size = bytes;
	seq_puts(&m, LD_FORMATS_HEAD);
	whole = m.count;
	for (id = 0; id <= n && !seq_has_overflowed(&m); id++) {
		ld_site_show(&m, id);
		if (!seq_has_overflowed(&m))
			whole = m.count;
	}
	if (seq_has_overflowed(&m))
		pr_warn_once("persist: the formats of %u sites do not fit the area's %u bytes: the last ones are left out\n",
			     n, bytes);
	ld_persist_sites = n;
	room = whole < bytes ? bytes - whole - 1 : 0;
	if (ld_persist_map && room) {
		if (atomic_read(&ld_modmap_gen) != ld_persist_map_gen ||
		    ld_persist_map_len > room)
			ld_persist_map_make(room, locks);
		len = min(ld_persist_map_len, room);
		while (len && ld_persist_map[len - 1] != '\n')
			len--;		/* an older, longer map: whole lines */
		slot[whole] = '\0';
		memcpy(slot + whole + 1, ld_persist_map, len);
		whole += 1 + len;
		if (ld_persist_map_n.bare || ld_persist_map_n.out)
			pr_warn_once("persist: the module map does not fit the area's text: %u modules without symbols, %u left out\n",
				     ld_persist_map_n.bare, ld_persist_map_n.out);
	}
	ld_area_text_publish(whole);
}

static void ld_persist_sync_fn(struct work_struct *w);
static DECLARE_DELAYED_WORK(ld_persist_sync, ld_persist_sync_fn);

/* ld_persist_text() under its locks (process context): always, or if stale (@if_new) */
static void ld_persist_text_locked(bool if_new)
{
	mutex_lock(&ld_persist_mutex);
	if (!if_new || ld_persist_stale()) {
		mutex_lock(&ld_sites_mutex);
		ld_persist_text(true);
		mutex_unlock(&ld_sites_mutex);
	}
	mutex_unlock(&ld_persist_mutex);
}

static void ld_persist_sync_fn(struct work_struct *w)
{
	ld_persist_text_locked(true);
	schedule_delayed_work(&ld_persist_sync,
			      msecs_to_jiffies(LD_PERSIST_SYNC_MS));
}

/* ------------------------------------------------------------ the end */

static int ld_persist_panic(struct notifier_block *nb, unsigned long val,
			    void *data)
{
	/* other CPUs are stopped: a plain store, no lock */
	WRITE_ONCE(logdev_recording, false);
	if (ld_persist_stale())
		ld_persist_text(false);
	ld_area_end(LOGDEV_END_PANIC, data);
	return NOTIFY_DONE;
}

static struct notifier_block ld_persist_panic_nb = {
	.notifier_call = ld_persist_panic,
	.priority = INT_MAX,
};

static int ld_persist_die(struct notifier_block *nb, unsigned long val,
			  void *data)
{
	const struct die_args *args = data;

	if (val == DIE_OOPS)
		ld_area_oops(args->str);
	return NOTIFY_DONE;
}

static struct notifier_block ld_persist_die_nb = {
	.notifier_call = ld_persist_die,
};

static int ld_persist_reboot(struct notifier_block *nb, unsigned long val,
			     void *data)
{
	WRITE_ONCE(logdev_recording, false);
	synchronize_rcu();	/* no writer is inside a record any more */
	ld_persist_text_locked(false);
	ld_area_end(LOGDEV_END_REBOOT, val == SYS_POWER_OFF ? "power off" :
		    val == SYS_HALT ? "halt" : "reboot");
	return NOTIFY_DONE;
}

static struct notifier_block ld_persist_reboot_nb = {
	.notifier_call = ld_persist_reboot,
};

/* ------------------------------------------------------------- debugfs */

static int persist_show(struct seq_file *m, void *v)
{
	mutex_lock(&ld_persist_mutex);
	ld_area_show(m);
	if (ld_persist_map)
		seq_printf(m, "module_map: %u modules, %u without symbols, %u left out, %zu bytes\n",
			   ld_persist_map_n.listed, ld_persist_map_n.bare,
			   ld_persist_map_n.out, ld_persist_map_len);
	mutex_unlock(&ld_persist_mutex);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(persist);

static ssize_t area_read(struct file *f, char __user *ubuf, size_t count,
			 loff_t *ppos)
{
	const void *prev;
	u64 bytes;
	ssize_t ret;

	mutex_lock(&ld_persist_mutex);
	prev = ld_area_prev(&bytes);
	ret = prev ? simple_read_from_buffer(ubuf, count, ppos, prev, bytes) :
		     -ENODATA;
	mutex_unlock(&ld_persist_mutex);
	return ret;
}

static const struct file_operations area_fops = {
	.owner = THIS_MODULE,
	.read = area_read,
	.llseek = default_llseek,
};

static ssize_t release_write(struct file *f, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	char buf[8];
	int ret = ld_get_word(ubuf, count, buf, sizeof(buf));

	if (ret)
		return ret;
	if (ld_parse_flush(buf))
		return -EINVAL;
	mutex_lock(&ld_persist_mutex);
	ld_area_prev_release();
	mutex_unlock(&ld_persist_mutex);
	/* outside the mutex: removal waits for a read of it in progress */
	debugfs_remove(xchg(&ld_persist_area, NULL));
	return count;
}

static const struct file_operations release_fops = {
	.owner = THIS_MODULE,
	.write = release_write,
};

/* ---------------------------------------------------------- init, exit */

/**
 * ld_persist_init() - the flight recorder's files and hooks
 * @dir: the logdev debugfs directory
 *
 * Without an area: only "persist" (which says so).  Module init, or
 * fs_initcall built in (after vmcoreinfo, for the kernel's identity).
 */
void ld_persist_init(struct dentry *dir)
{
	const void *prev;
	u64 bytes;
	u32 bytes32;

	debugfs_create_file("persist", 0400, dir, NULL, &persist_fops);
	if (!ld_area_on())
		return;
	ld_area_identify();
	prev = ld_area_prev(&bytes);
	if (prev) {
		struct dentry *lb = debugfs_create_dir("last_boot", dir);

		/* debugfs_create_file_size() returns no dentry on 6.1 */
		ld_persist_area = debugfs_create_file("area", 0400, lb, NULL,
						      &area_fops);
		if (!IS_ERR_OR_NULL(ld_persist_area))
			i_size_write(d_inode(ld_persist_area), bytes);
		debugfs_create_file("release", 0200, lb, NULL, &release_fops);
	}
	if (ld_area_text_slot(&bytes32))
		ld_persist_map = kvmalloc(bytes32, GFP_KERNEL);
	if (!ld_persist_map)
		pr_warn("persist: no memory for the module map: a previous boot's %%pS of modules will print as hex\n");
	ld_persist_map_gen = atomic_read(&ld_modmap_gen) - 1;	/* make it */
	ld_persist_text_locked(false);
	atomic_notifier_chain_register(&panic_notifier_list,
				       &ld_persist_panic_nb);
	register_die_notifier(&ld_persist_die_nb);
	register_reboot_notifier(&ld_persist_reboot_nb);
	schedule_delayed_work(&ld_persist_sync,
			      msecs_to_jiffies(LD_PERSIST_SYNC_MS));
	ld_persist_up = true;
}

/**
 * ld_persist_exit() - unhook; the text a last time (module exit, before
 * the core notes the unload in the area)
 */
void ld_persist_exit(void)
{
	if (!ld_persist_up)
		return;
	cancel_delayed_work_sync(&ld_persist_sync);
	unregister_reboot_notifier(&ld_persist_reboot_nb);
	unregister_die_notifier(&ld_persist_die_nb);
	atomic_notifier_chain_unregister(&panic_notifier_list,
					 &ld_persist_panic_nb);
	ld_persist_text_locked(false);
	ld_persist_up = false;
	kvfree(ld_persist_map);
	ld_persist_map = NULL;
}
