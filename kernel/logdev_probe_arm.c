// SPDX-License-Identifier: GPL-2.0
/*
 * logdev_probe_arm.c - the probes that exist and their arming: a parsed
 * command becomes call sites and a registered kprobe, kretprobe or
 * tracepoint probe (one per function for a glob), and is removed again;
 * a probe in a module is disarmed when the module goes and armed again
 * when it comes back.
 *
 * Probes are kept on a list under ld_probes_mutex; a handler only touches
 * its own probe.  Removal unregisters (which waits for running handlers)
 * before freeing; the call sites go to the site table (ld_site_adopt()) so
 * "formats" still describes records already taken.  MOD:FUNC of a module
 * not loaded waits for it (ld_probes_module_cb(): the listing's state=gone
 * and state=pending).
 *
 * Layer: probes (logdev_probes.h); calls the parser, the symbol and
 * tracepoint lookups, the handlers (logdev_probe_fetch.c), the error log
 * and the recording core's site table.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/tracepoint.h>
#include <linux/kallsyms.h>
#include <linux/string.h>
#include <linux/slab.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/cpumask.h>
#include "logdev_core.h"
#include "logdev_probes.h"
#include "logdev_ksyms.h"

LIST_HEAD(ld_probes);	/* under ld_probes_mutex */

/*
 * A probe's call site: the one a removed probe of the same name and
 * definition had (its id kept: ld_site_reclaim()), else a new one.
 */
static struct logdev_site *ld_site_new(const char *func, const char *fmt,
				       u32 line)
{
	struct logdev_site *s = ld_site_reclaim("probe", func, fmt, line);

	if (s)
		return s;
	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return NULL;
	s->file = kstrdup("probe", GFP_KERNEL);
	s->func = kstrdup(func, GFP_KERNEL);
	s->fmt = kstrdup(fmt, GFP_KERNEL);
	s->line = line;
	if (!s->file || !s->func || !s->fmt) {
		ld_site_adopt(s);	/* no id yet: frees it */
		return NULL;
	}
	return s;
}

/* The call sites of @p's records (formats from its fetches). */
static int ld_probe_sites(struct ld_pctx *c, struct ld_probe *p)
{
	char func[LD_PROBE_NAME_LEN + 8], *fmt;

	fmt = ld_fmt_make(p->entry, p->nr_entry);
	if (!fmt)
		return ld_fail(c, NULL, -ENOMEM, "out of memory");
	p->site = ld_site_new(p->name, fmt, p->offset);
	kfree(fmt);
	if (!p->site)
		return ld_fail(c, NULL, -ENOMEM, "out of memory");
	if (p->kind == LD_PROBE_KRETPROBE) {
		fmt = ld_fmt_make(p->ret, p->nr_ret);
		if (!fmt)
			return ld_fail(c, NULL, -ENOMEM, "out of memory");
		snprintf(func, sizeof(func), "%s%%return", p->name);
		p->ret_site = ld_site_new(func, fmt, 0);
		kfree(fmt);
		if (!p->ret_site)
			return ld_fail(c, NULL, -ENOMEM, "out of memory");
	}
	return 0;
}

/* ------------------------------------------------------------- (un)arming */

/* Register @p's kprobe, kretprobe or tracepoint probe; 0 or -errno. */
static int ld_probe_register(struct ld_probe *p)
{
	switch (p->kind) {
	case LD_PROBE_KPROBE:
		if (p->addr)
			p->kp.addr = (kprobe_opcode_t *)p->addr;
		else
			p->kp.symbol_name = p->ksym;
		p->kp.offset = p->offset;
		p->kp.pre_handler = ld_kp_handler;
		return register_kprobe(&p->kp);
	case LD_PROBE_KRETPROBE:
		if (p->addr)
			p->rp.kp.addr = (kprobe_opcode_t *)p->addr;
		else
			p->rp.kp.symbol_name = p->ksym;
		p->rp.handler = ld_rp_return;
		p->rp.entry_handler = ld_rp_entry;
		p->rp.maxactive = p->maxactive ?:
			max_t(int, 64, 4 * num_possible_cpus());
		return register_kretprobe(&p->rp);
	default:
		if (!IS_ENABLED(CONFIG_TRACEPOINTS))
			return -EOPNOTSUPP;	/* refused by ld_parse_target() */
		return tracepoint_probe_register(p->tp, ld_tp_probe, p);
	}
}

/* The kprobe of a kprobe or kretprobe, else NULL. */
static struct kprobe *ld_probe_kp(struct ld_probe *p)
{
	return p->kind == LD_PROBE_KPROBE ? &p->kp :
	       p->kind == LD_PROBE_KRETPROBE ? &p->rp.kp : NULL;
}

/*
 * Of a return probe's current arming (0 unarmed): the kretprobe's own
 * nmissed, the entries whose return it could not catch because no
 * instance was free (maxactive: kprobes' pre_handler_kretprobe()).
 */
unsigned long ld_probe_nmissed_inst(struct ld_probe *p)
{
	return p->armed && p->kind == LD_PROBE_KRETPROBE ? (unsigned long)p->rp.nmissed : 0;
}

/*
 * The kprobes core's nmissed of the current arming (0 unarmed): hits
 * skipped because a kprobe handler was already running on that CPU (the
 * kprobe's own count; a return probe's kprobe is rp.kp), and of a return
 * probe also ld_probe_nmissed_inst().
 */
unsigned long ld_probe_nmissed(struct ld_probe *p)
{
	if (!p->armed)
		return 0;
	return p->kind == LD_PROBE_KPROBE ? p->kp.nmissed :
	       p->kind == LD_PROBE_KRETPROBE ? p->rp.kp.nmissed + ld_probe_nmissed_inst(p) : 0;
}

/*
 * Is @p armed on text that was freed (its module went, or its __init code
 * after the module's init: the kprobes core's "gone" flag)?
 */
bool ld_probe_gone(struct ld_probe *p)
{
	struct kprobe *kp = ld_probe_kp(p);

	return p->armed && kp && kprobe_gone(kp);
}

/*
 * The trace clocks ld_clock_select() can choose: a writer calls one between
 * its load of write_off and its cmpxchg, so a probe in one would write its
 * record inside every reservation and make it retry, every time
 * (ld_reserve_slow() gives up after LD_RESERVE_TRIES; found by a fresh
 * user with a probe on trace_clock_local, which hung the CPU then).  The
 * "local" clock is called as sched_clock() (logdev_clock.c), which is not
 * noinstr on every kernel (6.1's x86 one is not); its callees
 * (native_sched_clock(), ...) are noinstr, which kprobes refuses itself.
 */
static const char * const ld_clock_funcs[] = {
	"trace_clock_local", "sched_clock", "trace_clock_global",
	"ktime_get_mono_fast_ns",
};

static void ld_probe_unregister(struct ld_probe *p);

/* @kp resolved to an address in one of ld_clock_funcs[]: true */
static bool ld_kp_in_clock(const struct kprobe *kp)
{
	char name[64];	/* longer names cannot equal one of the clocks' */
	int i;

	snprintf(name, sizeof(name), "%ps", kp->addr);
	for (i = 0; i < ARRAY_SIZE(ld_clock_funcs); i++)
		if (!strcmp(name, ld_clock_funcs[i]))
			return true;
	return false;
}

/*
 * Arm @p: a fresh kprobe (a kprobe that was registered once keeps the
 * address it resolved, which kprobes refuses beside a symbol name); a
 * kprobe by name in a module is given as MOD:FUNC.  Learns the module the
 * target is in.  0 or -errno (unarmed): -EDEADLK if it resolved into a
 * trace clock (ld_clock_funcs[]: unregistered again), else the error of
 * ld_probe_register().
 */
static int ld_probe_arm(struct ld_probe *p)
{
	struct kprobe *kp = ld_probe_kp(p);
	int ret;

	lockdep_assert_held(&ld_probes_mutex);
	if (kp) {
		memset(&p->kp, 0, sizeof(p->kp));
		memset(&p->rp, 0, sizeof(p->rp));
		if (*p->mod && !strchr(p->sym, ':'))
			snprintf(p->ksym, sizeof(p->ksym), "%s:%s", p->mod, p->sym);
		else
			strscpy(p->ksym, p->sym, sizeof(p->ksym));
	}
	ret = ld_probe_register(p);
	if (ret)
		return ret;
	if (kp && ld_kp_in_clock(kp)) {
		ld_probe_unregister(p);
		return -EDEADLK;
	}
	p->armed = true;
	p->was_armed = true;
	p->arm_err = 0;
	if (kp && !*p->mod)
		ld_ksym_addr_module((unsigned long)kp->addr, p->mod);
	return 0;
}

/* Unregister; when this returns no handler of @p runs or will run. */
static void ld_probe_unregister(struct ld_probe *p)
{
	switch (p->kind) {
	case LD_PROBE_KPROBE:
		unregister_kprobe(&p->kp);
		break;
	case LD_PROBE_KRETPROBE:
		unregister_kretprobe(&p->rp);
		break;
	default:
		if (!IS_ENABLED(CONFIG_TRACEPOINTS))
			break;
		tracepoint_probe_unregister(p->tp, ld_tp_probe, p);
		tracepoint_synchronize_unregister();
		break;
	}
}

/* Disarm @p if armed, keeping its miss count. */
static void ld_probe_disarm(struct ld_probe *p)
{
	if (!p->armed)
		return;
	p->missed_before += ld_probe_nmissed(p);
	p->missed_inst_before += ld_probe_nmissed_inst(p);
	ld_probe_unregister(p);
	p->armed = false;
}

/* Free an unarmed probe; its sites go to the table (or are freed). */
static void ld_probe_free(struct ld_probe *p)
{
	if (p->site)
		ld_site_adopt(p->site);
	if (p->ret_site)
		ld_site_adopt(p->ret_site);
	kfree(p);
}

/* The probe named @name, or NULL; under ld_probes_mutex. */
struct ld_probe *ld_probe_find(const char *name)
{
	struct ld_probe *p;

	list_for_each_entry(p, &ld_probes, list)
		if (!strcmp(p->name, name))
			return p;
	return NULL;
}

/*
 * A glob target ("p:vfs_*"): one probe per matching text function, at most
 * LD_GLOB_ATTACH_MAX (more: -E2BIG, saying how many match).  Each is named
 * as a probe on that function alone would be (with NAME given: NAME_FUNC);
 * names defined more than once, blacklisted functions and names already
 * taken are skipped; none attached: -ENOENT.  Any other error detaches
 * those of this command.  Consumes @p.
 */
static noinline_for_stack int ld_probe_add_glob(struct ld_pctx *c, struct ld_probe *p)
{
	const char *at = c->buf + p->target_off;
	char prefix[LD_PROBE_NAME_LEN];
	unsigned int i, dups = 0, skipped = 0, defs[LD_GLOB_ATTACH_MAX];
	struct ld_ksym_glob g;
	struct ld_probe *q, *n;
	LIST_HEAD(added);
	int ret;

	strscpy(prefix, p->named ? p->name : "", sizeof(prefix));
	ret = ld_ksyms_glob(&g, p->sym, LD_GLOB_ATTACH_MAX, &dups);
	if (!ret && g.n > g.max)
		ret = ld_fail(c, at, -E2BIG,
			      "%s matches %u functions, more than %d a glob may attach: narrow it (probe_functions lists them)",
			      p->sym, g.n, LD_GLOB_ATTACH_MAX);
	else if (!ret)	/* one walk for all: ld_check_unique() of each */
		ret = ld_ksyms_count_each((const char * const *)g.names, defs, g.n);
	if (ret) {
		if (!c->err)
			ret = ld_ksyms_fail(c, at, ret, p->sym);
		goto out_free;
	}
	for (i = 0; i < g.n; i++) {
		const char *colon = strchr(g.names[i], ':');

		q = kmemdup(p, sizeof(*p), GFP_KERNEL);
		if (!q) {
			ret = ld_fail(c, NULL, -ENOMEM, "out of memory");
			goto err_undo;
		}
		INIT_LIST_HEAD(&q->list);
		strscpy(q->sym, g.names[i], sizeof(q->sym));
		*q->name = '\0';
		ld_make_name(q);
		if (*prefix) {
			char nm[LD_PROBE_NAME_LEN];

			scnprintf(nm, sizeof(nm), "%s_%s", prefix, q->name);
			strscpy(q->name, nm, sizeof(q->name));
		}
		if (ld_probe_find(q->name) || defs[i] != 1) {
			skipped++;
			kfree(q);
			continue;
		}
		/* as ld_check_unique(): the module of MOD:NAME */
		if (colon)
			strscpy(q->mod, g.names[i], min_t(size_t, sizeof(q->mod),
							  colon - g.names[i] + 1));
		ret = ld_probe_sites(c, q);
		if (ret) {
			ld_probe_free(q);
			goto err_undo;
		}
		ret = ld_probe_arm(q);
		if (ret == -EINVAL || ret == -EILSEQ || ret == -ENOENT || ret == -EDEADLK) {
			skipped++;
			ld_probe_free(q);
			continue;
		}
		if (ret) {
			ld_fail(c, at, ret, "cannot attach to %s (error %d)", q->sym, ret);
			ld_probe_free(q);
			goto err_undo;
		}
		list_add_tail(&q->list, &added);
	}
	if (list_empty(&added)) {
		ret = ld_fail(c, at, -ENOENT,
			      "%s: no probe-able function among %u matches (%u blacklisted, taken or ambiguous)",
			      p->sym, g.n + dups, skipped + dups);
		goto out_free;
	}
	list_splice_tail(&added, &ld_probes);
	ret = 0;
	goto out_free;

err_undo:
	list_for_each_entry_safe(q, n, &added, list) {
		list_del(&q->list);
		ld_probe_disarm(q);
		ld_probe_free(q);
	}
out_free:
	ld_ksyms_glob_free(&g);
	ld_probe_free(p);
	return ret;
}

/*
 * Add the probe of command @cmd (not a removal; in @c->buf): parsed, its
 * call sites made, armed (or left pending for a module not loaded yet) and
 * listed; a glob attaches one per function.  Under ld_probes_mutex.
 * 0, or the error with its reason in @c (ld_fail()).
 */
int ld_probe_add(struct ld_pctx *c, char *cmd)
{
	const char *at;
	struct ld_probe *p, *old;
	int ret;

	lockdep_assert_held(&ld_probes_mutex);
	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return ld_fail(c, NULL, -ENOMEM, "out of memory");
	ret = ld_parse(c, p, cmd);
	if (ret)
		goto err_free;
	if (p->kind != LD_PROBE_TRACEPOINT && !p->addr && ld_is_glob(p->sym))
		return ld_probe_add_glob(c, p);
	ret = ld_probe_sites(c, p);
	if (ret)
		goto err_free;
	at = c->buf + p->target_off;
	old = ld_probe_find(p->name);
	if (old) {
		if (old->kind != p->kind && !strcmp(old->sym, p->sym))
			ret = ld_fail(c, c->buf, -EEXIST,
				      "a probe named %s exists (%c: on the same function; a name is one probe's records): name this one, e.g. %c:%s_%s %s",
				      p->name, ld_probe_kind_char[old->kind],
				      ld_probe_kind_char[p->kind], p->name,
				      p->kind == LD_PROBE_KRETPROBE ? "ret" : "entry",
				      p->sym);
		else
			ret = ld_fail(c, c->buf, -EEXIST,
				      "a probe named %s exists (%c:%s %s): remove it (-:%s) or give another name",
				      p->name, ld_probe_kind_char[old->kind], old->name,
				      old->sym, old->name);
		goto err_free;
	}
	/* not known (no source: < 0): as if loaded, the command then fails at once */
	if (p->kind != LD_PROBE_TRACEPOINT && !p->addr && strchr(p->sym, ':') &&
	    !ld_ksym_module_loaded(p->sym, strchr(p->sym, ':') - p->sym)) {
		/* MOD:FUNC of a module not loaded: armed when it loads */
		strscpy(p->mod, p->sym, min_t(size_t, sizeof(p->mod),
					      strchr(p->sym, ':') - p->sym + 1));
		list_add_tail(&p->list, &ld_probes);
		return 0;
	}
	ret = ld_check_unique(c, p);
	if (!ret)
		ret = ld_check_offset(c, p);
	if (ret)
		goto err_free;
	ret = ld_probe_arm(p);
	if (ret) {
		ld_fail(c, at, ret, "cannot attach to %s%s%s%s (error %d%s)",
			p->system, *p->system ? ":" : "", p->sym,
			p->offset ? "+OFFSET" : "", ret,
			ret == -EINVAL ? ": blacklisted or not a probe point" :
			ret == -EDEADLK ? ": a trace clock, which logdev reads inside every record's reservation (a probe there would nest a record in each)" :
			ret == -EILSEQ ? ": not an instruction boundary" :
			ret == -ENOENT ? ": no such symbol or address" : "");
		goto err_free;
	}
	list_add_tail(&p->list, &ld_probes);
	return 0;

err_free:
	ld_probe_free(p);
	return ret;
}

/* Unlist, disarm (no handler runs after) and free @p; under ld_probes_mutex. */
void ld_probe_remove(struct ld_probe *p)
{
	lockdep_assert_held(&ld_probes_mutex);
	list_del(&p->list);
	ld_probe_disarm(p);
	ld_probe_free(p);
}

/* Remove every probe (takes ld_probes_mutex). */
void ld_probes_remove_all(void)
{
	struct ld_probe *p, *n;

	mutex_lock(&ld_probes_mutex);
	list_for_each_entry_safe(p, n, &ld_probes, list)
		ld_probe_remove(p);
	mutex_unlock(&ld_probes_mutex);
}

/* --------------------------------------------------- module load, unload */

/*
 * Arming @p on the load of its module (p->mod) failed with @ret, whose
 * reason ld_fail() left in @c: kept as the listing's "error=", and in
 * error_log and the kernel log as "probe NAME not armed on the load of
 * MOD: REASON".
 */
static void ld_rearm_failed(struct ld_probe *p, struct ld_pctx *c, int ret)
{
	char *why;

	p->arm_err = ret;
	why = kasprintf(GFP_KERNEL, "probe %s not armed on the load of %s: %s",
			p->name, p->mod, c->reason);
	if (why)
		strscpy(c->reason, why, sizeof(c->reason));
	ld_errlog_add(c);
	pr_warn("%s\n", c->reason);
	kfree(why);
}

/*
 * Arm @p again on the load of its module (MODULE_STATE_COMING: the module's
 * text, __init code included, is in place and its symbols are listed, its
 * init has not run).  FUNC must still be there once; a failure is left in
 * error_log and the listing ("error=").
 */
static noinline_for_stack void ld_probe_rearm(struct ld_probe *p)
{
	struct ld_pctx c = { .rearm = true };
	char *line;
	int ret;

	line = kasprintf(GFP_KERNEL, "%c:%s %s", ld_probe_kind_char[p->kind],
			 p->name, p->sym);
	if (!line) {
		p->arm_err = -ENOMEM;
		pr_warn("probe %s not armed on the load of %s: out of memory\n",
			p->name, p->mod);
		return;
	}
	c.text = line;
	c.buf = line;
	/* what ld_check_unique() points at: the target */
	p->target_off = strlen(line) - strlen(p->sym);
	ret = ld_check_unique(&c, p);
	if (!ret) {
		ret = ld_probe_arm(p);
		if (ret)
			ld_fail(&c, line + p->target_off, ret,
				"cannot attach to it (error %d)", ret);
	}
	if (ret)
		ld_rearm_failed(p, &c, ret);
	kfree(line);
}

/*
 * The module notifier (as ftrace's trace_kprobe_module_callback()): on
 * MODULE_STATE_COMING the probes on that module's functions (by name) are
 * armed, those written before it was loaded and those disarmed when a
 * module of that name went; on MODULE_STATE_LIVE probes whose text the
 * kprobes core marked gone (__init code, freed now) are disarmed; on
 * MODULE_STATE_GOING every probe in the module is disarmed.  A disarmed
 * probe keeps its counts and call sites.  Runs in the loading or unloading
 * task, after the kprobes core's own notifier (same priority, registered
 * later); takes ld_probes_mutex, as the probes file's writers, which may
 * read the module list (module_mutex) and register kprobes but never wait
 * for a module load.
 */
static int ld_probes_module_cb(struct notifier_block *nb, unsigned long action,
			       void *data)
{
	struct module *mod = data;
	struct ld_probe *p;

	if (action != MODULE_STATE_COMING && action != MODULE_STATE_LIVE &&
	    action != MODULE_STATE_GOING)
		return NOTIFY_DONE;
	mutex_lock(&ld_probes_mutex);
	list_for_each_entry(p, &ld_probes, list) {
		if (p->kind == LD_PROBE_TRACEPOINT || strcmp(p->mod, mod->name))
			continue;
		if (action == MODULE_STATE_GOING ||
		    (action == MODULE_STATE_LIVE && ld_probe_gone(p))) {
			ld_probe_disarm(p);
		} else if (action == MODULE_STATE_COMING && !p->addr &&
			   (!p->armed || ld_probe_gone(p))) {
			ld_probe_disarm(p);	/* a gone one the GOING missed */
			ld_probe_rearm(p);
		}
	}
	mutex_unlock(&ld_probes_mutex);
	return NOTIFY_DONE;
}

static struct notifier_block ld_probes_module_nb = {
	.notifier_call = ld_probes_module_cb,
	.priority = 0,	/* after the kprobes core's (0, registered first) */
};

#if defined(CONFIG_MODULES) && defined(CONFIG_TRACEPOINTS)
/*
 * Arm @p, a probe on a tracepoint of @mod (coming), again; a failure is
 * left in error_log and the listing ("error="), as ld_probe_rearm().
 */
static void ld_tp_rearm(struct ld_probe *p, struct module *mod)
{
	struct ld_pctx c = { .rearm = true };
	int ret = -ENOENT;
	char *line;

	p->tp = ld_tp_of_mod(mod, p->sym);
	if (p->tp)
		ret = ld_probe_arm(p);
	if (!ret)
		return;
	line = kasprintf(GFP_KERNEL, "t:%s %s:%s", p->name, p->system, p->sym);
	c.text = line ?: p->sym;
	c.buf = c.text;
	if (ret == -ENOENT)
		ld_fail(&c, NULL, ret, "no tracepoint %s in it", p->sym);
	else
		ld_fail(&c, NULL, ret, "cannot attach to tracepoint %s (error %d)",
			p->sym, ret);
	ld_rearm_failed(p, &c, ret);	/* p->mod is mod->name */
	kfree(line);
}

/*
 * The tracepoint module notifier (register_tracepoint_module_notifier(), as
 * LTTng's): called with the tracepoint core's module list locked, for each
 * module with tracepoints at MODULE_STATE_COMING (once its jump labels are
 * in place, before its init) and MODULE_STATE_GOING (after its exit, before
 * the tracepoint core checks that no probe is left on them and frees it);
 * at registration, COMING for every module already loaded.  Keeps
 * logdev_probe_tp.c's list of them; disarms the probes on a going module's tracepoints (keeping
 * their counts: "state=gone") and arms those again when a module of that
 * name comes.  Lock order: the tracepoint core's module list mutex, then
 * ld_probes_mutex, then (registering) its tracepoints_mutex; nothing here
 * takes them the other way round.
 */
static int ld_tp_module_cb(struct notifier_block *nb, unsigned long action, void *data)
{
	struct module *mod = ((struct tp_module *)data)->mod;
	struct ld_probe *p;

	if (action != MODULE_STATE_COMING && action != MODULE_STATE_GOING)
		return NOTIFY_DONE;
	mutex_lock(&ld_probes_mutex);
	if (action == MODULE_STATE_COMING)
		ld_tp_mod_add(mod);
	else
		ld_tp_mod_del(mod);
	list_for_each_entry(p, &ld_probes, list) {
		if (p->kind != LD_PROBE_TRACEPOINT || strcmp(p->mod, mod->name))
			continue;
		if (action == MODULE_STATE_GOING) {
			ld_probe_disarm(p);
			p->tp = NULL;
		} else if (!p->armed) {
			ld_tp_rearm(p, mod);
		}
	}
	mutex_unlock(&ld_probes_mutex);
	return NOTIFY_OK;
}

static struct notifier_block ld_tp_module_nb = {
	.notifier_call = ld_tp_module_cb,
};

static int ld_tp_notifier_register(void)
{
	return register_tracepoint_module_notifier(&ld_tp_module_nb);
}

/*
 * The unregistration calls ld_tp_module_cb() with MODULE_STATE_GOING for
 * every module still loaded with tracepoints: that empties ld_tp_mods and
 * disarms the probes on them.
 */
static void ld_tp_notifier_unregister(void)
{
	unregister_tracepoint_module_notifier(&ld_tp_module_nb);
}
#else
static int ld_tp_notifier_register(void)
{
	return 0;
}

static void ld_tp_notifier_unregister(void)
{
}
#endif

/**
 * ld_probe_notifiers_register() - the module notifiers that re-arm probes
 * on module loads (one for functions, one for tracepoints)
 *
 * Return: 0, or the error of register_module_notifier() or
 * register_tracepoint_module_notifier() (then none is registered).
 */
int ld_probe_notifiers_register(void)
{
	int ret = register_module_notifier(&ld_probes_module_nb);

	if (ret)
		return ret;
	ret = ld_tp_notifier_register();
	if (ret)
		unregister_module_notifier(&ld_probes_module_nb);
	return ret;
}

/**
 * ld_probe_notifiers_unregister() - the notifiers go (a running callback
 * is waited for; the tracepoint one's unregistration disarms the probes on
 * modules' tracepoints)
 */
void ld_probe_notifiers_unregister(void)
{
	unregister_module_notifier(&ld_probes_module_nb);
	ld_tp_notifier_unregister();
}
