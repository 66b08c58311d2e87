// SPDX-License-Identifier: GPL-2.0
/*
 * logdev_probe_tp.c - the tracepoints of t: probes: finding one by name in
 * vmlinux or a loaded module (the modules the tracepoint module notifier
 * reported), how many arguments it passes (the raw tracepoint map), and
 * its TP_PROTO arguments by name (ld_tp_named(): position and type from
 * the kernel's BTF, read by logdev_btf.c).
 *
 * Layer: probes (logdev_probes.h); calls the error log, the symbol lookups
 * (logdev_probe_syms.c, logdev_ksyms_query.c) and the BTF reader.  Under
 * ld_probes_mutex.
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/tracepoint.h>
#include <linux/kallsyms.h>
#include <linux/slab.h>
#include <linux/list.h>
#include <linux/string.h>
#include "logdev_probes.h"
#include "logdev_btf.h"
#include "logdev_ksyms.h"

#define LD_TP_PARAMS_MAX	17	/* __data and 16 arguments read from the BTF */

/**
 * struct ld_tp_params - a tracepoint's TP_PROTO arguments, from the BTF of
 * its class function __bpf_trace_<class>(void *__data, TP_PROTO...)
 * @err:  0, or why they could not be read (said once in error_log)
 * @n:    parameters of the class function, __data included
 * @p:    the first LD_TP_PARAMS_MAX: @p[0] is __data, @p[N] is $argN
 * @cls:  the class function's name (from the raw tracepoint map)
 */
struct ld_tp_params {
	int err;
	u32 n;
	struct ld_btf_param p[LD_TP_PARAMS_MAX];
	char cls[KSYM_SYMBOL_LEN];
};

struct ld_tp_find {
	const char *name;
	struct tracepoint *tp;
};

static void ld_tp_match(struct tracepoint *tp, void *priv)
{
	struct ld_tp_find *f = priv;

	if (!f->tp && !strcmp(tp->name, f->name))
		f->tp = tp;
}

#if defined(CONFIG_MODULES) && defined(CONFIG_TRACEPOINTS)
/*
 * The loaded modules that have tracepoints, as the tracepoint module
 * notifier reports them (ld_tp_module_cb(): added at MODULE_STATE_COMING,
 * removed at MODULE_STATE_GOING, before the module's memory is freed).
 * Under ld_probes_mutex.  for_each_kernel_tracepoint() lists vmlinux's
 * tracepoints only, and the kernel's list of modules is not exported.
 */
struct ld_tp_mod {
	struct list_head list;
	struct module *mod;
};
static LIST_HEAD(ld_tp_mods);

/* Tracepoint @name of @mod, or NULL. */
struct tracepoint *ld_tp_of_mod(struct module *mod, const char *name)
{
	unsigned int i;

	for (i = 0; i < mod->num_tracepoints; i++) {
		struct tracepoint *tp = tracepoint_ptr_deref(&mod->tracepoints_ptrs[i]);

		if (!strcmp(tp->name, name))
			return tp;
	}
	return NULL;
}

/*
 * Tracepoint @name in the first loaded module that has one (in load
 * order), its module's name copied to @modname (MODULE_NAME_LEN bytes);
 * NULL if none has.
 */
static struct tracepoint *ld_tp_in_modules(const char *name, char *modname)
{
	struct ld_tp_mod *m;
	struct tracepoint *tp;

	lockdep_assert_held(&ld_probes_mutex);
	list_for_each_entry(m, &ld_tp_mods, list) {
		tp = ld_tp_of_mod(m->mod, name);
		if (tp) {
			strscpy(modname, m->mod->name, MODULE_NAME_LEN);
			return tp;
		}
	}
	return NULL;
}
#else
static struct tracepoint *ld_tp_in_modules(const char *name, char *modname)
{
	return NULL;
}
#endif

/**
 * ld_tp_lookup() - tracepoint @name: vmlinux's, else the first loaded
 * module's that has one (its name copied to @modname, MODULE_NAME_LEN
 * bytes, else left as it is)
 * @name:    the event name
 * @modname: where the module's name goes
 *
 * Return: the tracepoint, or NULL if none has that name.
 */
struct tracepoint *ld_tp_lookup(const char *name, char *modname)
{
	struct ld_tp_find f = { .name = name };

	/* a small built-in kernel may have none (docs/BUILTIN.md): no call
	 * to for_each_kernel_tracepoint() is left to link then */
	if (!IS_ENABLED(CONFIG_TRACEPOINTS))
		return NULL;
	for_each_kernel_tracepoint(ld_tp_match, &f);
	if (!f.tp)
		f.tp = ld_tp_in_modules(name, modname);
	return f.tp;
}

#if defined(CONFIG_MODULES) && defined(CONFIG_TRACEPOINTS)
/**
 * ld_tp_mod_add() - @mod, coming, has tracepoints (the tracepoint module
 * notifier, logdev_probe_arm.c); under ld_probes_mutex
 * @mod: the module
 */
void ld_tp_mod_add(struct module *mod)
{
	struct ld_tp_mod *m = kmalloc(sizeof(*m), GFP_KERNEL);

	if (m) {
		m->mod = mod;
		list_add_tail(&m->list, &ld_tp_mods);
	} else {
		pr_warn("out of memory: t: will not find the tracepoints of %s\n",
			mod->name);
	}
}

/**
 * ld_tp_mod_del() - @mod is going: forget it; under ld_probes_mutex
 * @mod: the module
 */
void ld_tp_mod_del(struct module *mod)
{
	struct ld_tp_mod *m, *n;

	list_for_each_entry_safe(m, n, &ld_tp_mods, list) {
		if (m->mod == mod) {
			list_del(&m->list);
			kfree(m);
		}
	}
}
#endif

/* ------------------------------------------ tracepoint arguments by name */

/*
 * Section bounds in vmlinux, found once through kallsyms (they are data
 * symbols: CONFIG_KALLSYMS_ALL) under ld_probes_mutex: the BTF and the raw
 * tracepoint map (struct bpf_raw_event_map of each built-in tracepoint
 * with a trace event, CONFIG_BPF_EVENTS).  0 where not found.
 */
enum { LD_SEC_BTF, LD_SEC_BTF_END, LD_SEC_RAW_TP, LD_SEC_RAW_TP_END, LD_NR_SECS };
static unsigned long ld_secs[LD_NR_SECS];

/*
 * Walk kallsyms for the sections unless ld_secs[@first..@last], the ones
 * the caller needs, are known: the raw map's user (every t: probe with a
 * $argN) does not walk again on a kernel without BTF.  0, or -errno of
 * ld_ksyms_find().
 */
static int ld_secs_find(int first, int last)
{
	static const char * const names[LD_NR_SECS] = {
		"__start_BTF", "__stop_BTF", "__start__bpf_raw_tp", "__stop__bpf_raw_tp",
	};
	int i;

	lockdep_assert_held(&ld_probes_mutex);
	for (i = first; i <= last; i++)
		if (!ld_secs[i])
			return ld_ksyms_find(names, ld_secs, LD_NR_SECS);
	return 0;
}

/*
 * vmlinux's raw tracepoint map, [@b, @e), if kallsyms has it and its size
 * is whole entries; false (and @b, @e untouched) if not.
 */
static bool ld_vmlinux_raw_map(const struct bpf_raw_event_map **b,
			       const struct bpf_raw_event_map **e)
{
	unsigned long a, z;

	if (ld_secs_find(LD_SEC_RAW_TP, LD_SEC_RAW_TP_END))
		return false;
	a = ld_secs[LD_SEC_RAW_TP];
	z = ld_secs[LD_SEC_RAW_TP_END];
	if (!a || z < a || (z - a) % sizeof(**b))
		return false;
	*b = (const struct bpf_raw_event_map *)a;
	*e = (const struct bpf_raw_event_map *)z;
	return true;
}

/*
 * The raw tracepoint map entry of @p's tracepoint, or NULL: vmlinux's map
 * for a built-in one, its module's (mod->bpf_raw_events) for a module's.
 * A tracepoint without a trace event (a bare DECLARE_TRACE) has none.
 */
static const struct bpf_raw_event_map *ld_tp_raw_entry(struct ld_probe *p)
{
	const struct bpf_raw_event_map *e = NULL, *end = NULL;

	if (*p->mod) {
#if defined(CONFIG_MODULES) && defined(CONFIG_TRACEPOINTS) && defined(CONFIG_BPF_EVENTS)
		struct ld_tp_mod *m;

		list_for_each_entry(m, &ld_tp_mods, list)
			if (!strcmp(m->mod->name, p->mod)) {
				e = m->mod->bpf_raw_events;
				end = e + m->mod->num_bpf_raw_events;
				break;
			}
#endif
	} else {
		ld_vmlinux_raw_map(&e, &end);
	}
	for (; e && e < end; e++)
		if (e->tp == p->tp)
			return e;
	return NULL;
}

/*
 * How many arguments @p's tracepoint passes (its raw map entry's num_args),
 * or -1 where no map says (then $argN is not checked against it).
 */
int ld_tp_nargs(struct ld_pctx *c, struct ld_probe *p)
{
	const struct bpf_raw_event_map *e;

	if (!c->tp_nargs) {
		e = ld_tp_raw_entry(p);
		c->tp_nargs = e ? (int)e->num_args + 1 : -1;
	}
	return c->tp_nargs < 0 ? -1 : c->tp_nargs - 1;
}

/*
 * The TP_PROTO arguments of @p's tracepoint into @t: the event's entry in
 * the raw tracepoint map (__start__bpf_raw_tp..__stop__bpf_raw_tp, the
 * struct bpf_raw_event_map of each built-in tracepoint: its class function
 * __bpf_trace_<class> and its number of arguments), then that function's
 * parameters in vmlinux's BTF (__start_BTF..__stop_BTF, the bytes of
 * /sys/kernel/btf/vmlinux) through our reader (logdev_btf.c).  Section
 * symbols are data: found by walking kallsyms (CONFIG_KALLSYMS_ALL).
 * A module's tracepoint is refused here (-EOPNOTSUPP): its class function
 * and split BTF are the module's, which this does not read.
 * Returns 0 or the error, with the reason at @at (-EOPNOTSUPP: no BTF, no
 * map; $argN still works).
 */
static noinline_for_stack int ld_tp_params_load(struct ld_pctx *c, struct ld_probe *p,
						const char *at, struct ld_tp_params *t)
{
	const unsigned long *a = ld_secs;	/* vmlinux's sections never move */
	const struct bpf_raw_event_map *e, *end;
	struct ld_btf btf;
	int ret;

	lockdep_assert_held(&ld_probes_mutex);
	if (*p->mod)
		return ld_fail(c, at, -EOPNOTSUPP,
			       "%s is a tracepoint of module %s: arguments by name are known for vmlinux's tracepoints only; $argN works",
			       p->sym, p->mod);
	if (!IS_ENABLED(CONFIG_DEBUG_INFO_BTF))
		return ld_fail(c, at, -EOPNOTSUPP,
			       "this kernel has no BTF (CONFIG_DEBUG_INFO_BTF): arguments by name are not known; $argN works");
	ret = ld_secs_find(LD_SEC_BTF, LD_SEC_RAW_TP_END);
	if (ret)
		return ld_ksyms_fail(c, at, ret, "the BTF's location ($argN works)");
	if (!a[0] || a[1] <= a[0])
		return ld_fail(c, at, -EOPNOTSUPP,
			       "no BTF in kallsyms (__start_BTF; CONFIG_DEBUG_INFO_BTF, CONFIG_KALLSYMS_ALL): $argN works");
	if (!ld_vmlinux_raw_map(&e, &end))
		return ld_fail(c, at, -EOPNOTSUPP,
			       "no raw tracepoint map in kallsyms (__start__bpf_raw_tp; CONFIG_BPF_EVENTS): $argN works");
	e = ld_tp_raw_entry(p);
	if (!e)
		return ld_fail(c, at, -EOPNOTSUPP,
			       "%s is not in the raw tracepoint map: its arguments by name are not known; $argN works",
			       p->sym);
	sprint_symbol_no_offset(t->cls, (unsigned long)e->bpf_func);
	if (strncmp(t->cls, "__bpf_trace_", 12))
		return ld_fail(c, at, -EOPNOTSUPP,
			       "the class function of %s is %s, not __bpf_trace_*: $argN works",
			       p->sym, t->cls);
	ret = ld_btf_open(&btf, (const void *)a[0], a[1] - a[0], NULL);
	if (ret)
		return ld_fail(c, at, ret,
			       "the kernel's BTF cannot be read (error %d): $argN works", ret);
	ret = ld_btf_func_params(&btf, t->cls, t->p, LD_TP_PARAMS_MAX, &t->n);
	ld_btf_close(&btf);
	if (ret == -ENOENT)
		return ld_fail(c, at, -EOPNOTSUPP,
			       "no BTF for %s (the class function of %s): $argN works",
			       t->cls, p->sym);
	if (ret)
		return ld_fail(c, at, ret, "the BTF of %s cannot be read (error %d): $argN works",
			       t->cls, ret);
	if (!t->n || t->p[0].kind != LD_BTF_PTR || t->n - 1 != e->num_args)
		return ld_fail(c, at, -EOPNOTSUPP,
			       "%s(%u parameters) is not (void *__data, the %u arguments of %s): $argN works",
			       t->cls, t->n, e->num_args, p->sym);
	return 0;
}

/* The arguments' names, "a b c", into @out (@size bytes). */
static void ld_tp_arg_names(const struct ld_tp_params *t, char *out, size_t size)
{
	u32 i;

	*out = '\0';
	for (i = 1; i < min_t(u32, t->n, LD_TP_PARAMS_MAX); i++) {
		if (i > 1)
			strlcat(out, " ", size);
		strlcat(out, *t->p[i].name ? t->p[i].name : "?", size);
	}
	if (t->n > LD_TP_PARAMS_MAX)
		strlcat(out, " ...", size);
}

/* Can the value of @prm be read from one register? */
static bool ld_tp_reg_sized(const struct ld_btf_param *prm)
{
	return (prm->kind == LD_BTF_INT || prm->kind == LD_BTF_PTR) &&
	       (prm->size == 1 || prm->size == 2 || prm->size == 4 || prm->size == 8);
}

/*
 * A bare identifier @s in a t: probe's fetch (not inlined: ld_parse_fetch()
 * recurses, and @list would be in each of its frames): the TP_PROTO argument of
 * that name, as $argN of its position (@f), its type for ld_parse_arg()
 * in c->named.  Refused with the reason: no BTF (-EOPNOTSUPP), a name that
 * is not an argument (-ENOENT, listing them), an argument past the
 * registers ld_tp_probe() reads (-EINVAL, as $arg6), one logdev cannot
 * record (a struct, union or float by value: -EOPNOTSUPP), or one after
 * such an argument (its register is not known: -EOPNOTSUPP).
 */
noinline_for_stack int ld_tp_named(struct ld_pctx *c, struct ld_probe *p,
				   struct ld_fetch *f, char *s)
{
	const struct ld_btf_param *prm;
	struct ld_tp_params *t = c->tpp;
	char list[160];
	u32 i, k;

	if (!t) {
		t = kzalloc(sizeof(*t), GFP_KERNEL);
		if (!t)
			return ld_fail(c, s, -ENOMEM, "out of memory");
		c->tpp = t;
		t->err = ld_tp_params_load(c, p, s, t);
	}
	if (t->err)
		return t->err;
	for (i = 1; i < min_t(u32, t->n, LD_TP_PARAMS_MAX); i++)
		if (!strcmp(t->p[i].name, s) ||
		    (t->p[i].name_long && !strncmp(t->p[i].name, s, LD_BTF_NAME_LEN - 1)))
			break;
	if (i >= min_t(u32, t->n, LD_TP_PARAMS_MAX)) {
		ld_tp_arg_names(t, list, sizeof(list));
		return ld_fail(c, s, -ENOENT, "%s has no argument '%s'; its arguments: %s",
			       p->sym, s, *list ? list : "none");
	}
	prm = &t->p[i];
	for (k = 1; k < i; k++)
		if (!ld_tp_reg_sized(&t->p[k]))
			return ld_fail(c, s, -EOPNOTSUPP,
				       "'%s' comes after '%s', a %s%s by value (not one register): where '%s' is passed is not known",
				       s, t->p[k].name,
				       t->p[k].kind == LD_BTF_AGGR ? "struct or union " :
				       t->p[k].kind == LD_BTF_FLOAT ? "float " : "",
				       *t->p[k].type_name ? t->p[k].type_name : "?", s);
	if (i > LD_TP_MAX_ARGS)
		return ld_fail(c, s, -EINVAL,
			       "'%s' is argument %u of %s: logdev reads the first %d (registers), as $arg1..$arg%d",
			       s, i, p->sym, LD_TP_MAX_ARGS, LD_TP_MAX_ARGS);
	if (prm->kind == LD_BTF_AGGR)
		return ld_fail(c, s, -EOPNOTSUPP,
			       "'%s' is a struct or union passed by value (%s): only integers, enums and pointers are recorded",
			       s, prm->type_name);
	if (prm->kind == LD_BTF_FLOAT)
		return ld_fail(c, s, -EOPNOTSUPP,
			       "'%s' is a floating-point value (%s): only integers, enums and pointers are recorded",
			       s, prm->type_name);
	if (!ld_tp_reg_sized(prm))
		return ld_fail(c, s, -EOPNOTSUPP,
			       "'%s' has a type logdev cannot record (%s, %u bytes)",
			       s, *prm->type_name ? prm->type_name : "?", prm->size);
	f->base = LD_FB_ARG;
	f->val = i;
	c->named = prm;
	return 0;
}
