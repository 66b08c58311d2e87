// SPDX-License-Identifier: GPL-2.0
/*
 * logdev_sites.c - the call-site table: the id every record names its
 * edprint() site or probe by, and the strings "formats" lists for it.
 *
 * Layer: recording core (logdev_core.h); calls nothing else of logdev.
 * logdev_site_id() and logdev_site_enc() run on the recording path (any
 * context, NMI included, lock-free); the rest runs in process context
 * under ld_sites_mutex.  A module notifier copies the sites of a module
 * that goes away, so records already taken stay readable.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/bitmap.h>
#include <linux/atomic.h>
#include <linux/seq_file.h>
#include "logdev_core.h"

DEFINE_MUTEX(ld_sites_mutex);	/* site table entries repointed / printed */

static struct logdev_site *ld_sites[LD_MAX_SITES];
static DECLARE_BITMAP(ld_site_owned, LD_MAX_SITES);	/* entry is our copy */
static DECLARE_BITMAP(ld_site_adopted, LD_MAX_SITES);	/* a removed probe's */
static atomic_t ld_next_site = ATOMIC_INIT(0);

/**
 * logdev_site_id() - the id of a call site, registering it if needed
 * @site: the call site
 *
 * Lock-free and NMI-safe: a new id comes from an atomic counter and is
 * installed with cmpxchg(); if two CPUs race, the loser's id stays a hole.
 *
 * Return: the id (>= 1), or 0 if the site table is full.
 */
u32 notrace logdev_site_id(struct logdev_site *site)
{
	u32 id = READ_ONCE(site->id);
	u32 old;
	int new;

	if (likely(id))
		return id;
	if (atomic_read(&ld_next_site) >= LD_MAX_SITES - 1)
		return 0;
	new = atomic_inc_return(&ld_next_site);
	if (new >= LD_MAX_SITES)
		return 0;
	old = cmpxchg(&site->id, 0, (u32)new);
	if (old)
		return old;
	WRITE_ONCE(ld_sites[new], site);
	return new;
}
EXPORT_SYMBOL_GPL(logdev_site_id);

/**
 * logdev_site_enc() - decide once how an edprint() site stores its arguments
 * @site:     the call site
 * @nargs:    number of arguments
 * @strmask:  bit i set: argument i is a char pointer
 * @widemask: bit i set: argument i is 8 bytes and not a char pointer
 *
 * Any context, NMI included: a pure function of the format and the
 * argument types, so racing first calls store the same answer.
 *
 * Return: LOGDEV_SITE_SLOTS or LOGDEV_SITE_VBIN.
 */
u32 notrace logdev_site_enc(struct logdev_site *site, u32 nargs, u32 strmask,
			    u32 widemask)
{
	u16 sprec[EDP_MAX_ARGS];
	u32 enc = edp_fmt_slots_ok(site->fmt, nargs, strmask, widemask, sprec) ?
		  LOGDEV_SITE_SLOTS : LOGDEV_SITE_VBIN;
	int i;

	/* racing callers store the same values: never a transient 0 */
	for (i = 0; i < EDP_MAX_ARGS; i++)
		WRITE_ONCE(site->sprec[i], sprec[i]);
	smp_store_release(&site->enc, enc);	/* sprec before enc */
	return enc;
}
EXPORT_SYMBOL_GPL(logdev_site_enc);

/* Highest id handed out so far. */
u32 ld_nr_sites(void)
{
	return min_t(u32, atomic_read(&ld_next_site), LD_MAX_SITES - 1);
}

/* Entry @id of the table, or NULL; call with ld_sites_mutex held. */
struct logdev_site *ld_site_get(u32 id)
{
	if (!id || id >= LD_MAX_SITES)
		return NULL;
	return READ_ONCE(ld_sites[id]);
}

static void ld_site_free(struct logdev_site *s)
{
	kfree(s->fmt);
	kfree(s->file);
	kfree(s->func);
	kfree(s);
}

static struct logdev_site *ld_site_copy(const struct logdev_site *s)
{
	struct logdev_site *c = kzalloc(sizeof(*c), GFP_KERNEL);

	if (!c)
		return NULL;
	c->fmt = kstrdup(s->fmt, GFP_KERNEL);
	c->file = kstrdup(s->file, GFP_KERNEL);
	c->func = kstrdup(s->func, GFP_KERNEL);
	c->line = s->line;
	c->id = s->id;
	if (!c->fmt || !c->file || !c->func) {
		ld_site_free(c);
		return NULL;
	}
	return c;
}

/*
 * A module that goes away keeps its sites' strings readable in "formats".
 * (Its load, end of init and unload go to the module log, whose own
 * notifier is in logdev_modlog.c.)
 */
static int ld_sites_module_notify(struct notifier_block *nb,
				  unsigned long action, void *data)
{
	struct module *mod = data;
	struct logdev_site *s, *c;
	u32 i, n;

	if (action != MODULE_STATE_GOING)
		return NOTIFY_DONE;

	mutex_lock(&ld_sites_mutex);
	n = ld_nr_sites();
	for (i = 1; i <= n; i++) {
		s = READ_ONCE(ld_sites[i]);
		if (!s || test_bit(i, ld_site_owned) ||
		    !within_module((unsigned long)s, mod))
			continue;
		c = ld_site_copy(s);
		WRITE_ONCE(ld_sites[i], c);	/* NULL: out of memory, site lost */
		if (c)
			__set_bit(i, ld_site_owned);
		else
			pr_warn("site %u of %s: out of memory, format lost\n",
				i, mod->name);
	}
	mutex_unlock(&ld_sites_mutex);
	return NOTIFY_OK;
}

static struct notifier_block ld_sites_module_nb = {
	.notifier_call = ld_sites_module_notify,
};

/**
 * ld_site_adopt() - hand a kmalloc'd call site over to the site table
 * @s: site whose fmt, file and func are kmalloc'd strings
 *
 * For a site that is going away (a removed probe) but whose id records may
 * still refer to: the table keeps it listed in "formats" and frees it at
 * module exit.  A site that never got an id is freed now.
 */
void ld_site_adopt(struct logdev_site *s)
{
	u32 id = READ_ONCE(s->id);

	mutex_lock(&ld_sites_mutex);
	if (id && id < LD_MAX_SITES && ld_sites[id] == s) {
		__set_bit(id, ld_site_owned);
		__set_bit(id, ld_site_adopted);
		s = NULL;
	}
	mutex_unlock(&ld_sites_mutex);
	if (s)
		ld_site_free(s);
}

/**
 * ld_site_reclaim() - take back an adopted site with these strings
 * @file: its file ("probe")
 * @func: its func (the probe's name, or "NAME%return")
 * @fmt:  its format
 * @line: its line (the probe's offset)
 *
 * A probe removed and added again with the same name and definition gets
 * its earlier site, id included, so its label and its records' site id
 * stay the same within the module's life (and across captures).  The site
 * is no longer the table's: the caller adopts it again when done.
 *
 * Return: the site, or NULL if no adopted site has exactly these strings.
 */
struct logdev_site *ld_site_reclaim(const char *file, const char *func,
				    const char *fmt, u32 line)
{
	struct logdev_site *s, *found = NULL;
	u32 i;

	mutex_lock(&ld_sites_mutex);
	for_each_set_bit(i, ld_site_adopted, LD_MAX_SITES) {
		s = ld_sites[i];
		if (s && s->line == line && !strcmp(s->func, func) &&
		    !strcmp(s->fmt, fmt) && !strcmp(s->file, file)) {
			__clear_bit(i, ld_site_adopted);
			__clear_bit(i, ld_site_owned);
			found = s;
			break;
		}
	}
	mutex_unlock(&ld_sites_mutex);
	return found;
}

/**
 * ld_sites_init() - start keeping the sites of modules that go away
 *
 * Return: 0 or the negative errno of register_module_notifier().
 */
int ld_sites_init(void)
{
	return register_module_notifier(&ld_sites_module_nb);
}

/**
 * ld_sites_exit() - stop the notifier and free the sites the table owns
 *
 * Module exit, once nothing can record or read "formats" any more.
 */
void ld_sites_exit(void)
{
	u32 i;

	unregister_module_notifier(&ld_sites_module_nb);
	for_each_set_bit(i, ld_site_owned, LD_MAX_SITES) {
		ld_site_free(ld_sites[i]);
		ld_sites[i] = NULL;
	}
}

/* ------------------------------------------------------- the "formats" text */

static void ld_put_escaped(struct seq_file *m, const char *s)
{
	unsigned char c;

	for (; (c = *s); s++) {
		switch (c) {
		case '\\':
			seq_puts(m, "\\\\");
			break;
		case '\n':
			seq_puts(m, "\\n");
			break;
		case '\t':
			seq_puts(m, "\\t");
			break;
		case '"':
			seq_puts(m, "\\\"");
			break;
		default:
			if (c < 0x20 || c >= 0x7f)
				seq_printf(m, "\\%03o", c);
			else
				seq_putc(m, c);
		}
	}
}

/**
 * ld_site_show() - site @id's line of the "formats" text, if it is listed
 * @m:  where (a seq_file, or one over a plain buffer: logdev_persist.c)
 * @id: the site id
 *
 * "ID\tFILE\tLINE\tFUNC\tFORMAT\n", strings escaped as C does (a tab or
 * newline in __FILE__ would split the line).  Under ld_sites_mutex, or
 * where nothing else runs (panic).
 */
void ld_site_show(struct seq_file *m, u32 id)
{
	struct logdev_site *s = ld_site_get(id);

	if (!s)
		return;
	seq_printf(m, "%u\t", id);
	ld_put_escaped(m, s->file);
	seq_printf(m, "\t%u\t", s->line);
	ld_put_escaped(m, s->func);
	seq_putc(m, '\t');
	ld_put_escaped(m, s->fmt);
	seq_putc(m, '\n');
}
