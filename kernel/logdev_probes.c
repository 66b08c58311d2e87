// SPDX-License-Identifier: GPL-2.0
/*
 * logdev_probes.c - run-time probe points, the debugfs "probes" file
 * (modelled on ftrace's kprobe_events; docs/DEBUGFS.md describes it).
 *
 * One command per write:
 *   [p:][NAME=]FUNC[+OFFSET] [ARG]...   kprobe at FUNC (+OFFSET bytes)
 *   r:[NAME=]FUNC [ARG]...              kretprobe; its entry handler records
 *                                       the entry too, so the reader can pair
 *                                       them into a duration
 *   t:[NAME=]SYSTEM:EVENT [ARG]...      built-in tracepoint EVENT (SYSTEM is
 *                                       not checked: struct tracepoint has
 *                                       no system name)
 *   -NAME                               remove one probe
 *   (empty write, or open with O_TRUNC) remove every probe
 * ARG is [ANAME=]$argN (N 1..6, the function argument by position; for a
 * tracepoint N 1..5, the probe's arguments after its data, x86-64 only) or
 * [ANAME=]$retval (return probes).
 *
 * Every hit is a LOGDEV_REC_PRINT record of the probe's own call site: file
 * "probe", func NAME (NAME%return for the return of an r: probe), line
 * OFFSET; its format is "arg1=%llx ..." and its payload one u64 per
 * argument, as vbin_printf() stores %llx, so readers render it like any
 * edprint().  Handlers run in any context (kprobes: irqs off) and only call
 * the lock-free ld_write_print().
 *
 * Probes are kept on a list under ld_probes_mutex; a handler only touches
 * its own probe.  Removal unregisters (which waits for running handlers)
 * before freeing; the call sites go to the site table (ld_site_adopt()) so
 * "formats" still describes records already taken.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/tracepoint.h>
#include <linux/kallsyms.h>
#include <linux/ptrace.h>
#include <linux/seq_file.h>
#include <linux/debugfs.h>
#include <linux/uaccess.h>
#include <linux/string.h>
#include <linux/ctype.h>
#include <linux/slab.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/cpumask.h>
#include "logdev_internal.h"

#define LD_PROBE_NAME_LEN	64
#define LD_PROBE_MAX_ARGS	8
#define LD_PROBE_CMD_MAX	1024	/* bytes of one write */
#define LD_PROBE_ARG_RETVAL	0	/* ld_probe.*_idx: 0 $retval, N $argN */

#ifdef CONFIG_X86_64
#define LD_TP_MAX_ARGS		5	/* register arguments after __data */
#else
#define LD_TP_MAX_ARGS		0
#endif

enum ld_probe_kind {
	LD_PROBE_KPROBE,
	LD_PROBE_KRETPROBE,
	LD_PROBE_TRACEPOINT,
};

static const char ld_probe_kind_char[] = { 'p', 'r', 't' };

/**
 * struct ld_probe - one attached probe
 * @list:      on ld_probes
 * @kind:      enum ld_probe_kind
 * @name:      unique name, the func of its call sites
 * @sym:       kprobes: the symbol; tracepoints: the event name
 * @system:    tracepoints: the system as written
 * @offset:    kprobes: bytes from @sym
 * @entry_idx: argument fetched for each u64 of an entry/kprobe/tracepoint
 *             record (N: $argN)
 * @ret_idx:   the same for a return record ($retval only)
 * @nr_entry: entries used in @entry_idx
 * @nr_ret:   entries used in @ret_idx
 * @args:      the argument words as written, for the listing
 * @site:      call site of entry/kprobe/tracepoint records
 * @ret_site:  call site of return records (r: only)
 * @hits:      handler calls (entries for r:)
 * @rets:      return handler calls (r:)
 * @kp:       the kprobe (p:)
 * @rp:       the kretprobe (r:)
 * @tp:       the tracepoint (t:)
 */
struct ld_probe {
	struct list_head list;
	enum ld_probe_kind kind;
	char name[LD_PROBE_NAME_LEN];
	char sym[KSYM_NAME_LEN];
	char system[LD_PROBE_NAME_LEN];
	unsigned long offset;
	u8 entry_idx[LD_PROBE_MAX_ARGS];
	u8 ret_idx[LD_PROBE_MAX_ARGS];
	u32 nr_entry, nr_ret;
	char args[256];
	struct logdev_site *site, *ret_site;
	atomic_long_t hits, rets;
	struct kprobe kp;
	struct kretprobe rp;
	struct tracepoint *tp;
};

static LIST_HEAD(ld_probes);
static DEFINE_MUTEX(ld_probes_mutex);

/* --------------------------------------------------------------- handlers */

static __always_inline void ld_probe_regs_record(struct logdev_site *site,
						 const u8 *idx, u32 n,
						 struct pt_regs *regs)
{
	u64 w[LD_PROBE_MAX_ARGS];
	u32 i;

	for (i = 0; i < n; i++)
		w[i] = idx[i] == LD_PROBE_ARG_RETVAL ?
			regs_return_value(regs) :
			regs_get_kernel_argument(regs, idx[i] - 1);
	ld_write_print(logdev_site_id(site), w, n * sizeof(u64));
}

static int ld_kp_handler(struct kprobe *kp, struct pt_regs *regs)
{
	struct ld_probe *p = container_of(kp, struct ld_probe, kp);

	atomic_long_inc(&p->hits);
	ld_probe_regs_record(p->site, p->entry_idx, p->nr_entry, regs);
	return 0;
}
NOKPROBE_SYMBOL(ld_kp_handler);

static int ld_rp_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct ld_probe *p = container_of(get_kretprobe(ri), struct ld_probe, rp);

	atomic_long_inc(&p->hits);
	ld_probe_regs_record(p->site, p->entry_idx, p->nr_entry, regs);
	return 0;
}
NOKPROBE_SYMBOL(ld_rp_entry);

static int ld_rp_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct ld_probe *p = container_of(get_kretprobe(ri), struct ld_probe, rp);

	atomic_long_inc(&p->rets);
	ld_probe_regs_record(p->ret_site, p->ret_idx, p->nr_ret, regs);
	return 0;
}
NOKPROBE_SYMBOL(ld_rp_return);

/*
 * The one probe function registered on every tracepoint, whatever its
 * prototype.  The tracepoint calls it as probe(__data, args...); on x86-64
 * the first five arguments after __data arrive in registers, so declaring
 * five unsigned longs reads registers only: an argument the tracepoint does
 * not have is a meaningless value, never a bad memory access (narrower
 * argument types leave the upper bits undefined).
 */
#if LD_TP_MAX_ARGS == 5
static void notrace ld_tp_probe(void *data, unsigned long a1, unsigned long a2,
				unsigned long a3, unsigned long a4,
				unsigned long a5)
{
	const unsigned long a[LD_TP_MAX_ARGS] = { a1, a2, a3, a4, a5 };
	struct ld_probe *p = data;
	u64 w[LD_PROBE_MAX_ARGS];
	u32 i;

	atomic_long_inc(&p->hits);
	for (i = 0; i < p->nr_entry; i++)
		w[i] = a[p->entry_idx[i] - 1];
	ld_write_print(logdev_site_id(p->site), w, p->nr_entry * sizeof(u64));
}
#else
static void notrace ld_tp_probe(void *data)
{
	struct ld_probe *p = data;

	atomic_long_inc(&p->hits);
	ld_write_print(logdev_site_id(p->site), NULL, 0);
}
#endif

/* ---------------------------------------------------------------- parsing */

static bool ld_good_name(const char *s)
{
	if (!*s || strlen(s) >= LD_PROBE_NAME_LEN || isdigit(*s))
		return false;
	for (; *s; s++)
		if (!isalnum(*s) && *s != '_')
			return false;
	return true;
}

/* A default name from a symbol: anything but [A-Za-z0-9_] becomes '_'. */
static void ld_make_name(char *dst, const char *sym, unsigned long off)
{
	char *c;

	if (off)
		snprintf(dst, LD_PROBE_NAME_LEN, "%s_%lu", sym, off);
	else
		strscpy(dst, sym, LD_PROBE_NAME_LEN);
	for (c = dst; *c; c++)
		if (!isalnum(*c))
			*c = '_';
}

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

/* One u64 word of a record's format: "NAME=%llx" appended to @fmt. */
static void ld_fmt_add(char *fmt, size_t size, const char *aname)
{
	if (*fmt)
		strlcat(fmt, " ", size);
	strlcat(fmt, aname, size);
	strlcat(fmt, "=%llx", size);
}

/*
 * "[ANAME=]$argN" or "[ANAME=]$retval": adds the fetch to @p and its word
 * to the entry format @fmt or the return format @rfmt (@size bytes each).
 */
static int ld_parse_arg(struct ld_probe *p, char *tok, char *fmt, char *rfmt,
			size_t size)
{
	char *eq = strchr(tok, '='), *src = tok, aname[32];
	unsigned int n;

	if (eq) {
		*eq = '\0';
		src = eq + 1;
		if (!ld_good_name(tok) || strlen(tok) >= sizeof(aname))
			return -EINVAL;
		strscpy(aname, tok, sizeof(aname));
	}
	if (p->nr_entry + p->nr_ret >= LD_PROBE_MAX_ARGS)
		return -E2BIG;
	if (!strcmp(src, "$retval")) {
		if (p->kind != LD_PROBE_KRETPROBE)
			return -EINVAL;
		if (!eq)
			strscpy(aname, "retval", sizeof(aname));
		p->ret_idx[p->nr_ret++] = LD_PROBE_ARG_RETVAL;
		ld_fmt_add(rfmt, size, aname);
		return 0;
	}
	if (strncmp(src, "$arg", 4) || src[4] < '1' || src[4] > '9' || src[5])
		return -EINVAL;
	n = src[4] - '0';
	if (n > (p->kind == LD_PROBE_TRACEPOINT ? LD_TP_MAX_ARGS : 6))
		return -EINVAL;
	if (!eq)
		snprintf(aname, sizeof(aname), "arg%u", n);
	p->entry_idx[p->nr_entry++] = n;
	ld_fmt_add(fmt, size, aname);
	return 0;
}

/* The target: FUNC[+OFFSET] or SYSTEM:EVENT, with the optional NAME=. */
static int ld_parse_target(struct ld_probe *p, char *spec)
{
	char *eq = strchr(spec, '='), *tgt = spec, *c;
	struct ld_tp_find f = { };

	if (eq) {
		*eq = '\0';
		tgt = eq + 1;
		if (!ld_good_name(spec))
			return -EINVAL;
		strscpy(p->name, spec, sizeof(p->name));
	}
	if (!*tgt)
		return -EINVAL;
	if (p->kind == LD_PROBE_TRACEPOINT) {
		c = strchr(tgt, ':');
		if (!c || c == tgt || !c[1] || strchr(c + 1, ':'))
			return -EINVAL;
		*c = '\0';
		if (strlen(tgt) >= sizeof(p->system) || strlen(c + 1) >= sizeof(p->sym))
			return -EINVAL;
		strscpy(p->system, tgt, sizeof(p->system));
		strscpy(p->sym, c + 1, sizeof(p->sym));
		f.name = p->sym;
		for_each_kernel_tracepoint(ld_tp_match, &f);
		if (!f.tp) {
			pr_info("probes: no built-in tracepoint '%s'\n", p->sym);
			return -ENOENT;
		}
		p->tp = f.tp;
	} else {
		c = strchr(tgt, '+');
		if (c) {
			*c = '\0';
			if (!c[1] || !isdigit(c[1]) || kstrtoul(c + 1, 0, &p->offset))
				return -EINVAL;
			if (p->kind == LD_PROBE_KRETPROBE && p->offset)
				return -EINVAL;
		}
		if (!*tgt || strlen(tgt) >= sizeof(p->sym))
			return -EINVAL;
		for (c = tgt; *c; c++)
			if (!isalnum(*c) && *c != '_' && *c != '.')
				return -EINVAL;
		strscpy(p->sym, tgt, sizeof(p->sym));
	}
	if (!eq)
		ld_make_name(p->name, p->sym, p->offset);
	return ld_good_name(p->name) ? 0 : -EINVAL;
}

static struct logdev_site *ld_site_new(const char *func, const char *fmt,
				       u32 line)
{
	struct logdev_site *s = kzalloc(sizeof(*s), GFP_KERNEL);

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

/* Fill @p from a command (not a removal); nothing is registered yet. */
static int ld_parse(struct ld_probe *p, char *cmd)
{
	char fmt[256] = "", rfmt[256] = "", func[LD_PROBE_NAME_LEN + 8];
	char *tok, *spec;
	int ret;

	spec = strsep(&cmd, " \t");
	if (!strncmp(spec, "r:", 2)) {
		p->kind = LD_PROBE_KRETPROBE;
		spec += 2;
	} else if (!strncmp(spec, "t:", 2)) {
		p->kind = LD_PROBE_TRACEPOINT;
		spec += 2;
	} else {
		p->kind = LD_PROBE_KPROBE;
		if (!strncmp(spec, "p:", 2))
			spec += 2;
	}
	ret = ld_parse_target(p, spec);
	if (ret)
		return ret;
	while ((tok = strsep(&cmd, " \t"))) {
		if (!*tok)
			continue;
		if (strlen(p->args) + strlen(tok) + 2 > sizeof(p->args))
			return -E2BIG;
		if (*p->args)
			strlcat(p->args, " ", sizeof(p->args));
		strlcat(p->args, tok, sizeof(p->args));
		ret = ld_parse_arg(p, tok, fmt, rfmt, sizeof(fmt));
		if (ret)
			return ret;
	}

	p->site = ld_site_new(p->name, fmt, p->offset);
	if (!p->site)
		return -ENOMEM;
	if (p->kind == LD_PROBE_KRETPROBE) {
		snprintf(func, sizeof(func), "%s%%return", p->name);
		p->ret_site = ld_site_new(func, rfmt, 0);
		if (!p->ret_site)
			return -ENOMEM;
	}
	return 0;
}

/* ------------------------------------------------------------- (un)arming */

static int ld_probe_arm(struct ld_probe *p)
{
	switch (p->kind) {
	case LD_PROBE_KPROBE:
		p->kp.symbol_name = p->sym;
		p->kp.offset = p->offset;
		p->kp.pre_handler = ld_kp_handler;
		return register_kprobe(&p->kp);
	case LD_PROBE_KRETPROBE:
		p->rp.kp.symbol_name = p->sym;
		p->rp.handler = ld_rp_return;
		p->rp.entry_handler = ld_rp_entry;
		p->rp.maxactive = max_t(int, 64, 4 * num_possible_cpus());
		return register_kretprobe(&p->rp);
	default:
		return tracepoint_probe_register(p->tp, ld_tp_probe, p);
	}
}

/* Unregister; when this returns no handler of @p runs or will run. */
static void ld_probe_disarm(struct ld_probe *p)
{
	switch (p->kind) {
	case LD_PROBE_KPROBE:
		unregister_kprobe(&p->kp);
		break;
	case LD_PROBE_KRETPROBE:
		unregister_kretprobe(&p->rp);
		break;
	default:
		tracepoint_probe_unregister(p->tp, ld_tp_probe, p);
		tracepoint_synchronize_unregister();
		break;
	}
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

static struct ld_probe *ld_probe_find(const char *name)
{
	struct ld_probe *p;

	list_for_each_entry(p, &ld_probes, list)
		if (!strcmp(p->name, name))
			return p;
	return NULL;
}

static int ld_probe_add(char *cmd)
{
	struct ld_probe *p;
	int ret;

	lockdep_assert_held(&ld_probes_mutex);
	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	ret = ld_parse(p, cmd);
	if (ret) {
		if (ret == -EINVAL || ret == -E2BIG)
			pr_info("probes: malformed probe definition\n");
		goto err_free;
	}
	if (ld_probe_find(p->name)) {
		pr_info("probes: '%s' exists\n", p->name);
		ret = -EEXIST;
		goto err_free;
	}
	ret = ld_probe_arm(p);
	if (ret) {
		pr_info("probes: cannot attach '%s' to %s%s+%lu: %d%s\n", p->name,
			p->system, p->sym, p->offset, ret,
			ret == -EINVAL ? " (blacklisted or not a probe point?)" :
			ret == -ENOENT ? " (no such symbol)" : "");
		goto err_free;
	}
	list_add_tail(&p->list, &ld_probes);
	return 0;

err_free:
	ld_probe_free(p);
	return ret;
}

static void ld_probe_remove(struct ld_probe *p)
{
	lockdep_assert_held(&ld_probes_mutex);
	list_del(&p->list);
	ld_probe_disarm(p);
	ld_probe_free(p);
}

static void ld_probes_remove_all(void)
{
	struct ld_probe *p, *n;

	mutex_lock(&ld_probes_mutex);
	list_for_each_entry_safe(p, n, &ld_probes, list)
		ld_probe_remove(p);
	mutex_unlock(&ld_probes_mutex);
}

/**
 * ld_probes_exit() - remove every probe (module unload)
 *
 * Call before the buffers are freed: afterwards no handler runs.
 */
void ld_probes_exit(void)
{
	ld_probes_remove_all();
}

/* ------------------------------------------------------------------- file */

static int ld_probes_show(struct seq_file *m, void *v)
{
	struct ld_probe *p;

	mutex_lock(&ld_probes_mutex);
	list_for_each_entry(p, &ld_probes, list) {
		seq_printf(m, "%c:%s ", ld_probe_kind_char[p->kind], p->name);
		if (p->kind == LD_PROBE_TRACEPOINT)
			seq_printf(m, "%s:%s", p->system, p->sym);
		else if (p->offset)
			seq_printf(m, "%s+%lu", p->sym, p->offset);
		else
			seq_printf(m, "%s", p->sym);
		if (*p->args)
			seq_printf(m, " %s", p->args);
		seq_printf(m, " hits=%ld", atomic_long_read(&p->hits));
		if (p->kind == LD_PROBE_KRETPROBE)
			seq_printf(m, " returns=%ld missed=%d",
				   atomic_long_read(&p->rets), p->rp.nmissed);
		else if (p->kind == LD_PROBE_KPROBE)
			seq_printf(m, " missed=%lu", p->kp.nmissed);
		seq_putc(m, '\n');
	}
	mutex_unlock(&ld_probes_mutex);
	return 0;
}

static int ld_probes_open(struct inode *inode, struct file *f)
{
	if ((f->f_mode & FMODE_WRITE) && (f->f_flags & O_TRUNC))
		ld_probes_remove_all();
	return single_open(f, ld_probes_show, NULL);
}

static ssize_t ld_probes_write(struct file *f, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	struct ld_probe *p;
	char *buf, *cmd;
	size_t len;
	int ret;

	if (count >= LD_PROBE_CMD_MAX)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, count);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	len = count;
	if (len && buf[len - 1] == '\n')
		buf[--len] = '\0';
	ret = -EINVAL;
	if (strlen(buf) != len || strchr(buf, '\n'))
		goto out;	/* embedded NUL, or more than one line */
	cmd = strim(buf);

	mutex_lock(&ld_probes_mutex);
	if (!*cmd) {
		mutex_unlock(&ld_probes_mutex);
		ld_probes_remove_all();
		ret = 0;
		goto out;
	}
	if (*cmd == '-') {
		if (!ld_good_name(cmd + 1)) {
			pr_info("probes: malformed removal '%s'\n", cmd);
			ret = -EINVAL;
		} else if ((p = ld_probe_find(cmd + 1))) {
			ld_probe_remove(p);
			ret = 0;
		} else {
			pr_info("probes: no probe '%s' to remove\n", cmd + 1);
			ret = -ENOENT;
		}
	} else {
		ret = ld_probe_add(cmd);
	}
	mutex_unlock(&ld_probes_mutex);
out:
	kfree(buf);
	return ret ? ret : count;
}

const struct file_operations ld_probes_fops = {
	.owner = THIS_MODULE,
	.open = ld_probes_open,
	.read = seq_read,
	.write = ld_probes_write,
	.llseek = seq_lseek,
	.release = single_release,
};
