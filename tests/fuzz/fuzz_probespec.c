// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_probespec.c - libFuzzer target: the debugfs "probes" file of
 * kernel/logdev_probes.c, its own source built in userspace (the Makefile
 * copies it to build/ and compiles it into this file, so its static parser
 * is reachable; kshim/ supplies the kernel it calls: ldk_kernel.h).
 *
 * Input: commands separated by byte 0x01, each written to "probes" as one
 * write (ld_probes_write(): parse, uniqueness check against a fake
 * kallsyms, attach to a fake kprobes/tracepoints, list, remove, error_log).
 * After the writes: the listing and the error_log are rendered, every
 * attached probe is fired once (its handlers record through a fake
 * ld_write_print()), and all probes are removed.
 * Checks beyond the sanitizers: a write returns its count or a negative
 * errno; a record's payload is at most 8 u64 and names registers the
 * handler may read ($argN 1..6, 1..5 for tracepoints); every probe is
 * unregistered at the end; nothing leaks (LeakSanitizer).
 */
#include "logdev_probes.c"

/* ---- the fake kernel: symbols (two "dup_fn": ambiguous), tracepoints */
static const struct { const char *name, *mod; unsigned long addr; } ldk_syms[] = {
	{ "vfs_read", NULL, 0xffffffff81100000UL },
	{ "vfs_write", NULL, 0xffffffff81100100UL },
	{ "dup_fn", NULL, 0xffffffff81100200UL },
	{ "dup_fn", "mymod", 0xffffffffc0000000UL },
	{ "do_sys_open.isra.0", NULL, 0xffffffff81100300UL },
	{ "mod_fn", "mymod", 0xffffffffc0000100UL },
	{ "kallsyms_on_each_symbol", NULL, 0xffffffff81200000UL },
	{ "module_kallsyms_on_each_symbol", NULL, 0xffffffff81200100UL },
};
static struct tracepoint ldk_tps[] = { { "sched_switch" }, { "kmem_cache_free" } };
static struct module ldk_mymod = { "mymod" };
static long ldk_armed;		/* registered and not yet unregistered */

typedef int (*ldk_sym_fn)(void *, const char *, struct module *, unsigned long);
static int ldk_each_vmlinux(ldk_sym_fn fn, void *data)
{
	for (size_t i = 0; i < ARRAY_SIZE(ldk_syms); i++)
		if (!ldk_syms[i].mod && fn(data, ldk_syms[i].name, NULL, ldk_syms[i].addr))
			return 1;
	return 0;
}
static int ldk_each_module(ldk_sym_fn fn, void *data)
{
	for (size_t i = 0; i < ARRAY_SIZE(ldk_syms); i++)
		if (ldk_syms[i].mod && fn(data, ldk_syms[i].name, &ldk_mymod, ldk_syms[i].addr))
			return 1;
	return 0;
}

static int ldk_resolve(struct kprobe *kp)
{
	const char *n = kp->symbol_name, *colon;

	if (kp->addr)
		return (unsigned long)kp->addr >= 0xffffffff80000000UL ? 0 : -EINVAL;
	if (!n)
		return -EINVAL;
	if (!strcmp(n, "kallsyms_on_each_symbol")) {
		kp->addr = (kprobe_opcode_t *)ldk_each_vmlinux;
		return 0;
	}
	if (!strcmp(n, "module_kallsyms_on_each_symbol")) {
		kp->addr = (kprobe_opcode_t *)ldk_each_module;
		return 0;
	}
	colon = strchr(n, ':');
	for (size_t i = 0; i < ARRAY_SIZE(ldk_syms); i++) {
		if (colon ? (ldk_syms[i].mod && !strncmp(n, ldk_syms[i].mod, colon - n) &&
			     !ldk_syms[i].mod[colon - n] && !strcmp(colon + 1, ldk_syms[i].name))
			  : !strcmp(n, ldk_syms[i].name)) {
			kp->addr = (kprobe_opcode_t *)(ldk_syms[i].addr + kp->offset);
			return kp->offset > 4096 ? -EILSEQ : 0;
		}
	}
	return -ENOENT;
}
int register_kprobe(struct kprobe *kp)
{
	int ret = ldk_resolve(kp);

	if (!ret)
		ldk_armed++;
	return ret;
}
void unregister_kprobe(struct kprobe *kp)
{
	(void)kp;
	if (--ldk_armed < 0)
		abort();
}
int register_kretprobe(struct kretprobe *rp)
{
	if (!rp->handler || !rp->entry_handler || rp->maxactive <= 0)
		abort();
	return register_kprobe(&rp->kp);
}
void unregister_kretprobe(struct kretprobe *rp) { unregister_kprobe(&rp->kp); }
struct kretprobe *ldk_kretprobe_of(struct kretprobe_instance *ri)
{
	return *(struct kretprobe **)ri;
}
void for_each_kernel_tracepoint(void (*fct)(struct tracepoint *, void *), void *priv)
{
	for (size_t i = 0; i < ARRAY_SIZE(ldk_tps); i++)
		fct(&ldk_tps[i], priv);
}
int tracepoint_probe_register(struct tracepoint *tp, void *probe, void *data)
{
	(void)tp, (void)probe, (void)data;
	ldk_armed++;
	return 0;
}
int tracepoint_probe_unregister(struct tracepoint *tp, void *probe, void *data)
{
	(void)tp, (void)probe, (void)data;
	if (--ldk_armed < 0)
		abort();
	return 0;
}

/* ---- the recording core */
u32 logdev_site_id(struct logdev_site *site)
{
	if (!site || !site->fmt || !site->func || !site->file)
		abort();
	return 1;
}
void ld_site_adopt(struct logdev_site *s)
{
	if (s->id)
		abort();	/* never registered here: ld_site_adopt() frees it */
	kfree(s->file);
	kfree(s->func);
	kfree(s->fmt);
	kfree(s);
}
int ld_write_print(u32 site_id, const void *payload, u32 bytes)
{
	if (site_id != 1 || bytes > LD_PROBE_MAX_ARGS * sizeof(u64) || bytes % 8 ||
	    (bytes && !payload))
		abort();
	return 0;
}

/* ---- seq_file */
void seq_printf(struct seq_file *m, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(m->buf + m->len, sizeof(m->buf) - m->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		m->len = (size_t)n < sizeof(m->buf) - m->len ? m->len + n : sizeof(m->buf) - 1;
}
void seq_putc(struct seq_file *m, char c)
{
	if (m->len + 1 < sizeof(m->buf))
		m->buf[m->len++] = c, m->buf[m->len] = '\0';
}
static int (*ldk_show)(struct seq_file *, void *);
int single_open(struct file *f, int (*show)(struct seq_file *, void *), void *data)
{
	(void)data;
	ldk_show = show;
	f->seq = calloc(1, sizeof(*f->seq));
	if (!f->seq)
		abort();
	return show(f->seq, NULL);
}
ssize_t seq_read(struct file *f, char *b, size_t n, loff_t *pos)
{
	(void)f, (void)b, (void)n, (void)pos;
	return 0;
}
loff_t seq_lseek(struct file *f, loff_t off, int whence) { (void)f, (void)whence; return off; }
int single_release(struct inode *i, struct file *f) { (void)i; free(f->seq); return 0; }
struct dentry *debugfs_create_file(const char *name, unsigned short mode, struct dentry *dir,
				   void *data, const struct file_operations *fops)
{
	(void)name, (void)mode, (void)dir, (void)data, (void)fops;
	return NULL;
}

/* Each attached probe's handlers, once: what the parser stored is safe to use. */
static void fire_all(void)
{
	struct pt_regs regs = { 1, 2, 3, 4, 5, 6, 7 };
	struct ld_probe *p;

	list_for_each_entry(p, &ld_probes, list) {
		for (u32 i = 0; i < p->nr_entry; i++)
			if (p->entry_idx[i] < 1 ||
			    p->entry_idx[i] > (p->kind == LD_PROBE_TRACEPOINT ? LD_TP_MAX_ARGS : 6))
				abort();
		for (u32 i = 0; i < p->nr_ret; i++)
			if (p->ret_idx[i] != LD_PROBE_ARG_RETVAL)
				abort();
		if (p->nr_entry + p->nr_ret > LD_PROBE_MAX_ARGS || !ld_good_name(p->name))
			abort();
		switch (p->kind) {
		case LD_PROBE_KPROBE:
			ld_kp_handler(&p->kp, &regs);
			break;
		case LD_PROBE_KRETPROBE: {
			struct kretprobe *rp = &p->rp;
			struct kretprobe_instance *ri = (struct kretprobe_instance *)&rp;

			ld_rp_entry(ri, &regs);
			ld_rp_return(ri, &regs);
			break;
		}
		default:
			ld_tp_probe(p, 1, 2, 3, 4, 5);
			break;
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct file f = { .f_mode = FMODE_WRITE };
	const uint8_t *cmd = data, *end = data + size;
	loff_t pos = 0;

	while (cmd <= end) {
		const uint8_t *sep = memchr(cmd, 0x01, end - cmd);
		size_t n = (sep ? sep : end) - cmd;
		char *w = malloc(n ? n : 1);	/* exact size: ASan sees over-reads */
		ssize_t ret;

		if (!w)
			abort();
		memcpy(w, cmd, n);
		ret = ld_probes_write(&f, w, n, &pos);
		free(w);
		if (ret != (ssize_t)n && (ret >= 0 || ret < -4095))
			abort();
		if (!sep)
			break;
		cmd = sep + 1;
	}
	f.f_flags = 0;
	ld_probes_open(NULL, &f);
	single_release(NULL, &f);
	ld_errlog_open(NULL, &f);
	single_release(NULL, &f);
	fire_all();
	f.f_flags = O_TRUNC;
	ld_probes_open(NULL, &f);	/* removes every probe */
	single_release(NULL, &f);
	ld_errlog_open(NULL, &f);	/* clears the log */
	single_release(NULL, &f);
	if (ldk_armed || ld_probes.next != &ld_probes)
		abort();
	return 0;
}
