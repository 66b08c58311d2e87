// SPDX-License-Identifier: GPL-2.0
/*
 * test_btf.c - kernel/logdev_btf.c, the BTF reader of tracepoint arguments
 * by name, on blobs written by hand (btf_build.h): the parameters of a
 * 6.1 kernel's __bpf_trace_kmem_cache_free and __bpf_trace_sched_switch,
 * every type kind it maps (typedef, const, volatile, type_tag followed;
 * signed and unsigned enums; bool; a struct, a double, varargs), a loop of
 * typedefs, split BTF (a module's: ids and strings continuing after its
 * base's), and broken blobs: each cut length, bad headers, a type running
 * past its section, ids and names outside the blob, unknown kinds; then
 * 200,000 blobs with random bytes changed (ASan+UBSan: nothing read
 * outside the blob, errors only -EINVAL, -EOPNOTSUPP, -ENOENT).
 *   test_btf                run the checks (PASS:/FAIL: lines)
 *   test_btf --corpus DIR   also write the blobs as seeds for
 *                           tests/fuzz/fuzz_btf (its input layout)
 *   test_btf --file BTF TAG a real kernel's BTF (real-btf.sh), alone
 */
#include "ldk_btf.h"
#include "logdev_btf.h"
#include "btf_build.h"
#include "ldcheck.h"
#include <stdio.h>

#define MAXP 12

/* The base blob of bb_kernelish() (malloc()ed), its size in *@size. */
static u8 *kernelish(size_t *size, struct bb *b)
{
	bb_init(b, 1, 0);
	bb_kernelish(b);
	return bb_blob(b, size);
}

static int params(const void *blob, size_t size, const char *func,
		  struct ld_btf_param *p, u32 *n)
{
	struct ld_btf b;
	int ret = ld_btf_open(&b, blob, size, NULL);

	if (ret)
		return ret;
	ret = ld_btf_func_params(&b, func, p, MAXP, n);
	ld_btf_close(&b);
	return ret;
}

static void test_kernel_funcs(void)
{
	struct ld_btf_param p[MAXP];
	struct bb bb;
	size_t size;
	u8 *blob = kernelish(&size, &bb);
	u32 n = 0;

	CHECK_EQ(params(blob, size, "__bpf_trace_kmem_cache_free", p, &n), 0, "kcf-found");
	CHECK_EQ(n, 4, "kcf-nparams");
	CHECK_STR_EQ(p[0].name, "__data", "kcf-p0-name");
	CHECK_EQ(p[0].kind, LD_BTF_PTR, "kcf-p0-ptr");
	CHECK_STR_EQ(p[1].name, "call_site", "kcf-p1-name");
	CHECK_WHY(p[1].kind == LD_BTF_INT && p[1].size == 8 && !p[1].is_signed,
		  "kcf-call_site-u64", "kind %u size %u signed %d", p[1].kind, p[1].size,
		  p[1].is_signed);
	CHECK_STR_EQ(p[2].name, "ptr", "kcf-p2-name");
	CHECK_WHY(p[2].kind == LD_BTF_PTR && p[2].size == 8, "kcf-ptr-const-void-ptr",
		  "kind %u size %u", p[2].kind, p[2].size);
	CHECK_STR_EQ(p[3].name, "s", "kcf-p3-name");
	CHECK_EQ(p[3].kind, LD_BTF_PTR, "kcf-s-ptr-to-const-struct");

	CHECK_EQ(params(blob, size, "__bpf_trace_sched_switch", p, &n), 0, "ss-found");
	CHECK_EQ(n, 5, "ss-nparams");
	CHECK_WHY(p[1].kind == LD_BTF_INT && p[1].size == 1 && !p[1].is_signed,
		  "ss-preempt-bool-u8", "kind %u size %u signed %d", p[1].kind, p[1].size,
		  p[1].is_signed);
	CHECK_STR_EQ(p[1].type_name, "_Bool", "ss-preempt-typedef-followed");
	CHECK_EQ(p[2].kind, LD_BTF_PTR, "ss-prev-ptr-to-fwd");
	CHECK_STR_EQ(p[4].name, "prev_state", "ss-p4-name");
	CHECK_WHY(p[4].kind == LD_BTF_INT && p[4].size == 4 && !p[4].is_signed,
		  "ss-prev_state-u32", "kind %u size %u signed %d", p[4].kind, p[4].size,
		  p[4].is_signed);

	CHECK_EQ(params(blob, size, "__bpf_trace_ldk_loop", p, &n), -EINVAL, "loop-refused");
	CHECK_EQ(params(blob, size, "__bpf_trace_ldk_kinds", p, &n), 0, "kinds-all");
	CHECK_EQ(p[8].kind, LD_BTF_VARARGS, "kinds-varargs");
	{
		struct ld_btf b;

		CHECK_EQ(ld_btf_open(&b, blob, size, NULL), 0, "kinds-open");
		CHECK_EQ(ld_btf_func_params(&b, "__bpf_trace_ldk_kinds", p, 8, &n), 0,
			 "kinds-first-8");
		CHECK_EQ(n, 9, "kinds-n-counts-all");
		CHECK_WHY(p[1].kind == LD_BTF_INT && p[1].size == 4 && !p[1].is_signed,
			  "kinds-volatile-typedef-u32", "kind %u size %u", p[1].kind, p[1].size);
		CHECK_WHY(p[2].kind == LD_BTF_INT && p[2].size == 4 && p[2].is_signed,
			  "kinds-enum-signed-kflag", "kind %u signed %d", p[2].kind, p[2].is_signed);
		CHECK_WHY(p[3].kind == LD_BTF_INT && !p[3].is_signed, "kinds-enum-unsigned",
			  "kind %u signed %d", p[3].kind, p[3].is_signed);
		CHECK_WHY(p[4].kind == LD_BTF_INT && p[4].size == 2 && p[4].is_signed,
			  "kinds-type_tag-s16", "kind %u size %u signed %d", p[4].kind,
			  p[4].size, p[4].is_signed);
		CHECK_WHY(p[5].kind == LD_BTF_INT && p[5].is_signed, "kinds-int-signed",
			  "kind %u signed %d", p[5].kind, p[5].is_signed);
		CHECK_WHY(p[6].kind == LD_BTF_AGGR && p[6].size == 16, "kinds-struct-by-value",
			  "kind %u size %u", p[6].kind, p[6].size);
		CHECK_STR_EQ(p[6].type_name, "pair", "kinds-struct-name");
		CHECK_EQ(p[7].kind, LD_BTF_FLOAT, "kinds-double");
		CHECK_EQ(ld_btf_func_params(&b, "__bpf_trace_nothing", p, 8, &n), -ENOENT,
			 "missing-func-enoent");
		CHECK_EQ(ld_btf_func_params(&b, "kmem_cache", p, 8, &n), -ENOENT,
			 "struct-is-not-a-func");
		CHECK_EQ(ld_btf_func_params_id(&b, 1, p, 8, &n), -EINVAL, "id-of-an-int-einval");
		CHECK_EQ(ld_btf_func_params_id(&b, 0, p, 8, &n), -EINVAL, "id-0-einval");
		CHECK_EQ(ld_btf_func_params_id(&b, b.start_id + b.nr, p, 8, &n), -EINVAL,
			 "id-past-einval");
		CHECK_TRUE(ld_btf_str(&b, b.str_len) == NULL, "str-past-end-null");
		CHECK_STR_EQ(ld_btf_str(&b, 0), "", "str-0-empty");
		ld_btf_close(&b);
	}
	free(blob);
}

/* A module's BTF on top of the base: ids and strings continue. */
/*
 * An anonymous struct passed by value under a typedef (6.1's pte_t, p4d_t:
 * typedef struct { pteval_t pte; } pte_t, the xen_mmu_set_pte tracepoint's
 * pteval): named by the typedef, not "" (a fresh user saw "passed by value ()").
 */
static void test_anon_typedef(void)
{
	struct ld_btf_param p[MAXP];
	static const char *const names[] = { "__data", "ptep", "pteval" };
	struct bb bb;
	size_t size;
	u32 ul, vptr, anon, pte_t, cpte, types[3], n = 0;
	u8 *blob;

	bb_init(&bb, 1, 0);
	ul = bb_int(&bb, "long unsigned int", 8, 0);
	vptr = bb_type(&bb, NULL, BTF_KIND_PTR, 0, 0, 0);
	anon = bb_type(&bb, NULL, BTF_KIND_STRUCT, 1, 0, 8);
	bb_u32(&bb, bb_str(&bb, "pte"));
	bb_u32(&bb, ul);
	bb_u32(&bb, 0);
	pte_t = bb_type(&bb, "pte_t", BTF_KIND_TYPEDEF, 0, 0, anon);
	cpte = bb_type(&bb, NULL, BTF_KIND_CONST, 0, 0, pte_t);
	types[0] = vptr;
	types[1] = vptr;
	types[2] = cpte;
	bb_func(&bb, "__bpf_trace_xen_mmu_set_pte", 3, names, types);
	blob = bb_blob(&bb, &size);
	CHECK_EQ(params(blob, size, "__bpf_trace_xen_mmu_set_pte", p, &n), 0, "anon-found");
	CHECK_WHY(p[2].kind == LD_BTF_AGGR && p[2].size == 8, "anon-struct-by-value",
		  "kind %u size %u", p[2].kind, p[2].size);
	CHECK_STR_EQ(p[2].type_name, "pte_t", "anon-struct-named-by-its-typedef");
	free(blob);
}

static void test_split(void)
{
	struct ld_btf_param p[MAXP];
	struct bb base, mod;
	struct ld_btf bb, mb;
	size_t bsize, msize;
	u8 *bblob = kernelish(&bsize, &base), *mblob;
	u32 n = 0, s64id, bad;

	bb_init(&mod, base.next_id, base.slen);
	s64id = bb_int(&mod, "long long int", 8, BTF_INT_SIGNED);
	{
		static const char *const mn[] = { "__data", "delta", "ptr" };
		u32 mt[] = { 6 /* the base's void * */, s64id, 8 /* const void * */ };

		bb_func(&mod, "__bpf_trace_lt_mod_event", 3, mn, mt);
	}
	bad = bb_type(&mod, "lt_bad", BTF_KIND_FUNC, 0, 0, 999999);
	(void)bad;
	mblob = bb_blob(&mod, &msize);
	CHECK_EQ(ld_btf_open(&bb, bblob, bsize, NULL), 0, "split-base-open");
	CHECK_EQ(ld_btf_open(&mb, mblob, msize, &bb), 0, "split-open");
	CHECK_EQ(mb.start_id, bb.start_id + bb.nr, "split-ids-continue");
	CHECK_EQ(ld_btf_func_params(&mb, "__bpf_trace_lt_mod_event", p, MAXP, &n), 0,
		 "split-func");
	CHECK_EQ(n, 3, "split-nparams");
	CHECK_WHY(p[0].kind == LD_BTF_PTR && p[2].kind == LD_BTF_PTR, "split-base-types",
		  "kinds %u %u", p[0].kind, p[2].kind);
	CHECK_WHY(p[1].kind == LD_BTF_INT && p[1].size == 8 && p[1].is_signed,
		  "split-own-type-s64", "kind %u size %u signed %d", p[1].kind, p[1].size,
		  p[1].is_signed);
	CHECK_STR_EQ(p[1].name, "delta", "split-own-string");
	CHECK_STR_EQ(p[1].type_name, "long long int", "split-own-type-name");
	CHECK_EQ(ld_btf_func_params(&mb, "lt_bad", p, MAXP, &n), -EINVAL, "split-bad-proto-id");
	CHECK_EQ(ld_btf_func_params(&mb, "__bpf_trace_kmem_cache_free", p, MAXP, &n), -ENOENT,
		 "split-searches-own-funcs");
	CHECK_TRUE(ld_btf_str(&mb, 1) && !strcmp(ld_btf_str(&mb, 1), "long unsigned int"),
		   "split-base-string");
	ld_btf_close(&mb);
	/* the module's blob alone: its ids and names point nowhere */
	CHECK_EQ(ld_btf_open(&mb, mblob, msize, NULL), 0, "split-alone-opens");
	CHECK_NE(ld_btf_func_params(&mb, "__bpf_trace_lt_mod_event", p, MAXP, &n), 0,
		 "split-alone-names-nowhere");
	ld_btf_close(&mb);
	ld_btf_close(&bb);
	free(bblob);
	free(mblob);
}

static void set32(u8 *blob, size_t off, u32 v)
{
	memcpy(blob + off, &v, 4);
}

static int open_rc(const u8 *blob, size_t size)
{
	struct ld_btf b;
	int ret = ld_btf_open(&b, blob, size, NULL);

	ld_btf_close(&b);
	return ret;
}

static void test_broken(void)
{
	struct ld_btf_param p[MAXP];
	struct bb bb;
	size_t size, cut, bad = 0;
	u8 *blob = kernelish(&size, &bb), *copy = malloc(size + 64);
	u32 n;
	const size_t H = BB_H_V1;

	for (cut = 0; cut < size; cut++) {
		u8 *c = malloc(cut ? cut : 1);	/* exact size: ASan sees over-reads */

		memcpy(c, blob, cut);
		if (open_rc(c, cut) != -EINVAL)
			bad++;
		free(c);
	}
	CHECK_WHY(!bad, "every-cut-einval", "%zu of %zu cut lengths not -EINVAL", bad, size);
	CHECK_EQ(open_rc(blob, size), 0, "whole-opens");

#define MUT(name, want, stmt) do {					\
		memcpy(copy, blob, size);				\
		stmt;							\
		CHECK_EQ(open_rc(copy, size), want, name);		\
	} while (0)
	MUT("bad-magic", -EINVAL, copy[0] ^= 1);
	MUT("other-endian-magic", -EOPNOTSUPP, (copy[0] = 0xeb, copy[1] = 0x9f));
	MUT("version-2", -EOPNOTSUPP, copy[2] = 2);
	MUT("hdr_len-short", -EINVAL, set32(copy, 4, 8));
	MUT("hdr_len-23", -EINVAL, set32(copy, 4, 23));
	MUT("flags-set", -EOPNOTSUPP, copy[3] = 1);
	MUT("hdr_len-past-end", -EINVAL, set32(copy, 4, size + 1));
	MUT("type_len-past-end", -EINVAL, set32(copy, 12, size));
	MUT("str_off-past-end", -EINVAL, set32(copy, 16, size));
	MUT("str_len-past-end", -EINVAL, set32(copy, 20, bb.slen + 1));
	MUT("str_len-wraps", -EINVAL, set32(copy, 20, 0xffffffff));
	MUT("type_off-unaligned", -EINVAL, set32(copy, 8, 1));
	MUT("strings-no-final-nul", -EINVAL, copy[size - 1] = 'x');
	MUT("strings-no-first-empty", -EINVAL, copy[H + bb.tlen] = 'x');
	MUT("unknown-kind-25", -EOPNOTSUPP, copy[H + 7] = 25);
	MUT("kind-0", -EOPNOTSUPP, copy[H + 7] = 0);
	/* the first type (an int) made a struct of 0xffff members: past the end */
	MUT("vlen-past-section", -EINVAL, set32(copy, H + 4, (BTF_KIND_STRUCT << 24) | 0xffff));
	/* a parameter's name past the strings, its type past the ids */
	{
		struct bb b2;
		size_t s2;
		u8 *bl;
		static const char *const nm[] = { "__data", "x" };
		u32 ty[] = { 0, 1 };

		bb_init(&b2, 1, 0);
		bb_int(&b2, "int", 4, BTF_INT_SIGNED);
		bb_func(&b2, "f_name", 2, nm, ty);
		ty[1] = 77;
		bb_func(&b2, "f_type", 2, nm, ty);
		bl = bb_blob(&b2, &s2);
		CHECK_EQ(params(bl, s2, "f_name", p, &n), 0, "good-before-mangling");
		CHECK_EQ(params(bl, s2, "f_type", p, &n), -EINVAL, "param-type-past-ids");
		/* f_name's proto is type 2; its first param's name_off at 12 + 12 */
		set32(bl, H + 16 + 12, b2.slen + 5);
		CHECK_EQ(params(bl, s2, "f_name", p, &n), -EINVAL, "param-name-past-strings");
		free(bl);
	}
	free(copy);
	free(blob);
}

/* bb_kernelish()'s blob with a header of @hdr_len bytes, and the 7.x layout section if @layout. */
static u8 *kernelish_hdr(size_t *size, u32 hdr_len, bool layout)
{
	struct bb bb;
	size_t s24;
	u8 l[4 * BB_NR_KINDS], *b24 = kernelish(&s24, &bb), *out;

	bb_layout(l);
	out = bb_rewrap(b24, s24, hdr_len, l, layout ? sizeof(l) : 0, size);
	free(b24);
	return out;
}

/* Opens, and __bpf_trace_sched_switch reads as 6.1's: 0 if both. */
static int sched_switch_ok(const u8 *blob, size_t size, u32 *nr)
{
	struct ld_btf_param p[MAXP];
	struct ld_btf b;
	u32 n = 0;
	int ret = ld_btf_open(&b, blob, size, NULL);

	if (!ret) {
		*nr = b.nr;
		ret = ld_btf_func_params(&b, "__bpf_trace_sched_switch", p, MAXP, &n);
		if (!ret && (n != 5 || strcmp(p[4].name, "prev_state") || p[4].size != 4))
			ret = -EBADMSG;
	}
	ld_btf_close(&b);
	return ret;
}

/*
 * Headers of every length the kernel reads (btf_parse_hdr()): the blob's
 * hdr_len, not sizeof(struct btf_header) of the build's <linux/btf.h> (24
 * bytes up to 6.x, 32 on 7.x, where vmlinux's BTF still has 24).
 */
static void test_headers(void)
{
	size_t size, s24;
	u32 nr24 = 0, nr = 0;
	u8 *blob, *b24 = kernelish_hdr(&s24, BB_H_V1, false);

	CHECK_EQ(sched_switch_ok(b24, s24, &nr24), 0, "hdr-24-bytes-reads");
	blob = kernelish_hdr(&size, BB_H_7X, true);
	CHECK_EQ(sched_switch_ok(blob, size, &nr), 0, "hdr-7x-layout-reads");
	CHECK_EQ(nr, nr24, "hdr-7x-layout-same-types");
	free(blob);
	blob = kernelish_hdr(&size, BB_H_7X, false);
	CHECK_EQ(sched_switch_ok(blob, size, &nr), 0, "hdr-7x-no-layout-reads");
	free(blob);
	blob = kernelish_hdr(&size, 28, false);
	CHECK_EQ(open_rc(blob, size), 0, "hdr-28-zero-tail");
	blob[24] = 1;	/* half of 7.x's layout fields: not a field */
	CHECK_EQ(open_rc(blob, size), -EOPNOTSUPP, "hdr-28-nonzero-tail");
	free(blob);
	blob = kernelish_hdr(&size, 40, true);
	CHECK_EQ(sched_switch_ok(blob, size, &nr), 0, "hdr-40-zero-tail-reads");
	blob[36] = 1;	/* a field newer than 7.x's */
	CHECK_EQ(open_rc(blob, size), -EOPNOTSUPP, "hdr-40-unknown-field-refused");
	blob[36] = 0;
	blob[39] = 0x80;
	CHECK_EQ(open_rc(blob, size), -EOPNOTSUPP, "hdr-40-unknown-last-byte-refused");
	free(blob);
	blob = kernelish_hdr(&size, BB_H_7X, true);
	set32(blob, BB_H_HDR_LEN, size + 1);
	CHECK_EQ(open_rc(blob, size), -EINVAL, "hdr_len-past-blob");
	set32(blob, BB_H_HDR_LEN, 0xffffffff);
	CHECK_EQ(open_rc(blob, size), -EINVAL, "hdr_len-max");
	free(blob);
	/* a 7.x header alone, cut anywhere: nothing read past it */
	blob = kernelish_hdr(&size, BB_H_7X, true);
	{
		size_t cut, bad = 0;

		for (cut = 0; cut < size; cut++) {
			u8 *c = malloc(cut ? cut : 1);

			memcpy(c, blob, cut);
			if (open_rc(c, cut) != -EINVAL)
				bad++;
			free(c);
		}
		CHECK_WHY(!bad, "hdr-7x-every-cut-einval", "%zu of %zu", bad, size);
	}
	free(blob);
	free(b24);
}

/* The layout section: bounds, and what it says of the kinds this reader knows. */
static void test_layout_sec(void)
{
	size_t size;
	u8 *blob = kernelish_hdr(&size, BB_H_7X, true), *copy = malloc(size);
	u32 loff = bb_get32(blob + BB_H_LAYOUT_OFF), at = BB_H_7X + loff;

#define LMUT(name, want, stmt) do {					\
		memcpy(copy, blob, size);				\
		stmt;							\
		CHECK_EQ(open_rc(copy, size), want, name);		\
	} while (0)
	LMUT("layout-intact", 0, (void)0);
	LMUT("layout-past-end", -EINVAL, set32(copy, BB_H_LAYOUT_OFF, size));
	LMUT("layout-len-past-end", -EINVAL, set32(copy, BB_H_LAYOUT_LEN, size - BB_H_7X - loff + 4));
	LMUT("layout-len-wraps", -EINVAL, set32(copy, BB_H_LAYOUT_LEN, 0xfffffffc));
	LMUT("layout-off-unaligned", -EINVAL, set32(copy, BB_H_LAYOUT_OFF, loff + 2));
	LMUT("layout-len-not-whole-entries", -EINVAL, set32(copy, BB_H_LAYOUT_LEN, 4 * BB_NR_KINDS - 2));
	LMUT("layout-len-0-off-unused", 0, (set32(copy, BB_H_LAYOUT_LEN, 0),
					    set32(copy, BB_H_LAYOUT_OFF, 0xffffffff)));
	LMUT("layout-short-is-fine", 0, set32(copy, BB_H_LAYOUT_LEN, 4 * 2));
	LMUT("layout-int-sized-otherwise", -EOPNOTSUPP, copy[at + 4 * BTF_KIND_INT] = 8);
	LMUT("layout-struct-member-otherwise", -EOPNOTSUPP,
	     copy[at + 4 * BTF_KIND_STRUCT + 1] = 16);
	LMUT("layout-known-kind-flags", -EOPNOTSUPP, copy[at + 4 * BTF_KIND_FUNC + 3] = 1);
	LMUT("layout-kind-0-ignored", 0, copy[at] = 7);
	free(copy);
	free(blob);
}

/*
 * A blob with a type of kind @kind (newer than the reader's, vlen 2, 4 +
 * 2 * 8 bytes after it) between an int and two functions, with a header of
 * @hdr_len bytes and a layout section of @nkinds kinds (the 20 known, the
 * rest 4/8/@flags).  Malloc()ed.
 */
static u8 *new_kind_blob(size_t *size, u32 kind, u32 hdr_len, u32 nkinds, u16 flags)
{
	static const char *const nm[] = { "__data", "x" };
	struct bb bb;
	size_t s24;
	u32 ty[2], k, unk;
	u8 *l = calloc(nkinds + 1, 4), *b24, *out;

	bb_init(&bb, 1, 0);
	ty[0] = bb_int(&bb, "int", 4, BTF_INT_SIGNED);
	unk = bb_type(&bb, "newer", kind, 2, 0, 0);
	bb_u32(&bb, 0xdeadbeef);
	for (k = 0; k < 4; k++)
		bb_u32(&bb, BTF_KIND_FUNC << 24);	/* would read as types if not skipped */
	ty[1] = ty[0];
	bb_func(&bb, "f_int", 2, nm, ty);
	ty[1] = unk;
	bb_func(&bb, "f_newer", 2, nm, ty);
	b24 = bb_blob(&bb, &s24);
	bb_layout(l);
	for (k = BB_NR_KINDS; k < nkinds; k++) {
		l[4 * k] = 4;
		l[4 * k + 1] = 8;
		memcpy(l + 4 * k + 2, &flags, 2);
	}
	out = bb_rewrap(b24, s24, hdr_len, l, 4 * nkinds, size);
	free(b24);
	free(l);
	return out;
}

/* Kinds newer than the reader's: skipped when the layout section sizes them. */
static void test_new_kinds(void)
{
	struct ld_btf_param p[MAXP];
	struct ld_btf b;
	size_t size;
	u8 *blob = new_kind_blob(&size, BB_NR_KINDS, BB_H_7X, BB_NR_KINDS + 1, 0);
	u32 n = 0, id = 0;

	if (CHECK_EQ(ld_btf_open(&b, blob, size, NULL), 0, "new-kind-sized-opens")) {
		CHECK_EQ(b.nr, 6, "new-kind-one-type");	/* int, newer, 2 x (proto, func) */
		CHECK_EQ(ld_btf_find_func(&b, "f_newer", &id), 0, "new-kind-after-found");
		CHECK_EQ(id, 6, "new-kind-ids-continue");
		CHECK_EQ(ld_btf_func_params(&b, "f_int", p, MAXP, &n), 0, "new-kind-f_int");
		CHECK_WHY(n == 2 && p[1].kind == LD_BTF_INT && p[1].size == 4 && p[1].is_signed,
			  "new-kind-f_int-param", "n %u kind %u size %u", n, p[1].kind, p[1].size);
		CHECK_EQ(ld_btf_func_params(&b, "f_newer", p, MAXP, &n), 0, "new-kind-f_newer");
		CHECK_WHY(p[1].kind == LD_BTF_OTHER && !p[1].size, "new-kind-param-other",
			  "kind %u size %u", p[1].kind, p[1].size);
	}
	ld_btf_close(&b);
	free(blob);
	blob = new_kind_blob(&size, 127, BB_H_7X, 128, 0);
	CHECK_EQ(open_rc(blob, size), 0, "new-kind-127-sized-opens");
	free(blob);
	blob = new_kind_blob(&size, BB_NR_KINDS, BB_H_V1, BB_NR_KINDS + 1, 0);
	CHECK_EQ(open_rc(blob, size), -EOPNOTSUPP, "new-kind-no-layout-refused");
	free(blob);
	blob = new_kind_blob(&size, BB_NR_KINDS, BB_H_7X, BB_NR_KINDS, 0);
	CHECK_EQ(open_rc(blob, size), -EOPNOTSUPP, "new-kind-not-in-layout-refused");
	free(blob);
	blob = new_kind_blob(&size, BB_NR_KINDS + 1, BB_H_7X, BB_NR_KINDS + 1, 0);
	CHECK_EQ(open_rc(blob, size), -EOPNOTSUPP, "new-kind-past-layout-refused");
	free(blob);
	blob = new_kind_blob(&size, BB_NR_KINDS, BB_H_7X, BB_NR_KINDS + 1, 1);
	CHECK_EQ(open_rc(blob, size), -EOPNOTSUPP, "new-kind-layout-flags-refused");
	free(blob);
	blob = new_kind_blob(&size, 0, BB_H_7X, BB_NR_KINDS + 1, 0);
	CHECK_EQ(open_rc(blob, size), -EOPNOTSUPP, "kind-0-refused-with-layout");
	free(blob);
}

/*
 * 7.x's btf_type.info: kind in bits 24-30 (was 24-28), vlen in bits 0-23
 * (was 0-15).  A reader of the old widths takes kind 33 for an int and a
 * vlen of 0x10001 for 1.
 */
static void test_info_bits(void)
{
	struct bb bb;
	size_t size;
	u32 i;
	u8 *blob;

	bb_init(&bb, 1, 0);
	i = bb_int(&bb, "int", 4, BTF_INT_SIGNED);
	bb_type(&bb, "s", BTF_KIND_STRUCT, 0x10001, 0, 4);
	bb_u32(&bb, bb_str(&bb, "m"));	/* one member, where vlen says 65537 */
	bb_u32(&bb, i);
	bb_u32(&bb, 0);
	blob = bb_blob(&bb, &size);
	CHECK_EQ(open_rc(blob, size), -EINVAL, "vlen-24-bits-past-section");
	free(blob);
	bb_init(&bb, 1, 0);
	bb_type(&bb, "int", BTF_KIND_INT + 32, 0, 0, 4);
	bb_u32(&bb, (BTF_INT_SIGNED << 24) | 32);
	blob = bb_blob(&bb, &size);
	CHECK_EQ(open_rc(blob, size), -EOPNOTSUPP, "kind-7-bits-33-unknown");
	free(blob);
}

/* Random bytes changed in the blob: only the expected errors, no bad read. */
static void test_mutations(void)
{
	struct ld_btf_param p[MAXP];
	static const char *const funcs[] = {
		"__bpf_trace_kmem_cache_free", "__bpf_trace_sched_switch",
		"__bpf_trace_ldk_kinds", "__bpf_trace_ldk_after_struct",
		"__bpf_trace_ldk_loop",
	};
	size_t sizes[2], size, i, odd = 0, opened[2] = { 0, 0 };
	u8 *blobs[2], *blob;
	unsigned int seed = 12345;

	/* the 24-byte header, and 7.x's with a layout section, in turn */
	blobs[0] = kernelish_hdr(&sizes[0], BB_H_V1, false);
	blobs[1] = kernelish_hdr(&sizes[1], BB_H_7X, true);
	for (i = 0; i < 200000; i++) {
		u8 *c;
		struct ld_btf b;
		int k, ret;
		u32 n;

		blob = blobs[i % 2];
		size = sizes[i % 2];
		c = malloc(size);
		memcpy(c, blob, size);
		for (k = 0; k < 1 + (int)(i % 4); k++)
			c[rand_r(&seed) % size] = rand_r(&seed);
		ret = ld_btf_open(&b, c, size, NULL);
		if (ret && ret != -EINVAL && ret != -EOPNOTSUPP)
			odd++;
		if (!ret) {
			opened[i % 2]++;
			for (k = 0; k < 5; k++) {
				ret = ld_btf_func_params(&b, funcs[k], p, MAXP, &n);
				if (ret && ret != -EINVAL && ret != -ENOENT)
					odd++;
				if (!ret && (strnlen(p[0].name, LD_BTF_NAME_LEN) == LD_BTF_NAME_LEN ||
					     p[0].kind > LD_BTF_OTHER))
					odd++;
			}
		}
		ld_btf_close(&b);
		free(c);
	}
	CHECK_WHY(!odd, "mutations-only-known-errors", "%zu odd results", odd);
	CHECK_GT(opened[0], 1000, "mutations-some-still-open");
	CHECK_GT(opened[1], 1000, "mutations-7x-some-still-open");
	free(blobs[0]);
	free(blobs[1]);
}

/* DIR/NAME: the byte @first, then @blob. */
static int write_seed(const char *dir, const char *name, int first, const u8 *blob,
		      size_t size)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f)
		return -1;
	fputc(first, f);
	fwrite(blob, 1, size, f);
	return fclose(f);
}

/* Seeds for tests/fuzz/fuzz_btf: byte 0 even: one blob; odd: a u32 base
 * size, the base, then a split blob on it. */
static int write_corpus(const char *dir)
{
	struct bb base, mod;
	size_t bsize, msize, s7, sk;
	u8 *bblob = kernelish(&bsize, &base), *mblob, *b7, *bk, *both;
	u32 bs = bsize;
	static const char *const mn[] = { "__data", "delta" };
	u32 mt[2] = { 6, 0 };
	int ret;

	bb_init(&mod, base.next_id, base.slen);
	mt[1] = bb_int(&mod, "long long int", 8, BTF_INT_SIGNED);
	bb_func(&mod, "__bpf_trace_lt_mod_event", 2, mn, mt);
	mblob = bb_blob(&mod, &msize);
	/* odd: a u32 base size, the base, the split blob */
	both = malloc(4 + bsize + msize);
	if (!both)
		abort();
	memcpy(both, &bs, 4);
	memcpy(both + 4, bblob, bsize);
	memcpy(both + 4 + bsize, mblob, msize);
	/* 7.x: a 32-byte header and a layout section; a kind it sizes */
	b7 = kernelish_hdr(&s7, BB_H_7X, true);
	bk = new_kind_blob(&sk, BB_NR_KINDS, BB_H_7X, BB_NR_KINDS + 1, 0);
	ret = write_seed(dir, "kernelish", 12 << 1, bblob, bsize) ||
	      write_seed(dir, "split-module", 12 << 1 | 1, both, 4 + bsize + msize) ||
	      write_seed(dir, "layout-7x", 12 << 1, b7, s7) ||
	      write_seed(dir, "layout-7x-new-kind", 2 << 1, bk, sk) ? -1 : 0;
	free(bblob);
	free(mblob);
	free(both);
	free(b7);
	free(bk);
	return ret;
}

/*
 * A real kernel's BTF (real-btf.sh extracts it from /boot/vmlinuz-*): it
 * opens; the two class functions logdev's VM test uses have 6.1's
 * arguments; every function's parameters resolve (-EINVAL: none), every
 * __bpf_trace_* stub starts with the pointer __data.
 */
static void test_file(const char *path, const char *tag)
{
	struct ld_btf_param p[MAXP];
	struct ld_btf b;
	FILE *f = fopen(path, "rb");
	size_t size = 0, nfunc = 0, nbad = 0, nstub = 0, badstub = 0;
	u8 *blob = NULL;
	u32 i, n, info, st;
	long len;

	if (!f || fseek(f, 0, SEEK_END) || (len = ftell(f)) <= 0 || fseek(f, 0, SEEK_SET)) {
		CHECK_WHY(0, NAMEF("%s-read", tag), "cannot read %s", path);
		return;
	}
	size = len;
	blob = malloc(size);
	if (!blob || fread(blob, 1, size, f) != size)
		abort();
	fclose(f);
	if (!CHECK_EQ(ld_btf_open(&b, blob, size, NULL), 0, NAMEF("%s-opens", tag)))
		goto out;
	CHECK_GT(b.nr, 10000, NAMEF("%s-types", tag));
	printf("# %s: %zu bytes, a %u-byte header, %u types\n", path, size,
	       bb_get32(blob + BB_H_HDR_LEN), b.nr);
	CHECK_EQ(ld_btf_func_params(&b, "__bpf_trace_kmem_cache_free", p, MAXP, &n), 0,
		 NAMEF("%s-kmem_cache_free", tag));
	CHECK_WHY(n == 4 && !strcmp(p[1].name, "call_site") && !strcmp(p[2].name, "ptr") &&
		  !strcmp(p[3].name, "s") && p[1].kind == LD_BTF_INT && p[1].size == 8 &&
		  p[2].kind == LD_BTF_PTR && p[3].kind == LD_BTF_PTR,
		  NAMEF("%s-kmem_cache_free-args", tag), "%u params: %s %s %s", n, p[1].name,
		  p[2].name, p[3].name);
	CHECK_EQ(ld_btf_func_params(&b, "__bpf_trace_sched_switch", p, MAXP, &n), 0,
		 NAMEF("%s-sched_switch", tag));
	CHECK_WHY(n == 5 && !strcmp(p[1].name, "preempt") && p[1].size == 1 &&
		  !strcmp(p[4].name, "prev_state") && p[4].size == 4 && !p[4].is_signed,
		  NAMEF("%s-sched_switch-args", tag), "%u params: %s/%u %s/%u", n, p[1].name,
		  p[1].size, p[4].name, p[4].size);
	printf("# __bpf_trace_sched_switch:");
	for (i = 0; i < n && i < MAXP; i++)
		printf(" %s(%s, %u bytes)", p[i].name,
		       p[i].kind == LD_BTF_PTR ? "pointer" : p[i].type_name, p[i].size);
	printf("\n");
	for (i = 0; i < b.nr; i++) {
		const char *name;

		if (ld_btf_type(&b, b.start_id + i, &info, &st, NULL) ||
		    ((info >> 24) & 0x7f) != BTF_KIND_FUNC)
			continue;
		nfunc++;
		name = ld_btf_str(&b, *(const u32 *)(b.types + b.offs[i]));
		if (!name || ld_btf_func_params_id(&b, b.start_id + i, p, MAXP, &n)) {
			nbad++;
			continue;
		}
		if (!strncmp(name, "__bpf_trace_", 12)) {
			nstub++;
			if (!n || strcmp(p[0].name, "__data") || p[0].kind != LD_BTF_PTR)
				badstub++;
		}
	}
	printf("# %zu functions, %zu __bpf_trace_ stubs\n", nfunc, nstub);
	CHECK_WHY(nfunc > 10000 && !nbad, NAMEF("%s-every-function", tag),
		  "%zu of %zu functions' parameters not read", nbad, nfunc);
	CHECK_WHY(nstub > 100 && !badstub, NAMEF("%s-stubs-start-with-__data", tag),
		  "%zu of %zu stubs", badstub, nstub);
	if (bb_get32(blob + BB_H_HDR_LEN) == BB_H_V1) {
		/* the same types under 7.x's header and a layout section */
		u8 l[4 * BB_NR_KINDS], *b7;
		size_t s7;
		u32 nr = 0;

		bb_layout(l);
		b7 = bb_rewrap(blob, size, BB_H_7X, l, sizeof(l), &s7);
		CHECK_EQ(sched_switch_ok(b7, s7, &nr), 0, NAMEF("%s-as-7x-layout-reads", tag));
		CHECK_EQ(nr, b.nr, NAMEF("%s-as-7x-layout-same-types", tag));
		free(b7);
	}
out:
	ld_btf_close(&b);
	free(blob);
}

int main(int argc, char **argv)
{
	/* what the build saw: the reader must not depend on it */
	printf("# <linux/btf.h>: struct btf_header of %zu bytes\n", sizeof(struct btf_header));
	if (argc == 4 && !strcmp(argv[1], "--file")) {
		test_file(argv[2], argv[3]);
		return ldc_exit_status();
	}
	if (argc == 3 && !strcmp(argv[1], "--corpus") && write_corpus(argv[2])) {
		perror(argv[2]);
		return 1;
	}
	test_kernel_funcs();
	test_anon_typedef();
	test_split();
	test_broken();
	test_headers();
	test_layout_sec();
	test_new_kinds();
	test_info_bits();
	test_mutations();
	return ldc_exit_status();
}
