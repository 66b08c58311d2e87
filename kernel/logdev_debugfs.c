// SPDX-License-Identifier: GPL-2.0
/*
 * logdev_debugfs.c - /sys/kernel/debug/logdev/: the control files (enable,
 * mode, clock, buffer_size_kb, subbuf_size, clear, flush) and the files
 * describing the recording (formats, header, stats).  docs/DEBUGFS.md
 * describes every file as implemented here; the other features create
 * their own files (logdev_pipe.c, logdev_probes.c, logdev_modlog.c).
 *
 * Layer: feature (logdev_features.h); calls the recording core's buffer
 * control and site table (logdev_core.h).
 *
 * Every control write is parsed whole: one optional trailing newline, no
 * other junk; a malformed write returns -EINVAL and changes nothing.
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/uaccess.h>
#include <linux/stddef.h>
#include "logdev_core.h"
#include "logdev_features.h"

/* ------------------------------------------------------------ write parse */

/* Index of @word in @names, or -EINVAL. */
static int ld_get_name(const char __user *ubuf, size_t count,
		       const char * const *names, int nr)
{
	char buf[16];
	int ret;

	ret = ld_get_word(ubuf, count, buf, sizeof(buf));
	return ret ? ret : ld_parse_name(buf, names, nr);
}

static __printf(4, 5)
ssize_t ld_read_text(char __user *ubuf, size_t count, loff_t *ppos,
		     const char *fmt, ...)
{
	char buf[128];
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vscnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

/* "[cur] other other\n" */
static ssize_t ld_read_choice(char __user *ubuf, size_t count, loff_t *ppos,
			      const char * const *names, int nr, int cur)
{
	char buf[64];
	int i, len = 0;

	for (i = 0; i < nr; i++)
		len += scnprintf(buf + len, sizeof(buf) - len,
				 i == cur ? "%s[%s]" : "%s%s",
				 i ? " " : "", names[i]);
	len += scnprintf(buf + len, sizeof(buf) - len, "\n");
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

/* ----------------------------------------------------------------- enable */

static ssize_t enable_read(struct file *f, char __user *ubuf, size_t count,
			   loff_t *ppos)
{
	return ld_read_text(ubuf, count, ppos, "%d\n", READ_ONCE(ld_cfg.enabled));
}

static ssize_t enable_write(struct file *f, const char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	char buf[24];
	bool on;
	int ret;

	ret = ld_get_word(ubuf, count, buf, sizeof(buf));
	if (!ret)
		ret = ld_parse_enable(buf, &on);
	if (ret)
		return ret;
	mutex_lock(&ld_cfg_mutex);
	ret = ld_set_enabled(on);
	mutex_unlock(&ld_cfg_mutex);
	return ret ? ret : count;
}

static const struct file_operations enable_fops = {
	.owner = THIS_MODULE,
	.read = enable_read,
	.write = enable_write,
	.llseek = default_llseek,
};

/* ------------------------------------------------------ mode, clock */

/*
 * A control file that selects one of a few names (mode, clock): reads
 * "[cur] other ...", writes one name; @set runs under ld_cfg_mutex and
 * refuses (-EBUSY) while recording or while a consuming reader is open
 * (ld_may_reset()).
 */
struct ld_choice {
	const char * const *names;
	int nr;
	int (*get)(void);
	int (*set)(int idx);
};

static int mode_get(void)
{
	return READ_ONCE(ld_cfg.mode);
}

static int mode_set(int idx)
{
	return ld_set_mode(idx);
}

static int clock_get(void)
{
	return READ_ONCE(ld_cfg.clock);
}

static int clock_set(int idx)
{
	return ld_set_clock(idx);
}

static const struct ld_choice ld_mode_choice = {
	ld_mode_names, ARRAY_SIZE(ld_mode_names), mode_get, mode_set,
};

static const struct ld_choice ld_clock_choice = {
	ld_clock_names, LD_NR_CLOCKS, clock_get, clock_set,
};

static ssize_t choice_read(struct file *f, char __user *ubuf, size_t count,
			   loff_t *ppos)
{
	const struct ld_choice *c = f->private_data;

	return ld_read_choice(ubuf, count, ppos, c->names, c->nr, c->get());
}

static ssize_t choice_write(struct file *f, const char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	const struct ld_choice *c = f->private_data;
	int ret;

	ret = ld_get_name(ubuf, count, c->names, c->nr);
	if (ret < 0)
		return ret;
	mutex_lock(&ld_cfg_mutex);
	ret = c->set(ret);
	mutex_unlock(&ld_cfg_mutex);
	return ret ? ret : count;
}

static const struct file_operations choice_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = choice_read,
	.write = choice_write,
	.llseek = default_llseek,
};

/* --------------------------------------------------------- buffer_size_kb */

static ssize_t size_kb_read(struct file *f, char __user *ubuf, size_t count,
			    loff_t *ppos)
{
	u64 kb;

	mutex_lock(&ld_cfg_mutex);
	kb = (u64)ld_cfg.subbuf_size * ld_cfg.nr_subbufs / 1024;
	mutex_unlock(&ld_cfg_mutex);
	return ld_read_text(ubuf, count, ppos, "%llu\n", kb);
}

static ssize_t size_kb_write(struct file *f, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	char buf[24];
	u64 kb;
	u32 nr;
	int ret;

	ret = ld_get_word(ubuf, count, buf, sizeof(buf));
	if (!ret)
		ret = ld_parse_size_kb(buf, &kb);
	if (ret)
		return ret;
	mutex_lock(&ld_cfg_mutex);
	if (ld_size_kb_subbufs(kb, ld_cfg.subbuf_size, &nr))
		ret = -EINVAL;
	else
		ret = ld_resize(ld_cfg.subbuf_size, nr);
	mutex_unlock(&ld_cfg_mutex);
	return ret ? ret : count;
}

static const struct file_operations size_kb_fops = {
	.owner = THIS_MODULE,
	.read = size_kb_read,
	.write = size_kb_write,
	.llseek = default_llseek,
};

/* ------------------------------------------------------------ subbuf_size */

static ssize_t subbuf_read(struct file *f, char __user *ubuf, size_t count,
			   loff_t *ppos)
{
	return ld_read_text(ubuf, count, ppos, "%u\n", READ_ONCE(ld_cfg.subbuf_size));
}

static ssize_t subbuf_write(struct file *f, const char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	char buf[24];
	u32 size, nr;
	int ret;

	ret = ld_get_word(ubuf, count, buf, sizeof(buf));
	if (!ret)
		ret = ld_parse_subbuf_size(buf, &size);
	if (ret)
		return ret;
	mutex_lock(&ld_cfg_mutex);
	/* keep buffer_size_kb: both are powers of two, so whole sub-buffers */
	if (ld_size_kb_subbufs((u64)ld_cfg.subbuf_size * ld_cfg.nr_subbufs / 1024,
			       size, &nr))
		ret = -EINVAL;
	else
		ret = ld_resize(size, nr);
	mutex_unlock(&ld_cfg_mutex);
	return ret ? ret : count;
}

static const struct file_operations subbuf_fops = {
	.owner = THIS_MODULE,
	.read = subbuf_read,
	.write = subbuf_write,
	.llseek = default_llseek,
};

/* ---------------------------------------------------------- clear, flush */

static ssize_t clear_write(struct file *f, const char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	char buf[64];
	int ret;

	ret = ld_get_word(ubuf, count, buf, sizeof(buf));
	if (!ret)
		ret = ld_parse_clear(buf);
	if (ret)
		return ret;
	mutex_lock(&ld_cfg_mutex);
	ret = ld_clear_all();
	mutex_unlock(&ld_cfg_mutex);
	return ret ? ret : count;
}

static const struct file_operations clear_fops = {
	.owner = THIS_MODULE,
	.write = clear_write,
	.llseek = default_llseek,
};

static ssize_t flush_write(struct file *f, const char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	char buf[24];
	int ret;

	ret = ld_get_word(ubuf, count, buf, sizeof(buf));
	if (!ret)
		ret = ld_parse_flush(buf);
	if (ret)
		return ret;
	mutex_lock(&ld_cfg_mutex);
	ld_flush_all();
	mutex_unlock(&ld_cfg_mutex);
	return count;
}

static const struct file_operations flush_fops = {
	.owner = THIS_MODULE,
	.write = flush_write,
	.llseek = default_llseek,
};

/* ---------------------------------------------------------------- formats */

/*
 * Iterator value: site id + 1, so that it never equals SEQ_START_TOKEN (1)
 * or NULL; *pos is the site id.
 */
static void *fmt_find(loff_t *pos)
{
	u32 n = ld_nr_sites();

	for (; *pos <= n; (*pos)++)
		if (ld_site_get(*pos))
			return (void *)(uintptr_t)(*pos + 1);
	return NULL;
}

static void *fmt_start(struct seq_file *m, loff_t *pos)
{
	mutex_lock(&ld_sites_mutex);
	if (!*pos)
		return SEQ_START_TOKEN;
	return fmt_find(pos);
}

static void *fmt_next(struct seq_file *m, void *v, loff_t *pos)
{
	(*pos)++;
	return fmt_find(pos);
}

static void fmt_stop(struct seq_file *m, void *v)
{
	mutex_unlock(&ld_sites_mutex);
}

static int fmt_show(struct seq_file *m, void *v)
{
	if (v == SEQ_START_TOKEN)
		seq_puts(m, LD_FORMATS_HEAD);
	else
		ld_site_show(m, (uintptr_t)v - 1);
	return 0;
}

static const struct seq_operations formats_sops = {
	.start = fmt_start,
	.next = fmt_next,
	.stop = fmt_stop,
	.show = fmt_show,
};
DEFINE_SEQ_ATTRIBUTE(formats);	/* formats_open(), formats_fops */

/* ----------------------------------------------------------------- header */

#define LD_FIELD(m, st, name, f)					\
	seq_printf(m, "field: %s.%s offset:%zu size:%zu\n", name, #f,	\
		   offsetof(struct st, f), sizeof(((struct st *)0)->f))

static int header_show(struct seq_file *m, void *v)
{
	mutex_lock(&ld_cfg_mutex);
	seq_printf(m, "version: %d\n", LOGDEV_FORMAT_VERSION);
	seq_printf(m, "endian: %s\n",
		   IS_ENABLED(CONFIG_CPU_BIG_ENDIAN) ? "big" : "little");
	seq_printf(m, "subbuf_size: %u\n", ld_cfg.subbuf_size);
	seq_printf(m, "nr_subbufs: %u\n", ld_cfg.nr_subbufs);
	seq_printf(m, "subbuf_hdr_size: %zu\n", sizeof(struct logdev_subbuf_hdr));
	seq_printf(m, "rec_hdr_size: %zu\n", sizeof(struct logdev_rec_hdr));
	seq_printf(m, "clock: %s\n", ld_clock_names[ld_cfg.clock]);
	seq_printf(m, "mode: %s\n", ld_mode_names[ld_cfg.mode]);
	mutex_unlock(&ld_cfg_mutex);

	LD_FIELD(m, logdev_subbuf_hdr, "subbuf", magic);
	LD_FIELD(m, logdev_subbuf_hdr, "subbuf", version);
	LD_FIELD(m, logdev_subbuf_hdr, "subbuf", cpu);
	LD_FIELD(m, logdev_subbuf_hdr, "subbuf", seq);
	LD_FIELD(m, logdev_subbuf_hdr, "subbuf", first_ts);
	LD_FIELD(m, logdev_subbuf_hdr, "subbuf", data_bytes);
	LD_FIELD(m, logdev_subbuf_hdr, "subbuf", flags);
	LD_FIELD(m, logdev_subbuf_hdr, "subbuf", dropped_before);
	LD_FIELD(m, logdev_subbuf_hdr, "subbuf", overrun_before);
	LD_FIELD(m, logdev_subbuf_hdr, "subbuf", nesting_lost_before);
	LD_FIELD(m, logdev_subbuf_hdr, "subbuf", too_big_before);
	LD_FIELD(m, logdev_rec_hdr, "rec", ts);
	LD_FIELD(m, logdev_rec_hdr, "rec", site);
	LD_FIELD(m, logdev_rec_hdr, "rec", len);
	LD_FIELD(m, logdev_rec_hdr, "rec", type);
	LD_FIELD(m, logdev_rec_hdr, "rec", ctx);
	LD_FIELD(m, logdev_rec_hdr, "rec", pid);
	LD_FIELD(m, logdev_rec_hdr, "rec", arg_bytes);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(header);

static_assert(sizeof(struct logdev_subbuf_hdr) == LOGDEV_SUBBUF_HDR_SIZE);
static_assert(sizeof(struct logdev_rec_hdr) == LOGDEV_REC_HDR_SIZE);

/* ------------------------------------------------------------------ stats */

static int stats_show(struct seq_file *m, void *v)
{
	struct ld_stats st;
	int cpu;

	for_each_possible_cpu(cpu) {
		ld_cpu_stats(cpu, &st);
		seq_printf(m, "cpu=%d written=%llu read=%llu overrun=%llu dropped=%llu nesting_lost=%llu too_big=%llu bytes=%llu comm=%llu\n",
			   cpu, st.written, st.read, st.overrun, st.dropped,
			   st.nesting_lost, st.too_big, st.bytes,
			   ld_comm_written(cpu));
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(stats);

/* ------------------------------------------------------------------- init */

/**
 * ld_debugfs_init() - create the control and description files
 * @dir: the logdev debugfs directory
 *
 * enable, mode, clock, buffer_size_kb, subbuf_size, clear, flush, formats,
 * header and stats.  Module init; a file that cannot be created is missing
 * (debugfs reports why), as for every debugfs user.
 */
void ld_debugfs_init(struct dentry *dir)
{
	debugfs_create_file("enable", 0600, dir, NULL, &enable_fops);
	debugfs_create_file("mode", 0600, dir, (void *)&ld_mode_choice,
			    &choice_fops);
	debugfs_create_file("clock", 0600, dir, (void *)&ld_clock_choice,
			    &choice_fops);
	debugfs_create_file("buffer_size_kb", 0600, dir, NULL, &size_kb_fops);
	debugfs_create_file("subbuf_size", 0600, dir, NULL, &subbuf_fops);
	debugfs_create_file("clear", 0200, dir, NULL, &clear_fops);
	debugfs_create_file("flush", 0200, dir, NULL, &flush_fops);
	debugfs_create_file("formats", 0400, dir, NULL, &formats_fops);
	debugfs_create_file("header", 0400, dir, NULL, &header_fops);
	debugfs_create_file("stats", 0400, dir, NULL, &stats_fops);
}
