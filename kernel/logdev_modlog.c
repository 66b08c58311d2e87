// SPDX-License-Identifier: GPL-2.0
/*
 * logdev_modlog.c - the debugfs "module_log": every module load, end of
 * init and unload since logdev was loaded, stamped with logdev's trace
 * clock, with the module's symbols, so that a reader can resolve %pS/%ps
 * against the symbols that were valid when a record was taken (a module
 * unloaded during a recording, another loaded at the same address).
 * docs/DEBUGFS.md describes the text; docs/FORMAT.md how readers use it.
 *
 *   load TS NAME core=BASE+TEXT/SIZE init=BASE+TEXT/SIZE
 *   ADDR TYPE SYMBOL<TAB>[NAME]        one line per symbol (at load: the
 *                                      init and core symbols)
 *   live TS NAME                       init finished, init memory freed
 *   unload TS NAME                     (its load is listed above)
 *   unload TS NAME core=BASE+TEXT/SIZE (its load is not listed: loaded
 *   ADDR TYPE SYMBOL<TAB>[NAME]         before logdev, or dropped) + symbols
 *
 * Numbers: TS decimal ns of the clock selected in "clock" at the time,
 * addresses and sizes hex without 0x.  The log is kept in memory up to
 * LD_MODLOG_MAX_BYTES; beyond that the oldest entries of modules already
 * unloaded are dropped (counted in the first line).  Entries are made in
 * the module notifier (process context, may sleep); nothing here runs on
 * the recording path.
 *
 * Layer: feature (logdev_features.h); creates "module_log" and registers
 * its own module notifier; calls the clock and reads the configuration.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/debugfs.h>
#include <linux/elf.h>
#include <linux/kallsyms.h>
#include <linux/rcupdate.h>
#include "logdev_compat.h"	/* ld_mod_mem() */
#include "logdev_core.h"
#include "logdev_features.h"

#define LD_MODLOG_MAX_BYTES	(4U << 20)

/**
 * struct ld_modev - one entry of the module log
 * @list:  on ld_modlog, oldest first
 * @load:  the load entry of the same module instance (itself for a load,
 *         and for an unload whose load is not in the log)
 * @mod:   load entries: the module while it is loaded, NULL once unloaded
 * @gone:  load entries: the module was unloaded (the entry may be dropped)
 * @len:   bytes of @text
 * @text:  the lines, each ending in '\n'
 */
struct ld_modev {
	struct list_head list;
	struct ld_modev *load;
	struct module *mod;
	bool gone;
	size_t len;
	char text[];
};

static LIST_HEAD(ld_modlog);
static DEFINE_MUTEX(ld_modlog_mutex);
static size_t ld_modlog_bytes;
static unsigned long ld_modlog_dropped;	/* entries */

/*
 * The module's symbols as /proc/kallsyms prints them, those the kernel's
 * own lookup (find_kallsyms_symbol()) can return: defined, named, inside
 * the module.  Writes at most @size bytes to @buf (may be NULL) and returns
 * the length of all of them.
 */
static size_t ld_mod_syms(struct module *mod, char *buf, size_t size)
{
	struct mod_kallsyms *ks;
	size_t n = 0;
	unsigned int i;

	preempt_disable();
	ks = rcu_dereference_sched(mod->kallsyms);
	for (i = 0; ks && i < ks->num_symtab; i++) {
		const Elf_Sym *sym = &ks->symtab[i];
		const char *name = ks->strtab + sym->st_name;
		char line[KSYM_NAME_LEN + MODULE_NAME_LEN + 32];
		int l;

		if (sym->st_shndx == SHN_UNDEF || sym->st_shndx >= SHN_LORESERVE ||
		    !*name || !within_module(sym->st_value, mod))
			continue;
		l = scnprintf(line, sizeof(line), "%016lx %c %s\t[%s]\n",
			      (unsigned long)sym->st_value, ks->typetab[i], name,
			      mod->name);
		if (buf && n + l <= size)
			memcpy(buf + n, line, l);
		n += l;
	}
	preempt_enable();
	return n;
}

static void ld_modlog_drop_old(void)
{
	struct ld_modev *e, *n, *victim;

	lockdep_assert_held(&ld_modlog_mutex);
	while (ld_modlog_bytes > LD_MODLOG_MAX_BYTES) {
		victim = NULL;
		list_for_each_entry(e, &ld_modlog, list) {
			if (e->load == e && e->gone) {
				victim = e;
				break;
			}
		}
		if (!victim)
			return;
		list_for_each_entry_safe(e, n, &ld_modlog, list) {
			if (e->load != victim || e == victim)
				continue;
			list_del(&e->list);
			ld_modlog_bytes -= e->len;
			ld_modlog_dropped++;
			kvfree(e);
		}
		list_del(&victim->list);
		ld_modlog_bytes -= victim->len;
		ld_modlog_dropped++;
		kvfree(victim);
	}
}

static struct ld_modev *ld_modlog_find_load(struct module *mod)
{
	struct ld_modev *e;

	list_for_each_entry_reverse(e, &ld_modlog, list)
		if (e->load == e && !e->gone && e->mod == mod)
			return e;
	return NULL;
}

/* a module's core or init memory as module_log's head line gives it */
struct ld_modlog_range {
	unsigned long base;	/* the text's start */
	unsigned long text;	/* the text's length, bytes */
	unsigned long size;	/* text, rodata, ro_after_init and data, bytes */
};

/*
 * The text region's base and length and the regions' total length of the
 * core and the init memory of @mod.  Up to 6.3 this is core_layout's and
 * init_layout's base, text_size, size; since 6.4 the regions are apart
 * (mod->mem[]) and the total is their sum, not a range.
 */
static void ld_modlog_ranges(struct module *mod, struct ld_modlog_range *core,
			     struct ld_modlog_range *init)
{
	static const enum ld_mod_mem first[2] = { LD_MOD_TEXT, LD_MOD_INIT_TEXT };
	static const enum ld_mod_mem last[2] = { LD_MOD_DATA, LD_MOD_INIT_DATA };
	struct ld_modlog_range *r[2] = { core, init };
	unsigned long base, size;
	enum ld_mod_mem t;
	int i;

	for (i = 0; i < 2; i++) {
		ld_mod_mem(mod, first[i], &r[i]->base, &r[i]->text);
		r[i]->size = 0;
		for (t = first[i]; t <= last[i]; t++) {
			ld_mod_mem(mod, t, &base, &size);
			r[i]->size += size;
		}
	}
}

/*
 * ld_modlog_event() - log a module state change (module notifier)
 * @mod:    the module
 * @action: MODULE_STATE_COMING, _LIVE or _GOING (others are ignored)
 *
 * Context: process context, may sleep.  Out of memory: the entry is lost
 * and a warning printed (the reader then prints such a module's addresses
 * as hex).
 */
static void ld_modlog_event(struct module *mod, unsigned long action)
{
	u64 ts = ld_clock_now();
	struct ld_modev *e, *load = NULL;
	char head[160];
	struct ld_modlog_range core, init;
	size_t hl, sl = 0, cap;
	bool syms;

	if (action != MODULE_STATE_COMING && action != MODULE_STATE_LIVE &&
	    action != MODULE_STATE_GOING)
		return;
	mutex_lock(&ld_modlog_mutex);
	if (action != MODULE_STATE_COMING)
		load = ld_modlog_find_load(mod);
	syms = action == MODULE_STATE_COMING ||
	       (action == MODULE_STATE_GOING && !load);
	if (action == MODULE_STATE_LIVE && !load)
		goto out;	/* its load is not in the log: nothing to add */
	ld_modlog_ranges(mod, &core, &init);
	if (action == MODULE_STATE_COMING)
		hl = scnprintf(head, sizeof(head),
			       "load %llu %s core=%lx+%lx/%lx init=%lx+%lx/%lx\n",
			       ts, mod->name, core.base, core.text, core.size,
			       init.base, init.text, init.size);
	else if (syms)
		hl = scnprintf(head, sizeof(head), "unload %llu %s core=%lx+%lx/%lx\n",
			       ts, mod->name, core.base, core.text, core.size);
	else
		hl = scnprintf(head, sizeof(head), "%s %llu %s\n",
			       action == MODULE_STATE_LIVE ? "live" : "unload",
			       ts, mod->name);
	if (syms)
		sl = ld_mod_syms(mod, NULL, 0);
	cap = hl + sl;
	e = kvmalloc(struct_size(e, text, cap), GFP_KERNEL);
	if (!e) {
		pr_warn("module_log: out of memory, %s of %s not logged\n",
			action == MODULE_STATE_COMING ? "load" : "unload", mod->name);
		goto out;
	}
	memcpy(e->text, head, hl);
	e->len = hl;
	if (syms)	/* the table does not change while we are called */
		e->len += min(ld_mod_syms(mod, e->text + hl, sl), sl);
	e->mod = action == MODULE_STATE_COMING ? mod : NULL;
	e->gone = action == MODULE_STATE_GOING;
	e->load = load ? load : e;
	if (load && action == MODULE_STATE_GOING) {
		load->gone = true;
		load->mod = NULL;
	}
	list_add_tail(&e->list, &ld_modlog);
	ld_modlog_bytes += e->len;
	ld_modlog_drop_old();
out:
	mutex_unlock(&ld_modlog_mutex);
}

/* Every load, end of init and unload (symbols for %pS at record time). */
static int ld_modlog_notify(struct notifier_block *nb, unsigned long action,
			    void *data)
{
	ld_modlog_event(data, action);
	return NOTIFY_DONE;
}

static struct notifier_block ld_modlog_nb = {
	.notifier_call = ld_modlog_notify,
};

/**
 * ld_modlog_exit() - stop logging and free the log (module exit)
 */
void ld_modlog_exit(void)
{
	struct ld_modev *e, *n;

	unregister_module_notifier(&ld_modlog_nb);
	mutex_lock(&ld_modlog_mutex);
	list_for_each_entry_safe(e, n, &ld_modlog, list) {
		list_del(&e->list);
		kvfree(e);
	}
	ld_modlog_bytes = 0;
	mutex_unlock(&ld_modlog_mutex);
}

static void *ld_modlog_start(struct seq_file *m, loff_t *pos)
{
	mutex_lock(&ld_modlog_mutex);
	return seq_list_start_head(&ld_modlog, *pos);
}

static void *ld_modlog_next(struct seq_file *m, void *v, loff_t *pos)
{
	return seq_list_next(v, &ld_modlog, pos);
}

static void ld_modlog_stop(struct seq_file *m, void *v)
{
	mutex_unlock(&ld_modlog_mutex);
}

static int ld_modlog_show(struct seq_file *m, void *v)
{
	struct ld_modev *e;

	if (v == &ld_modlog) {
		seq_printf(m, "# logdev module log: clock %s, %lu entries dropped\n",
			   ld_clock_names[READ_ONCE(ld_cfg.clock)], ld_modlog_dropped);
		return 0;
	}
	e = list_entry(v, struct ld_modev, list);
	seq_write(m, e->text, e->len);
	return 0;
}

static const struct seq_operations ld_modlog_sops = {
	.start = ld_modlog_start,
	.next = ld_modlog_next,
	.stop = ld_modlog_stop,
	.show = ld_modlog_show,
};

DEFINE_SEQ_ATTRIBUTE(ld_modlog);	/* ld_modlog_open(), ld_modlog_fops */

/**
 * ld_modlog_init() - create "module_log" and start logging module changes
 * @dir: the logdev debugfs directory
 *
 * Module init.
 *
 * Return: 0 or the negative errno of register_module_notifier().
 */
int ld_modlog_init(struct dentry *dir)
{
	debugfs_create_file("module_log", 0400, dir, NULL, &ld_modlog_fops);
	return register_module_notifier(&ld_modlog_nb);
}
