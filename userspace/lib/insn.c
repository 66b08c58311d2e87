// SPDX-License-Identifier: GPL-2.0
/*
 * insn.c: discovery layer: the branches of a piece of x86-64 code, decoded
 * instruction by instruction with Capstone (the kernel's own decoder,
 * insn_decode(), is not exported to modules).  The only file that calls
 * the decoder (lgd_callees.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <capstone/capstone.h>
#include "lgd_callees.h"

static int br_add(struct lgd_branches *b, uint64_t at, uint64_t target,
		  enum lgd_branch_kind kind)
{
	if (b->nr == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 32;
		struct lgd_branch *v = realloc(b->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		b->v = v;
		b->cap = cap;
	}
	b->v[b->nr++] = (struct lgd_branch){ .at = at, .target = target, .kind = kind };
	return 0;
}

/* one decoded instruction: a direct branch is recorded, an indirect one counted */
static int one_insn(csh h, const cs_insn *in, struct lgd_branches *b)
{
	int call = cs_insn_group(h, in, CS_GRP_CALL);
	int jump = cs_insn_group(h, in, CS_GRP_JUMP);
	const cs_x86 *x = &in->detail->x86;
	enum lgd_branch_kind kind;

	if (!call && !jump)
		return 0;
	if (in->id == X86_INS_LCALL || in->id == X86_INS_LJMP)
		return 0;	/* far branches: not in kernel text */
	if (x->op_count != 1 || x->operands[0].type != X86_OP_IMM) {
		if (call)
			b->indirect_calls++;
		else
			b->indirect_jmps++;
		return 0;
	}
	if (call)
		kind = LGD_BR_CALL;
	else if (in->id == X86_INS_JMP)
		kind = LGD_BR_JMP;
	else
		kind = LGD_BR_JCC;	/* jcc, jrcxz, loop: targets in the code */
	return br_add(b, in->address, (uint64_t)x->operands[0].imm, kind);
}

int lgd_insn_branches(const uint8_t *code, size_t len, uint64_t addr,
		      struct lgd_branches *out)
{
	const uint8_t *p = code;
	uint64_t at = addr;
	size_t left = len;
	cs_insn *in;
	csh h;
	int err = 0;

	if (cs_open(CS_ARCH_X86, CS_MODE_64, &h) != CS_ERR_OK)
		return -ENOSYS;
	cs_option(h, CS_OPT_DETAIL, CS_OPT_ON);
	in = cs_malloc(h);
	if (!in) {
		cs_close(&h);
		return -ENOMEM;
	}
	while (left && !err) {
		if (!cs_disasm_iter(h, &p, &left, &at, in)) {
			/* no instruction here: skip one byte, say so */
			out->bad_bytes++;
			p++;
			left--;
			at++;
			continue;
		}
		out->insns++;
		err = one_insn(h, in, out);
	}
	cs_free(in, 1);
	cs_close(&h);
	return err;
}

void lgd_branches_free(struct lgd_branches *b)
{
	free(b->v);
	memset(b, 0, sizeof(*b));
}
