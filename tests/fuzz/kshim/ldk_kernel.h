/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ldk_kernel.h - the kernel functions and types kernel/logdev_probes.c
 * uses, for building it unchanged in userspace (tests/fuzz/fuzz_probespec.c).
 * Every <linux/...> header it includes is a one-line file in kshim/linux/
 * that includes this one.  Strings, lists and allocation behave as in the
 * kernel; kprobes, tracepoints and kallsyms are a small fake kernel whose
 * symbols are ldk_syms[] (fuzz_probespec.c); debugfs and seq_file write
 * into a buffer.  Only what the parser and the probes file touch.
 */
#ifndef LDK_KERNEL_H
#define LDK_KERNEL_H

#define _GNU_SOURCE
#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdarg.h>
#include <string.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <sys/types.h>
#include <sys/mman.h>
#include <fcntl.h>

/* the kernel logdev runs on (x86-64: tracepoint arguments in registers) */
#define CONFIG_X86_64 1

typedef uint8_t u8;
typedef uint16_t u16;
#define U16_MAX ((u16)~0U)
typedef uint32_t u32;
typedef unsigned long long u64;	/* as the kernel's, for %llu */
typedef long long s64;
typedef long long loff_t_;
#define loff_t loff_t_

#define KBUILD_MODNAME "logdev"
#define THIS_MODULE NULL
#define __user
#undef __always_inline
#define __always_inline inline
#define notrace
#define likely(x) (x)
#define unlikely(x) (x)
#define __printf(a, b) __attribute__((format(printf, a, b)))
#define KSYM_NAME_LEN 512
#define KSYM_SYMBOL_LEN (KSYM_NAME_LEN + 128)
int sprint_symbol_no_offset(char *buffer, unsigned long address);
int sprint_symbol(char *buffer, unsigned long address);
#define MODULE_NAME_LEN 56
#define NSEC_PER_SEC 1000000000ULL
#define GFP_KERNEL 0
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define min_t(t, a, b) ((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#define max_t(t, a, b) ((t)(a) > (t)(b) ? (t)(a) : (t)(b))
#define pr_warn(...) do { } while (0)
#define pr_info(...) do { } while (0)
#define lockdep_assert_held(m) do { if (!(m)->locked) abort(); } while (0)
#define do_div(n, base) ({ u32 __r = (u32)((n) % (base)); (n) /= (base); __r; })
#define IS_ERR(p) ((unsigned long)(p) >= (unsigned long)-4095)
#define IS_ERR_VALUE(x) ((unsigned long)(x) >= (unsigned long)-4095)
#define READ_ONCE(x) (x)
#define WRITE_ONCE(x, v) ((x) = (v))
static inline void cond_resched(void) { }
#define PTR_ERR(p) ((long)(p))
#define ERR_PTR(e) ((void *)(long)(e))
#define container_of(p, t, m) ((t *)((char *)(p) - offsetof(t, m)))
#define __aligned(n) __attribute__((aligned(n)))
#define noinline_for_stack __attribute__((noinline))
#define ALIGN(x, a) (((x) + ((a) - 1)) & ~((typeof(x))(a) - 1))
#define ALIGN_DOWN(x, a) ((x) & ~((typeof(x))(a) - 1))
#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))
/* IS_ENABLED(): the kernel's trick, 1 for an option defined as 1 */
#define __ARG_PLACEHOLDER_1 0,
#define __take_second_arg(ignored, val, ...) val
#define ____is_defined(arg1_or_junk) __take_second_arg(arg1_or_junk 1, 0)
#define ___is_defined(val) ____is_defined(__ARG_PLACEHOLDER_##val)
#define IS_ENABLED(option) ___is_defined(option)
#define CONFIG_TRACEPOINTS 1
#define CONFIG_MODULES 1	/* the fake kernel's module "mymod" (command 0x03) */
#define CONFIG_DEBUG_INFO_BTF 1	/* fuzz_probespec.c's fake BTF: ldk_btf_init() */
#define EADDRNOTAVAIL_ EADDRNOTAVAIL

/* ---- strings: the kernel's semantics */
static inline ssize_t strscpy(char *d, const char *s, size_t n)
{
	size_t l = strnlen(s, n);

	if (!n)
		return -E2BIG;
	if (l == n) {
		memcpy(d, s, n - 1);
		d[n - 1] = '\0';
		return -E2BIG;
	}
	memcpy(d, s, l + 1);
	return (ssize_t)l;
}
static inline size_t strlcat(char *d, const char *s, size_t n)
{
	size_t dl = strnlen(d, n), sl = strlen(s);

	if (dl == n)
		abort();	/* the kernel's strlcat BUG()s on this */
	if (sl >= n - dl) {
		memcpy(d + dl, s, n - dl - 1);
		d[n - 1] = '\0';
	} else {
		memcpy(d + dl, s, sl + 1);
	}
	return dl + sl;
}
static inline int vscnprintf(char *b, size_t n, const char *f, va_list ap)
{
	int r = vsnprintf(b, n, f, ap);

	if (r < 0 || !n)
		return 0;
	return (size_t)r >= n ? (int)n - 1 : r;
}
static inline __printf(3, 4) int scnprintf(char *b, size_t n, const char *f, ...)
{
	va_list ap;
	int r;

	va_start(ap, f);
	r = vscnprintf(b, n, f, ap);
	va_end(ap);
	return r;
}
static inline char *strim(char *s)
{
	size_t n = strlen(s);

	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	while (isspace((unsigned char)*s))
		s++;
	return s;
}
/* kstrtoul(): base 0 or 16; optional '+', one trailing newline; -EINVAL
 * on anything else, -ERANGE on overflow (lib/kstrtox.c's rules) */
static inline int kstrtoul(const char *s, unsigned int base, unsigned long *res)
{
	unsigned long v = 0;
	const char *p = s;
	int any = 0;

	if (*p == '+')
		p++;
	if (base == 0) {
		if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && isxdigit((unsigned char)p[2]))
			base = 16, p += 2;
		else if (p[0] == '0')
			base = 8;
		else
			base = 10;
	} else if (base == 16 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		p += 2;
	}
	for (; *p; p++) {
		unsigned int d;

		if (isdigit((unsigned char)*p))
			d = *p - '0';
		else if (isxdigit((unsigned char)*p))
			d = (tolower((unsigned char)*p) - 'a') + 10;
		else
			break;
		if (d >= base)
			break;
		if (v > (ULONG_MAX - d) / base)
			return -ERANGE;
		v = v * base + d;
		any = 1;
	}
	if (*p == '\n')
		p++;
	if (!any || *p)
		return -EINVAL;
	*res = v;
	return 0;
}

/* kstrtol(): as kstrtoul() with an optional '-' (then at most -LONG_MIN;
 * no '+' after it: lib/kstrtox.c's kstrtoll()) */
static inline int kstrtol(const char *s, unsigned int base, long *res)
{
	unsigned long v;
	int ret;

	if (*s == '-') {
		if (s[1] == '+')
			return -EINVAL;
		ret = kstrtoul(s + 1, base, &v);
		if (ret)
			return ret;
		if (v > (unsigned long)LONG_MAX + 1)
			return -ERANGE;
		*res = (long)(0 - v);
		return 0;
	}
	ret = kstrtoul(s, base, &v);
	if (ret)
		return ret;
	if (v > LONG_MAX)
		return -ERANGE;
	*res = (long)v;
	return 0;
}
static inline int kstrtouint(const char *s, unsigned int base, unsigned int *res)
{
	unsigned long v;
	int ret = kstrtoul(s, base, &v);

	if (ret)
		return ret;
	if (v > UINT_MAX)
		return -ERANGE;
	*res = (unsigned int)v;
	return 0;
}
static inline char *skip_spaces(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return (char *)s;
}

/* ---- allocation */
static inline void *kzalloc(size_t n, int gfp) { (void)gfp; return calloc(1, n); }
static inline void *kmalloc(size_t n, int gfp) { (void)gfp; return malloc(n); }
static inline void kfree(const void *p) { free((void *)p); }
static inline char *kstrdup(const char *s, int gfp) { (void)gfp; return s ? strdup(s) : NULL; }
static inline void *kmemdup(const void *s, size_t n, int gfp)
{
	void *p = malloc(n ? n : 1);

	(void)gfp;
	if (p)
		memcpy(p, s, n);
	return p;
}
__printf(2, 3) static inline char *kasprintf(int gfp, const char *fmt, ...)
{
	va_list ap;
	char *p;

	(void)gfp;
	va_start(ap, fmt);
	if (vasprintf(&p, fmt, ap) < 0)
		p = NULL;
	va_end(ap);
	return p;
}
/* kvcalloc(): NULL on overflow of n * size, as the kernel's */
static inline void *kvcalloc(size_t n, size_t size, int gfp)
{
	(void)gfp;
	if (size && n > SIZE_MAX / size)
		return NULL;
	return calloc(n ? n : 1, size ? size : 1);
}
static inline void kvfree(const void *p) { free((void *)p); }
static inline void *kvmalloc(size_t n, int gfp) { (void)gfp; return malloc(n ? n : 1); }

/* ---- lib/sort.c, lib/glob.c: our own versions of their contracts
 * (fuzz_probespec.c) */
void sort(void *base, size_t num, size_t size,
	  int (*cmp)(const void *, const void *),
	  void (*swap)(void *, void *, int));
bool glob_match(const char *pat, const char *str);
static inline void *memdup_user_nul(const void *u, size_t n)
{
	char *p = malloc(n + 1);

	if (!p)
		return ERR_PTR(-ENOMEM);
	memcpy(p, u, n);
	p[n] = '\0';
	return p;
}

/* ---- lists, locks, atomics */
struct list_head { struct list_head *next, *prev; };
#define LIST_HEAD(n) struct list_head n = { &(n), &(n) }
static inline void list_add_tail(struct list_head *e, struct list_head *h)
{
	e->prev = h->prev;
	e->next = h;
	h->prev->next = e;
	h->prev = e;
}
static inline void list_del(struct list_head *e)
{
	e->prev->next = e->next;
	e->next->prev = e->prev;
	e->next = e->prev = NULL;
}
#define INIT_LIST_HEAD(h) do { (h)->next = (h); (h)->prev = (h); } while (0)
static inline bool list_empty(const struct list_head *h) { return h->next == h; }
/* move every entry of @l to the tail of @h; @l is left as it was (stale) */
static inline void list_splice_tail(struct list_head *l, struct list_head *h)
{
	if (list_empty(l))
		return;
	l->next->prev = h->prev;
	h->prev->next = l->next;
	l->prev->next = h;
	h->prev = l->prev;
}
#define list_entry(p, t, m) container_of(p, t, m)
#define list_for_each_entry(p, h, m) \
	for (p = list_entry((h)->next, typeof(*p), m); &p->m != (h); \
	     p = list_entry(p->m.next, typeof(*p), m))
#define list_for_each_entry_safe(p, n, h, m) \
	for (p = list_entry((h)->next, typeof(*p), m), \
	     n = list_entry(p->m.next, typeof(*p), m); &p->m != (h); \
	     p = n, n = list_entry(n->m.next, typeof(*n), m))
struct mutex { int locked; };
#define DEFINE_MUTEX(n) struct mutex n = { 0 }
static inline void mutex_lock(struct mutex *m) { if (m->locked) abort(); m->locked = 1; }
static inline void mutex_unlock(struct mutex *m) { if (!m->locked) abort(); m->locked = 0; }
typedef struct { long v; } atomic_long_t;
#define atomic_long_read(a) ((a)->v)
#define atomic_long_inc(a) ((a)->v++)
static inline unsigned int num_possible_cpus(void) { return 2; }
static inline u64 local_clock(void) { return 1234567890ULL; }

/* ---- kprobes, tracepoints: a fake kernel (fuzz_probespec.c) */
/* x86-64's struct pt_regs (arch/x86/include/asm/ptrace.h), its order */
struct pt_regs {
	unsigned long r15, r14, r13, r12, bp, bx, r11, r10, r9, r8;
	unsigned long ax, cx, dx, si, di, orig_ax, ip, cs, flags, sp, ss;
};
/* x86-64: arguments 0..5 in di si dx cx r8 r9, then on the stack (0 here:
 * logdev never asks for more than 6) */
static inline unsigned long regs_get_kernel_argument(struct pt_regs *r, unsigned int n)
{
	switch (n) {
	case 0: return r->di;
	case 1: return r->si;
	case 2: return r->dx;
	case 3: return r->cx;
	case 4: return r->r8;
	case 5: return r->r9;
	default: abort();	/* the parser allows $arg1..$arg6 only */
	}
}
#define regs_return_value(r) ((r)->ax)
#define kernel_stack_pointer(r) ((r)->sp)
/* the Nth word of the stack, 0 when it is not on the stack (the fake
 * kernel's stack: fuzz_probespec.c) */
unsigned long regs_get_kernel_stack_nth(struct pt_regs *r, unsigned int n);
/* 0 and the bytes, or -EFAULT reading nothing useful: only the fake
 * kernel memory of fuzz_probespec.c is readable */
long copy_from_kernel_nofault(void *dst, const void *src, size_t size);
struct mm_struct { int dummy; };
struct task_struct { char comm[16]; struct mm_struct *mm; };
extern struct task_struct *ldk_current;
#define current ldk_current
typedef u8 kprobe_opcode_t;
struct module_layout { void *base; unsigned int size, text_size; };
struct tracepoint;
/* tracepoint_ptr_t without PREL32 relocations: the pointers themselves */
typedef struct tracepoint *tracepoint_ptr_t;
static inline struct tracepoint *tracepoint_ptr_deref(tracepoint_ptr_t *p) { return *p; }
struct module {
	char name[MODULE_NAME_LEN];
	struct module_layout core_layout;
	unsigned int num_tracepoints;
	tracepoint_ptr_t *tracepoints_ptrs;
};
/* module notifier (the fake kernel loads and unloads "mymod") */
static inline bool within_module(unsigned long addr, const struct module *mod)
{
	return addr - (unsigned long)mod->core_layout.base < mod->core_layout.size;
}
struct notifier_block {
	int (*notifier_call)(struct notifier_block *, unsigned long, void *);
	int priority;
};
#define NOTIFY_DONE 0
#define NOTIFY_OK 1
enum module_state { MODULE_STATE_LIVE, MODULE_STATE_COMING, MODULE_STATE_GOING,
		    MODULE_STATE_UNFORMED };
static inline int register_module_notifier(struct notifier_block *nb) { (void)nb; return 0; }
static inline int unregister_module_notifier(struct notifier_block *nb) { (void)nb; return 0; }
struct kprobe;
typedef int (*kprobe_pre_handler_t)(struct kprobe *, struct pt_regs *);
struct kprobe {
	kprobe_opcode_t *addr;
	const char *symbol_name;
	unsigned int offset;
	kprobe_pre_handler_t pre_handler;
	unsigned long nmissed;
	u32 flags;
};
#define KPROBE_FLAG_GONE 1
#define KPROBE_FLAG_DISABLED 2
static inline bool kprobe_gone(struct kprobe *p) { return p->flags & KPROBE_FLAG_GONE; }
struct kretprobe_instance { int dummy; };
struct kretprobe {
	struct kprobe kp;
	int (*handler)(struct kretprobe_instance *, struct pt_regs *);
	int (*entry_handler)(struct kretprobe_instance *, struct pt_regs *);
	int maxactive;
	int nmissed;
	size_t data_size;
};
int register_kprobe(struct kprobe *kp);
void unregister_kprobe(struct kprobe *kp);
static inline void unregister_kprobes(struct kprobe **kps, int num)
{
	for (int i = 0; i < num; i++)
		unregister_kprobe(kps[i]);
}
int register_kretprobe(struct kretprobe *rp);
void unregister_kretprobe(struct kretprobe *rp);
/* kallsyms' iterators, as a 6.1 kernel declares them (kshim/logdev_compat.h) */
int kallsyms_on_each_symbol(int (*fn)(void *, const char *, struct module *, unsigned long),
			    void *data);
int module_kallsyms_on_each_symbol(int (*fn)(void *, const char *, struct module *,
					     unsigned long),
				   void *data);
struct tracepoint { const char *name; };
/* include/linux/tracepoint-defs.h: an entry of the raw tracepoint map */
struct bpf_raw_event_map {
	struct tracepoint *tp;
	void *bpf_func;
	u32 num_args;
	u32 writable_size;
} __attribute__((aligned(32)));
void for_each_kernel_tracepoint(void (*fct)(struct tracepoint *, void *), void *priv);
int tracepoint_probe_register(struct tracepoint *tp, void *probe, void *data);
int tracepoint_probe_unregister(struct tracepoint *tp, void *probe, void *data);
static inline void tracepoint_synchronize_unregister(void) { }
/* the tracepoint module notifier: fuzz_probespec.c calls it for "mymod" */
struct tp_module { struct list_head list; struct module *mod; };
int register_tracepoint_module_notifier(struct notifier_block *nb);
int unregister_tracepoint_module_notifier(struct notifier_block *nb);

/* ---- seq_file, debugfs: output to a buffer */
struct seq_file { char buf[65536]; size_t len; };
struct inode { int dummy; };
#define FMODE_WRITE 2
struct file_operations;
struct file {
	unsigned int f_mode, f_flags;
	struct seq_file *seq;
	const struct file_operations *f_op;
};
struct dentry { int dummy; };
struct file_operations {
	void *owner;
	int (*open)(struct inode *, struct file *);
	ssize_t (*read)(struct file *, char *, size_t, loff_t *);
	void *read_iter;	/* only tested for NULL (kernel_read() or ->read) */
	ssize_t (*write)(struct file *, const char *, size_t, loff_t *);
	loff_t (*llseek)(struct file *, loff_t, int);
	int (*release)(struct inode *, struct file *);
};
/* the fake /proc/kallsyms of fuzz_probespec.c, read both ways */
struct file *filp_open(const char *path, int flags, unsigned short mode);
int filp_close(struct file *f, void *id);
ssize_t kernel_read(struct file *f, void *buf, size_t n, loff_t *pos);
unsigned long vm_mmap(struct file *f, unsigned long addr, unsigned long len,
		      unsigned long prot, unsigned long flag, unsigned long off);
int vm_munmap(unsigned long addr, size_t len);
static inline unsigned long copy_from_user(void *to, const void *from, unsigned long n)
{
	memcpy(to, from, n);
	return 0;
}
__printf(2, 3) void seq_printf(struct seq_file *m, const char *fmt, ...);
void seq_putc(struct seq_file *m, char c);
void seq_puts(struct seq_file *m, const char *s);
int single_open(struct file *f, int (*show)(struct seq_file *, void *), void *data);
ssize_t seq_read(struct file *f, char *b, size_t n, loff_t *pos);
loff_t seq_lseek(struct file *f, loff_t off, int whence);
int single_release(struct inode *i, struct file *f);
struct dentry *debugfs_create_file(const char *name, unsigned short mode, struct dentry *dir,
				   void *data, const struct file_operations *fops);
#endif
