// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_probespec.c - libFuzzer target: the grammar of the debugfs "probes"
 * file, kernel/logdev_probe_parse.c, built alone in userspace with the
 * error log it reports to (logdev_probe_log.c), both unchanged, through
 * kshim/ldk_probe.h (the kernel's string helpers).  This file answers the
 * questions the parser asks of the running kernel (ld_fetch_reg(),
 * ld_sym_value(), ld_tp_lookup(), ld_tp_nargs(), ld_tp_named()) from a
 * small fake kernel: a few symbols (one defined twice), tracepoints (one
 * in module "mymod", one without a raw map entry) and their arguments.
 *
 * Input: commands separated by byte 0x01, each parsed as one write to
 * "probes" that is not a removal (ld_parse() on a zeroed probe).
 * Checks beyond the sanitizers: the result is 0 or a negative errno; a
 * refusal has a reason and points into the command, and enters error_log
 * (ld_errlog_add()) with its position inside the kept command; an accepted
 * probe's name is an identifier, its fetches are ones its handler may run
 * ($argN 1..6, 1..5 and at most the tracepoint's count on a tracepoint;
 * registers inside struct pt_regs and none on a tracepoint; $retval only
 * in a return record; sizes 1 2 4 8; a value that may fault carries the
 * fault mark), their names are unique, its records fit LOGDEV_MAX_PAYLOAD,
 * and its formats (ld_fmt_make()) have one conversion per value and mark;
 * the listing's form of it ("p:NAME SYM ARGS", as logdev_probes.c prints
 * it) parses back to the same probe.  On the first input, hand-worked
 * commands (ldk_selftest()).
 */
#include "logdev_probes.h"

#define LDK_PT_REGS_SIZE	168	/* x86-64's struct pt_regs */

/* ---- the fake kernel's answers */

/* x86-64's struct pt_regs, by offset */
int ld_fetch_reg(const char *name)
{
	static const char *const regs[] = {
		"r15", "r14", "r13", "r12", "bp", "bx", "r11", "r10", "r9", "r8", "ax",
		"cx", "dx", "si", "di", "orig_ax", "ip", "cs", "flags", "sp", "ss",
	};

	for (size_t i = 0; i < ARRAY_SIZE(regs); i++)
		if (!strcmp(name, regs[i]))
			return i * 8;
	return -ENOENT;
}

/* symbols: dup_fn is defined twice (vmlinux and mymod) */
static const struct { const char *name; unsigned long addr; } ldk_syms[] = {
	{ "vfs_read", 0xffffffff81100000UL }, { "vfs_readv", 0xffffffff81100080UL },
	{ "vfs_write", 0xffffffff81100100UL }, { "dup_fn", 0xffffffff81100200UL },
	{ "dup_fn", 0xffffffffc0000000UL }, { "mod_fn", 0xffffffffc0000100UL },
	{ "ldk_data", 0xffff888000100008UL },
};

int ld_sym_value(struct ld_pctx *c, const char *name, unsigned long *val)
{
	unsigned int cnt = 0;

	*val = 0;
	for (size_t i = 0; i < ARRAY_SIZE(ldk_syms); i++)
		if (!strcmp(name, ldk_syms[i].name) && !cnt++)
			*val = ldk_syms[i].addr;
	if (cnt > 1)
		return ld_fail(c, name, -EADDRNOTAVAIL,
			       "@%s is defined %u times: use @0xADDR (/proc/kallsyms)", name, cnt);
	if (!*val)
		return ld_fail(c, name, -ENOENT, "no symbol %s", name);
	return 0;
}

/*
 * Tracepoints: @mod "" for vmlinux; @nargs -1 without a raw map entry;
 * the arguments by name of each (BTF) as the kernel's: name, kind, signed,
 * size.
 */
struct ldk_tp {
	const char *name, *mod;
	int nargs;
	struct ld_btf_param prm[5];
};
static const struct ldk_tp ldk_tps[] = {
	{ "sched_switch", "", 4, {
		{ "preempt", 0, LD_BTF_INT, 0, 1, "bool" },
		{ "prev", 0, LD_BTF_PTR, 0, 8, "task_struct" },
		{ "next", 0, LD_BTF_PTR, 0, 8, "task_struct" },
		{ "prev_state", 0, LD_BTF_INT, 0, 4, "unsigned int" } } },
	{ "kmem_cache_free", "", 3, {
		{ "s", 0, LD_BTF_PTR, 0, 8, "kmem_cache" },
		{ "call_site", 0, LD_BTF_INT, 0, 8, "long unsigned int" },
		{ "ptr", 0, LD_BTF_PTR, 0, 8, "void" } } },
	{ "ldk_kinds", "", 5, {
		{ "neg", 0, LD_BTF_INT, 1, 4, "int" },
		{ "tagged", 0, LD_BTF_INT, 1, 2, "short" },
		{ "one", 0, LD_BTF_INT, 0, 1, "u8" },
		{ "vol", 0, LD_BTF_PTR, 0, 8, "char" },
		{ "f", 0, LD_BTF_FLOAT, 0, 8, "double" } } },
	{ .name = "ldk_nomap", .mod = "", .nargs = -1 },
	{ .name = "mod_tp", .mod = "mymod", .nargs = 1 },
};

static const struct ldk_tp *ldk_tp_of(const struct tracepoint *tp)
{
	const struct ldk_tp *t = (const void *)tp;

	if (t < ldk_tps || t >= ldk_tps + ARRAY_SIZE(ldk_tps))
		abort();	/* p->tp is what ld_tp_lookup() gave */
	return t;
}

struct tracepoint *ld_tp_lookup(const char *name, char *modname)
{
	for (size_t i = 0; i < ARRAY_SIZE(ldk_tps); i++)
		if (!strcmp(name, ldk_tps[i].name)) {
			if (*ldk_tps[i].mod)
				strscpy(modname, ldk_tps[i].mod, MODULE_NAME_LEN);
			return (struct tracepoint *)&ldk_tps[i];
		}
	return NULL;
}

int ld_tp_nargs(struct ld_pctx *c, struct ld_probe *p)
{
	if (!c->tp_nargs)
		c->tp_nargs = ldk_tp_of(p->tp)->nargs < 0 ? -1 : ldk_tp_of(p->tp)->nargs + 1;
	return c->tp_nargs < 0 ? -1 : c->tp_nargs - 1;
}

int ld_tp_named(struct ld_pctx *c, struct ld_probe *p, struct ld_fetch *f, char *s)
{
	const struct ldk_tp *t = ldk_tp_of(p->tp);
	int i, n = t->nargs < 0 ? 0 : t->nargs;

	if (*p->mod || t->nargs < 0)
		return ld_fail(c, s, -EOPNOTSUPP, "%s: arguments by name are not known; $argN works",
			       p->sym);
	for (i = 0; i < n; i++)
		if (!strcmp(t->prm[i].name, s))
			break;
	if (i == n)
		return ld_fail(c, s, -ENOENT, "%s has no argument '%s'", p->sym, s);
	if (t->prm[i].kind == LD_BTF_FLOAT)
		return ld_fail(c, s, -EOPNOTSUPP, "'%s' is a floating-point value (%s)", s,
			       t->prm[i].type_name);
	f->base = LD_FB_ARG;
	f->val = i + 1;
	c->named = &t->prm[i];
	return 0;
}

/* ---- the checks */

/* The listing's line of @p (ld_probes_show() of logdev_probes.c, no counts). */
static void ldk_listing(const struct ld_probe *p, char *out, size_t size)
{
	int n = snprintf(out, size, "%c", ld_probe_kind_char[p->kind]);

	if (p->maxactive)
		n += snprintf(out + n, size - n, "%d", p->maxactive);
	n += snprintf(out + n, size - n, ":%s%s%s ", p->group, *p->group ? "/" : "", p->name);
	if (p->kind == LD_PROBE_TRACEPOINT)
		n += snprintf(out + n, size - n, "%s:%s", p->system, p->sym);
	else if (p->offset)
		n += snprintf(out + n, size - n, "%s+%lu", p->sym, p->offset);
	else
		n += snprintf(out + n, size - n, "%s", p->sym);
	if (*p->args)
		snprintf(out + n, size - n, " %s", p->args);
}

/* One record's fetches @f, @n of them, and its format. */
static void ldk_check_fetches(const struct ld_probe *p, const struct ld_fetch *f, u32 n,
			      bool ret)
{
	bool tp = p->kind == LD_PROBE_TRACEPOINT;
	u32 i, k, marks = 0, pct = 0;
	char *fmt;

	for (i = 0; i < n; i++) {
		if (f[i].base > LD_FB_COMM || f[i].type > LD_FT_SYMBOL || f[i].ndrf > LD_FETCH_DEPTH ||
		    (f[i].size != 1 && f[i].size != 2 && f[i].size != 4 && f[i].size != 8) ||
		    (f[i].base == LD_FB_ARG && (!f[i].val || f[i].val > (tp ? LD_TP_MAX_ARGS : 6))) ||
		    (f[i].base == LD_FB_REG && (f[i].val % 8 || f[i].val >= LDK_PT_REGS_SIZE)) ||
		    (tp && (f[i].base == LD_FB_REG || f[i].base == LD_FB_STACK ||
			    f[i].base == LD_FB_STACKN || f[i].base == LD_FB_RETVAL)) ||
		    ((f[i].base == LD_FB_RETVAL) != ret) ||
		    (f[i].base == LD_FB_COMM && f[i].type != LD_FT_STRING) ||
		    (f[i].type == LD_FT_STRING && f[i].base != LD_FB_COMM && !f[i].ndrf) ||
		    f[i].fault != (f[i].ndrf || f[i].type == LD_FT_STRING) ||
		    !ld_good_name(f[i].name))
			abort();
		if (tp && f[i].base == LD_FB_ARG && ldk_tp_of(p->tp)->nargs >= 0 &&
		    f[i].val > (unsigned long)ldk_tp_of(p->tp)->nargs)
			abort();	/* past the tracepoint's own arguments */
		for (k = 0; k < i; k++)
			if (!strcmp(f[k].name, f[i].name))
				abort();
		marks += f[i].fault;
	}
	fmt = ld_fmt_make(f, n);
	if (!fmt)
		abort();
	for (i = 0; fmt[i]; i++)
		pct += fmt[i] == '%';
	if (pct != n + marks)
		abort();	/* a format cut short names the values wrongly */
	free(fmt);
}

static void ldk_check_probe(const struct ld_probe *p)
{
	if (p->kind > LD_PROBE_TRACEPOINT || !ld_good_name(p->name) ||
	    p->nr_entry + p->nr_ret > LD_PROBE_MAX_ARGS || p->payload_max > LOGDEV_MAX_PAYLOAD ||
	    (p->kind == LD_PROBE_TRACEPOINT) != (p->tp != NULL) ||
	    (p->kind != LD_PROBE_KRETPROBE && p->nr_ret) ||
	    (p->kind == LD_PROBE_KRETPROBE && p->offset) || (p->addr && p->offset) ||
	    p->maxactive < 0 || p->maxactive > LD_MAXACTIVE_MAX ||
	    (p->maxactive && p->kind != LD_PROBE_KRETPROBE))
		abort();
	ldk_check_fetches(p, p->entry, p->nr_entry, false);
	ldk_check_fetches(p, p->ret, p->nr_ret, true);
}

/*
 * Parse @n bytes at @cmd as one command into @p (zeroed here); check the
 * refusal or the probe.  Returns ld_parse()'s result.
 */
static int ldk_parse(const char *cmd, size_t n, struct ld_probe *p, struct ld_pctx *c)
{
	char *text = malloc(n + 1), *buf = malloc(n + 1);	/* exact size: ASan sees over-reads */
	int ret;

	if (!text || !buf)
		abort();
	memcpy(text, cmd, n);
	text[n] = '\0';
	memcpy(buf, text, n + 1);
	memset(p, 0, sizeof(*p));
	memset(c, 0, sizeof(*c));
	c->text = text;
	c->buf = buf;
	ret = ld_parse(c, p, buf);
	if (ret > 0 || ret < -4095 || ret != c->err)
		abort();
	if (ret) {
		const struct ld_err *e;

		if (!*c->reason || c->at < c->buf || c->at > c->buf + strlen(text))
			abort();
		ld_errlog_add(c);
		e = &ld_errlog[(ld_errlog_next + LD_ERRLOG_MAX - 1) % LD_ERRLOG_MAX];
		if (e->pos > strlen(e->cmd) || strcmp(e->reason, c->reason) ||
		    strncmp(e->cmd, text, LD_ERRLOG_CMD - 1))
			abort();
	} else {
		ldk_check_probe(p);
	}
	c->text = c->buf = NULL;
	free(text);
	free(buf);
	return ret;
}

/* An accepted probe's listing line parses back to the same probe. */
static void ldk_check_listing(const struct ld_probe *p)
{
	static char line[KSYM_NAME_LEN + 512];
	static struct ld_probe q;
	struct ld_pctx c;
	u32 i;

	/* the listing's words must read as its forms do: not a ".x" target,
	 * not a SYSTEM that is no identifier (short forms accept both) */
	if (!ld_good_name(p->kind == LD_PROBE_TRACEPOINT ? p->system : "x") ||
	    !(isalnum((unsigned char)*p->sym) || *p->sym == '_'))
		return;
	ldk_listing(p, line, sizeof(line));
	if (strlen(line) >= LD_PROBE_CMD_MAX)
		return;
	if (ldk_parse(line, strlen(line), &q, &c) || q.kind != p->kind ||
	    strcmp(q.name, p->name) || strcmp(q.sym, p->sym) || q.offset != p->offset ||
	    q.nr_entry != p->nr_entry || q.nr_ret != p->nr_ret || q.maxactive != p->maxactive ||
	    q.payload_max != p->payload_max) {
		fprintf(stderr, "listing '%s' does not parse back (%s)\n", line, c.reason);
		abort();
	}
	for (i = 0; i < p->nr_entry; i++)	/* logdev's short forms' default type: ftrace's x64 */
		if (strcmp(q.entry[i].name, p->entry[i].name) ||
		    (q.entry[i].type != p->entry[i].type &&
		     !(p->entry[i].type == LD_FT_LEGACY && q.entry[i].type == LD_FT_X)) ||
		    q.entry[i].base != p->entry[i].base || q.entry[i].val != p->entry[i].val)
			abort();
}

/*
 * Commands worked out by hand (docs/DEBUGFS.md, probes): each refusal's
 * errno and the reason error_log gives it; accepted ones by their name and
 * their first fetch ($argN, type, size).  Aborts on a wrong answer.
 */
static void ldk_selftest(void)
{
#define C(s, r, why) { s, r, why }
	static const struct { const char *cmd; int ret; const char *why; } t[] = {
		C("p: vfs_read", -EINVAL, "no probe name after ':'"),
		C("p:\tvfs_read", -EINVAL, "no probe name after ':'"),
		C("p: vfs_read%return", -EINVAL, "no probe name after ':'"),
		C("r: vfs_read $retval", -EINVAL, "no probe name after ':'"),
		C("r4: vfs_read", -EINVAL, "no probe name after ':'"),
		C("p: mymod:mod_fn", -EINVAL, "no probe name after ':'"),
		C("p:/ vfs_read", -EINVAL, "group name"),
		C("p:g-1/x vfs_read", -EINVAL, "group name"),
		C("t: kmem:kmem_cache_free", -EINVAL, "probe name is not an identifier"),
		C("p:=vfs_read", -EINVAL, "probe name is not an identifier"),
		C("=vfs_read", -EINVAL, "probe name is not an identifier"),
		C("p:a-b vfs_read", -EINVAL, "event name must follow"),
		C("p:caf\xe9 vfs_read", -EINVAL, "event name must follow"),
		C("p:x vfs_read =$arg1", -EINVAL, NULL),
		C("p:x vfs_read a=", -EINVAL, NULL),
		C("p:x vfs_read $arg1:", -EINVAL, "unknown type"),
		C("p:x vfs_read $arg7", -EINVAL, "at most $arg6"),
		C("p:x vfs_read +0($arg1", -EINVAL, "not closed"),
		C("p:x vfs_read +u0($arg1)", -EINVAL, "user-space"),
		C("p:x vfs_read @dup_fn", -EADDRNOTAVAIL, "defined 2 times"),
		C("p:x vfs_read @nosuch", -ENOENT, "no symbol nosuch"),
		C("p:x vfs_read %xx", -EINVAL, "invalid register name"),
		C("p:x vfs_read $retval", -EINVAL, "needs a return probe"),
		C("p:x vfs_read $arg1:string", -EINVAL, "string accepts only memory"),
		C("r:x vfs_read+4", -EINVAL, "takes no +OFFSET"),
		C("p:x 0x10+4", -EINVAL, "an address takes no +OFFSET"),
		C("t:x kmem:nosuch", -ENOENT, "no tracepoint 'nosuch'"),
		C("t:x kmem:kmem_cache_free %ax", -EINVAL, "not available on a tracepoint"),
		C("t:x kmem:kmem_cache_free $arg4", -EINVAL, "has 3 arguments"),
		C("t:x kmem:kmem_cache_free name", -ENOENT, "no argument 'name'"),
		C("t:x x:ldk_kinds f", -EOPNOTSUPP, "floating-point"),
		C("t:x x:mod_tp a", -EOPNOTSUPP, "$argN works"),
		C("t:x=x:ldk_nomap $arg5", 0, "x"),
		C("p vfs_read", 0, "p_vfs_read_0"),
		C("r vfs_read", 0, "r_vfs_read_0"),
		C("p:grp/ vfs_write", 0, "p_vfs_write_0"),
		C("vfs_read+8 $arg2", 0, "vfs_read_8"),
		C("p:x 0xffffffff81100000 %ax +8(+0(@ldk_data)):s16", 0, "x"),
		C("r8:x vfs_read $retval:u32 $comm", 0, "x"),
		C("t:kmem:kmem_cache_free ptr call_site s", 0, "kmem_cache_free"),
		C("t:k=x:ldk_kinds neg tagged one vol:x8 d=+8(vol)", 0, "k"),
	};
#undef C
	static struct ld_probe p;
	struct ld_pctx c;
	int bad = 0;

	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		int r = ldk_parse(t[i].cmd, strlen(t[i].cmd), &p, &c);

		if (r != t[i].ret || (r && t[i].why && !strstr(c.reason, t[i].why)) ||
		    (!r && strcmp(p.name, t[i].why))) {
			fprintf(stderr, "ldk_selftest: '%s': %d, want %d (%s)\n", t[i].cmd, r,
				t[i].ret, r ? c.reason : p.name);
			bad = 1;
		}
		if (!r)
			ldk_check_listing(&p);
	}
	/* the types of named arguments: from the BTF, as written otherwise */
	if (ldk_parse("t:k=x:ldk_kinds neg tagged one vol:x8", 37, &p, &c) ||
	    p.entry[0].type != LD_FT_S || p.entry[0].size != 4 ||
	    p.entry[1].type != LD_FT_S || p.entry[1].size != 2 ||
	    p.entry[2].type != LD_FT_U || p.entry[2].size != 1 ||
	    p.entry[3].type != LD_FT_X || p.entry[3].size != 1 || p.entry[3].val != 4)
		bad = 1;
	/* the formats: untyped arguments print as ftrace's x64, "0x%llx";
	 * typed ones as their type says */
	static const struct { const char *cmd; const char *fmt; } fm[] = {
		{ "vfs_read $arg1 $arg2", "arg1=0x%llx arg2=0x%llx" },
		{ "r:x vfs_read $retval", "retval=0x%llx" },
		{ "p:x vfs_read n=$arg3 u=$arg3:u32 s=$arg3:s64 h=$arg3:x16", "n=0x%llx u=%llu s=%lld h=0x%llx" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(fm); i++) {
		char *f;

		if (ldk_parse(fm[i].cmd, strlen(fm[i].cmd), &p, &c)) {
			bad = 1;
			continue;
		}
		f = ld_fmt_make(p.nr_ret ? p.ret : p.entry, p.nr_ret ? p.nr_ret : p.nr_entry);
		if (!f || strcmp(f, fm[i].fmt)) {
			fprintf(stderr, "ldk_selftest: '%s': format '%s', want '%s'\n",
				fm[i].cmd, f ? f : "(null)", fm[i].fmt);
			bad = 1;
		}
		free(f);
	}
	if (bad)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ld_probe p;
	const uint8_t *cmd = data, *end = data + size;
	static bool once;
	struct ld_pctx c;

	if (!once) {
		once = true;
		ldk_selftest();
	}
	while (cmd <= end) {
		const uint8_t *sep = memchr(cmd, 0x01, end - cmd);
		size_t n = (sep ? sep : end) - cmd;

		const char *s = (const char *)cmd;

		/* as ld_probes_write(): one line of at most LD_PROBE_CMD_MAX - 1
		 * bytes, no NUL, trimmed; blank, '#' and '-' (removal) are not
		 * parsed */
		if (n && s[n - 1] == '\n')
			n--;
		if (n < LD_PROBE_CMD_MAX && !memchr(s, 0, n) && !memchr(s, '\n', n)) {
			while (n && isspace((unsigned char)*s))
				s++, n--;
			while (n && isspace((unsigned char)s[n - 1]))
				n--;
			if (n && *s != '#' && *s != '-' && !ldk_parse(s, n, &p, &c))
				ldk_check_listing(&p);
		}
		if (!sep)
			break;
		cmd = sep + 1;
	}
	return 0;
}
