// SPDX-License-Identifier: GPL-2.0
/*
 * logdev_modlog.c - the debugfs "module_log": every module load, end of
 * init and unload since logdev was loaded, stamped with logdev's trace
 * clock, with the module's symbols, so that a reader can resolve %pS/%ps
 * against the symbols that were valid when a record was taken (a module
 * unloaded during a recording, another loaded at the same address).
 * docs/DEBUGFS.md describes the text; docs/FORMAT.md how readers use it.
 * Format 2 (the first line says "format 2"):
 *
 *   # logdev module log: format 2, sizes RULE, clock CLOCK, N entries dropped
 *   load TS NAME KIND=BASE/SIZE...     one field per region of the module's
 *                                      memory that has bytes, KIND one of
 *                                      text rodata ro_after_init data
 *                                      init_text init_rodata init_data
 *   ADDR TYPE SYMBOL<TAB>[NAME]        one line per symbol (at load: the
 *                                      init and core symbols)
 *   live TS NAME                       init finished, init memory freed
 *   unload TS NAME                     (its load is listed above)
 *   unload TS NAME KIND=BASE/SIZE...   (its load is not listed: loaded
 *   ADDR TYPE SYMBOL<TAB>[NAME]         before logdev, or dropped) + symbols
 *
 * RULE: how this kernel's %pS sizes a module symbol, "text" (up to the end
 * of the module's text), "region" (of the region holding the address) or
 * "unknown" (ld_modlog_probe_sizes()).  Format 1 (before, no "format" in
 * the first line) gave "core=BASE+TEXT/SIZE init=BASE+TEXT/SIZE" instead:
 * since Linux 6.4 a module's memory is several allocations, and one range
 * no longer holds it.
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
/* the first line of the log and of the area's module map: sizes, clock, dropped */
#define LD_MODLOG_HEAD \
	"# logdev module log: format 2, sizes %s, clock %s, %lu entries dropped\n"

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
 * Symbol @i of @ks if it is one the kernel's own lookup
 * (find_kallsyms_symbol()) can return and /proc/kallsyms prints: defined,
 * named, inside @mod.  Context: preemption disabled (@ks is
 * rcu_dereference_sched(mod->kallsyms)).
 */
static const Elf_Sym *ld_mod_sym(const struct mod_kallsyms *ks, unsigned int i,
				 struct module *mod)
{
	const Elf_Sym *sym = &ks->symtab[i];

	if (sym->st_shndx == SHN_UNDEF || sym->st_shndx >= SHN_LORESERVE ||
	    !ks->strtab[sym->st_name] || !within_module(sym->st_value, mod))
		return NULL;
	return sym;
}

/*
 * The module's symbols as /proc/kallsyms prints them (ld_mod_sym()).
 * With @buf NULL: returns the length of all of them.  Else writes the
 * whole lines that fit in @size bytes, stops at the first that does not,
 * and returns the bytes written.
 */
static size_t ld_mod_syms(struct module *mod, char *buf, size_t size)
{
	struct mod_kallsyms *ks;
	size_t n = 0;
	unsigned int i;

	preempt_disable();
	ks = rcu_dereference_sched(mod->kallsyms);
	for (i = 0; ks && i < ks->num_symtab; i++) {
		const Elf_Sym *sym = ld_mod_sym(ks, i, mod);
		char line[KSYM_NAME_LEN + MODULE_NAME_LEN + 32];
		int l;

		if (!sym)
			continue;
		l = scnprintf(line, sizeof(line), "%016lx %c %s\t[%s]\n",
			      (unsigned long)sym->st_value, ks->typetab[i],
			      ks->strtab + sym->st_name, mod->name);
		if (buf) {
			if (n + l > size)
				break;
			memcpy(buf + n, line, l);
		}
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

/* format 2's names of the regions, in enum ld_mod_mem's order */
static const char *const ld_mod_mem_names[LD_MOD_MEM_NR] = {
	[LD_MOD_TEXT] = "text",
	[LD_MOD_RODATA] = "rodata",
	[LD_MOD_RO_AFTER_INIT] = "ro_after_init",
	[LD_MOD_DATA] = "data",
	[LD_MOD_INIT_TEXT] = "init_text",
	[LD_MOD_INIT_RODATA] = "init_rodata",
	[LD_MOD_INIT_DATA] = "init_data",
};

/*
 * The head line of an entry, "VERB TS NAME\n", with @regions every region
 * of @mod's memory that has bytes as " KIND=BASE/SIZE" (hex) before the
 * '\n', into @buf of @size bytes (snprintf(): @buf may be NULL with @size
 * 0, a line longer than @size is cut and NUL-terminated).
 * Return: the length of the whole line.
 */
static size_t ld_modlog_head(char *buf, size_t size, const char *verb, u64 ts,
			     struct module *mod, bool regions)
{
	size_t n = snprintf(buf, size, "%s %llu %s", verb, ts, mod->name);
	unsigned long base, len;
	int t;

	for (t = 0; t <= LD_MOD_MEM_NR; t++) {
		char *at = n < size ? buf + n : NULL;
		size_t room = n < size ? size - n : 0;

		if (t == LD_MOD_MEM_NR) {
			n += snprintf(at, room, "\n");
			break;
		}
		ld_mod_mem(mod, t, &base, &len);
		if (regions && len)
			n += snprintf(at, room, " %s=%lx/%lx", ld_mod_mem_names[t], base, len);
	}
	return n;
}

/*
 * How this kernel's %pS sizes a symbol of a module (find_kallsyms_symbol()):
 * up to the module's next symbol or the end of its text, whatever region
 * the address is in (6.1; 6.4+ before "module/kallsyms: fix nextval for data
 * symbol lookup", 2026), or up to the next symbol or the end of the region
 * holding the address (after it; Debian's 6.12.118 and 7.3 have it).  The
 * headers cannot tell (the change is inside kernel/module/kallsyms.c), so
 * the kernel is asked: ld_modlog_probe_sizes().  Under ld_modlog_mutex.
 */
enum ld_sizes { LD_SIZES_UNKNOWN, LD_SIZES_TEXT, LD_SIZES_REGION };
static enum ld_sizes ld_modlog_sizes;
static const char *const ld_sizes_names[] = {
	[LD_SIZES_UNKNOWN] = "unknown",
	[LD_SIZES_TEXT] = "text",
	[LD_SIZES_REGION] = "region",
};

/*
 * The highest symbol of @mod in [@base, @base + @size) into *@last and the
 * lowest symbol above it into *@next (ULONG_MAX if none).
 * Return: 0, or -ENOENT if the region has no symbol.
 */
static int ld_mod_last_sym(struct module *mod, unsigned long base, unsigned long size,
			   unsigned long *last, unsigned long *next)
{
	struct mod_kallsyms *ks;
	unsigned int i;
	bool found = false;

	*next = ULONG_MAX;
	preempt_disable();
	ks = rcu_dereference_sched(mod->kallsyms);
	for (i = 0; ks && i < ks->num_symtab; i++) {
		const Elf_Sym *sym = ld_mod_sym(ks, i, mod);
		unsigned long v = sym ? (unsigned long)sym->st_value : 0;

		if (sym && v - base < size && (!found || v > *last)) {
			*last = v;
			found = true;
		}
	}
	for (i = 0; found && i < ks->num_symtab; i++) {
		const Elf_Sym *sym = ld_mod_sym(ks, i, mod);
		unsigned long v = sym ? (unsigned long)sym->st_value : 0;

		if (sym && v > *last && v < *next)
			*next = v;
	}
	preempt_enable();
	return found ? 0 : -ENOENT;
}

/* the SIZE of sprint_symbol()'s "NAME+0xOFF/0xSIZE [MOD]"; 0 or -EINVAL */
static int ld_ksym_size(unsigned long addr, unsigned long *size)
{
	char buf[KSYM_SYMBOL_LEN], *end, *slash;

	sprint_symbol(buf, addr);
	end = strchr(buf, ' ');
	if (end)
		*end = 0;
	slash = strrchr(buf, '/');
	if (!slash || !strchr(buf, '+'))
		return -EINVAL;	/* no symbol: the address in hex */
	return kstrtoul(slash + 1, 0, size);
}

/*
 * ld_modlog_probe_sizes() - learn ld_modlog_sizes from @mod
 * @mod: a module whose memory stays while we are called (logdev itself at
 *	 its init, or one in the module notifier)
 *
 * For the last symbol of @mod's rodata, ro_after_init and data regions
 * the two rules differ when the module's next symbol (or the end of its
 * text, with the first rule) lies past the region's end: then the size
 * sprint_symbol() prints for it tells which rule this kernel follows.  If
 * no region of @mod tells (or the kernel's size is neither), the rule stays
 * unknown and the next module loaded is asked.
 * Context: process context, ld_modlog_mutex held.
 */
static void ld_modlog_probe_sizes(struct module *mod)
{
	static const enum ld_mod_mem data[] = {
		LD_MOD_RODATA, LD_MOD_RO_AFTER_INIT, LD_MOD_DATA,
	};
	unsigned long tbase, tsize, base, size, last, next, got;
	unsigned long text_end, by_text, by_region;
	int i;

	lockdep_assert_held(&ld_modlog_mutex);
	ld_mod_mem(mod, LD_MOD_TEXT, &tbase, &tsize);
	text_end = tbase + tsize;
	for (i = 0; i < ARRAY_SIZE(data); i++) {
		ld_mod_mem(mod, data[i], &base, &size);
		if (!size || ld_mod_last_sym(mod, base, size, &last, &next))
			continue;
		by_text = min(text_end, next) - last;	/* wraps, as the kernel's */
		by_region = min(base + size, next) - last;
		if (by_text == by_region || ld_ksym_size(last, &got))
			continue;
		if (got == by_text || got == by_region) {
			ld_modlog_sizes = got == by_text ? LD_SIZES_TEXT : LD_SIZES_REGION;
			return;
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
	const char *verb;
	size_t hl, sl = 0;
	bool syms;

	if (action != MODULE_STATE_COMING && action != MODULE_STATE_LIVE &&
	    action != MODULE_STATE_GOING)
		return;
	atomic_inc(&ld_modmap_gen);	/* the area's module map is out of date */
	mutex_lock(&ld_modlog_mutex);
	if (action != MODULE_STATE_COMING)
		load = ld_modlog_find_load(mod);
	syms = action == MODULE_STATE_COMING ||
	       (action == MODULE_STATE_GOING && !load);
	if (action == MODULE_STATE_LIVE && !load)
		goto out;	/* its load is not in the log: nothing to add */
	if (action == MODULE_STATE_COMING && ld_modlog_sizes == LD_SIZES_UNKNOWN)
		ld_modlog_probe_sizes(mod);
	verb = action == MODULE_STATE_COMING ? "load" :
	       action == MODULE_STATE_LIVE ? "live" : "unload";
	hl = ld_modlog_head(NULL, 0, verb, ts, mod, syms);
	if (syms)
		sl = ld_mod_syms(mod, NULL, 0);
	e = kvmalloc(struct_size(e, text, hl + 1 + sl), GFP_KERNEL);	/* + NUL */
	if (!e) {
		pr_warn("module_log: out of memory, %s of %s not logged\n",
			action == MODULE_STATE_COMING ? "load" : "unload", mod->name);
		goto out;
	}
	/* neither the module's memory nor its symbols change while we are called */
	e->len = min(ld_modlog_head(e->text, hl + 1, verb, ts, mod, syms), hl);
	if (syms)
		e->len += min(ld_mod_syms(mod, e->text + e->len, sl), sl);
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

/* ------------------------------------------------- the area's module map */

atomic_t ld_modmap_gen = ATOMIC_INIT(0);

/*
 * One module of the map at @buf (@size bytes left): its load line (TS 0:
 * loaded before the first record the map serves) and its symbols if all
 * fit, else the line alone; counted in @map as listed, bare (listed
 * without symbols) or out (its line did not fit).  A module still being
 * formed is skipped.
 * Return: bytes written.
 */
static size_t ld_modmap_one(struct module *mod, char *buf, size_t size,
			    struct ld_modmap_counts *map)
{
	size_t hl, sl;

	if (mod->state == MODULE_STATE_UNFORMED)
		return 0;
	hl = ld_modlog_head(NULL, 0, "load", 0, mod, true);
	if (hl >= size) {
		map->out++;
		return 0;
	}
	map->listed++;
	ld_modlog_head(buf, hl + 1, "load", 0, mod, true);
	sl = ld_mod_syms(mod, NULL, 0);
	if (hl + sl > size) {
		map->bare++;
		return hl;
	}
	/* init may end meanwhile (its symbols dropped): whole lines anyway */
	return hl + ld_mod_syms(mod, buf + hl, size - hl);
}

#ifdef MODULE
/*
 * Whether a node of the kernel's module list is a module: the list's head
 * ("modules", in vmlinux's data) is the one node outside module memory.
 */
static bool ld_modmap_is_module(const struct list_head *node)
{
#ifdef MODULES_VADDR
	unsigned long a = (unsigned long)node;

	return a >= MODULES_VADDR && a < MODULES_END;
#else
	return false;	/* no range to tell: logdev's own entry only */
#endif
}

/* The modules of the map, as a module: the kernel's list, from our entry. */
static size_t ld_modmap_walk(char *buf, size_t size, struct ld_modmap_counts *map)
{
	struct module *mod;
	size_t n;

	n = ld_modmap_one(THIS_MODULE, buf, size, map);
	rcu_read_lock_sched();
	list_for_each_entry_rcu(mod, &THIS_MODULE->list, list)
		if (ld_modmap_is_module(&mod->list))
			n += ld_modmap_one(mod, buf + n, size - n, map);
	rcu_read_unlock_sched();
	return n;
}
#else
/* Built in: the modules the notifier saw load and not unload (all of them). */
static size_t ld_modmap_walk(char *buf, size_t size, struct ld_modmap_counts *map)
{
	struct ld_modev *e;
	size_t n = 0;

	mutex_lock(&ld_modlog_mutex);
	list_for_each_entry(e, &ld_modlog, list) {
		if (e->load == e && e->mod)
			n += ld_modmap_one(e->mod, buf + n, size - n, map);
	}
	mutex_unlock(&ld_modlog_mutex);
	return n;
}
#endif

/**
 * ld_modlog_map() - the module map of the flight recorder's area
 * @buf:  where to write it
 * @size: its bytes
 * @map:  set to the counts: modules listed, listed without symbols (did not
 *        fit), left out
 *
 * The modules loaded now, in module_log format 2 (this file's head), each
 * as "load 0 NAME KIND=BASE/SIZE..." and its symbol lines, after the head
 * line and before a "# logdev module map:" line with the counts: what a
 * reader of a previous boot's area resolves %pS of modules with
 * (docs/FORMAT.md).  As a module, logdev walks the kernel's module list
 * from its own entry under RCU (no lock: callable from the panic notifier);
 * built in, where it has no entry, the modules its notifier saw load and
 * not unload (process context only: takes ld_modlog_mutex).
 *
 * Return: the bytes written (whole lines).
 */
size_t ld_modlog_map(char *buf, size_t size, struct ld_modmap_counts *map)
{
	size_t n, tail = 96;	/* room kept for the closing line */

	memset(map, 0, sizeof(*map));
	n = scnprintf(buf, size, LD_MODLOG_HEAD, ld_sizes_names[ld_modlog_sizes],
		      ld_clock_names[READ_ONCE(ld_cfg.clock)], 0UL);
	if (size < n + tail)
		return 0;
	n += ld_modmap_walk(buf + n, size - tail - n, map);
	n += scnprintf(buf + n, size - n,
		       "# logdev module map: %u modules, %u without symbols, %u left out%s\n",
		       map->listed, map->bare, map->out,
		       map->bare || map->out ? " (the area's text is full)" : "");
	return n;
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
		seq_printf(m, LD_MODLOG_HEAD, ld_sizes_names[ld_modlog_sizes],
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
 * Module init.  As a module, logdev first asks the kernel how it sizes
 * module symbols, with its own (ld_modlog_probe_sizes()).
 *
 * Return: 0 or the negative errno of register_module_notifier().
 */
int ld_modlog_init(struct dentry *dir)
{
#ifdef MODULE	/* built in: the first module loaded is asked */
	mutex_lock(&ld_modlog_mutex);
	ld_modlog_probe_sizes(THIS_MODULE);
	mutex_unlock(&ld_modlog_mutex);
#endif
	debugfs_create_file("module_log", 0400, dir, NULL, &ld_modlog_fops);
	return register_module_notifier(&ld_modlog_nb);
}
