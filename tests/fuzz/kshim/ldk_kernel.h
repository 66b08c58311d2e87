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
#include <fcntl.h>

/* the kernel logdev runs on (x86-64: tracepoint arguments in registers) */
#define CONFIG_X86_64 1

typedef uint8_t u8;
typedef uint16_t u16;
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
#define PTR_ERR(p) ((long)(p))
#define ERR_PTR(e) ((void *)(long)(e))
#define container_of(p, t, m) ((t *)((char *)(p) - offsetof(t, m)))
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

/* ---- allocation */
static inline void *kzalloc(size_t n, int gfp) { (void)gfp; return calloc(1, n); }
static inline void kfree(const void *p) { free((void *)p); }
static inline char *kstrdup(const char *s, int gfp) { (void)gfp; return s ? strdup(s) : NULL; }
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
struct pt_regs { unsigned long di, si, dx, cx, r8, r9, ax; };
#define regs_get_kernel_argument(r, n) ((n) == 0 ? (r)->di : (r)->si)
#define regs_return_value(r) ((r)->ax)
typedef u8 kprobe_opcode_t;
struct module { char name[MODULE_NAME_LEN]; };
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
#define KPROBE_FLAG_DISABLED 2
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
int register_kretprobe(struct kretprobe *rp);
void unregister_kretprobe(struct kretprobe *rp);
struct tracepoint { const char *name; };
void for_each_kernel_tracepoint(void (*fct)(struct tracepoint *, void *), void *priv);
int tracepoint_probe_register(struct tracepoint *tp, void *probe, void *data);
int tracepoint_probe_unregister(struct tracepoint *tp, void *probe, void *data);
static inline void tracepoint_synchronize_unregister(void) { }

/* ---- seq_file, debugfs: output to a buffer */
struct seq_file { char buf[65536]; size_t len; };
struct inode { int dummy; };
#define FMODE_WRITE 2
struct file { unsigned int f_mode, f_flags; struct seq_file *seq; };
struct dentry { int dummy; };
struct file_operations {
	void *owner;
	int (*open)(struct inode *, struct file *);
	ssize_t (*read)(struct file *, char *, size_t, loff_t *);
	ssize_t (*write)(struct file *, const char *, size_t, loff_t *);
	loff_t (*llseek)(struct file *, loff_t, int);
	int (*release)(struct inode *, struct file *);
};
__printf(2, 3) void seq_printf(struct seq_file *m, const char *fmt, ...);
void seq_putc(struct seq_file *m, char c);
int single_open(struct file *f, int (*show)(struct seq_file *, void *), void *data);
ssize_t seq_read(struct file *f, char *b, size_t n, loff_t *pos);
loff_t seq_lseek(struct file *f, loff_t off, int whence);
int single_release(struct inode *i, struct file *f);
struct dentry *debugfs_create_file(const char *name, unsigned short mode, struct dentry *dir,
				   void *data, const struct file_operations *fops);
#endif
