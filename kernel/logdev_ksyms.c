// SPDX-License-Identifier: GPL-2.0
/*
 * logdev_ksyms.c - the kernel's symbols, walked through interfaces the
 * kernel supports (logdev_ksyms.h), for the probes feature: the uniqueness
 * of a probe's FUNC, "did you mean", globs, @SYM, the BTF's location.
 *
 * Sources ("ksyms" file and parameter: auto, iter, procfs):
 *
 * iter  kallsyms_on_each_symbol() and module_kallsyms_on_each_symbol().
 *       Built in, they are called directly.  In a module (they are not
 *       exported) each is found through a kprobe registered disabled
 *       (kprobes resolves the name; nothing is patched), and its entry
 *       from kallsyms' own view: sprint_symbol() of the probed address
 *       (past an ENDBR64 with IBT) is "name+0xOFF/0xSIZE", entry = address
 *       - OFF, and sprint_symbol(entry) must be "name+0x0/...".  It is
 *       called through a pointer of its declared type (typeof, from the
 *       target's headers), with a callback of the prototype the target
 *       declares (logdev_compat.h LD_KALLSYMS_FN(), feature tests), and
 *       only if the call is allowed.  With CONFIG_X86_KERNEL_IBT objtool
 *       seals every function whose address no code takes (at boot
 *       apply_seal_endbr() overwrites its ENDBR64 with a 4-byte NOP,
 *       gen_endbr_poison()), and an indirect call to a function without
 *       ENDBR64 raises a control-protection fault where the CPU enforces
 *       IBT: so the entry must begin with ENDBR64, or with that NOP while
 *       this CPU does not enforce IBT (X86_FEATURE_IBT clear); anything
 *       else there and it is not called.  Never under kCFI
 *       (CONFIG_CFI_CLANG: the callee's hash is not checked here).
 *       Since 6.3 module_kallsyms_on_each_symbol() no longer says which
 *       module a symbol is in.  Each module's own struct module is its
 *       __this_module symbol (in kallsyms with CONFIG_KALLSYMS_ALL): a
 *       first walk over every module reads, inside its callback (the
 *       kernel holds module_mutex: the module cannot go), each one's name,
 *       struct module address and text region; then each module is walked
 *       by name with them.  Nothing is pinned (try_module_get() would make
 *       an rmmod fail with EWOULDBLOCK meanwhile, and a COMING module whose
 *       init fails is freed whatever its count); a module unloaded between
 *       the two walks is not visited, and one loaded again under the same
 *       name is seen in the second walk, whose __this_module is then
 *       elsewhere (or its text is): the walk returns -EAGAIN.  Cost: one
 *       extra walk over the modules' symbols, and each module's name
 *       compared once per module.
 * procfs /proc/kallsyms, opened with filp_open() and the caller's
 *       credentials (addresses show with CAP_SYSLOG unless
 *       kernel.kptr_restrict=2; every address 0: refused).  It has no
 *       read_iter on 6.1 to 7.x, which kernel_read() needs: it is read as
 *       read(2) would, by its ->read into a buffer mapped in the calling
 *       process for the walk (vm_mmap()), then copied (ld_procfs_read()).
 *       Module lines of bpf, ftrace and kprobes pages ([bpf],
 *       [__builtin__*]) are not modules and are skipped; a module's text
 *       is its t/T lines.  It lists what /proc/kallsyms lists: the freed
 *       __init functions of a module whose init ended while a function
 *       tracer was active (ftrace_free_mem() keeps them; kprobes refuses
 *       them).  About 200000 lines: slower than iter.
 * auto  iter where it may be called, else procfs.
 * Which source a walk used, and why the other was not, is in "ksyms" and,
 * once per change, in the kernel log.
 *
 * Layer: probes (logdev_ksyms.h); calls nothing of logdev but the
 * control files' parsers (logdev_parse.c).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/fs.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/sched.h>
#include <linux/uaccess.h>
#include <linux/mutex.h>
#include <linux/list.h>
#include <linux/string.h>
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#ifdef CONFIG_X86_KERNEL_IBT
#include <asm/cpufeature.h>
#include <asm/ibt.h>		/* gen_endbr(), gen_endbr_poison() */
#endif
#include "logdev_compat.h"
#include "logdev_parse.h"
#include "logdev_ksyms.h"

const char * const ld_ksyms_mode_names[LD_KSYMS_NR_MODES] = {
	[LD_KSYMS_AUTO] = "auto",
	[LD_KSYMS_ITER] = "iter",
	[LD_KSYMS_PROCFS] = "procfs",
};

#define LD_NOTE_LEN	128	/* one iterator's note */
#define LD_WHY_LEN	256	/* a walk's source, or why none */

static DEFINE_MUTEX(ld_ksyms_mutex);	/* everything below, and every walk */
static enum ld_ksyms_mode ld_ksyms_mode;	/* the setting */
static char ld_ksyms_used[LD_WHY_LEN];	/* the last walk's source, or why none */
static char ld_ksyms_logged[LD_WHY_LEN];	/* the last one said in the kernel log */
static unsigned long ld_stext, ld_etext;	/* vmlinux's core text, once found */

/* ------------------------------------------------------------ iter */

/* the iterators: built in the functions, in a module pointers (found once) */
#if LD_KALLSYMS_ITER && LD_MODULE_KALLSYMS_ITER
#ifdef MODULE
static typeof(&kallsyms_on_each_symbol) ld_iter_vmlinux;
static typeof(&module_kallsyms_on_each_symbol) ld_iter_modules;
static bool ld_iter_vmlinux_ok;		/* the first could be called */
#else
#define ld_iter_vmlinux kallsyms_on_each_symbol
#define ld_iter_modules module_kallsyms_on_each_symbol
#endif
static bool ld_iter_looked;
#endif
static char ld_iter_note[2][LD_NOTE_LEN];	/* per iterator: how, or why not */

#ifdef MODULE
/*
 * The entry of vmlinux's function @name (module header comment), or 0 with
 * the reason in @note.
 */
static unsigned long ld_func_entry(const char *name, char *note, size_t len)
{
	struct kprobe kp = { .symbol_name = name, .flags = KPROBE_FLAG_DISABLED };
	char buf[KSYM_SYMBOL_LEN], *slash;
	size_t n = strlen(name);
	unsigned long addr, off;
	int ret;

	ret = register_kprobe(&kp);
	if (ret) {
		scnprintf(note, len, "%s: not found (kprobes: error %d)", name, ret);
		return 0;
	}
	addr = (unsigned long)kp.addr;
	unregister_kprobe(&kp);
	sprint_symbol(buf, addr);
	slash = strchr(buf, '/');
	if (strncmp(buf, name, n) || strncmp(buf + n, "+0x", 3) || !slash ||
	    strchr(buf, '[')) {
		scnprintf(note, len, "%s: kprobes found an address kallsyms calls %.*s",
			  name, 64, buf);
		return 0;
	}
	*slash = '\0';
	if (kstrtoul(buf + n + 3, 16, &off) || off > addr) {
		scnprintf(note, len, "%s: bad offset in %.*s", name, 64, buf);
		return 0;
	}
	addr -= off;
	sprint_symbol(buf, addr);
	if (strncmp(buf, name, n) || strncmp(buf + n, "+0x0/", 5) || strchr(buf, '[')) {
		scnprintf(note, len, "%s: its entry is %.*s to kallsyms", name, 64, buf);
		return 0;
	}
	return addr;
}

/*
 * May logdev call @name's @entry through a pointer (module header
 * comment)?  @note says why, or why not: what its first 4 bytes are with
 * IBT (ENDBR64, the seal's NOP, or neither: then not, whatever the CPU).
 */
static bool ld_callable(const char *name, unsigned long entry, char *note,
			size_t len)
{
	if (IS_ENABLED(CONFIG_CFI_CLANG)) {
		scnprintf(note, len, "%s: not called through a pointer under kCFI", name);
		return false;
	}
#ifdef CONFIG_X86_KERNEL_IBT
	{
		u32 insn;

		if (copy_from_kernel_nofault(&insn, (void *)entry, sizeof(insn))) {
			scnprintf(note, len, "%s: its entry cannot be read", name);
			return false;
		}
		if (insn == gen_endbr()) {
			scnprintf(note, len, "%s: begins with ENDBR64 (IBT): callable", name);
			return true;
		}
		if (insn != gen_endbr_poison()) {
			scnprintf(note, len, "%s: begins with %08x, neither ENDBR64 nor its seal: not called",
				  name, insn);
			return false;
		}
		if (cpu_feature_enabled(X86_FEATURE_IBT)) {
			scnprintf(note, len, "%s: sealed (ENDBR64 made a NOP) and this CPU enforces IBT: not called",
				  name);
			return false;
		}
		scnprintf(note, len, "%s: sealed (ENDBR64 made a NOP), callable: this CPU does not enforce IBT",
			  name);
		return true;
	}
#else
	scnprintf(note, len, "%s: callable (no IBT in this kernel)", name);
	return true;
#endif
}
#endif /* MODULE */

/*
 * Can the iter source be used?  Found once (a module's pointers do not
 * change); under ld_ksyms_mutex.  @why gets the reason it cannot.
 */
static bool ld_iter_usable(char *why, size_t len)
{
#if !LD_KALLSYMS_ITER || !LD_MODULE_KALLSYMS_ITER
	scnprintf(why, len, "the kallsyms iterators' prototypes are unknown to logdev (compat/*kallsyms_on_each_symbol*.c)");
	return false;
#else
	if (!LD_MODULE_KALLSYMS_GIVES_MOD && !IS_ENABLED(CONFIG_KALLSYMS_ALL)) {
		scnprintf(why, len, "modules cannot be told apart without CONFIG_KALLSYMS_ALL (__this_module)");
		return false;
	}
#ifdef MODULE
	if (!ld_iter_looked) {
		static const char * const names[2] = {
			"kallsyms_on_each_symbol", "module_kallsyms_on_each_symbol"
		};
		unsigned long entry[2];
		int i;

		ld_iter_looked = true;
		for (i = 0; i < 2; i++) {
			entry[i] = ld_func_entry(names[i], ld_iter_note[i], LD_NOTE_LEN);
			if (entry[i] && !ld_callable(names[i], entry[i], ld_iter_note[i], LD_NOTE_LEN))
				entry[i] = 0;
		}
		ld_iter_vmlinux_ok = entry[0];
		if (entry[0] && entry[1]) {
			ld_iter_vmlinux = (typeof(ld_iter_vmlinux))entry[0];
			ld_iter_modules = (typeof(ld_iter_modules))entry[1];
		}
	}
	if (!ld_iter_vmlinux) {
		/* the first that cannot be called (ld_iter_note[] has both) */
		strscpy(why, ld_iter_note[0][0] && ld_iter_vmlinux_ok ? ld_iter_note[1] :
			     ld_iter_note[0], len);
		return false;
	}
#else
	if (!ld_iter_looked) {
		ld_iter_looked = true;
		strscpy(ld_iter_note[0], "kallsyms_on_each_symbol: called directly (built in)", LD_NOTE_LEN);
		strscpy(ld_iter_note[1], "module_kallsyms_on_each_symbol: called directly (built in)", LD_NOTE_LEN);
	}
#endif
	return true;
#endif
}

/* One walk's state: the caller's callback and what it is told. */
struct ld_walk {
	ld_ksym_fn fn;
	void *data;
	const char *modname;	/* only this module's symbols, or NULL */
	struct ld_ksym s;
	/* iter without struct module (6.3+): the module being walked */
	struct ld_modent *cur;
	unsigned int nsyms;
	bool seen_self, changed;
	int err;
	struct list_head mods;	/* struct ld_modent */
};

/* a module, as its __this_module said in the first walk */
struct ld_modent {
	struct list_head list;
	unsigned long self;	/* its struct module */
	unsigned long text, text_size;
	char name[MODULE_NAME_LEN];
};

#if LD_KALLSYMS_ITER && LD_MODULE_KALLSYMS_ITER
static int ld_iter_sym(void *data, const char *name, struct module *mod,
		       unsigned long addr)
{
	struct ld_walk *w = data;

	w->s.name = name;
	w->s.mod = NULL;
	w->s.addr = addr;
	w->s.text = addr >= ld_stext && addr < ld_etext;
	return w->fn(w->data, &w->s);
}
LD_KALLSYMS_FN(ld_iter_sym_k, ld_iter_sym)

#if LD_MODULE_KALLSYMS_GIVES_MOD
/* 6.1, 6.2: the kernel says the module */
static int ld_iter_msym(void *data, const char *name, struct module *mod,
			unsigned long addr)
{
	struct ld_walk *w = data;
	unsigned long base, size;

	if (w->modname && strcmp(mod->name, w->modname))
		return 0;
	ld_mod_mem(mod, LD_MOD_TEXT, &base, &size);
	w->s.name = name;
	w->s.mod = mod->name;
	w->s.addr = addr;
	w->s.text = addr - base < size;
	return w->fn(w->data, &w->s);
}
LD_MODULE_KALLSYMS_FN(ld_iter_msym_k, ld_iter_msym)

static int ld_iter_modules_walk(struct ld_walk *w)
{
	return ld_module_kallsyms_on_each(ld_iter_modules, w->modname, ld_iter_msym_k, w);
}
#else
/*
 * 6.3+, first walk: each module's __this_module, its struct module, read
 * while the kernel holds module_mutex (the module cannot go meanwhile).
 */
static int ld_iter_self(void *data, const char *name, struct module *unused,
			unsigned long addr)
{
	const struct module *mod = (const struct module *)addr;
	struct ld_walk *w = data;
	struct ld_modent *e;
	size_t n;

	if (strcmp(name, "__this_module"))
		return 0;
	n = strnlen(mod->name, MODULE_NAME_LEN);
	if (!n || n == MODULE_NAME_LEN)
		return 0;	/* no module's name: not a struct module */
	e = kzalloc(sizeof(*e), GFP_KERNEL);
	if (!e) {
		w->err = -ENOMEM;
		return 1;
	}
	memcpy(e->name, mod->name, n);
	e->self = addr;
	ld_mod_mem(mod, LD_MOD_TEXT, &e->text, &e->text_size);
	list_add_tail(&e->list, &w->mods);
	return 0;
}
LD_MODULE_KALLSYMS_FN(ld_iter_self_k, ld_iter_self)

/* 6.3+, second walk: the symbols of module w->cur, by its name */
static int ld_iter_msym(void *data, const char *name, struct module *unused,
			unsigned long addr)
{
	struct ld_walk *w = data;
	struct ld_modent *e = w->cur;

	if (!strcmp(name, "__this_module")) {
		unsigned long base, size;

		ld_mod_mem((const struct module *)addr, LD_MOD_TEXT, &base, &size);
		if (addr != e->self || base != e->text || size != e->text_size)
			w->changed = true;	/* another load of the module */
		w->seen_self = true;
	}
	w->nsyms++;
	w->s.name = name;
	w->s.mod = e->name;
	w->s.addr = addr;
	w->s.text = addr - e->text < e->text_size;
	return w->fn(w->data, &w->s);
}
LD_MODULE_KALLSYMS_FN(ld_iter_msym_k, ld_iter_msym)

static int ld_iter_modules_walk(struct ld_walk *w)
{
	struct ld_modent *e, *t;
	int ret;

	INIT_LIST_HEAD(&w->mods);
	ret = ld_module_kallsyms_on_each(ld_iter_modules, w->modname, ld_iter_self_k, w);
	if (w->err)
		ret = w->err;
	list_for_each_entry(e, &w->mods, list) {
		if (ret)
			break;
		w->cur = e;
		w->nsyms = 0;
		w->seen_self = false;
		w->s.mod = e->name;
		ret = ld_module_kallsyms_on_each(ld_iter_modules, e->name, ld_iter_msym_k, w);
		if (!ret && (w->changed || (w->nsyms && !w->seen_self)))
			ret = -EAGAIN;
	}
	list_for_each_entry_safe(e, t, &w->mods, list)
		kfree(e);
	return ret;
}
#endif

static int ld_iter_walk(unsigned int which, struct ld_walk *w)
{
	int ret = 0;

	if (which & LD_KSYMS_VMLINUX)
		ret = ld_iter_vmlinux(ld_iter_sym_k, w);
	if (!ret && (which & LD_KSYMS_MODULES))
		ret = ld_iter_modules_walk(w);
	return ret;
}
#else
static int ld_iter_walk(unsigned int which, struct ld_walk *w)
{
	return -EOPNOTSUPP;	/* ld_iter_usable() said why */
}
#endif

/* ----------------------------------------------------------- procfs */

#define LD_PROCFS_BUF	(64 * 1024)	/* bytes read at once; a line is far shorter */

/* [bpf], [__builtin__ftrace], [__builtin__kprobes]: not modules */
static bool ld_pseudo_module(const char *mod)
{
	return !strcmp(mod, "bpf") || !strncmp(mod, "__builtin__", 11);
}

/*
 * One line of /proc/kallsyms, "ADDR TYPE NAME" or "ADDR TYPE NAME\t[MOD]",
 * to @w's callback.  0: go on (a malformed line is skipped); > 0: the
 * callback stopped; -EPERM: addresses hidden (a text symbol at 0).
 * *@end: past vmlinux's lines when @which has no modules.
 */
static int ld_procfs_line(char *line, unsigned int which, struct ld_walk *w,
			  bool *end)
{
	char *type, *name, *mod = NULL, *p;
	unsigned long addr;

	p = strchr(line, ' ');
	if (!p)
		return 0;
	*p = '\0';
	type = p + 1;
	if (kstrtoul(line, 16, &addr) || !*type || type[1] != ' ')
		return 0;
	name = type + 2;
	p = strchr(name, '\t');
	if (p) {
		*p = '\0';
		mod = p + 1;
		p = strchr(mod, ']');
		if (*mod != '[' || !p || p[1])
			return 0;
		*p = '\0';
		mod++;
		if (!*mod || p - mod >= MODULE_NAME_LEN)
			return 0;
	}
	if (!*name || strlen(name) >= KSYM_NAME_LEN)
		return 0;
	if (!addr && (*type == 't' || *type == 'T'))
		return -EPERM;
	if (!mod) {
		if (!(which & LD_KSYMS_VMLINUX))
			return 0;
		w->s.text = addr >= ld_stext && addr < ld_etext;
	} else {
		if (!(which & LD_KSYMS_MODULES)) {
			*end = true;
			return 0;
		}
		if (ld_pseudo_module(mod) || (w->modname && strcmp(mod, w->modname)))
			return 0;
		w->s.text = *type == 't' || *type == 'T';
	}
	w->s.name = name;
	w->s.mod = mod;
	w->s.addr = addr;
	return w->fn(w->data, &w->s);
}

/*
 * Read /proc/kallsyms from @pos into @kbuf (@len bytes).  Its proc_ops
 * have .proc_read (seq_read) and no .proc_read_iter on 6.1 to 7.x, and
 * kernel_read() takes only read_iter files (since 5.10): such a file is
 * read as read(2) reads it, by its ->read into a user buffer, @ubuf, an
 * anonymous mapping of the calling process (ld_procfs_walk()), then
 * copied here.  A kernel with read_iter for it is read by kernel_read().
 */
static ssize_t ld_procfs_read(struct file *f, char *kbuf, unsigned long ubuf,
			      size_t len, loff_t *pos)
{
	ssize_t n;

	if (f->f_op->read_iter)
		return kernel_read(f, kbuf, len, pos);
	if (!f->f_op->read || !ubuf)
		return -EINVAL;
	n = f->f_op->read(f, (char __user *)ubuf, len, pos);
	if (n > 0 && copy_from_user(kbuf, (const void __user *)ubuf, n))
		return -EFAULT;
	return n;
}

/*
 * The lines of /proc/kallsyms to @w, read with the caller's credentials
 * (its CAP_SYSLOG shows the addresses) and, where the file has no
 * read_iter, through a buffer in the caller's memory: a process's context
 * (a kernel thread has none: -ESRCH).  0, the callback's stop, or -errno.
 */
static int ld_procfs_walk(unsigned int which, struct ld_walk *w)
{
	unsigned long ubuf = 0;
	size_t have = 0;
	bool end = false;
	struct file *f;
	loff_t pos = 0;
	char *buf, *line, *nl;
	ssize_t n;
	int ret = 0;

	f = filp_open("/proc/kallsyms", O_RDONLY, 0);
	if (IS_ERR(f))
		return PTR_ERR(f);
	buf = kvmalloc(LD_PROCFS_BUF, GFP_KERNEL);
	if (!buf) {
		ret = -ENOMEM;
		goto out;
	}
	if (!f->f_op->read_iter) {
		if (!current->mm) {
			ret = -ESRCH;
			goto out_free;
		}
		ubuf = vm_mmap(NULL, 0, LD_PROCFS_BUF, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, 0);
		if (IS_ERR_VALUE(ubuf)) {
			ret = (long)ubuf;
			goto out_free;
		}
	}
	do {
		n = ld_procfs_read(f, buf + have, ubuf, LD_PROCFS_BUF - 1 - have, &pos);
		if (n < 0) {
			ret = n;
			break;
		}
		have += n;
		buf[have] = '\0';
		for (line = buf; !ret && !end && (nl = strchr(line, '\n')); line = nl + 1) {
			*nl = '\0';
			ret = ld_procfs_line(line, which, w, &end);
		}
		if (!ret && !end && !n && *line)	/* a last line without '\n' */
			ret = ld_procfs_line(line, which, w, &end);
		have -= line - buf;
		if (have >= LD_PROCFS_BUF - 1)
			ret = -E2BIG;	/* a line longer than the buffer */
		memmove(buf, line, have);
		cond_resched();
	} while (!ret && !end && n);
	if (ubuf)
		vm_munmap(ubuf, LD_PROCFS_BUF);
out_free:
	kvfree(buf);
out:
	filp_close(f, NULL);
	return ret;
}

/* ----------------------------------------------------------- walks */

/* Say in the kernel log what the walks use, when that changes. */
static void ld_ksyms_note(bool bad)
{
	if (!strcmp(ld_ksyms_used, ld_ksyms_logged))
		return;
	strscpy(ld_ksyms_logged, ld_ksyms_used, sizeof(ld_ksyms_logged));
	if (bad)
		pr_warn("probes: %s\n", ld_ksyms_used);
	else
		pr_info("probes: kernel symbols through %s\n", ld_ksyms_used);
}

/* what procfs's error means */
static void ld_procfs_why(int err, char *why, size_t len)
{
	if (err == -EPERM)
		scnprintf(why, len, "/proc/kallsyms shows no addresses (kptr_restrict=2, or no CAP_SYSLOG)");
	else if (err == -ENOENT)
		scnprintf(why, len, "no /proc/kallsyms (is /proc mounted?)");
	else if (err == -ESRCH)
		scnprintf(why, len, "/proc/kallsyms is read in a process's context, not a kernel thread's");
	else
		scnprintf(why, len, "/proc/kallsyms unreadable (error %d)", err);
}

static int ld_find_text(void *data, const struct ld_ksym *s)
{
	if (!strcmp(s->name, "_stext"))
		ld_stext = s->addr;
	else if (!strcmp(s->name, "_etext"))
		ld_etext = s->addr;
	return ld_stext && ld_etext;
}

static int ld_walk_src(bool iter, unsigned int which, struct ld_walk *w)
{
	int ret;

	if ((which & LD_KSYMS_VMLINUX) && !ld_etext) {
		struct ld_walk b = { .fn = ld_find_text };

		ret = iter ? ld_iter_walk(LD_KSYMS_VMLINUX, &b) :
			     ld_procfs_walk(LD_KSYMS_VMLINUX, &b);
		if (ret < 0)
			return ret;
		if (ld_etext < ld_stext)
			ld_stext = ld_etext = 0;
	}
	return iter ? ld_iter_walk(which, w) : ld_procfs_walk(which, w);
}

static int ld_walk_locked(unsigned int which, struct ld_walk *w)
{
	char iwhy[LD_WHY_LEN] = "", pwhy[LD_WHY_LEN];
	bool iter = false;
	int ret;

	enum ld_ksyms_mode mode = READ_ONCE(ld_ksyms_mode);

	lockdep_assert_held(&ld_ksyms_mutex);
	if (mode != LD_KSYMS_PROCFS)
		iter = ld_iter_usable(iwhy, sizeof(iwhy));
	if (iter) {
		scnprintf(ld_ksyms_used, sizeof(ld_ksyms_used), "iter (kallsyms_on_each_symbol(), module_kallsyms_on_each_symbol())");
		ld_ksyms_note(false);
		return ld_walk_src(true, which, w);
	}
	if (mode == LD_KSYMS_ITER) {
		scnprintf(ld_ksyms_used, sizeof(ld_ksyms_used), "ksyms=iter: %s", iwhy);
		ld_ksyms_note(true);
		return -EOPNOTSUPP;
	}
	ret = ld_walk_src(false, which, w);
	if (ret == -ENOMEM || ret >= 0) {
		if (*iwhy)
			scnprintf(ld_ksyms_used, sizeof(ld_ksyms_used), "procfs (/proc/kallsyms; iter: %s)", iwhy);
		else
			scnprintf(ld_ksyms_used, sizeof(ld_ksyms_used), "procfs (/proc/kallsyms)");
		ld_ksyms_note(false);
		return ret;
	}
	ld_procfs_why(ret, pwhy, sizeof(pwhy));
	if (*iwhy)
		scnprintf(ld_ksyms_used, sizeof(ld_ksyms_used), "no source: iter: %s; procfs: %s", iwhy, pwhy);
	else
		scnprintf(ld_ksyms_used, sizeof(ld_ksyms_used), "ksyms=procfs: %s", pwhy);
	ld_ksyms_note(true);
	return -EOPNOTSUPP;
}

/**
 * ld_ksyms_walk() - call @fn for each symbol of vmlinux and/or the modules
 * @which:   LD_KSYMS_VMLINUX, LD_KSYMS_MODULES or both (vmlinux first)
 * @modname: only the symbols of the module of this name (NUL-terminated),
 *           or NULL for every module's; ignored for vmlinux
 * @fn:      called with each symbol (struct ld_ksym), in kallsyms' order,
 *           under this file's mutex (and, with the iter source, under the
 *           kernel's module_mutex for module symbols): it may sleep and
 *           allocate, and must not call this file
 * @data:    passed to @fn
 *
 * Symbols are those kallsyms has (data ones only with CONFIG_KALLSYMS_ALL);
 * a module's text is its text region (6.4+ mod->mem[MOD_TEXT]; before, the
 * core layout's text) with iter, its t/T symbols with procfs (which also
 * lists the freed __init functions ftrace keeps, see the header comment).
 *
 * Return: 0 when every symbol was seen, @fn's non-zero return if it
 * stopped the walk, or -errno: -EOPNOTSUPP no source (ld_ksyms_why() says
 * why), -EAGAIN a module was loaded again during the walk (walk again),
 * -ENOMEM.
 */
int ld_ksyms_walk(unsigned int which, const char *modname, ld_ksym_fn fn,
		  void *data)
{
	struct ld_walk w = { .fn = fn, .data = data, .modname = modname };
	int ret;

	mutex_lock(&ld_ksyms_mutex);
	ret = ld_walk_locked(which, &w);
	mutex_unlock(&ld_ksyms_mutex);
	return ret;
}

/**
 * ld_ksyms_why() - the source of the last walk, or why there was none
 * @buf:  gets the text (NUL-terminated, cut to fit)
 * @size: bytes of @buf
 */
void ld_ksyms_why(char *buf, size_t size)
{
	mutex_lock(&ld_ksyms_mutex);
	strscpy(buf, ld_ksyms_used, size);
	mutex_unlock(&ld_ksyms_mutex);
}

/* ------------------------------------------------------- the setting */

/**
 * ld_ksyms_set_mode() - which source the walks use (auto, iter, procfs)
 * @mode: enum ld_ksyms_mode
 *
 * Takes no lock (the "ksyms" parameter sets it at boot, built in): the
 * next walk reads it.
 *
 * Return: 0, or -EINVAL for a value out of range.
 */
int ld_ksyms_set_mode(enum ld_ksyms_mode mode)
{
	if ((unsigned int)mode >= LD_KSYMS_NR_MODES)
		return -EINVAL;
	WRITE_ONCE(ld_ksyms_mode, mode);
	return 0;
}

/** ld_ksyms_get_mode() - the source the walks are set to use */
enum ld_ksyms_mode ld_ksyms_get_mode(void)
{
	return READ_ONCE(ld_ksyms_mode);
}

/*
 * "ksyms": reads the setting ("[auto] iter procfs"), then what each
 * iterator is ("iter: ..."), then the last walk's source ("used: ...", or
 * "used: none yet"); writes one of the names.
 */
static int ld_ksyms_show(struct seq_file *m, void *v)
{
	char why[LD_WHY_LEN];
	int i;

	mutex_lock(&ld_ksyms_mutex);
	for (i = 0; i < LD_KSYMS_NR_MODES; i++)
		seq_printf(m, i == READ_ONCE(ld_ksyms_mode) ? "%s[%s]" : "%s%s", i ? " " : "",
			   ld_ksyms_mode_names[i]);
	seq_putc(m, '\n');
	ld_iter_usable(why, sizeof(why));
	for (i = 0; i < 2; i++)
		if (*ld_iter_note[i])
			seq_printf(m, "iter: %s\n", ld_iter_note[i]);
	if (!*ld_iter_note[0])
		seq_printf(m, "iter: %s\n", why);
	seq_printf(m, "used: %s\n", *ld_ksyms_used ? ld_ksyms_used : "none yet");
	mutex_unlock(&ld_ksyms_mutex);
	return 0;
}

static int ld_ksyms_open(struct inode *inode, struct file *f)
{
	return single_open(f, ld_ksyms_show, NULL);
}

static ssize_t ld_ksyms_write(struct file *f, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	char buf[16];
	int i, ret;

	if (!count || count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	ret = ld_parse_write(buf, count);
	if (ret)
		return ret;
	i = ld_parse_name(buf, ld_ksyms_mode_names, LD_KSYMS_NR_MODES);
	if (i < 0)
		return i;
	ret = ld_ksyms_set_mode(i);
	return ret ? ret : count;
}

static const struct file_operations ld_ksyms_fops = {
	.owner = THIS_MODULE,
	.open = ld_ksyms_open,
	.read = seq_read,
	.write = ld_ksyms_write,
	.llseek = seq_lseek,
	.release = single_release,
};

/** ld_ksyms_init() - create the "ksyms" file in @dir */
void ld_ksyms_init(struct dentry *dir)
{
	debugfs_create_file("ksyms", 0600, dir, NULL, &ld_ksyms_fops);
}
