/* SPDX-License-Identifier: GPL-2.0 */
/*
 * btf_build.h - write small BTF blobs by hand (include/uapi/linux/btf.h),
 * for tests/btf/test_btf.c and the fuzz harnesses (tests/fuzz): a header,
 * the types in the order they are added (ids from @id_base), the strings
 * (offsets from @str_base).  A split blob (a module's) is built with the
 * base's next id and string offset as its bases.  The header is 24 bytes
 * (as vmlinux's, on 7.x too); bb_rewrap() gives it another length and a
 * 7.x layout section.  Include after the
 * fixed-width types (tests/fuzz/kshim/ldk_btf.h or ldk_probe.h).
 */
#ifndef BTF_BUILD_H
#define BTF_BUILD_H
#include <stdlib.h>
#include <string.h>
#include <linux/btf.h>

struct bb {
	u8 types[16384];
	u32 tlen;
	char strs[8192];
	u32 slen;
	u32 next_id;	/* id of the next type added */
	u32 str_base;	/* offset of strs[0] */
};

/* @id_base: first id (1, or the base's next id); @str_base: 0, or the
 * base's str_base + slen.  A base starts its strings with "". */
static inline void bb_init(struct bb *b, u32 id_base, u32 str_base)
{
	memset(b, 0, sizeof(*b));
	b->next_id = id_base;
	b->str_base = str_base;
	b->slen = 1;	/* "" at offset 0 of every blob built here */
}

/* The offset of @s (added; "" is offset 0 of a base). */
static inline u32 bb_str(struct bb *b, const char *s)
{
	u32 off = b->slen, n = strlen(s) + 1;

	if (!*s && !b->str_base)
		return 0;
	if (b->slen + n > sizeof(b->strs))
		abort();
	memcpy(b->strs + b->slen, s, n);
	b->slen += n;
	return b->str_base + off;
}

static inline void bb_u32(struct bb *b, u32 v)
{
	if (b->tlen + 4 > sizeof(b->types))
		abort();
	memcpy(b->types + b->tlen, &v, 4);
	b->tlen += 4;
}

/* A struct btf_type; its kind's bytes follow with bb_u32(). Its id. */
static inline u32 bb_type(struct bb *b, const char *name, u32 kind, u32 vlen,
			  int kflag, u32 size_type)
{
	bb_u32(b, name ? bb_str(b, name) : 0);
	bb_u32(b, (kflag ? 1U << 31 : 0) | (kind << 24) | vlen);
	bb_u32(b, size_type);
	return b->next_id++;
}

static inline u32 bb_int(struct bb *b, const char *name, u32 bytes, u32 enc)
{
	u32 id = bb_type(b, name, BTF_KIND_INT, 0, 0, bytes);

	bb_u32(b, (enc << 24) | (bytes * 8));
	return id;
}

/* A function @name of the prototype: return type 0, params (name, type). */
static inline u32 bb_func(struct bb *b, const char *name, u32 n,
			  const char *const *pnames, const u32 *ptypes)
{
	u32 proto = bb_type(b, NULL, BTF_KIND_FUNC_PROTO, n, 0, 0), i;

	for (i = 0; i < n; i++) {
		bb_u32(b, bb_str(b, pnames[i]));
		bb_u32(b, ptypes[i]);
	}
	return bb_type(b, name, BTF_KIND_FUNC, 0, 0, proto);
}

/*
 * The header's fields by byte offset (include/uapi/linux/btf.h; written by
 * hand, not as the struct btf_header of whatever <linux/btf.h> the build
 * sees): 24 bytes up to 6.x, 32 with 7.x's layout_off and layout_len.
 */
#define BB_H_HDR_LEN	4
#define BB_H_TYPE_OFF	8
#define BB_H_TYPE_LEN	12
#define BB_H_STR_OFF	16
#define BB_H_STR_LEN	20
#define BB_H_LAYOUT_OFF	24
#define BB_H_LAYOUT_LEN	28
#define BB_H_V1		24	/* the header vmlinux's BTF has, on 7.x too */
#define BB_H_7X		32	/* 7.x's struct btf_header */

static inline void bb_put32(u8 *p, u32 v)
{
	memcpy(p, &v, 4);
}

static inline u32 bb_get32(const u8 *p)
{
	u32 v;

	memcpy(&v, p, 4);
	return v;
}

/* The blob (a 24-byte header, types, strings) in a malloc()ed buffer; *@size. */
static inline u8 *bb_blob(const struct bb *b, size_t *size)
{
	u8 *out = calloc(1, BB_H_V1 + b->tlen + b->slen);
	u16 magic = BTF_MAGIC;

	if (!out)
		abort();
	memcpy(out, &magic, 2);
	out[2] = BTF_VERSION;	/* flags (out[3]) 0 */
	bb_put32(out + BB_H_HDR_LEN, BB_H_V1);
	bb_put32(out + BB_H_TYPE_LEN, b->tlen);
	bb_put32(out + BB_H_STR_OFF, b->tlen);
	bb_put32(out + BB_H_STR_LEN, b->slen);
	memcpy(out + BB_H_V1, b->types, b->tlen);
	memcpy(out + BB_H_V1 + b->tlen, b->strs, b->slen);
	*size = BB_H_V1 + b->tlen + b->slen;
	return out;
}

/*
 * @blob (@size bytes, a 24-byte header, as bb_blob()'s or a vmlinux's)
 * with a header of @hdr_len bytes instead (zeros after the first 24), and
 * if @hdr_len >= 32 and @layout_len, the layout section @layout between
 * the types and the strings, as libbpf writes it (7.x).  Malloc()ed; *@out_size.
 */
static inline u8 *bb_rewrap(const u8 *blob, size_t size, u32 hdr_len, const u8 *layout,
			    u32 layout_len, size_t *out_size)
{
	u32 tlen = bb_get32(blob + BB_H_TYPE_LEN), slen = bb_get32(blob + BB_H_STR_LEN);
	const u8 *types = blob + BB_H_V1 + bb_get32(blob + BB_H_TYPE_OFF);
	const u8 *strs = blob + BB_H_V1 + bb_get32(blob + BB_H_STR_OFF);
	u8 *out;

	if (bb_get32(blob + BB_H_HDR_LEN) != BB_H_V1 || types + tlen > blob + size ||
	    strs + slen > blob + size || hdr_len < BB_H_V1)
		abort();
	if (hdr_len < BB_H_7X)
		layout_len = 0;
	out = calloc(1, hdr_len + tlen + layout_len + slen);
	if (!out)
		abort();
	memcpy(out, blob, BB_H_V1);
	bb_put32(out + BB_H_HDR_LEN, hdr_len);
	bb_put32(out + BB_H_TYPE_OFF, 0);
	bb_put32(out + BB_H_STR_OFF, tlen + layout_len);
	memcpy(out + hdr_len, types, tlen);
	if (layout_len) {
		bb_put32(out + BB_H_LAYOUT_OFF, tlen);
		bb_put32(out + BB_H_LAYOUT_LEN, layout_len);
		memcpy(out + hdr_len + tlen, layout, layout_len);
	}
	memcpy(out + hdr_len + tlen + layout_len, strs, slen);
	*out_size = hdr_len + tlen + layout_len + slen;
	return out;
}

#define BB_NR_KINDS	20	/* kinds 0 (unknown) .. 19 (ENUM64): 6.1 to 7.3 */

/*
 * The layout section of the 20 kinds (4 bytes each: u8 bytes after the
 * struct btf_type, u8 bytes per vlen item, u16 flags), from the sizes in
 * Documentation/bpf/btf.rst, into @l (4 * BB_NR_KINDS bytes).
 */
static inline void bb_layout(u8 *l)
{
	static const u8 sz[BB_NR_KINDS][2] = {
		[1] = { 4, 0 },		/* INT: u32 encoding */
		[3] = { 12, 0 },	/* ARRAY: type, index_type, nelems */
		[4] = { 0, 12 },	/* STRUCT: name_off, type, offset */
		[5] = { 0, 12 },	/* UNION */
		[6] = { 0, 8 },		/* ENUM: name_off, val */
		[13] = { 0, 8 },	/* FUNC_PROTO: name_off, type */
		[14] = { 4, 0 },	/* VAR: linkage */
		[15] = { 0, 12 },	/* DATASEC: type, offset, size */
		[17] = { 4, 0 },	/* DECL_TAG: component_idx */
		[19] = { 0, 12 },	/* ENUM64: name_off, val_lo32, val_hi32 */
	};
	u32 k;

	memset(l, 0, 4 * BB_NR_KINDS);
	for (k = 0; k < BB_NR_KINDS; k++) {
		l[4 * k] = sz[k][0];
		l[4 * k + 1] = sz[k][1];
	}
}

/*
 * The types of tracepoints' class functions as a 6.1 kernel has them
 * (__bpf_trace_<class>(void *__data, TP_PROTO...)), and a few more kinds:
 * what tests/btf and the fuzz harness of the probes file look up.  Fills
 * @b (bb_init()ed as a base).
 */
static inline void bb_kernelish(struct bb *b)
{
	u32 ul = bb_int(b, "long unsigned int", 8, 0);
	u32 sint = bb_int(b, "int", 4, BTF_INT_SIGNED);
	u32 uint = bb_int(b, "unsigned int", 4, 0);
	u32 boo = bb_int(b, "_Bool", 1, BTF_INT_BOOL);
	u32 s16 = bb_int(b, "short int", 2, BTF_INT_SIGNED);
	u32 vptr = bb_type(b, NULL, BTF_KIND_PTR, 0, 0, 0);
	u32 cvoid = bb_type(b, NULL, BTF_KIND_CONST, 0, 0, 0);
	u32 cvptr = bb_type(b, NULL, BTF_KIND_PTR, 0, 0, cvoid);
	u32 kc = bb_type(b, "kmem_cache", BTF_KIND_STRUCT, 0, 0, 0);
	u32 ckc = bb_type(b, NULL, BTF_KIND_CONST, 0, 0, kc);
	u32 ckcp = bb_type(b, NULL, BTF_KIND_PTR, 0, 0, ckc);
	u32 ts = bb_type(b, "task_struct", BTF_KIND_FWD, 0, 0, 0);
	u32 tsp = bb_type(b, NULL, BTF_KIND_PTR, 0, 0, ts);
	u32 bool_t = bb_type(b, "bool", BTF_KIND_TYPEDEF, 0, 0, boo);
	u32 u32_t = bb_type(b, "u32", BTF_KIND_TYPEDEF, 0, 0, uint);
	u32 vu32 = bb_type(b, NULL, BTF_KIND_VOLATILE, 0, 0, u32_t);
	u32 es = bb_type(b, "ens", BTF_KIND_ENUM, 1, 1, 4);
	u32 eu, st, dbl, tt, loop1, loop2;

	bb_u32(b, bb_str(b, "ENS_NEG"));
	bb_u32(b, (u32)-1);
	eu = bb_type(b, "enu", BTF_KIND_ENUM, 1, 0, 4);
	bb_u32(b, bb_str(b, "ENU_ONE"));
	bb_u32(b, 1);
	st = bb_type(b, "pair", BTF_KIND_STRUCT, 1, 0, 16);
	bb_u32(b, bb_str(b, "a"));
	bb_u32(b, ul);
	bb_u32(b, 0);
	dbl = bb_type(b, "double", BTF_KIND_FLOAT, 0, 0, 8);
	tt = bb_type(b, "user", BTF_KIND_TYPE_TAG, 0, 0, s16);
	loop1 = b->next_id;
	loop2 = bb_type(b, "loop_a", BTF_KIND_TYPEDEF, 0, 0, loop1 + 1);
	bb_type(b, "loop_b", BTF_KIND_TYPEDEF, 0, 0, loop2);
	{
		static const char *const kn[] = { "__data", "call_site", "ptr", "s" };
		u32 kt[] = { vptr, ul, cvptr, ckcp };

		bb_func(b, "__bpf_trace_kmem_cache_free", 4, kn, kt);
	}
	{
		static const char *const sn[] = { "__data", "preempt", "prev", "next",
						  "prev_state" };
		u32 stt[] = { vptr, bool_t, tsp, tsp, uint };

		bb_func(b, "__bpf_trace_sched_switch", 5, sn, stt);
	}
	{
		/* every kind: the 6th and 7th after __data are past the registers */
		static const char *const an[] = {
			"__data", "vol", "neg", "one", "tagged", "sint", "by_value",
			"dbl", ""
		};
		u32 at[] = { vptr, vu32, es, eu, tt, sint, st, dbl, 0 };

		bb_func(b, "__bpf_trace_ldk_kinds", 9, an, at);
	}
	{
		/* a loop of typedefs: a broken BTF, refused as a whole */
		static const char *const ln[] = { "__data", "looped" };
		u32 lt[] = { vptr, loop2 };

		bb_func(b, "__bpf_trace_ldk_loop", 2, ln, lt);
	}
	{
		/* a struct by value before an integer: positions unknown after it */
		static const char *const bn[] = { "__data", "p", "after" };
		u32 bt[] = { vptr, st, sint };

		bb_func(b, "__bpf_trace_ldk_after_struct", 3, bn, bt);
	}
}
#endif
