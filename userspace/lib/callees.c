// SPDX-License-Identifier: GPL-2.0
/*
 * callees.c: discovery layer: the functions a kernel function calls and
 * tail-calls, from its machine code (insn.c's branch walk), resolved to
 * the symbols of /proc/kallsyms (ksyms.c), each marked probe-able or with
 * the reason it is skipped (lgd_callees.h).  Returns data; never prints.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "liblogdev.h"
#include "lgd_callees.h"

static const char *const skip_str[LGD_SKIP_NR] = {
	[LGD_CALLEE_PROBE] = "probed",
	[LGD_SKIP_FENTRY] = "ftrace's hook (__fentry__ or its trampoline), not a callee",
	[LGD_SKIP_KPROBE] = "an optimised kprobe's jump: the function is probed there",
	[LGD_SKIP_RETURN] = "a return thunk: the function returns",
	[LGD_SKIP_NORETURN] = "never returns: no time to measure",
	[LGD_SKIP_INSTR] = "compiler instrumentation",
	[LGD_SKIP_BLACKLIST] = "in the kprobes blacklist",
	[LGD_SKIP_SELF] = "the function itself (recursion)",
	[LGD_SKIP_NOSYM] = "no symbol at the target",
	[LGD_SKIP_MIDDLE] = "the target is inside a function, not its start",
	[LGD_SKIP_STATIC_CALL] = "static call trampoline without a direct target",
	[LGD_SKIP_PRIMITIVE] = "a lock or RCU primitive: every CPU's every call would be probed, "
			       "inside the probes' own paths too (give it with -p to probe it anyway)",
};

const char *lgd_callee_skip_str(enum lgd_callee_skip s)
{
	return (unsigned int)s < LGD_SKIP_NR ? skip_str[s] : "?";
}

static int starts(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

/*
 * A skip rule by the target's name; -1: an indirect branch thunk.  A
 * "__pi_" name (7.x: the position-independent alias of a function, e.g.
 * __pi___x86_indirect_thunk_rax) is judged as the function it aliases.
 * The primitives: return probes on them fire on every CPU for every lock
 * taken in the kernel, in kprobes' and logdev's own paths as well (a 6.1
 * guest running r:_raw_spin_lock and r:_raw_spin_unlock from `record
 * --callees ptrace_may_access` once crashed calling address 0).
 */
static int skip_by_name(const char *n)
{
	static const char *const prim[] = { "_raw_spin_", "_raw_read_", "_raw_write_",
		"__raw_spin_", "queued_spin_", "queued_read_", "queued_write_",
		"native_queued_spin_", "__pv_queued_spin_", "__rcu_read_lock",
		"__rcu_read_unlock", "preempt_count_add", "preempt_count_sub", NULL };
	static const char *const ret[] = { "__x86_return_thunk", "zen_untrain_ret",
		"srso_return_thunk", "srso_alias_return_thunk", "retbleed_return_thunk",
		"its_return_thunk", "__x86_return_skl", NULL };
	static const char *const instr[] = { "__sanitizer_cov_", "__asan_", "__kasan_",
		"__ubsan_handle_", "__tsan_", "__kcsan_", "__kmsan_", "__msan_", NULL };

	static const char *const ftrace[] = { "__fentry__", "mcount", "ftrace_caller",
		"ftrace_regs_caller", "ftrace_stub", "ftrace_stub_graph", "ftrace_graph_caller",
		"return_to_handler", "ftrace_trampoline", NULL };

	if (starts(n, "__pi_"))
		n += strlen("__pi_");

	for (int i = 0; ftrace[i]; i++)
		if (!strcmp(n, ftrace[i]))
			return LGD_SKIP_FENTRY;
	if (!strcmp(n, "optinsn_slot") || !strcmp(n, "kprobe_insn_page") ||
	    !strcmp(n, "kprobe_optinsn_page"))
		return LGD_SKIP_KPROBE;
	for (int i = 0; ret[i]; i++)
		if (!strcmp(n, ret[i]))
			return LGD_SKIP_RETURN;
	if (starts(n, "__x86_indirect_") || starts(n, "__llvm_retpoline_"))
		return -1;
	if (!strcmp(n, "__stack_chk_fail") || !strcmp(n, "__fortify_panic") ||
	    !strcmp(n, "fortify_panic") || !strcmp(n, "__kcfi_typeid_fail"))
		return LGD_SKIP_NORETURN;
	for (int i = 0; instr[i]; i++)
		if (starts(n, instr[i]))
			return LGD_SKIP_INSTR;
	for (int i = 0; prim[i]; i++)
		if (starts(n, prim[i]))
			return LGD_SKIP_PRIMITIVE;
	return LGD_CALLEE_PROBE;
}

/* the blacklist's "0xSTART-0xEND\tSYM" lines: is @a in one of them */
static int blacklisted(const char *bl, uint64_t a)
{
	const char *l = bl;

	while (l && *l) {
		unsigned long long s, e;

		if (sscanf(l, "0x%llx-0x%llx", &s, &e) == 2 && a >= s && a < e)
			return 1;
		l = strchr(l, '\n');
		if (l)
			l++;
	}
	return 0;
}

/* how many symbols of @k are named @name (vmlinux and modules together) */
static unsigned int name_count(const struct lgd_ksyms *k, const char *name)
{
	unsigned int n = 0;

	for (size_t i = 0; i < k->nr; i++)
		if (strchr("tT", k->syms[i].type) && !strcmp(k->syms[i].name, name))
			n++;
	return n;
}

/* @func (NAME, MOD:NAME, 0xADDR) to its symbol and size */
static int find_func(const struct lgd_ksyms *k, const char *func,
		     const struct lgd_ksym **out, uint64_t *size)
{
	const char *colon = strchr(func, ':');
	const char *name = colon ? colon + 1 : func;
	size_t ml = colon ? (size_t)(colon - func) : 0;
	const struct lgd_ksym *s = NULL;
	unsigned int n = 0;
	uint64_t off;

	if (!strncmp(func, "0x", 2)) {
		char *end;
		uint64_t a = strtoull(func, &end, 16);

		s = *end ? NULL : lgd_ksyms_lookup(k, a, &off, size);
		if (!s || off)
			return -ENOENT;
		*out = s;
		return 0;
	}
	for (size_t i = 0; i < k->nr; i++) {
		const struct lgd_ksym *c = &k->syms[i];

		if (!strchr("tT", c->type) || strcmp(c->name, name))
			continue;
		if (colon && (!c->mod || strlen(c->mod) != ml || strncmp(c->mod, func, ml)))
			continue;
		if (!s || c->addr != s->addr)
			n++;
		s = c;
	}
	if (!s)
		return -ENOENT;
	if (n > 1)
		return -EADDRNOTAVAIL;
	if (!lgd_ksyms_lookup(k, s->addr, &off, size) || off)
		return -ERANGE;
	*out = s;
	return 0;
}

/* read [@a, @a + @len) and append its branches to @cs->br */
static int decode_region(struct lgd_callees *cs, lgd_text_read_fn rd, void *ctx,
			 uint64_t a, uint64_t len)
{
	uint8_t *code;
	int err;

	if (!len || len > LGD_CALLEES_MAX_BYTES)
		return -ERANGE;
	code = malloc(len);
	if (!code)
		return -ENOMEM;
	err = rd(ctx, a, code, len);
	if (!err)
		err = lgd_insn_branches(code, len, a, &cs->br);
	free(code);
	return err;
}

/* the function and its FUNC.cold* parts (GCC's split-out unlikely code) */
static int decode_func(struct lgd_callees *cs, const struct lgd_ksyms *k,
		       lgd_text_read_fn rd, void *ctx)
{
	size_t nl = strlen(cs->name);
	int err = decode_region(cs, rd, ctx, cs->addr, cs->size);

	for (size_t i = 0; !err && i < k->nr; i++) {
		const struct lgd_ksym *c = &k->syms[i];
		uint64_t off, size;

		if (strncmp(c->name, cs->name, nl) || !starts(c->name + nl, ".cold") ||
		    (!c->mod) != (!cs->mod) || (c->mod && strcmp(c->mod, cs->mod)) ||
		    !lgd_ksyms_lookup(k, c->addr, &off, &size) || off)
			continue;
		if (cs->size + cs->cold + size > LGD_CALLEES_MAX_BYTES)
			return -ERANGE;
		err = decode_region(cs, rd, ctx, c->addr, size);
		cs->cold += size;
	}
	return err;
}

/* is @a in the function or one of its cold parts */
static int inside(const struct lgd_callees *cs, const struct lgd_ksyms *k, uint64_t a)
{
	const struct lgd_ksym *s;
	uint64_t off, size;
	size_t nl = strlen(cs->name);

	if (a >= cs->addr && a - cs->addr < cs->size)
		return 1;
	s = lgd_ksyms_lookup(k, a, &off, &size);
	return s && !strncmp(s->name, cs->name, nl) && starts(s->name + nl, ".cold");
}

/* the static call trampoline at @a: its jmp rel32's target, or 0 */
static uint64_t sct_target(lgd_text_read_fn rd, void *ctx, uint64_t a)
{
	struct lgd_branches b = { 0 };
	uint8_t code[8];
	uint64_t t = 0;

	if (rd(ctx, a, code, sizeof(code)) || lgd_insn_branches(code, 5, a, &b))
		return 0;
	if (b.nr == 1 && b.v[0].kind == LGD_BR_JMP && b.v[0].at == a)
		t = b.v[0].target;
	lgd_branches_free(&b);
	return t;
}

static struct lgd_callee *callee_at(struct lgd_callees *cs, uint64_t a, int *err)
{
	struct lgd_callee *v;

	for (size_t i = 0; i < cs->nr; i++)
		if (cs->v[i].addr == a)
			return &cs->v[i];
	v = realloc(cs->v, (cs->nr + 1) * sizeof(*v));
	if (!v) {
		*err = -ENOMEM;
		return NULL;
	}
	cs->v = v;
	v = &cs->v[cs->nr++];
	memset(v, 0, sizeof(*v));
	v->addr = a;
	return v;
}

static int set_names(struct lgd_callee *c, const struct lgd_ksym *s, const char *via)
{
	char hex[24];

	if (!s)
		snprintf(hex, sizeof(hex), "0x%" PRIx64, c->addr);
	c->name = strdup(s ? s->name : hex);
	c->mod = s && s->mod ? strdup(s->mod) : NULL;
	c->via = via ? strdup(via) : NULL;
	if (!c->name || (s && s->mod && !c->mod) || (via && !c->via))
		return -ENOMEM;
	return 0;
}

/* resolve one branch leaving the function into its callee entry */
static int add_branch(struct lgd_callees *cs, const struct lgd_ksyms *k,
		      lgd_text_read_fn rd, void *ctx, const char *bl,
		      const struct lgd_branch *b)
{
	uint64_t t = b->target, off = 0, size;
	const struct lgd_ksym *s = lgd_ksyms_lookup(k, t, &off, &size);
	const char *via = NULL;
	struct lgd_callee *c;
	int skip, err = 0;

	if (s && starts(s->name, "__pfx_") && off < size) {
		/* call depth tracking calls the padding before the function */
		t = s->addr + size;
		s = lgd_ksyms_lookup(k, t, &off, &size);
	}
	if (s && !off && starts(s->name, "__SCT__")) {
		uint64_t to = sct_target(rd, ctx, t);

		via = s->name;
		if (to) {
			t = to;
			s = lgd_ksyms_lookup(k, t, &off, &size);
		}
	}
	skip = s ? skip_by_name(s->name) : LGD_SKIP_NOSYM;
	if (skip < 0) {		/* a retpoline thunk: an indirect branch */
		if (b->kind == LGD_BR_CALL)
			cs->br.indirect_calls++;
		else
			cs->br.indirect_jmps++;
		return 0;
	}
	c = callee_at(cs, t, &err);
	if (!c)
		return err;
	if (b->kind == LGD_BR_CALL)
		c->calls++;
	else
		c->tails++;
	if (c->name)
		return 0;
	c->off = off;
	if (skip == LGD_CALLEE_PROBE) {
		if (via && s && starts(s->name, "__SCT__"))
			skip = LGD_SKIP_STATIC_CALL;
		else if (off)
			skip = LGD_SKIP_MIDDLE;
		else if (t == cs->addr)
			skip = LGD_SKIP_SELF;
		else if (bl && blacklisted(bl, t))
			skip = LGD_SKIP_BLACKLIST;
	}
	c->skip = skip;
	if (set_names(c, s, via))
		return -ENOMEM;
	if (skip == LGD_CALLEE_PROBE)
		c->dup = name_count(k, c->name) > 1;
	return 0;
}

int lgd_callees_find(const struct lgd_ksyms *k, const char *func,
		     lgd_text_read_fn rd, void *ctx, const char *blacklist,
		     struct lgd_callees *out)
{
	const struct lgd_ksym *s;
	uint64_t size;
	int err;

	memset(out, 0, sizeof(*out));
	err = find_func(k, func, &s, &size);
	if (err)
		return err;
	if (size > LGD_CALLEES_MAX_BYTES)
		return -ERANGE;
	out->addr = s->addr;
	out->size = size;
	out->name = strdup(s->name);
	out->mod = s->mod ? strdup(s->mod) : NULL;
	out->dup = name_count(k, s->name) > 1;
	err = -ENOMEM;
	if (!out->name || (s->mod && !out->mod))
		goto err_free;
	err = decode_func(out, k, rd, ctx);
	for (size_t i = 0, n = out->br.nr; !err && i < n; i++) {
		const struct lgd_branch *b = &out->br.v[i];

		if (b->kind != LGD_BR_CALL && inside(out, k, b->target))
			continue;	/* a jump within the function */
		if (b->kind == LGD_BR_CALL && inside(out, k, b->target) &&
		    b->target != out->addr)
			continue;	/* a call within it (e.g. a retpoline's) */
		err = add_branch(out, k, rd, ctx, blacklist, b);
	}
	if (err)
		goto err_free;
	return 0;
err_free:
	lgd_callees_free(out);
	return err;
}

static int probe_name_ok(const char *n)
{
	for (; *n; n++)
		if (!(*n == '_' || (*n >= 'a' && *n <= 'z') || (*n >= 'A' && *n <= 'Z') ||
		      (*n >= '0' && *n <= '9')))
			return 0;
	return 1;
}

int lgd_callee_probe(const struct lgd_callees *cs, const struct lgd_callee *c,
		     char *buf, size_t size)
{
	const char *name = c ? c->name : cs->name, *mod = c ? c->mod : cs->mod;
	uint64_t addr = c ? c->addr : cs->addr;
	int dup = c ? c->dup : cs->dup, n;

	if (dup || !probe_name_ok(name)) {
		char clean[LGD_KSYM_NAME_LEN];
		size_t i;

		for (i = 0; name[i] && i + 1 < sizeof(clean); i++)
			clean[i] = probe_name_ok((char[]){ name[i], 0 }) ? name[i] : '_';
		clean[i] = '\0';
		n = snprintf(buf, size, "r:%s=0x%" PRIx64, clean, addr);
	} else if (mod) {
		n = snprintf(buf, size, "r:%s=%s:%s", name, mod, name);
	} else {
		n = snprintf(buf, size, "r:%s", name);
	}
	return n < 0 || (size_t)n >= size ? -ENOSPC : n;
}

void lgd_callees_free(struct lgd_callees *cs)
{
	for (size_t i = 0; i < cs->nr; i++) {
		free(cs->v[i].name);
		free(cs->v[i].mod);
		free(cs->v[i].via);
	}
	free(cs->v);
	free(cs->name);
	free(cs->mod);
	lgd_branches_free(&cs->br);
	memset(cs, 0, sizeof(*cs));
}
