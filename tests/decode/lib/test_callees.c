// SPDX-License-Identifier: GPL-2.0
/*
 * test_callees.c - discovery on hand-made machine code (lib/insn.c,
 * lib/callees.c): a function's bytes, assembled here byte by byte at known
 * addresses, with a /proc/kallsyms text and a kprobes blacklist of our own:
 *   - the branch walk follows instruction boundaries: an immediate holding
 *     0xe8 bytes is no call, a byte no instruction starts with is counted;
 *   - direct calls, tail jumps (jmp, jcc) leaving the function, jumps
 *     within it and into its .cold part, indirect calls and retpoline
 *     thunks (counted, not listed);
 *   - every skip rule: __fentry__, the return thunk, __stack_chk_fail,
 *     sanitizer hooks, the kprobes blacklist, recursion, no symbol, a target
 *     inside a function; call depth thunks (__pfx_) and a static call
 *     trampoline resolved to their function;
 *   - the probe lines (a name defined twice by address, a module's
 *     function by MOD:NAME) and the errors of a FUNC not found or not one;
 *   - a module whose per-CPU symbol (at its small offset) makes its symbols
 *     span vmlinux's text takes no vmlinux address (6.1's logdev_test: every
 *     function was "inside" it, so none had a known end).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "liblogdev.h"
#include "testlib.h"

char tmpdir[] = "/tmp/logdev-callees-XXXXXX";

#define BASE 0x1000u
#define MEMSZ 0x1000u
static uint8_t mem[MEMSZ];	/* kernel text from BASE */

static int rd(void *ctx, uint64_t a, void *buf, size_t len)
{
	(void)ctx;
	if (a < BASE || a - BASE > MEMSZ || len > MEMSZ - (a - BASE))
		return -EFAULT;
	memcpy(buf, mem + (a - BASE), len);
	return 0;
}

static const char ksyms_text[] =
	"0000000000000100 T _stext\n"
	"0000000000001000 T f\n"
	"0000000000001100 T slow\n"
	"0000000000001110 T fast\n"
	"0000000000001120 T other\n"
	"0000000000001130 t blk\n"
	"0000000000001140 T __stack_chk_fail\n"
	"0000000000001150 T mid\n"
	"0000000000001160 T __fentry__\n"
	"0000000000001170 T __x86_indirect_thunk_rax\n"
	"0000000000001180 T __x86_return_thunk\n"
	"0000000000001190 t __pfx_g\n"
	"00000000000011a0 T g\n"
	"00000000000011b0 T __SCT__tp_func_x\n"
	"00000000000011c0 T h\n"
	"00000000000011d0 T dupname\n"
	"00000000000011e0 t dupname\n"
	"00000000000011f0 T __sanitizer_cov_trace_pc\n"
	"0000000000001200 t f.cold\n"
	"0000000000001210 T cold_callee\n"
	"0000000000001220 T isra.fn.isra.0\n"
	"0000000000001230 T ftrace_regs_caller\n"
	"0000000000001240 T zz_end\n"
	"0000000000001244 T __pi___x86_indirect_thunk_rdx\n"
	"0000000000001248 T _raw_spin_lock\n"
	"0000000000001250 T _etext\n"
	"0000000000000040 a pcpu_var\t[mymod]\n"
	"0000000000002000 t modfn\t[mymod]\n"
	"0000000000002010 t modend\t[mymod]\n";

static const char blacklist[] =
	"0x0000000000001130-0x0000000000001140\tblk\n";

static size_t pos;	/* next byte of f, from BASE */

static void put(const uint8_t *b, size_t n)
{
	memcpy(mem + pos, b, n);
	pos += n;
}

/* e8/e9 rel32, or 0f 8x rel32 (jcc) */
static void rel32(uint8_t op, uint8_t op2, uint64_t target)
{
	uint8_t b[6];
	size_t n = op2 ? 6 : 5;
	int32_t rel = (int32_t)(target - (BASE + pos + n));

	b[0] = op;
	b[1] = op2;
	memcpy(b + n - 4, &rel, 4);
	put(b, n);
}
#define CALL(t) rel32(0xe8, 0, (t))
#define JMP(t) rel32(0xe9, 0, (t))
#define JE(t) rel32(0x0f, 0x84, (t))

static void build(void)
{
	static const uint8_t endbr[] = { 0xf3, 0x0f, 0x1e, 0xfa };
	static const uint8_t mov_e8[] = { 0xb8, 0xe8, 0xe8, 0xe8, 0xe8 };	/* mov eax, 0xe8e8e8e8 */
	static const uint8_t call_rax[] = { 0xff, 0xd0 };			/* call *%rax */
	static const uint8_t jmp_mem[] = { 0xff, 0x24, 0xc5, 0, 0, 0, 0 };	/* jmp *0(,%rax,8) */
	static const uint8_t jne_back[] = { 0x75, 0xf0 };			/* jne within f */
	static const uint8_t bad[] = { 0x06 };	/* push %es: no instruction in 64-bit mode */
	static const uint8_t sct[] = { 0xe9 };

	memset(mem, 0xcc, sizeof(mem));
	pos = 0;
	put(endbr, sizeof(endbr));
	CALL(0x1160);		/* __fentry__ */
	put(mov_e8, sizeof(mov_e8));
	CALL(0x1100);		/* slow */
	CALL(0x1110);		/* fast */
	CALL(0x1110);		/* fast again */
	put(call_rax, sizeof(call_rax));
	CALL(0x1170);		/* retpoline thunk: indirect */
	put(jne_back, sizeof(jne_back));
	put(jmp_mem, sizeof(jmp_mem));
	JE(0x1120);		/* other: a conditional tail call */
	CALL(0x1130);		/* blk: blacklisted */
	CALL(0x1140);		/* __stack_chk_fail */
	CALL(0x1154);		/* mid+4 */
	CALL(0x3000);		/* past every symbol: no symbol */
	CALL(0x1230);		/* ftrace_regs_caller: a kprobe on ftrace at f */
	CALL(0x1000);		/* f: recursion */
	CALL(0x1190);		/* __pfx_g: a call depth thunk, g */
	CALL(0x11b0);		/* static call trampoline -> h */
	CALL(0x11d0);		/* dupname */
	CALL(0x11f0);		/* sanitizer */
	CALL(0x1220);		/* isra.fn.isra.0: no probe name */
	CALL(0x2000);		/* mymod:modfn */
	CALL(0x1244);		/* 7.x's alias of a retpoline thunk: indirect */
	CALL(0x1248);		/* a lock primitive: skipped */
	JMP(0x1200);		/* f.cold: still f */
	put(bad, sizeof(bad));
	JMP(0x1180);		/* return thunk */
	/* the trampoline: jmp h */
	pos = 0x11b0 - BASE;
	put(sct, 1);
	pos--;
	rel32(0xe9, 0, 0x11c0);
	/* f.cold: a call and a jump back */
	pos = 0x1200 - BASE;
	CALL(0x1210);		/* cold_callee */
	JMP(0x1010);
}

static const struct lgd_callee *find(const struct lgd_callees *cs, const char *name)
{
	for (size_t i = 0; i < cs->nr; i++)
		if (!strcmp(cs->v[i].name, name))
			return &cs->v[i];
	return NULL;
}

static void check_skip(const struct lgd_callees *cs, const char *name,
		       enum lgd_callee_skip want)
{
	const struct lgd_callee *c = find(cs, name);

	if (!CHECK_WHY(c != NULL, NAMEF("callee %s listed", name), "not in the list"))
		return;
	CHECK_WHY(c->skip == want, NAMEF("callee %s: %s", name, lgd_callee_skip_str(want)),
		  "got %s", lgd_callee_skip_str(c->skip));
}

static void test_walk(void)
{
	struct lgd_branches b = { 0 };
	static const uint8_t mov_e8[] = { 0xb8, 0xe8, 0xe8, 0xe8, 0xe8, 0x06, 0xc3 };

	CHECK_EQ(lgd_insn_branches(mov_e8, sizeof(mov_e8), 0x1000, &b), 0, "walk: decodes");
	CHECK_EQ(b.nr, 0, "walk: an immediate of 0xe8 bytes is no call (instruction boundaries)");
	CHECK_EQ(b.insns, 2, "walk: mov and ret decoded");
	CHECK_EQ(b.bad_bytes, 1, "walk: the byte no instruction starts with is counted");
	lgd_branches_free(&b);
}

static void test_callees(const struct lgd_ksyms *k)
{
	struct lgd_callees cs;
	const struct lgd_callee *c;
	char line[256];

	if (!CHECK_EQ(lgd_callees_find(k, "f", rd, NULL, blacklist, &cs), 0, "callees of f"))
		return;
	CHECK_EQ(cs.size, 0x100, "f's size: to the next symbol");
	CHECK_EQ(cs.cold, 0x10, "f.cold decoded with f");
	CHECK_EQ(cs.br.indirect_calls, 3,
		 "indirect calls: call *%rax, the retpoline thunk and its __pi_ alias");
	CHECK_EQ(cs.br.indirect_jmps, 1, "indirect jumps: the jump table");
	CHECK_EQ(cs.br.bad_bytes, 1, "one byte decoded as no instruction");
	c = find(&cs, "slow");
	CHECK_TRUE(c && c->skip == LGD_CALLEE_PROBE && c->calls == 1, "slow: probed, one call");
	CHECK_TRUE(cs.nr && !strcmp(cs.v[0].name, "__fentry__"), "callees in code order");
	c = find(&cs, "fast");
	CHECK_TRUE(c && c->calls == 2, "fast: two call sites, one callee");
	c = find(&cs, "other");
	CHECK_TRUE(c && c->tails == 1 && !c->calls && !c->skip, "other: a conditional tail call, probed");
	c = find(&cs, "g");
	CHECK_TRUE(c && !c->skip && c->addr == 0x11a0, "a call into __pfx_g is a call of g");
	c = find(&cs, "h");
	CHECK_TRUE(c && !c->skip && c->via && !strcmp(c->via, "__SCT__tp_func_x"),
		   "a static call trampoline resolved to its target h");
	c = find(&cs, "cold_callee");
	CHECK_TRUE(c && !c->skip, "the .cold part's callee found");
	CHECK_TRUE(!find(&cs, "f.cold"), "the jump into f.cold is no callee");
	CHECK_TRUE(!find(&cs, "__x86_indirect_thunk_rax"), "the retpoline thunk is no callee");
	check_skip(&cs, "__fentry__", LGD_SKIP_FENTRY);
	check_skip(&cs, "__x86_return_thunk", LGD_SKIP_RETURN);
	check_skip(&cs, "__stack_chk_fail", LGD_SKIP_NORETURN);
	check_skip(&cs, "__sanitizer_cov_trace_pc", LGD_SKIP_INSTR);
	check_skip(&cs, "blk", LGD_SKIP_BLACKLIST);
	check_skip(&cs, "f", LGD_SKIP_SELF);
	check_skip(&cs, "mid", LGD_SKIP_MIDDLE);
	check_skip(&cs, "0x3000", LGD_SKIP_NOSYM);
	check_skip(&cs, "ftrace_regs_caller", LGD_SKIP_FENTRY);
	check_skip(&cs, "_raw_spin_lock", LGD_SKIP_PRIMITIVE);
	CHECK_TRUE(!find(&cs, "__pi___x86_indirect_thunk_rdx"), "a __pi_ thunk alias is no callee");
	c = find(&cs, "dupname");
	CHECK_TRUE(c && c->dup, "dupname: defined twice");
	lgd_callee_probe(&cs, NULL, line, sizeof(line));
	CHECK_STR_EQ(line, "r:f", "the function's own probe line");
	lgd_callee_probe(&cs, find(&cs, "slow"), line, sizeof(line));
	CHECK_STR_EQ(line, "r:slow", "a callee's probe line");
	if (c)
		lgd_callee_probe(&cs, c, line, sizeof(line));
	CHECK_STR_EQ(line, "r:dupname=0x11d0", "a name defined twice: by address");
	if ((c = find(&cs, "isra.fn.isra.0")))
		lgd_callee_probe(&cs, c, line, sizeof(line));
	CHECK_STR_EQ(line, "r:isra_fn_isra_0=0x1220", "no probe name: cleaned, by address");
	if ((c = find(&cs, "modfn")))
		lgd_callee_probe(&cs, c, line, sizeof(line));
	CHECK_STR_EQ(line, "r:modfn=mymod:modfn", "a module's function: MOD:NAME");
	CHECK_EQ(lgd_callee_probe(&cs, c, line, 8), -ENOSPC, "a short buffer: -ENOSPC");
	lgd_callees_free(&cs);
}

static void test_errors(const struct lgd_ksyms *k)
{
	struct lgd_callees cs;

	CHECK_EQ(lgd_callees_find(k, "nosuch", rd, NULL, NULL, &cs), -ENOENT, "no such function");
	CHECK_EQ(lgd_callees_find(k, "dupname", rd, NULL, NULL, &cs), -EADDRNOTAVAIL,
		 "a name defined twice: -EADDRNOTAVAIL");
	CHECK_EQ(lgd_callees_find(k, "0x1001", rd, NULL, NULL, &cs), -ENOENT,
		 "0xADDR not a function's start");
	CHECK_EQ(lgd_callees_find(k, "modend", rd, NULL, NULL, &cs), -ERANGE,
		 "a module's last symbol: its end unknown");
	CHECK_EQ(lgd_callees_find(k, "mymod:modfn", rd, NULL, NULL, &cs), -EFAULT,
		 "MOD:NAME found, its bytes unreadable: the reader's error");
	if (CHECK_EQ(lgd_callees_find(k, "0x1000", rd, NULL, NULL, &cs), 0, "0xADDR of f")) {
		CHECK_STR_EQ(cs.name, "f", "0x1000 is f");
		lgd_callees_free(&cs);
	}
	if (CHECK_EQ(lgd_callees_find(k, "0x11e0", rd, NULL, NULL, &cs), 0, "0xADDR of a name defined twice")) {
		char line[64];

		lgd_callee_probe(&cs, NULL, line, sizeof(line));
		CHECK_STR_EQ(line, "r:dupname=0x11e0", "its own probe line: by address");
		lgd_callees_free(&cs);
	}
}

int main(int argc, char **argv)
{
	struct lgd_ksyms k = { 0 };

	(void)argc;
	(void)argv;
	build();
	test_walk();
	if (CHECK_GT(lgd_ksyms_parse(&k, ksyms_text, strlen(ksyms_text)), 0, "kallsyms parsed")) {
		test_callees(&k);
		test_errors(&k);
	}
	lgd_ksyms_free(&k);
	printf("callees: %d passed, %d failed\n", ldc_passes, ldc_failures);
	return ldc_exit_status();
}
