// SPDX-License-Identifier: GPL-2.0
/*
 * logdev_probes.c - run-time probe points: the debugfs files "probes",
 * "error_log" and "probe_functions" (modelled on ftrace's kprobe_events,
 * error_log and available_filter_functions; docs/DEBUGFS.md describes
 * them), and the feature's init and exit.
 *
 * One command per write to "probes" (its grammar: logdev_probe_parse.c);
 * a refused command leaves the reason, the command and the position of the
 * fault in "error_log" (last LD_ERRLOG_MAX).  "probe_functions" lists the
 * probe-able functions matching a glob.  The work is the probes layer's
 * (logdev_probes.h): parse, arm, fetch at hit time, tracepoints and
 * symbols.
 *
 * Layer: feature (logdev_features.h); creates "probes", "error_log",
 * "probe_functions" and (logdev_ksyms.c) "ksyms", and calls the probes layer.
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/kallsyms.h>
#include <linux/seq_file.h>
#include <linux/debugfs.h>
#include <linux/uaccess.h>
#include <linux/string.h>
#include <linux/slab.h>
#include <linux/mutex.h>
#include <linux/mm.h>
#include "logdev_features.h"
#include "logdev_probes.h"
#include "logdev_ksyms.h"

/* ------------------------------------------------------ probe_functions */

static char ld_list_pat[KSYM_NAME_LEN] = "";	/* under ld_probes_mutex */

/*
 * Reading: the text functions matching the glob last written, one per
 * line, sorted, without the kprobe blacklist (each is tried as a disabled
 * kprobe, which patches nothing), renamed ones marked; a first line says
 * how many matched and how many were left out.
 */
static int ld_list_show(struct seq_file *m, void *v)
{
	struct ld_ksym_glob g;
	struct kprobe *kps, **kpp;
	unsigned int i, dups = 0, nbl = 0, nk = 0;
	int ret;

	mutex_lock(&ld_probes_mutex);
	if (!*ld_list_pat) {
		seq_puts(m, "# write a glob first: echo 'vfs_*' > probe_functions\n");
		goto out;
	}
	ret = ld_ksyms_glob(&g, ld_list_pat, LD_LIST_MAX, &dups);
	if (ret) {
		char why[256];

		if (ret == -EOPNOTSUPP)
			ld_ksyms_why(why, sizeof(why));
		else
			snprintf(why, sizeof(why), "error %d%s", ret,
				 ret == -EAGAIN ? ": modules loaded or unloaded meanwhile, read it again" : "");
		seq_printf(m, "# cannot list %s: %s\n", ld_list_pat, why);
		goto out_free;
	}
	if (g.n > g.max) {
		seq_printf(m, "# %s matches %u functions, more than %d: narrow the glob\n",
			   ld_list_pat, g.n, LD_LIST_MAX);
		goto out_free;
	}
	kps = kvcalloc(g.n ?: 1, sizeof(*kps), GFP_KERNEL);
	kpp = kvcalloc(g.n ?: 1, sizeof(*kpp), GFP_KERNEL);
	if (!kps || !kpp) {
		seq_puts(m, "# out of memory\n");
		goto out_kps;
	}
	for (i = 0; i < g.n; i++) {
		if (g.copies[i] > 1)
			continue;	/* listed, marked: a probe by name refuses it */
		kps[i].symbol_name = g.names[i];
		kps[i].flags = KPROBE_FLAG_DISABLED;
		if (register_kprobe(&kps[i])) {
			nbl++;
			kps[i].symbol_name = NULL;
		} else {
			kpp[nk++] = &kps[i];
		}
	}
	seq_printf(m, "# %u functions match %s; %u not probe-able (kprobe blacklist, or not a probe point) left out; %u names defined more than once (probe them as 0xADDR)\n",
		   g.n + dups, ld_list_pat, nbl, dups);
	for (i = 0; i < g.n; i++) {
		const char *r;

		if (!kps[i].symbol_name && g.copies[i] <= 1)
			continue;
		r = ld_renamed(g.names[i]);
		if (g.copies[i] > 1)
			seq_printf(m, "%s\t(defined %u times: refused by name, probe one as 0xADDR)\n",
				   g.names[i], g.copies[i]);
		else if (r)
			seq_printf(m, "%s\t(renamed by the compiler: %s)\n", g.names[i], r);
		else
			seq_printf(m, "%s\n", g.names[i]);
	}
	if (nk)
		unregister_kprobes(kpp, nk);
out_kps:
	kvfree(kps);
	kvfree(kpp);
out_free:
	ld_ksyms_glob_free(&g);
out:
	mutex_unlock(&ld_probes_mutex);
	return 0;
}

static int ld_list_open(struct inode *inode, struct file *f)
{
	return single_open(f, ld_list_show, NULL);
}

/*
 * One glob, [A-Za-z0-9_.*?[]!-], at most KSYM_NAME_LEN - 1 bytes, and one
 * trailing newline, as every control file (docs/DEBUGFS.md): spaces around
 * it, a second newline or a NUL are -EINVAL, and the old glob is kept.
 */
static ssize_t ld_list_write(struct file *f, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	size_t len = count;
	ssize_t ret = count;
	char *buf;

	if (count > KSYM_NAME_LEN)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, count);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	if (len && buf[len - 1] == '\n')
		buf[--len] = '\0';
	if (!len || len >= KSYM_NAME_LEN ||
	    strspn(buf, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.*?[]!-") != len) {
		ret = -EINVAL;
	} else {
		mutex_lock(&ld_probes_mutex);
		strscpy(ld_list_pat, buf, sizeof(ld_list_pat));
		mutex_unlock(&ld_probes_mutex);
	}
	kfree(buf);
	return ret;
}

static const struct file_operations ld_list_fops = {
	.owner = THIS_MODULE,
	.open = ld_list_open,
	.read = seq_read,
	.write = ld_list_write,
	.llseek = seq_lseek,
	.release = single_release,
};

/* ------------------------------------------------------------------- file */

static int ld_probes_show(struct seq_file *m, void *v)
{
	struct ld_probe *p;

	mutex_lock(&ld_probes_mutex);
	list_for_each_entry(p, &ld_probes, list) {
		seq_putc(m, ld_probe_kind_char[p->kind]);
		if (p->maxactive)
			seq_printf(m, "%d", p->maxactive);
		seq_printf(m, ":%s%s%s ", p->group, *p->group ? "/" : "", p->name);
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
			seq_printf(m, " returns=%ld", atomic_long_read(&p->rets));
		if (p->kind != LD_PROBE_TRACEPOINT)
			seq_printf(m, " missed=%lu", p->missed_before + ld_probe_nmissed(p));
		if (p->kind == LD_PROBE_KRETPROBE)
			seq_printf(m, " missed_maxactive=%lu",
				   p->missed_inst_before + ld_probe_nmissed_inst(p));
		if (!p->armed || ld_probe_gone(p))
			seq_printf(m, " state=%s", p->was_armed ? "gone" : "pending");
		if (p->arm_err)
			seq_printf(m, " error=%d", p->arm_err);
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
	struct ld_pctx c = { };
	bool too_long = count >= LD_PROBE_CMD_MAX;
	struct ld_probe *p;
	char *buf, *text, *cmd;
	size_t len;
	int ret;

	/* too long: its head is kept, for error_log */
	len = too_long ? LD_PROBE_CMD_MAX - 1 : count;
	buf = memdup_user_nul(ubuf, len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	if (len && buf[len - 1] == '\n' && !too_long)
		buf[--len] = '\0';
	text = kstrdup(buf, GFP_KERNEL);	/* as written, for error_log */
	if (!text) {
		kfree(buf);
		return -ENOMEM;
	}
	c.text = text;
	c.buf = buf;

	mutex_lock(&ld_probes_mutex);
	if (too_long) {
		ret = ld_fail(&c, buf + len, -EINVAL,
			      "a write of %zu bytes: one command is at most %d bytes",
			      count, LD_PROBE_CMD_MAX - 1);
		goto out;
	}
	if (strlen(buf) != len || strchr(buf, '\n')) {
		/* embedded NUL, or more than one line */
		ret = ld_fail(&c, buf + strcspn(buf, "\n"), -EINVAL,
			      "one command per write, no NUL or newline inside");
		goto out;
	}
	cmd = strim(buf);
	if (!*cmd || *cmd == '#') {
		/*
		 * A blank line or a comment does nothing, as in ftrace's
		 * kprobe_events: removing every probe is the O_TRUNC of the
		 * open ("echo > probes"), never a write, so the tail of a
		 * command a tool wrote in two pieces cannot clear the list.
		 */
		ret = 0;
		goto out;
	}
	if (*cmd == '-') {
		/* -NAME, or ftrace's -:[GRP/]NAME */
		char *name = cmd + 1, *grp = NULL, *slash;

		if (*name == ':') {
			name++;
			slash = strchr(name, '/');
			if (slash) {
				*slash = '\0';
				grp = name;
				name = slash + 1;
			}
		}
		if (grp && !ld_good_name(grp)) {
			ret = ld_fail(&c, ld_bad_byte(grp), -EINVAL,
				      "removal: group name is not an identifier");
		} else if (!ld_good_name(name)) {
			ret = ld_fail(&c, ld_bad_byte(name), -EINVAL,
				      "removal: probe name is not an identifier");
		} else if ((p = ld_probe_find(name)) &&
			   (!grp || !strcmp(grp, *p->group ? p->group : "kprobes"))) {
			ld_probe_remove(p);
			ret = 0;
		} else if (p) {
			ret = ld_fail(&c, grp, -ENOENT, "probe %s is not in group %s (it is in %s)",
				      name, grp, *p->group ? p->group : "kprobes");
		} else {
			ret = ld_fail(&c, name, -ENOENT, "no probe %s to remove",
				      name);
		}
	} else {
		ret = ld_probe_add(&c, cmd);
	}
out:
	if (ret)
		ld_errlog_add(&c);
	mutex_unlock(&ld_probes_mutex);
	kfree(c.tpp);
	kfree(text);
	kfree(buf);
	return ret ? ret : count;
}

static const struct file_operations ld_probes_fops = {
	.owner = THIS_MODULE,
	.open = ld_probes_open,
	.read = seq_read,
	.write = ld_probes_write,
	.llseek = seq_lseek,
	.release = single_release,
};

/* ------------------------------------------------------------- error_log */

/* @cmd with control bytes, '\\' and bytes above 0x7e as \xHH; *@caret: where
 * byte @pos of @cmd starts in the output */
static void ld_errlog_show_cmd(struct seq_file *m, const char *cmd, u32 pos,
			       u32 *caret)
{
	u32 i, col = 0;

	for (i = 0; cmd[i]; i++) {
		unsigned char ch = cmd[i];

		if (i == pos)
			*caret = col;
		if (ch < 0x20 || ch > 0x7e || ch == '\\') {
			seq_printf(m, "\\x%02x", ch);
			col += 4;
		} else {
			seq_putc(m, ch);
			col++;
		}
	}
	if (i <= pos)
		*caret = col;
}

static int ld_errlog_show(struct seq_file *m, void *v)
{
	u32 i, caret = 0;

	mutex_lock(&ld_probes_mutex);
	for (i = 0; i < ld_errlog_count; i++) {
		const struct ld_err *e = &ld_errlog[(ld_errlog_next + LD_ERRLOG_MAX -
						      ld_errlog_count + i) % LD_ERRLOG_MAX];
		u64 sec = e->ts;
		u32 ns = do_div(sec, NSEC_PER_SEC);

		seq_printf(m, "[%5llu.%06u] logdev: error: %s\n  Command: ",
			   sec, ns / 1000, e->reason);
		ld_errlog_show_cmd(m, e->cmd, e->pos, &caret);
		seq_printf(m, "\n%*s^\n", (int)(caret + 11), "");
	}
	mutex_unlock(&ld_probes_mutex);
	return 0;
}

static int ld_errlog_open(struct inode *inode, struct file *f)
{
	if ((f->f_mode & FMODE_WRITE) && (f->f_flags & O_TRUNC)) {
		mutex_lock(&ld_probes_mutex);
		ld_errlog_count = 0;
		ld_errlog_next = 0;
		mutex_unlock(&ld_probes_mutex);
	}
	return single_open(f, ld_errlog_show, NULL);
}

/* Writes are accepted and ignored: clearing is the O_TRUNC of the open. */
static ssize_t ld_errlog_write(struct file *f, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	return count;
}

static const struct file_operations ld_errlog_fops = {
	.owner = THIS_MODULE,
	.open = ld_errlog_open,
	.read = seq_read,
	.write = ld_errlog_write,
	.llseek = seq_lseek,
	.release = single_release,
};

/* ------------------------------------------------------------------- init */

/**
 * ld_probes_init() - create the "probes", "error_log", "probe_functions"
 * and "ksyms" files, and the module notifiers that re-arm probes on module loads (one
 * for functions, one for tracepoints)
 * @dir: the logdev debugfs directory
 *
 * Module init; no probe exists until one is written to "probes".
 * Return: 0, or the error of register_module_notifier() or
 * register_tracepoint_module_notifier().
 */
int ld_probes_init(struct dentry *dir)
{
	int ret = ld_probe_notifiers_register();

	if (ret)
		return ret;
	debugfs_create_file("probes", 0600, dir, NULL, &ld_probes_fops);
	debugfs_create_file("error_log", 0600, dir, NULL, &ld_errlog_fops);
	debugfs_create_file("probe_functions", 0600, dir, NULL, &ld_list_fops);
	ld_ksyms_init(dir);
	return 0;
}

/**
 * ld_probes_exit() - remove every probe (module unload)
 *
 * Call before the buffers are freed: afterwards no handler runs.  The
 * module notifiers go first (a running callback is waited for; the
 * tracepoint one's unregistration disarms the probes on modules'
 * tracepoints), so no probe is armed after this.
 */
void ld_probes_exit(void)
{
	ld_probe_notifiers_unregister();
	ld_probes_remove_all();
}
