// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_probespec.c - libFuzzer target: the debugfs "probes" file of
 * kernel/logdev_probes.c, its own source built in userspace (the Makefile
 * copies it to build/ and compiles it into this file, so its static parser
 * is reachable; kshim/ supplies the kernel it calls: ldk_kernel.h).
 *
 * Input: commands separated by byte 0x01, each written to "probes" as one
 * write (ld_probes_write(): parse, uniqueness check against a fake
 * kallsyms, attach to a fake kprobes/tracepoints, globs, list, remove,
 * error_log); a command starting with byte 0x02 is written to
 * "probe_functions" instead (the rest: a glob) and that file is read; a
 * command starting with byte 0x03 unloads the fake module "mymod" if it is
 * loaded, else loads it (the module notifier: MODULE_STATE_GOING, or
 * _COMING then _LIVE), checking that no probe on it stays armed while it
 * is away and that each one by name is armed (or says why not) once it is
 * back; it is loaded again before the end.
 * After the writes: the listing and the error_log are rendered, every
 * attached probe is fired once (its handlers record through a fake
 * ld_write_print(), reading registers that point into a fake kernel
 * memory, ldk_mem[], or nowhere), and all probes are removed.
 * Checks beyond the sanitizers: a write returns its count or a negative
 * errno; a probe's fetches are ones its handler may run ($argN 1..6, 1..5
 * for tracepoints; registers inside struct pt_regs; no pt_regs on a
 * tracepoint; $retval only in a return record; sizes 1 2 4 8); a record's
 * payload is what its format says, as vbin_printf() lays it out (8-byte
 * values 4-byte aligned, NUL-terminated strings, nothing left over), and at
 * most the probe's payload_max and LOGDEV_MAX_PAYLOAD; memory is read only
 * through copy_from_kernel_nofault() (ASan: the handler's buffers); every
 * probe is unregistered at the end; nothing leaks (LeakSanitizer).
 */
#include "logdev_probes.c"
#include "logdev_ksyms.c"		/* its kernel symbols */
#include "logdev_ksyms_query.c"
#include "logdev_btf.c"		/* the BTF reader logdev_probes.c calls */
#include "btf_build.h"		/* tests/btf: the fake kernel's BTF */

/* ---- the fake kernel memory: the only bytes copy_from_kernel_nofault()
 * reads (ldk_mem_init(): pointers into itself, strings, one running into
 * the end), at the kernel address LDK_MEM; the stack is its second half */
#define LDK_MEM		0xffff888000100000UL
#define LDK_MEM_SIZE	512
static u8 ldk_mem[LDK_MEM_SIZE] __aligned(8);

static void ldk_mem_init(void)
{
	static const u64 w[] = {
		LDK_MEM + 64,		/* 0: -> "/etc/passwd" */
		LDK_MEM + 0,		/* 8: -> itself: +0(+0(...)) */
		LDK_MEM + 128,		/* 16: -> a long string */
		0xffffffffffffff85ULL,	/* 24: -123 */
		LDK_MEM + 500,		/* 32: -> a string cut by the end */
		0x1234,			/* 40: not a kernel address */
		0xffffffff81100000UL,	/* 48: vfs_read, for :symbol */
	};

	memset(ldk_mem, 0, sizeof(ldk_mem));
	memcpy(ldk_mem, w, sizeof(w));
	memcpy(ldk_mem + 64, "/etc/passwd", 12);
	memset(ldk_mem + 128, 'A', 100);	/* more than LD_PROBE_STR_MAX */
	for (int i = 256; i < 500; i += 8)	/* the stack: words pointing back */
		*(u64 *)(ldk_mem + i) = LDK_MEM + (i % 64);
	memset(ldk_mem + 500, 'z', LDK_MEM_SIZE - 500);	/* no NUL before the end */
}

static struct mm_struct ldk_mm;		/* a process's: /proc/kallsyms read by ->read */
static struct task_struct ldk_task __aligned(8) = { "fuzz_probespec", &ldk_mm };
struct task_struct *ldk_current = &ldk_task;

long copy_from_kernel_nofault(void *dst, const void *src, size_t size)
{
	unsigned long a = (unsigned long)src;

	if (!size || size > LDK_MEM_SIZE)
		abort();	/* logdev reads 1..8 bytes */
	if (a >= (unsigned long)ldk_task.comm &&
	    a - (unsigned long)ldk_task.comm <= sizeof(ldk_task.comm) - size) {
		memcpy(dst, src, size);	/* $comm: current->comm */
		return 0;
	}
	if (a < LDK_MEM || a - LDK_MEM > LDK_MEM_SIZE - size)
		return -EFAULT;
	memcpy(dst, ldk_mem + (a - LDK_MEM), size);
	return 0;
}
unsigned long regs_get_kernel_stack_nth(struct pt_regs *r, unsigned int n)
{
	unsigned long v = 0;

	if (n > LDK_MEM_SIZE || copy_from_kernel_nofault(&v, (void *)(r->sp + 8UL * n), 8))
		return 0;
	return v;
}

/* ---- lib/sort.c's contract: sort @num elements of @size bytes at @base
 * by @cmp, in place, no allocation (the kernel's is a heapsort; this is an
 * insertion sort, enough for the few names here); @swap NULL: bytes */
void sort(void *base, size_t num, size_t size,
	  int (*cmp)(const void *, const void *),
	  void (*swap)(void *, void *, int))
{
	char *b = base, tmp[64];

	if (swap || size > sizeof(tmp))
		abort();	/* logdev passes neither */
	for (size_t i = 1; i < num; i++)
		for (size_t j = i; j > 0 && cmp(b + (j - 1) * size, b + j * size) > 0; j--) {
			memcpy(tmp, b + j * size, size);
			memcpy(b + j * size, b + (j - 1) * size, size);
			memcpy(b + (j - 1) * size, tmp, size);
		}
}

/*
 * lib/glob.c's contract: does all of @str match @pat?  '*' any run of
 * bytes, '?' one byte, [abc] [a-z] [!a-z] one byte of a class (a ']' first
 * in the class is a member, a '-' first or before the ']' is a member), a
 * '[' without a closing ']' is a literal '[', '\x' is a literal x.  Our own
 * code from that description: on a mismatch, go back to the last '*' and
 * let it take one more byte (linear in both, no recursion).
 */
/* Does the class at @p (after its '['; not empty, has a ']') hold @c?
 * *@end: the byte after its ']'; -1: not a class (a literal '[') */
static int ldk_glob_class(const char *p, unsigned char c, const char **end)
{
	bool inv = *p == '!', hit = false;

	if (inv)
		p++;
	if (!*p || !strchr(p + 1, ']'))
		return -1;
	do {
		unsigned char a = *p, z = a;

		if (p[1] == '-' && p[2] && p[2] != ']') {
			z = p[2];
			p += 2;
		}
		if (a <= c && c <= z)
			hit = true;
		p++;
	} while (*p != ']');
	*end = p + 1;
	return c && hit != inv;
}

bool glob_match(const char *pat, const char *str)
{
	const char *star = NULL, *star_str = NULL, *end;
	int r;

	for (;;) {
		unsigned char c = *str, d = *pat;

		if (d == '*') {
			while (*pat == '*')
				pat++;
			if (!*pat)
				return true;
			star = pat;
			star_str = str;
			continue;
		}
		if (d == '?' && c) {
			pat++, str++;
			continue;
		}
		if (d == '[') {
			r = ldk_glob_class(pat + 1, c, &end);
			if (r > 0) {
				pat = end, str++;
				continue;
			}
			if (r == 0)
				goto back;
			/* not a class: a literal '[' */
		} else if (d == '\\' && pat[1]) {
			d = *++pat;
		} else if (d == '?') {
			goto back;
		}
		if (c == d) {
			if (!d)
				return true;
			pat++, str++;
			continue;
		}
back:
		if (!star || !*star_str)
			return false;
		pat = star;
		str = ++star_str;
	}
}

/* glob_match() against examples worked out by hand from lib/glob.c's
 * description; aborts on a wrong answer (run once, first input) */
static void ldk_glob_selftest(void)
{
	static const struct { const char *pat, *str; bool m; } t[] = {
		{ "vfs_*", "vfs_read", 1 }, { "vfs_*", "vfs_", 1 }, { "vfs_*", "vfs", 0 },
		{ "*", "", 1 }, { "", "", 1 }, { "", "a", 0 }, { "?", "", 0 },
		{ "*read", "vfs_read", 1 }, { "*read", "vfs_readv", 0 },
		{ "*a*b", "xaxxb", 1 }, { "*a*b", "xaxxbc", 0 }, { "a*b*c", "abbc", 1 },
		{ "do_?ys_open", "do_sys_open", 1 }, { "[a-c]x", "bx", 1 },
		{ "[a-c]x", "dx", 0 }, { "[!a-c]x", "dx", 1 }, { "[!a-c]x", "ax", 0 },
		{ "[]]", "]", 1 }, { "[a-]", "-", 1 }, { "[-a]", "-", 1 },
		{ "[abc", "[abc", 1 }, { "[abc", "a", 0 }, { "[", "[", 1 },
		{ "\\*", "*", 1 }, { "\\*", "a", 0 }, { "**x", "ax", 1 },
		{ "vfs_read", "vfs_read", 1 }, { "vfs_read", "vfs_readv", 0 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(t); i++)
		if (glob_match(t[i].pat, t[i].str) != t[i].m) {
			fprintf(stderr, "glob_match(%s, %s) != %d\n", t[i].pat, t[i].str, t[i].m);
			abort();
		}
}

/* ---- the fake kernel: symbols (two "dup_fn": ambiguous), tracepoints */
static const struct { const char *name, *mod; unsigned long addr; } ldk_syms[] = {
	{ "_stext", NULL, 0xffffffff81000000UL },
	{ "_etext", NULL, 0xffffffff81300000UL },
	{ "ldk_data", NULL, LDK_MEM + 8 },	/* data: @ldk_data, not in globs */
	{ "vfs_readv", NULL, 0xffffffff81100080UL },
	{ "do_sys_open", NULL, 0xffffffff81100400UL },
	{ "vfs_read", NULL, 0xffffffff81100000UL },
	{ "vfs_write", NULL, 0xffffffff81100100UL },
	{ "dup_fn", NULL, 0xffffffff81100200UL },
	{ "dup_fn", "mymod", 0xffffffffc0000000UL },
	{ "do_sys_open.isra.0", NULL, 0xffffffff81100300UL },
	{ "mod_fn", "mymod", 0xffffffffc0000100UL },
	{ "kallsyms_on_each_symbol", NULL, 0xffffffff81200000UL },
	{ "module_kallsyms_on_each_symbol", NULL, 0xffffffff81200100UL },
};
static struct tracepoint ldk_tps[] = {
	{ "sched_switch" }, { "kmem_cache_free" }, { "ldk_kinds" }, { "ldk_after_struct" },
	{ "ldk_loop" }, { "ldk_nomap" },	/* not in the raw tracepoint map */
};

/*
 * The fake kernel's BTF and raw tracepoint map (tracepoint arguments by
 * name): bb_kernelish()'s functions (tests/btf/btf_build.h: a 6.1 kernel's
 * __bpf_trace_kmem_cache_free and __bpf_trace_sched_switch, and every
 * kind logdev maps or refuses), found through kallsyms' __start_BTF,
 * __stop_BTF, __start__bpf_raw_tp, __stop__bpf_raw_tp (ldk_dsyms[]: real
 * addresses, filled by ldk_btf_init()); the class functions' names come
 * back from sprint_symbol_no_offset().
 */
#define LDK_BPF_FUNC	0xffffffff81400000UL	/* past _etext: not in globs */
static const char *const ldk_classes[] = {
	"__bpf_trace_sched_switch", "__bpf_trace_kmem_cache_free",
	"__bpf_trace_ldk_kinds", "__bpf_trace_ldk_after_struct", "__bpf_trace_ldk_loop",
};
static struct bpf_raw_event_map ldk_raw_tp[5];
static struct { const char *name; unsigned long addr; } ldk_dsyms[4];
static u8 *ldk_btf;

static void ldk_btf_init(void)
{
	static const u32 nargs[] = { 4, 3, 8, 2, 1 };
	struct bb *b = malloc(sizeof(*b));
	size_t size;

	if (!b)
		abort();
	bb_init(b, 1, 0);
	bb_kernelish(b);
	ldk_btf = bb_blob(b, &size);
	free(b);
	for (size_t i = 0; i < ARRAY_SIZE(ldk_raw_tp); i++)
		ldk_raw_tp[i] = (struct bpf_raw_event_map){
			.tp = &ldk_tps[i], .bpf_func = (void *)(LDK_BPF_FUNC + 16 * i),
			.num_args = nargs[i],
		};
	ldk_dsyms[0].name = "__start_BTF";
	ldk_dsyms[0].addr = (unsigned long)ldk_btf;
	ldk_dsyms[1].name = "__stop_BTF";
	ldk_dsyms[1].addr = (unsigned long)ldk_btf + size;
	ldk_dsyms[2].name = "__start__bpf_raw_tp";
	ldk_dsyms[2].addr = (unsigned long)ldk_raw_tp;
	ldk_dsyms[3].name = "__stop__bpf_raw_tp";
	ldk_dsyms[3].addr = (unsigned long)(ldk_raw_tp + ARRAY_SIZE(ldk_raw_tp));
}

int sprint_symbol_no_offset(char *buffer, unsigned long address)
{
	for (size_t i = 0; i < ARRAY_SIZE(ldk_classes); i++)
		if (address == LDK_BPF_FUNC + 16 * i)
			return snprintf(buffer, KSYM_SYMBOL_LEN, "%s", ldk_classes[i]);
	return snprintf(buffer, KSYM_SYMBOL_LEN, "0x%lx", address);
}
/* mymod's tracepoints: one of its own, one named as one of vmlinux's */
static struct tracepoint ldk_mod_tps[] = { { "mod_tp" }, { "sched_switch" } };
static tracepoint_ptr_t ldk_mod_tp_ptrs[] = { &ldk_mod_tps[0], &ldk_mod_tps[1] };
static struct module ldk_mymod = {
	"mymod", { (void *)0xffffffffc0000000UL, 0x2000, 0x1000 },
	ARRAY_SIZE(ldk_mod_tp_ptrs), ldk_mod_tp_ptrs
};
static long ldk_armed;		/* registered and not yet unregistered */
static bool ldk_mymod_gone;	/* "mymod" unloaded (command 0x03) */

typedef int (*ldk_sym_fn)(void *, const char *, struct module *, unsigned long);
/* kallsyms_on_each_symbol() and module_kallsyms_on_each_symbol() of 6.1,
 * found through register_kprobe() (ldk_resolve()), named by sprint_symbol() */
static int ldk_each_vmlinux(ldk_sym_fn fn, void *data)
{
	for (size_t i = 0; i < ARRAY_SIZE(ldk_syms); i++)
		if (!ldk_syms[i].mod && fn(data, ldk_syms[i].name, NULL, ldk_syms[i].addr))
			return 1;
	for (size_t i = 0; i < ARRAY_SIZE(ldk_dsyms); i++)
		if (fn(data, ldk_dsyms[i].name, NULL, ldk_dsyms[i].addr))
			return 1;
	return 0;
}
static int ldk_each_module(ldk_sym_fn fn, void *data)
{
	for (size_t i = 0; i < ARRAY_SIZE(ldk_syms); i++)
		if (ldk_syms[i].mod && !ldk_mymod_gone &&
		    fn(data, ldk_syms[i].name, &ldk_mymod, ldk_syms[i].addr))
			return 1;
	return 0;
}

/*
 * kallsyms' view of an address, "name+0xOFF/0xSIZE [mod]": the iterators
 * (each 0x40 bytes here), the symbols of ldk_syms[] (0x10 bytes each) and
 * of mymod while it is loaded; anything else its hex value, as the kernel.
 */
int sprint_symbol(char *buffer, unsigned long address)
{
	static const struct { const char *name; unsigned long a; } it[] = {
		{ "kallsyms_on_each_symbol", (unsigned long)ldk_each_vmlinux },
		{ "module_kallsyms_on_each_symbol", (unsigned long)ldk_each_module },
	};

	for (size_t i = 0; i < ARRAY_SIZE(it); i++)
		if (address - it[i].a < 0x40)
			return snprintf(buffer, KSYM_SYMBOL_LEN, "%s+0x%lx/0x40", it[i].name,
					address - it[i].a);
	for (size_t i = 0; i < ARRAY_SIZE(ldk_syms); i++) {
		if (address - ldk_syms[i].addr >= 0x10 || (ldk_syms[i].mod && ldk_mymod_gone))
			continue;
		return snprintf(buffer, KSYM_SYMBOL_LEN, "%s+0x%lx/0x10%s%s%s", ldk_syms[i].name,
				address - ldk_syms[i].addr, ldk_syms[i].mod ? " [" : "",
				ldk_syms[i].mod ? ldk_syms[i].mod : "", ldk_syms[i].mod ? "]" : "");
	}
	return snprintf(buffer, KSYM_SYMBOL_LEN, "0x%lx", address);
}

/*
 * /proc/kallsyms of the fake kernel: vmlinux's symbols (a per-CPU one at
 * address 0 first, as x86-64's), two lines logdev must skip, mymod's while
 * it is loaded, then the pseudo-modules of bpf and kprobes; with
 * ldk_kallsyms_hidden every address 0 (kptr_restrict=2).  Opened files
 * alternate between the two ways logdev reads it: kernel_read() (a file
 * with read_iter) and ->read into a buffer of the process (vm_mmap()),
 * each in pieces of ldk_kallsyms_piece bytes (set by command 0x04), so
 * lines are cut across reads.
 */
static char ldk_kallsyms[4096];
static size_t ldk_kallsyms_len, ldk_kallsyms_piece = 4096;
static bool ldk_kallsyms_hidden;
static unsigned int ldk_kallsyms_opens;

static void ldk_kallsyms_text(void)
{
	size_t o = 0;

#define L(...) (o += snprintf(ldk_kallsyms + o, sizeof(ldk_kallsyms) - o, __VA_ARGS__))
#define A(a) (ldk_kallsyms_hidden ? 0UL : (unsigned long)(a))
	L("%016lx A fixed_percpu_data\n", 0UL);
	for (size_t i = 0; i < ARRAY_SIZE(ldk_syms); i++)
		if (!ldk_syms[i].mod)
			L("%016lx %c %s\n", A(ldk_syms[i].addr),
			  ldk_syms[i].addr >= 0xffffffff81000000UL ? 'T' : 'd', ldk_syms[i].name);
	for (size_t i = 0; i < ARRAY_SIZE(ldk_dsyms); i++)
		L("%016lx D %s\n", A(ldk_dsyms[i].addr), ldk_dsyms[i].name);
	L("not a line\n");
	L("ffffffff81000000 T\n");
	if (!ldk_mymod_gone)
		for (size_t i = 0; i < ARRAY_SIZE(ldk_syms); i++)
			if (ldk_syms[i].mod)
				L("%016lx t %s\t[%s]\n", A(ldk_syms[i].addr), ldk_syms[i].name,
				  ldk_syms[i].mod);
	L("%016lx t bpf_prog_ldk_fn\t[bpf]\n", A(0xffffffffc0100000UL));
	L("%016lx t optimized_callback\t[__builtin__kprobes]\n", A(0xffffffffc0200000UL));
#undef A
#undef L
	if (o >= sizeof(ldk_kallsyms))
		abort();
	ldk_kallsyms_len = o;
}

static ssize_t ldk_kallsyms_read(struct file *f, char *b, size_t n, loff_t *pos)
{
	size_t k;

	(void)f;
	if (*pos < 0 || (size_t)*pos > ldk_kallsyms_len)
		abort();
	k = min(min(n, ldk_kallsyms_piece), ldk_kallsyms_len - (size_t)*pos);
	memcpy(b, ldk_kallsyms + *pos, k);
	*pos += k;
	return k;
}
static const struct file_operations ldk_kallsyms_iter_fops = { .read_iter = (void *)1 };
static const struct file_operations ldk_kallsyms_read_fops = { .read = ldk_kallsyms_read };
static long ldk_files;		/* open files of the fake /proc/kallsyms */

struct file *filp_open(const char *path, int flags, unsigned short mode)
{
	struct file *f;

	if (strcmp(path, "/proc/kallsyms") || flags != O_RDONLY || mode)
		abort();
	f = calloc(1, sizeof(*f));
	if (!f)
		abort();
	f->f_op = ldk_kallsyms_opens++ % 2 ? &ldk_kallsyms_read_fops : &ldk_kallsyms_iter_fops;
	ldk_kallsyms_text();
	ldk_files++;
	return f;
}
int filp_close(struct file *f, void *id)
{
	(void)id;
	free(f);
	if (--ldk_files < 0)
		abort();
	return 0;
}
ssize_t kernel_read(struct file *f, void *buf, size_t n, loff_t *pos)
{
	if (f->f_op != &ldk_kallsyms_iter_fops)
		abort();	/* kernel_read() takes only read_iter files */
	return ldk_kallsyms_read(f, buf, n, pos);
}
static long ldk_maps;
unsigned long vm_mmap(struct file *f, unsigned long addr, unsigned long len,
		      unsigned long prot, unsigned long flag, unsigned long off)
{
	void *p;

	if (f || addr || off || prot != (PROT_READ | PROT_WRITE) ||
	    flag != (MAP_PRIVATE | MAP_ANONYMOUS) || !current->mm)
		abort();
	p = malloc(len);
	if (!p)
		abort();
	ldk_maps++;
	return (unsigned long)p;
}
int vm_munmap(unsigned long addr, size_t len)
{
	(void)len;
	free((void *)addr);
	if (--ldk_maps < 0)
		abort();
	return 0;
}

/* kernel/logdev_parse.c's contracts (kshim/logdev_parse.h) */
int ld_parse_write(char *buf, size_t count)
{
	if (count && buf[count - 1] == '\n')
		buf[--count] = '\0';
	if (!count || strlen(buf) != count)
		return -EINVAL;
	return 0;
}
int ld_parse_name(const char *s, const char * const *names, int nr)
{
	for (int i = 0; i < nr; i++)
		if (!strcmp(s, names[i]))
			return i;
	return -EINVAL;
}

/* The "ksyms" setting (command 0x04, one byte): mode = b % 4 (3: procfs
 * with every address 0), and the pieces /proc/kallsyms is read in. */
static void ldk_ksyms_mode(u8 b)
{
	static const size_t pieces[] = { 4096, 1, 7, 64, 333 };

	ldk_kallsyms_hidden = b % 4 == 3;
	if (ld_ksyms_set_mode(b % 4 == 3 ? LD_KSYMS_PROCFS : b % 4))
		abort();
	ldk_kallsyms_piece = pieces[(b / 4) % ARRAY_SIZE(pieces)];
}

static int ldk_resolve(struct kprobe *kp)
{
	const char *n = kp->symbol_name, *colon;

	if (kp->addr && ldk_mymod_gone && within_module((unsigned long)kp->addr, &ldk_mymod))
		return -EINVAL;	/* not text (any more) */
	if (kp->addr)
		return (unsigned long)kp->addr >= 0xffffffff80000000UL ? 0 : -EINVAL;
	if (!n)
		return -EINVAL;
	/* kprobes puts a probe on FUNC past its ENDBR64 (x86 IBT): +4 */
	if (!strcmp(n, "kallsyms_on_each_symbol")) {
		kp->addr = (kprobe_opcode_t *)ldk_each_vmlinux + 4;
		return 0;
	}
	if (!strcmp(n, "module_kallsyms_on_each_symbol")) {
		kp->addr = (kprobe_opcode_t *)ldk_each_module + 4;
		return 0;
	}
	colon = strchr(n, ':');
	for (size_t i = 0; i < ARRAY_SIZE(ldk_syms); i++) {
		if (ldk_syms[i].mod && ldk_mymod_gone)
			continue;
		if (colon ? (ldk_syms[i].mod && !strncmp(n, ldk_syms[i].mod, colon - n) &&
			     !ldk_syms[i].mod[colon - n] && !strcmp(colon + 1, ldk_syms[i].name))
			  : !strcmp(n, ldk_syms[i].name)) {
			kp->addr = (kprobe_opcode_t *)(ldk_syms[i].addr + kp->offset);
			if (ldk_syms[i].addr < 0xffffffff81000000UL)
				return -EINVAL;	/* not text: ldk_data */
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
	(void)probe, (void)data;
	/* a tracepoint of mymod while it is away: a pointer kept too long */
	if (ldk_mymod_gone && tp >= ldk_mod_tps && tp < ldk_mod_tps + ARRAY_SIZE(ldk_mod_tps))
		abort();
	ldk_armed++;
	return 0;
}

/*
 * The tracepoint module notifier: its registration reports every loaded
 * module with tracepoints (COMING), its removal every one (GOING), as the
 * kernel's; ldk_mymod_toggle() reports mymod's unload and load.
 */
static struct tp_module ldk_mymod_tpm = { .mod = &ldk_mymod };
static struct notifier_block *ldk_tp_nb;
int register_tracepoint_module_notifier(struct notifier_block *nb)
{
	ldk_tp_nb = nb;
	if (!ldk_mymod_gone)
		nb->notifier_call(nb, MODULE_STATE_COMING, &ldk_mymod_tpm);
	return 0;
}
int unregister_tracepoint_module_notifier(struct notifier_block *nb)
{
	if (!ldk_mymod_gone)
		nb->notifier_call(nb, MODULE_STATE_GOING, &ldk_mymod_tpm);
	ldk_tp_nb = NULL;
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
static struct logdev_site *ldk_site;	/* the last logdev_site_id()'s */
static u32 ldk_payload_max;		/* of the probe fire_all() fires */

u32 logdev_site_id(struct logdev_site *site)
{
	if (!site || !site->fmt || !site->func || !site->file)
		abort();
	ldk_site = site;
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

/*
 * The payload is what @fmt says, laid out as vbin_printf() does: %ll[xud]
 * and %pS 8 bytes at a 4-byte boundary, %s a NUL-terminated string (a
 * fetched one at most LD_PROBE_STR_MAX bytes; a fault mark "", "(fault)"
 * or "[cut]"), every byte used.
 */
static void ldk_check_payload(const char *fmt, const u8 *buf, u32 bytes)
{
	u32 pos = 0;

	for (const char *f = fmt; *f; f++) {
		if (*f != '%')
			continue;
		f++;
		if (*f == 's') {
			const u8 *nul = memchr(buf + pos, 0, bytes - pos);
			bool mark = f[1] != '"';	/* "\"%s\"" is a value */

			if (!nul || (!mark && nul - (buf + pos) >= LD_PROBE_STR_MAX) ||
			    (mark && strcmp((const char *)buf + pos, "") &&
			     strcmp((const char *)buf + pos, ld_fault_mark) &&
			     strcmp((const char *)buf + pos, ld_cut_mark)))
				abort();
			pos = nul - buf + 1;
			continue;
		}
		if (f[0] == 'p' && f[1] == 'S')
			f++;
		else if (f[0] == 'l' && f[1] == 'l' && f[2] && strchr("xud", f[2]))
			f += 2;
		else
			abort();	/* ld_fmt_add() writes no other */
		pos = ALIGN(pos, 4);
		if (pos + 8 > bytes)
			abort();
		pos += 8;
	}
	if (pos != bytes)
		abort();
}

/* The record as a reader would print it, on stderr (checked payload). */
static void ldk_trace(const struct logdev_site *site, const u8 *buf, u32 bytes)
{
	u32 pos = 0;
	u64 v;

	fprintf(stderr, "record %s: ", site->func);
	for (const char *f = site->fmt; *f; f++) {
		if (*f != '%') {
			fputc(*f, stderr);
			continue;
		}
		f++;
		if (*f == 's') {
			fputs((const char *)buf + pos, stderr);
			pos += strlen((const char *)buf + pos) + 1;
			continue;
		}
		pos = ALIGN(pos, 4);
		memcpy(&v, buf + pos, 8);
		pos += 8;
		if (*f == 'p') {
			f++;
			fprintf(stderr, "%#llx", v);
		} else {
			f += 2;
			fprintf(stderr, *f == 'x' ? "%llx" : *f == 'u' ? "%llu" : "%lld", v);
		}
	}
	fprintf(stderr, "  (%u bytes)\n", bytes);
}

int ld_write_print(u32 site_id, const void *payload, u32 bytes)
{
	if (site_id != 1 || bytes > LOGDEV_MAX_PAYLOAD || bytes > ldk_payload_max ||
	    (bytes && !payload) || !ldk_site)
		abort();
	ldk_check_payload(ldk_site->fmt, payload, bytes);
	if (getenv("FUZZ_PROBESPEC_TRACE"))	/* by hand: what was recorded */
		ldk_trace(ldk_site, payload, bytes);
	ldk_site = NULL;
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
void seq_puts(struct seq_file *m, const char *s)
{
	seq_printf(m, "%s", s);
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
int single_release(struct inode *i, struct file *f)
{
	(void)i;
	if (getenv("FUZZ_PROBESPEC_TRACE"))	/* by hand: the file as read */
		fputs(f->seq->buf, stderr);
	free(f->seq);
	return 0;
}
struct dentry *debugfs_create_file(const char *name, unsigned short mode, struct dentry *dir,
				   void *data, const struct file_operations *fops)
{
	(void)name, (void)mode, (void)dir, (void)data, (void)fops;
	return NULL;
}

/* A fetch the handler of a probe of @kind may run (see the file comment). */
static void ldk_check_fetch(const struct ld_fetch *f, enum ld_probe_kind kind, bool ret)
{
	bool tp = kind == LD_PROBE_TRACEPOINT;

	if (f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8)
		abort();
	if (f->ndrf > LD_FETCH_DEPTH || f->type > LD_FT_SYMBOL || !*f->name ||
	    strnlen(f->name, sizeof(f->name)) == sizeof(f->name))
		abort();
	if (ret != (f->base == LD_FB_RETVAL) && kind == LD_PROBE_KRETPROBE)
		abort();
	switch (f->base) {
	case LD_FB_ARG:
		if (f->val < 1 || f->val > (tp ? LD_TP_MAX_ARGS : 6))
			abort();
		break;
	case LD_FB_RETVAL:
		if (kind != LD_PROBE_KRETPROBE)
			abort();
		break;
	case LD_FB_REG:
		if (tp || f->val % sizeof(long) || f->val >= sizeof(struct pt_regs))
			abort();
		break;
	case LD_FB_IMM:
		if (!f->ndrf)
			abort();	/* @SYM is read, never recorded as is */
		break;
	case LD_FB_STACKN:
	case LD_FB_STACK:
		if (tp)
			abort();
		break;
	case LD_FB_COMM:
		if (f->ndrf || f->type != LD_FT_STRING)
			abort();
		break;
	default:
		abort();
	}
	if (f->type == LD_FT_STRING && !f->ndrf && f->base != LD_FB_COMM)
		abort();
}

/* Each attached probe's handlers, once: what the parser stored is safe to
 * use.  Registers point into ldk_mem[] (strings, pointers), at its end, or
 * nowhere. */
static void fire_all(void)
{
	struct pt_regs regs = {
		.di = LDK_MEM, .si = LDK_MEM + 64, .dx = LDK_MEM + 128, .cx = 0x1234,
		.r8 = LDK_MEM + 500, .r9 = 0, .ax = LDK_MEM + 8, .bx = LDK_MEM + 24,
		.bp = LDK_MEM + 256, .sp = LDK_MEM + 256, .ip = 0xffffffff81100000UL,
		.r10 = ~0UL, .r11 = LDK_MEM + LDK_MEM_SIZE - 1,
	};
	const unsigned long tpa[5] = { LDK_MEM, LDK_MEM + 64, 0x1234, LDK_MEM + 500, 0 };
	struct ld_probe *p;

	list_for_each_entry(p, &ld_probes, list) {
		for (u32 i = 0; i < p->nr_entry; i++)
			ldk_check_fetch(&p->entry[i], p->kind, false);
		for (u32 i = 0; i < p->nr_ret; i++)
			ldk_check_fetch(&p->ret[i], p->kind, true);
		if (p->nr_entry + p->nr_ret > LD_PROBE_MAX_ARGS || !ld_good_name(p->name) ||
		    p->payload_max > LOGDEV_MAX_PAYLOAD)
			abort();
		ldk_payload_max = p->payload_max;
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
			ld_tp_probe(p, tpa[0], tpa[1], tpa[2], tpa[3], tpa[4]);
			break;
		}
	}
}

/* Every probe removed (an O_TRUNC open of "probes"), error_log cleared. */
static void ldk_probes_reset(void)
{
	struct file f = { .f_mode = FMODE_WRITE };

	f.f_flags = O_TRUNC;
	ld_probes_open(NULL, &f);
	single_release(NULL, &f);
	ld_errlog_open(NULL, &f);
	single_release(NULL, &f);
}

/*
 * Unload "mymod" (GOING) or load it (COMING, LIVE) through the module
 * notifier; then no probe on it is armed while it is away, and each one by
 * name is armed or has its arming error once it is back.
 */
static void ldk_mymod_toggle(void)
{
	struct ld_probe *p;

	if (!ldk_mymod_gone) {
		ld_probes_module_cb(&ld_probes_module_nb, MODULE_STATE_GOING, &ldk_mymod);
		ld_tp_module_cb(ldk_tp_nb, MODULE_STATE_GOING, &ldk_mymod_tpm);
		ldk_mymod_gone = true;
	} else {
		ldk_mymod_gone = false;
		ld_tp_module_cb(ldk_tp_nb, MODULE_STATE_COMING, &ldk_mymod_tpm);
		ld_probes_module_cb(&ld_probes_module_nb, MODULE_STATE_COMING, &ldk_mymod);
		ld_probes_module_cb(&ld_probes_module_nb, MODULE_STATE_LIVE, &ldk_mymod);
	}
	list_for_each_entry(p, &ld_probes, list) {
		if (strcmp(p->mod, "mymod"))
			continue;
		if (ldk_mymod_gone ? p->armed : !p->addr && !p->armed && !p->arm_err)
			abort();
		/* a tracepoint probe on mymod points into it only while it is here */
		if (p->kind == LD_PROBE_TRACEPOINT &&
		    (ldk_mymod_gone ? p->tp != NULL : p->armed && p->tp != &ldk_mod_tps[0]))
			abort();
	}
}

/*
 * Tracepoint arguments by name, worked out by hand against the fake BTF
 * (btf_build.h's bb_kernelish()): the errno of each refusal, and the
 * position, type and size each accepted name is stored with; aborts on a
 * wrong answer (run once, first input; every probe removed after).
 */
static void ldk_named_selftest(void)
{
	static const struct { const char *cmd; int ret; } t[] = {
		/* no BTF in kallsyms first (nothing cached yet), then with it */
		{ "t:x=x:kmem_cache_free ptr", -EOPNOTSUPP },
		{ "t:x=x:ldk_nomap a", -EOPNOTSUPP },		/* not in the map */
		{ "t:x=x:kmem_cache_free name", -ENOENT },	/* a field, not an argument */
		{ "t:x=x:ldk_kinds by_value", -EINVAL },	/* the 6th */
		{ "t:x=x:ldk_after_struct p", -EOPNOTSUPP },	/* a struct by value */
		{ "t:x=x:ldk_after_struct after", -EOPNOTSUPP },	/* after one */
		{ "t:x=x:ldk_loop looped", -EINVAL },		/* a broken BTF */
		{ "t:x=x:kmem_cache_free ptr:string", -EINVAL },
		{ "p:x vfs_read ptr", -EINVAL },		/* kprobes: no names */
		{ "t:kmem:kmem_cache_free ptr call_site s", 0 },
		{ "t:sched:sched_switch preempt prev_state", 0 },
		{ "t:k=x:ldk_kinds neg tagged one vol sint:x8 d=+8(vol)", 0 },
	};
	/* the fetches of the three accepted probes: $argN, type, size */
	static const struct { u32 val; u8 type, size; } want[] = {
		{ 2, LD_FT_X, 8 }, { 1, LD_FT_U, 8 }, { 3, LD_FT_X, 8 },
		{ 1, LD_FT_U, 1 }, { 4, LD_FT_U, 4 },
		{ 2, LD_FT_S, 4 }, { 4, LD_FT_S, 2 }, { 3, LD_FT_U, 4 }, { 1, LD_FT_U, 4 },
		{ 5, LD_FT_X, 1 }, { 1, LD_FT_LEGACY, 8 },
	};
	struct file f = { .f_mode = FMODE_WRITE };
	const char *hidden = ldk_dsyms[0].name;
	struct ld_probe *p;
	loff_t pos = 0;
	size_t i, k = 0;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		ldk_dsyms[0].name = i ? hidden : "__start_BTF_not_here";
		if (ld_probes_write(&f, t[i].cmd, strlen(t[i].cmd), &pos) !=
		    (t[i].ret ? t[i].ret : (ssize_t)strlen(t[i].cmd)))
			abort();
	}
	list_for_each_entry(p, &ld_probes, list)
		for (i = 0; i < p->nr_entry; i++, k++)
			if (k >= ARRAY_SIZE(want) || p->entry[i].base != LD_FB_ARG ||
			    p->entry[i].val != want[k].val || p->entry[i].type != want[k].type ||
			    p->entry[i].size != want[k].size ||
			    (k == 0 && strcmp(p->entry[i].name, "ptr")))	/* its default ANAME */
				abort();
	if (k != ARRAY_SIZE(want))
		abort();
	ldk_probes_reset();
}

/*
 * Writes to "probes" worked out by hand (docs/DEBUGFS.md, probes): an
 * empty NAME after the ':' of p:, r:, rN: (ftrace's "Event name is not
 * specified") and t:, after NAME= or GRP/, or of a removal; names that are
 * no identifiers; a second newline or a NUL in the write.  Each refusal's
 * errno and the reason error_log gives it; the forms that name a probe by
 * default (p SYM, r SYM, p:GRP/ SYM as ftrace 6.1) and blank writes are
 * accepted.  Aborts on a wrong answer (run once, first input; every probe
 * removed after).
 */
static void ldk_words_selftest(void)
{
#define C(s, r, why) { s, sizeof(s) - 1, r, why }
	static const struct { const char *cmd; size_t n; int ret; const char *why; } t[] = {
		C("p: vfs_read", -EINVAL, "no probe name after ':'"),
		C("p:\tvfs_read", -EINVAL, "no probe name after ':'"),
		C("p:  vfs_read $arg1", -EINVAL, "no probe name after ':'"),
		C("p: vfs_read%return", -EINVAL, "no probe name after ':'"),
		C("r: vfs_read", -EINVAL, "no probe name after ':'"),
		C("r: vfs_read $retval", -EINVAL, "no probe name after ':'"),
		C("r4: vfs_read", -EINVAL, "no probe name after ':'"),
		C("p: 0xffffffff81100000", -EINVAL, "no probe name after ':'"),
		C("p: mymod:mod_fn", -EINVAL, "no probe name after ':'"),
		C("p: vfs_*", -EINVAL, "no probe name after ':'"),
		C("p:/ vfs_read", -EINVAL, "group name"),
		C("p:/x vfs_read", -EINVAL, "group name"),
		C("t: kmem:kmem_cache_free", -EINVAL, "probe name is not an identifier"),
		C("t:=kmem:kmem_cache_free", -EINVAL, "probe name is not an identifier"),
		C("p:=vfs_read", -EINVAL, "probe name is not an identifier"),
		C("r:=vfs_read", -EINVAL, "probe name is not an identifier"),
		C("=vfs_read", -EINVAL, "probe name is not an identifier"),
		C("p:a-b vfs_read", -EINVAL, "event name must follow"),
		C("p:9a vfs_read", -EINVAL, "event name must follow"),
		C("p:a.b vfs_read", -EINVAL, "event name must follow"),
		C("p:caf\xe9 vfs_read", -EINVAL, "event name must follow"),
		C("p:g-1/x vfs_read", -EINVAL, "group name"),
		C("t:a-b kmem:kmem_cache_free", -EINVAL, "probe name is not an identifier"),
		C("p:x vfs_read =$arg1", -EINVAL, NULL),
		C("p:x vfs_read a=", -EINVAL, NULL),
		C("p:x vfs_read $arg1:", -EINVAL, NULL),
		C("-:", -EINVAL, "removal: probe name is not an identifier"),
		C("-", -EINVAL, "removal: probe name is not an identifier"),
		C("-:grp/", -EINVAL, "removal: probe name is not an identifier"),
		C("-:/x", -EINVAL, "removal: group name is not an identifier"),
		C("p:x vfs_read\n\n", -EINVAL, "one command per write"),
		C("p:x vfs_read\0", -EINVAL, "one command per write"),
		C("p:x vfs_read\0\n", -EINVAL, "one command per write"),
		C("\0p:x vfs_read", -EINVAL, "one command per write"),
		/* accepted: the default names, and blank writes that do nothing */
		C("p vfs_read", 0, NULL),
		C("r vfs_read", 0, NULL),
		C("p:grp/ vfs_write", 0, NULL),
		C(" ", 0, NULL),
		C("\t\n", 0, NULL),
		C("\n", 0, NULL),
		C("# p: vfs_read", 0, NULL),
	};
#undef C
	static const char *const listed[] = { "p_vfs_read_0", "r_vfs_read_0", "p_vfs_write_0" };
	struct file f = { .f_mode = FMODE_WRITE };
	struct ld_probe *p;
	loff_t pos = 0;
	size_t i, k = 0;
	int bad = 0;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		u32 logged = ld_errlog_count;
		const struct ld_err *e;
		ssize_t r;

		ld_errlog_count = 0;	/* so that a refusal's entry is the only one */
		r = ld_probes_write(&f, t[i].cmd, t[i].n, &pos);
		e = &ld_errlog[(ld_errlog_next + LD_ERRLOG_MAX - 1) % LD_ERRLOG_MAX];
		if (r != (t[i].ret ? t[i].ret : (ssize_t)t[i].n) ||
		    (t[i].ret && !ld_errlog_count) || (!t[i].ret && ld_errlog_count) ||
		    (t[i].why && !strstr(e->reason, t[i].why))) {
			fprintf(stderr, "ldk_words_selftest: '%s': %zd, want %d (error_log: %s)\n",
				t[i].cmd, r, t[i].ret, ld_errlog_count ? e->reason : "-");
			bad = 1;
		}
		ld_errlog_count = logged;
	}
	list_for_each_entry(p, &ld_probes, list) {
		if (k >= ARRAY_SIZE(listed) || strcmp(p->name, listed[k]) ||
		    strcmp(p->group, k == 2 ? "grp" : "")) {
			fprintf(stderr, "ldk_words_selftest: probe %zu is %s/%s, want %s\n",
				k, p->group, p->name, k < ARRAY_SIZE(listed) ? listed[k] : "none");
			bad = 1;
		}
		k++;
	}
	if (k != ARRAY_SIZE(listed)) {
		fprintf(stderr, "ldk_words_selftest: %zu probes, want %zu\n", k, ARRAY_SIZE(listed));
		bad = 1;
	}
	if (bad)
		abort();
	ldk_probes_reset();
}

/*
 * Writes to "probe_functions" worked out by hand: a glob, one trailing
 * newline allowed (docs/DEBUGFS.md, rules common to all control files);
 * whitespace only, whitespace around the glob, a second newline, a NUL
 * inside, a byte outside [A-Za-z0-9_.*?[]!-]: -EINVAL with the glob kept.
 * Aborts on a wrong answer (first input).
 */
static void ldk_list_selftest(void)
{
#define C(s, r, pat) { s, sizeof(s) - 1, r, pat }
	static const struct { const char *w; size_t n; int ret; const char *pat; } t[] = {
		C("vfs_*", 0, "vfs_*"),
		C("do_sys_open*\n", 0, "do_sys_open*"),
		C("", -EINVAL, NULL), C("\n", -EINVAL, NULL), C(" ", -EINVAL, NULL),
		C("\t", -EINVAL, NULL), C(" \n", -EINVAL, NULL), C("\n\n", -EINVAL, NULL),
		C(" vfs_*", -EINVAL, NULL), C("\tvfs_*\n", -EINVAL, NULL),
		C("vfs_* ", -EINVAL, NULL), C("vfs_* \n", -EINVAL, NULL),
		C("vfs_*\t\n", -EINVAL, NULL), C("vfs_*\r\n", -EINVAL, NULL),
		C("vfs_*\n\n", -EINVAL, NULL), C("vfs_*\0", -EINVAL, NULL),
		C("vfs_*\0\n", -EINVAL, NULL), C("vfs_*\0x", -EINVAL, NULL),
		C("\0vfs_*", -EINVAL, NULL), C("vfs_* x\n", -EINVAL, NULL),
		C("vfs_*\nx", -EINVAL, NULL), C("a b\n", -EINVAL, NULL),
		C("vfs_$\n", -EINVAL, NULL), C("vfs_\xe9\n", -EINVAL, NULL),
	};
#undef C
	struct file f = { .f_mode = FMODE_WRITE };
	loff_t pos = 0;
	int bad = 0;

	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		char *w = malloc(t[i].n ? t[i].n : 1);	/* exact size: ASan sees over-reads */
		const char *want = t[i].pat ? t[i].pat : "kept_*";
		char shown[64];
		size_t o = 0;
		ssize_t r;

		if (!w)
			abort();
		memcpy(w, t[i].w, t[i].n);
		strscpy(ld_list_pat, "kept_*", sizeof(ld_list_pat));	/* the glob before */
		r = ld_list_write(&f, w, t[i].n, &pos);
		free(w);
		if (r == (t[i].ret ? t[i].ret : (ssize_t)t[i].n) && !strcmp(ld_list_pat, want))
			continue;
		for (size_t j = 0; j < t[i].n && o + 5 < sizeof(shown); j++) {
			unsigned char c = t[i].w[j];

			o += c < 0x20 || c > 0x7e ? snprintf(shown + o, sizeof(shown) - o, "\\x%02x", c)
						  : snprintf(shown + o, sizeof(shown) - o, "%c", c);
		}
		shown[o] = '\0';
		fprintf(stderr, "ldk_list_selftest: write '%s': %zd, glob '%s'; want %d, '%s'\n",
			shown, r, ld_list_pat, t[i].ret, want);
		bad = 1;
	}
	strscpy(ld_list_pat, "", sizeof(ld_list_pat));
	if (bad)
		abort();
}

/*
 * The kernel's symbols as logdev_ksyms*.c answer questions about the fake
 * kernel, worked out by hand from ldk_syms[], through each source (iter,
 * procfs read whole, in 1-byte and 7-byte pieces, both ways), mymod loaded
 * and not; with every address hidden, -EOPNOTSUPP and why.  Aborts on a wrong
 * answer (first input).
 */
static void ldk_ksyms_check(const char *what, bool ok, const char *got)
{
	if (ok)
		return;
	fprintf(stderr, "ldk_ksyms_selftest (ksyms=%s, pieces of %zu%s): %s: got %s\n",
		ld_ksyms_mode_names[ld_ksyms_get_mode()], ldk_kallsyms_piece,
		ldk_mymod_gone ? ", mymod unloaded" : "", what, got);
	abort();
}

static void ldk_ksyms_answers(void)
{
	static const char *const names[] = { "dup_fn", "mymod:dup_fn", "vfs_read", "nosuch" };
	unsigned int n, counts[ARRAY_SIZE(names)], dups;
	bool gone = ldk_mymod_gone;
	struct ld_ksym_glob g;
	unsigned long a;
	char buf[160];

	ldk_ksyms_check("count dup_fn", !ld_ksym_count("dup_fn", NULL, 0, &n, buf) &&
			n == (gone ? 1 : 2) && !strcmp(buf, gone ? "" : "mymod"), buf);
	ldk_ksyms_check("count mymod:mod_fn", !ld_ksym_count("mod_fn", "mymod:", 5, &n, buf) &&
			n == !gone && !strcmp(buf, gone ? "" : "mymod"), buf);
	ldk_ksyms_check("count vfs_read", !ld_ksym_count("vfs_read", NULL, 0, &n, buf) &&
			n == 1 && !*buf, buf);
	ldk_ksyms_check("bpf and kprobes pages are no module",
			!ld_ksym_count("bpf_prog_ldk_fn", NULL, 0, &n, NULL) && !n &&
			!ld_ksym_count("optimized_callback", NULL, 0, &n, NULL) && !n, "");
	ldk_ksyms_check("count each", !ld_ksyms_count_each(names, counts, 4) &&
			counts[0] == (gone ? 1 : 2) && counts[1] == !gone && counts[2] == 1 &&
			!counts[3], "");
	ldk_ksyms_check("similar do_sys_ope", !ld_ksym_similar("do_sys_ope", buf, sizeof(buf), &n) &&
			n == 2 && !strcmp(buf, "do_sys_open, do_sys_open.isra.0"), buf);
	ldk_ksyms_check("similar __dup_f.cold", !ld_ksym_similar("__dup_f.cold", buf, sizeof(buf), &n) &&
			n == (gone ? 1 : 2) &&
			!strcmp(buf, gone ? "dup_fn" : "dup_fn, mymod:dup_fn"), buf);
	ldk_ksyms_check("similar, cut to 12 bytes", !ld_ksym_similar("do_sys_ope", buf, 12, &n) &&
			n == 2 && !strcmp(buf, "do_sys_open"), buf);
	ldk_ksyms_check("similar of a short core", !ld_ksym_similar("_fn", buf, sizeof(buf), &n) &&
			!n && !*buf, buf);
	ldk_ksyms_check("@ldk_data", !ld_ksym_addr("ldk_data", &a, &n) && n == 1 &&
			a == LDK_MEM + 8, "");
	ldk_ksyms_check("mymod loaded", ld_ksym_module_loaded("mymod:x", 5) == !gone &&
			!ld_ksym_module_loaded("mymo", 4) && !ld_ksym_module_loaded("bpf", 3), "");
	ld_ksym_addr_module(0xffffffffc0000104UL, buf);
	ldk_ksyms_check("the module of an address", !strcmp(buf, gone ? "" : "mymod"), buf);
	ld_ksym_addr_module(0xffffffff81100004UL, buf);
	ldk_ksyms_check("vmlinux's address", !*buf, buf);
	ldk_ksyms_check("glob vfs_*", !ld_ksyms_glob(&g, "vfs_*", 8, &dups) && g.n == 3 && !dups &&
			!strcmp(g.names[0], "vfs_read") && !strcmp(g.names[1], "vfs_readv") &&
			!strcmp(g.names[2], "vfs_write"), "");
	ld_ksyms_glob_free(&g);
	ldk_ksyms_check("glob *_fn", !ld_ksyms_glob(&g, "*_fn", 8, &dups) && !dups &&
			g.n == (gone ? 1 : 3) && !strcmp(g.names[0], "dup_fn") &&
			(gone || (!strcmp(g.names[1], "mymod:dup_fn") &&
				  !strcmp(g.names[2], "mymod:mod_fn"))), "");
	ld_ksyms_glob_free(&g);
	/* text: _stext..._etext (no ldk_data, no BTF), mymod's core text */
	ldk_ksyms_check("glob *", !ld_ksyms_glob(&g, "*", 20, &dups) && g.n == (gone ? 9 : 11) &&
			!dups, "");
	ld_ksyms_glob_free(&g);
	ldk_ksyms_check("glob * kept 4", !ld_ksyms_glob(&g, "*", 4, &dups) && g.n == (gone ? 9 : 11),
			"");
	ld_ksyms_glob_free(&g);
	ld_ksyms_why(buf, sizeof(buf));
	ldk_ksyms_check("the source", strstr(buf, ld_ksyms_get_mode() == LD_KSYMS_ITER ?
					     "iter (" : "procfs (") == buf, buf);
}

static void ldk_ksyms_selftest(void)
{
	static const u8 modes[] = { 1, 2, 2 + 4, 2 + 8, 2 + 12 };	/* iter; procfs in pieces */
	struct ld_ksym_glob g;
	unsigned int n;
	char buf[LD_WHY_LEN];

	for (size_t i = 0; i < ARRAY_SIZE(modes) * 4; i++) {
		if (i % ARRAY_SIZE(modes) == 0 && i)
			ldk_mymod_toggle();	/* gone, back, gone */
		ldk_ksyms_mode(modes[i % ARRAY_SIZE(modes)]);
		ldk_ksyms_answers();
	}
	ldk_mymod_toggle();	/* back: loaded, as every input starts */
	if (ldk_mymod_gone)
		abort();
	ldk_ksyms_mode(3);	/* procfs, addresses hidden */
	ldk_ksyms_check("hidden: count", ld_ksym_count("dup_fn", NULL, 0, &n, NULL) == -EOPNOTSUPP, "");
	ldk_ksyms_check("hidden: glob", ld_ksyms_glob(&g, "vfs_*", 8, &n) == -EOPNOTSUPP, "");
	ld_ksyms_glob_free(&g);
	ld_ksyms_why(buf, sizeof(buf));
	ldk_ksyms_check("hidden: why",
			!strcmp(buf, "ksyms=procfs: /proc/kallsyms shows no addresses (kptr_restrict=2, or no CAP_SYSLOG)"),
			buf);
	ldk_ksyms_mode(0);
	ldk_ksyms_check("open files, maps", !ldk_files && !ldk_maps, "");
	ldk_probes_reset();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct file f = { .f_mode = FMODE_WRITE };
	const uint8_t *cmd = data, *end = data + size;
	loff_t pos = 0;
	static bool once;

	if (!once) {
		once = true;
		/* as ld_probes_init(): mymod is loaded, so it is reported */
		if (ld_tp_notifier_register())
			abort();
		ldk_mem_init();
		ldk_glob_selftest();
		ldk_btf_init();
		ldk_named_selftest();
		ldk_words_selftest();
		ldk_list_selftest();
		ldk_ksyms_selftest();
	}
	while (cmd <= end) {
		const uint8_t *sep = memchr(cmd, 0x01, end - cmd);
		size_t n = (sep ? sep : end) - cmd;
		char *w = malloc(n ? n : 1);	/* exact size: ASan sees over-reads */
		ssize_t ret;

		if (!w)
			abort();
		memcpy(w, cmd, n);
		if (n && w[0] == 0x02) {
			/* probe_functions: a glob, then a read (ld_list_show()) */
			ret = ld_list_write(&f, w + 1, n - 1, &pos);
			ret = ret == (ssize_t)n - 1 ? (ssize_t)n : ret;
			f.f_flags = 0;
			ld_list_open(NULL, &f);
			single_release(NULL, &f);
		} else if (n == 1 && w[0] == 0x03) {
			ldk_mymod_toggle();
			ret = 1;
		} else if (n == 2 && w[0] == 0x04) {
			ldk_ksyms_mode(w[1]);
			ret = 2;
		} else {
			ret = ld_probes_write(&f, w, n, &pos);
		}
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
	if (ldk_mymod_gone)
		ldk_mymod_toggle();
	ldk_probes_reset();
	ldk_ksyms_mode(0);
	if (ldk_armed || ld_probes.next != &ld_probes || ldk_files || ldk_maps)
		abort();
	return 0;
}
