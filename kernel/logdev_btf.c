// SPDX-License-Identifier: GPL-2.0
/*
 * logdev_btf.c - a small BTF reader: a function's parameters by name, with
 * their types (logdev_btf.h).  The format is the kernel's uapi
 * include/uapi/linux/btf.h and Documentation/bpf/btf.rst: a header
 * (magic 0xeB9F, version 1, its own length, the offsets and lengths of a
 * type section, a string section and, in 7.x, a layout section after the
 * header), then types one after the other, each a struct btf_type (12
 * bytes) and kind-specific bytes; type ids count from 1 in that order (0
 * is void); names are offsets into the string section.  A module's BTF is
 * "split": its ids and string offsets continue after those of vmlinux's
 * BTF (its base).  The header's length is the blob's, as the kernel's
 * btf_parse_hdr() takes it, whatever <linux/btf.h> the build sees.
 *
 * Written from that description, not from the kernel's kernel/bpf/btf.c
 * (whose functions are not exported to modules and change between
 * kernels).  Every read is bounds-checked: ld_btf_open() walks the whole
 * type section once, refusing a header, a section or a type that does not
 * fit (-EINVAL) or a version, a header field or a kind whose size it cannot
 * know (-EOPNOTSUPP), and keeps each type's offset; later reads go through
 * that index, and names through ld_btf_str(), which checks the offset (the
 * string section ends with a NUL: checked).  Nothing here is trusted from the bytes: a blob
 * built to loop (a typedef of itself) is stopped after LD_BTF_MAX_DEPTH.
 *
 * Layer: probes (used by logdev_probe_tp.c only); calls nothing of logdev.
 * Portable: built in userspace by tests/btf and tests/fuzz.
 */
#ifdef __KERNEL__
#include <linux/kernel.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <uapi/linux/btf.h>
#else
#include <linux/btf.h>
#endif
#include "logdev_btf.h"

#define LD_BTF_MAX_TYPES	0x000fffffU	/* ids above: refused (the kernel's BTF_MAX_TYPE) */
#define LD_BTF_TYPE_BYTES	12U		/* struct btf_type */

/*
 * The header, read by byte offset as this file's own layout (not
 * sizeof(struct btf_header), which is the size in whatever version of
 * <linux/btf.h> the build sees: 24 bytes up to 6.x, 32 in 7.x, while a 7.x
 * vmlinux still carries a 24-byte header).  The blob's hdr_len says how
 * long its header is, as the kernel's btf_parse_hdr() reads it: at least
 * the first 24 bytes; a field hdr_len does not cover wholly is absent
 * (the layout section's: none); the bytes past the fields this reader
 * knows must be 0 (else a newer header's field is set: refused).
 */
#define LD_BTF_H_MAGIC		0	/* u16: BTF_MAGIC in the blob's byte order */
#define LD_BTF_H_VERSION	2	/* u8: BTF_VERSION (1) */
#define LD_BTF_H_FLAGS		3	/* u8: none defined (the kernel refuses any) */
#define LD_BTF_H_HDR_LEN	4	/* u32: bytes of the header */
#define LD_BTF_H_TYPE_OFF	8	/* u32 offsets after the header, u32 lengths */
#define LD_BTF_H_TYPE_LEN	12
#define LD_BTF_H_STR_OFF	16
#define LD_BTF_H_STR_LEN	20
#define LD_BTF_H_MIN_LEN	24	/* the first header: up to str_len */
#define LD_BTF_H_LAYOUT_OFF	24	/* 7.x: the layout section */
#define LD_BTF_H_LAYOUT_LEN	28
#define LD_BTF_H_KNOWN_LEN	32	/* every field this reader knows */

/*
 * The layout section (7.x, optional): for each kind k from 0, 4 bytes at
 * 4 * k: u8 info_sz (bytes after the struct btf_type), u8 elem_sz (bytes
 * per vlen item), u16 flags (none defined).  It makes a kind newer than this
 * reader skippable: its size is 12 + info_sz + vlen * elem_sz.
 */
#define LD_BTF_LAYOUT_BYTES	4U

/* The bytes after the struct btf_type of each kind this reader knows. */
struct ld_btf_kind_size {
	u8 info;	/* once */
	u8 elem;	/* per vlen item */
};

static const struct ld_btf_kind_size ld_btf_known[] = {
	[BTF_KIND_INT]		= { 4, 0 },	/* u32 encoding, offset, bits */
	[BTF_KIND_PTR]		= { 0, 0 },
	[BTF_KIND_ARRAY]	= { sizeof(struct btf_array), 0 },
	[BTF_KIND_STRUCT]	= { 0, sizeof(struct btf_member) },
	[BTF_KIND_UNION]	= { 0, sizeof(struct btf_member) },
	[BTF_KIND_ENUM]		= { 0, sizeof(struct btf_enum) },
	[BTF_KIND_FWD]		= { 0, 0 },
	[BTF_KIND_TYPEDEF]	= { 0, 0 },
	[BTF_KIND_VOLATILE]	= { 0, 0 },
	[BTF_KIND_CONST]	= { 0, 0 },
	[BTF_KIND_RESTRICT]	= { 0, 0 },
	[BTF_KIND_FUNC]		= { 0, 0 },
	[BTF_KIND_FUNC_PROTO]	= { 0, sizeof(struct btf_param) },
	[BTF_KIND_VAR]		= { 4, 0 },	/* struct btf_var: u32 linkage */
	[BTF_KIND_DATASEC]	= { 0, sizeof(struct btf_var_secinfo) },
	[BTF_KIND_FLOAT]	= { 0, 0 },
	[BTF_KIND_DECL_TAG]	= { 4, 0 },	/* struct btf_decl_tag: s32 component_idx */
	[BTF_KIND_TYPE_TAG]	= { 0, 0 },
	[BTF_KIND_ENUM64]	= { 0, sizeof(struct btf_enum64) },
};

/* Kinds 1 .. LD_BTF_NKNOWN - 1 are known (0, BTF_KIND_UNKN, is no type). */
#define LD_BTF_NKNOWN	((u32)ARRAY_SIZE(ld_btf_known))

/* A little-endian-as-the-host u32 at @p, any alignment (the blob may be). */
static u32 ld_btf_get32(const u8 *p)
{
	u32 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static u16 ld_btf_get16(const u8 *p)
{
	u16 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/*
 * info: kind in bits 24-30, vlen in bits 0-23, kind_flag bit 31 (7.x's
 * widths; before, kind had bits 24-28 and vlen 0-15, and the kernel refused
 * the bits between set, so no valid older blob reads differently).
 */
static u32 ld_btf_kind(u32 info)
{
	return (info >> 24) & 0x7f;
}

static u32 ld_btf_vlen(u32 info)
{
	return info & 0xffffff;
}

static bool ld_btf_kflag(u32 info)
{
	return info >> 31;
}

/*
 * Bytes of the type at @pos of @b's type section: its struct btf_type and
 * what its kind adds (a kind newer than this reader's: as @b's layout
 * section says, if it has one for that kind, with no flags).  0 and *@err:
 * -EINVAL if it runs past the section, -EOPNOTSUPP for a kind whose size
 * is not known.
 */
static u32 ld_btf_type_len(const struct ld_btf *b, u32 pos, int *err)
{
	u32 info, kind, isz, esz;
	const u8 *l;
	u64 extra;

	if (b->types_len - pos < LD_BTF_TYPE_BYTES) {
		*err = -EINVAL;
		return 0;
	}
	info = ld_btf_get32(b->types + pos + 4);
	kind = ld_btf_kind(info);
	if (!kind || (kind >= LD_BTF_NKNOWN && kind >= b->layout_kinds)) {
		*err = -EOPNOTSUPP;	/* no type, or newer and not described */
		return 0;
	}
	if (kind < LD_BTF_NKNOWN) {
		isz = ld_btf_known[kind].info;
		esz = ld_btf_known[kind].elem;
	} else {
		l = b->layout + kind * LD_BTF_LAYOUT_BYTES;
		if (ld_btf_get16(l + 2)) {
			*err = -EOPNOTSUPP;	/* flags: sized otherwise */
			return 0;
		}
		isz = l[0];
		esz = l[1];
	}
	extra = isz + (u64)ld_btf_vlen(info) * esz;
	if (extra > b->types_len - pos - LD_BTF_TYPE_BYTES) {
		*err = -EINVAL;
		return 0;
	}
	return LD_BTF_TYPE_BYTES + (u32)extra;
}

/* [@off, @off + @len) inside the @rest bytes after the header, @off aligned to 4 if @align. */
static bool ld_btf_sec_ok(u32 off, u32 len, u32 rest, bool align)
{
	return off <= rest && len <= rest - off && !(align && off % 4);
}

/*
 * The layout section of a header of @hdr_len bytes at @d (@rest bytes after
 * it), if it has one: sets @b's layout and layout_kinds.  0; -EINVAL for a
 * section outside the blob, unaligned or not whole entries; -EOPNOTSUPP if
 * it describes a kind this reader knows otherwise than it knows it (or
 * with flags).
 */
static int ld_btf_layout(struct ld_btf *b, const u8 *d, u32 hdr_len, u32 rest)
{
	u32 off, len, k;

	if (hdr_len < LD_BTF_H_KNOWN_LEN)
		return 0;	/* no layout fields: none (and none needed) */
	off = ld_btf_get32(d + LD_BTF_H_LAYOUT_OFF);
	len = ld_btf_get32(d + LD_BTF_H_LAYOUT_LEN);
	if (!len)
		return 0;	/* none, as the kernel reads it (off then unused) */
	if (!ld_btf_sec_ok(off, len, rest, true) || len % LD_BTF_LAYOUT_BYTES)
		return -EINVAL;
	b->layout = d + hdr_len + off;
	b->layout_kinds = len / LD_BTF_LAYOUT_BYTES;
	for (k = 1; k < b->layout_kinds && k < LD_BTF_NKNOWN; k++) {
		const u8 *l = b->layout + k * LD_BTF_LAYOUT_BYTES;

		if (l[0] != ld_btf_known[k].info || l[1] != ld_btf_known[k].elem ||
		    ld_btf_get16(l + 2))
			return -EOPNOTSUPP;
	}
	return 0;
}

/*
 * Check the header of the @size bytes at @d and find the sections: sets
 * @b's types, strs, their lengths and the layout.  0, -EINVAL or
 * -EOPNOTSUPP as ld_btf_open().
 */
static int ld_btf_hdr(struct ld_btf *b, const u8 *d, size_t size)
{
	u32 hdr_len, known, rest, off, len, i;

	if (size < LD_BTF_H_MIN_LEN)
		return -EINVAL;
	if (ld_btf_get16(d + LD_BTF_H_MAGIC) == 0x9feb)
		return -EOPNOTSUPP;	/* the other byte order */
	if (ld_btf_get16(d + LD_BTF_H_MAGIC) != BTF_MAGIC)
		return -EINVAL;
	if (d[LD_BTF_H_VERSION] != BTF_VERSION || d[LD_BTF_H_FLAGS])
		return -EOPNOTSUPP;
	hdr_len = ld_btf_get32(d + LD_BTF_H_HDR_LEN);
	if (hdr_len < LD_BTF_H_MIN_LEN || hdr_len > size)
		return -EINVAL;
	/* a field counts if hdr_len covers all of it; past them, zeros only */
	known = hdr_len < LD_BTF_H_KNOWN_LEN ? LD_BTF_H_MIN_LEN : LD_BTF_H_KNOWN_LEN;
	for (i = known; i < hdr_len; i++)
		if (d[i])
			return -EOPNOTSUPP;	/* a newer header's fields */
	rest = size - hdr_len;
	off = ld_btf_get32(d + LD_BTF_H_TYPE_OFF);
	len = ld_btf_get32(d + LD_BTF_H_TYPE_LEN);
	if (!ld_btf_sec_ok(off, len, rest, true))
		return -EINVAL;
	b->types = d + hdr_len + off;
	b->types_len = len;
	off = ld_btf_get32(d + LD_BTF_H_STR_OFF);
	len = ld_btf_get32(d + LD_BTF_H_STR_LEN);
	if (!ld_btf_sec_ok(off, len, rest, false))
		return -EINVAL;
	b->strs = (const char *)d + hdr_len + off;
	b->str_len = len;
	if (!b->str_len || b->strs[b->str_len - 1])
		return -EINVAL;	/* names must end inside the section */
	return ld_btf_layout(b, d, hdr_len, rest);
}

/**
 * ld_btf_open() - check a BTF blob and index its types
 * @b:    filled; ld_btf_close() it after a success
 * @data: the blob (vmlinux's: __start_BTF; a module's: its btf_data); it
 *        must stay in place while @b is used
 * @size: its bytes
 * @base: for split BTF (a module's), the opened BTF it extends; else NULL
 *
 * The header may be of any length from the first one's 24 bytes (what
 * vmlinux's BTF has, on 7.x too) to 7.x's 32 (with a layout section) and
 * beyond if what follows is zeros, as the kernel accepts it.  A kind newer
 * than this reader's is skipped if the blob's layout section gives its
 * size.
 *
 * Return: 0; -EINVAL for a blob that is not BTF or does not hold together
 * (a header shorter than 24 bytes, a header or section past the end, no
 * NUL ending the strings, more than 2^20 types); -EOPNOTSUPP for another
 * version, flags, a header with fields this reader does not know set, a
 * type kind whose size it cannot know (newer, not in a layout section),
 * a layout section describing a known kind otherwise, or the other byte
 * order; -ENOMEM.
 */
int ld_btf_open(struct ld_btf *b, const void *data, size_t size,
		const struct ld_btf *base)
{
	u32 pos, i, n, len;
	int err = 0;

	memset(b, 0, sizeof(*b));
	if (!data || size > 0x7fffffffU)
		return -EINVAL;
	err = ld_btf_hdr(b, data, size);
	if (err)
		return err;
	b->base = base;
	if (base) {
		b->start_id = base->start_id + base->nr;
		if (base->start_str > 0x7fffffffU - base->str_len)
			return -EINVAL;
		b->start_str = base->start_str + base->str_len;
	} else {
		if (b->strs[0])
			return -EINVAL;	/* offset 0 is the empty name */
		b->start_id = 1;
	}
	for (pos = 0, n = 0; pos < b->types_len; pos += len, n++) {
		len = ld_btf_type_len(b, pos, &err);
		if (!len)
			return err;
		if (n >= LD_BTF_MAX_TYPES - b->start_id)
			return -EINVAL;
	}
	b->offs = kvcalloc(n ? n : 1, sizeof(*b->offs), GFP_KERNEL);
	if (!b->offs)
		return -ENOMEM;
	for (pos = 0, i = 0; i < n; i++) {
		b->offs[i] = pos;
		pos += ld_btf_type_len(b, pos, &err);
	}
	b->nr = n;
	return 0;
}

/**
 * ld_btf_close() - free what ld_btf_open() allocated
 * @b: opened (or zeroed, or after a failed ld_btf_open())
 */
void ld_btf_close(struct ld_btf *b)
{
	kvfree(b->offs);
	b->offs = NULL;
	b->nr = 0;
}

/**
 * ld_btf_str() - the name at string offset @off
 * @b:   opened BTF (a split one looks up its base's offsets there)
 * @off: a name_off of a type or parameter
 *
 * Return: the NUL-terminated name, or NULL if @off is outside the strings.
 */
const char *ld_btf_str(const struct ld_btf *b, u32 off)
{
	if (off < b->start_str)
		return b->base ? ld_btf_str(b->base, off) : NULL;
	off -= b->start_str;
	return off < b->str_len ? b->strs + off : NULL;
}

/**
 * ld_btf_type() - the type of id @id
 * @b:         opened BTF (ids below its start_id are its base's)
 * @id:        type id, 1 and up
 * @info:      its btf_type.info (kind, vlen, kind_flag)
 * @size_type: its btf_type.size / .type (by kind)
 * @extra:     if not NULL: its kind's bytes after the struct btf_type, all
 *             inside the type section (checked by ld_btf_open())
 *
 * Return: 0; -ENOENT for 0 (void); -EINVAL for an id no type has.
 */
int ld_btf_type(const struct ld_btf *b, u32 id, u32 *info, u32 *size_type,
		const u8 **extra)
{
	const u8 *t;

	if (!id)
		return -ENOENT;
	if (id < b->start_id)
		return b->base ? ld_btf_type(b->base, id, info, size_type, extra) :
				 -EINVAL;
	id -= b->start_id;
	if (id >= b->nr)
		return -EINVAL;
	t = b->types + b->offs[id];
	*info = ld_btf_get32(t + 4);
	*size_type = ld_btf_get32(t + 8);
	if (extra)
		*extra = t + LD_BTF_TYPE_BYTES;
	return 0;
}

/**
 * ld_btf_find_func() - the id of the function named @name
 * @b:    opened BTF; only its own types are searched (not its base's)
 * @name: a function's name (BTF_KIND_FUNC)
 * @id:   its type id
 *
 * Return: 0, or -ENOENT if @b has no function of that name.
 */
int ld_btf_find_func(const struct ld_btf *b, const char *name, u32 *id)
{
	u32 i, info;
	const char *s;

	for (i = 0; i < b->nr; i++) {
		const u8 *t = b->types + b->offs[i];

		info = ld_btf_get32(t + 4);
		if (ld_btf_kind(info) != BTF_KIND_FUNC)
			continue;
		s = ld_btf_str(b, ld_btf_get32(t));
		if (s && !strcmp(s, name)) {
			*id = b->start_id + i;
			return 0;
		}
	}
	return -ENOENT;
}

/* Copy @s to @dst (LD_BTF_NAME_LEN bytes); true if it was cut. */
static bool ld_btf_name_copy(char *dst, const char *s)
{
	size_t n = strlen(s);

	if (n >= LD_BTF_NAME_LEN) {
		memcpy(dst, s, LD_BTF_NAME_LEN - 1);
		dst[LD_BTF_NAME_LEN - 1] = '\0';
		return true;
	}
	memcpy(dst, s, n + 1);
	return false;
}

/*
 * What the type @id is, through typedef/const/volatile/restrict/type_tag
 * (at most LD_BTF_MAX_DEPTH of them): fills @p's kind, is_signed, size and
 * type_name (the outermost typedef's name if the type itself has none).
 * 0 or -EINVAL (an id no type has, a loop, a name outside the strings).
 */
static int ld_btf_resolve(const struct ld_btf *b, u32 id, struct ld_btf_param *p)
{
	const char *s, *alias = NULL;	/* the outermost typedef's name */
	u32 depth, info, st;
	const u8 *extra;
	int ret;

	for (depth = 0; depth <= LD_BTF_MAX_DEPTH; depth++) {
		ret = ld_btf_type(b, id, &info, &st, &extra);
		if (ret == -ENOENT) {
			p->kind = LD_BTF_OTHER;	/* void */
			return 0;
		}
		if (ret)
			return ret;
		if (ld_btf_kind(info) == BTF_KIND_TYPEDEF && !alias) {
			alias = ld_btf_str(b, ld_btf_get32(extra - LD_BTF_TYPE_BYTES));
			if (!alias)
				return -EINVAL;
		}
		switch (ld_btf_kind(info)) {
		case BTF_KIND_TYPEDEF:
		case BTF_KIND_VOLATILE:
		case BTF_KIND_CONST:
		case BTF_KIND_RESTRICT:
		case BTF_KIND_TYPE_TAG:
			id = st;
			continue;
		default:
			break;
		}
		s = ld_btf_str(b, ld_btf_get32(extra - LD_BTF_TYPE_BYTES));
		if (!s)
			return -EINVAL;
		/* an anonymous struct or enum is known by its typedef (pte_t) */
		ld_btf_name_copy(p->type_name, *s || !alias ? s : alias);
		p->size = st;
		switch (ld_btf_kind(info)) {
		case BTF_KIND_INT: {
			u32 enc = (ld_btf_get32(extra) >> 24) & 0x0f;

			p->kind = LD_BTF_INT;
			p->is_signed = (enc & BTF_INT_SIGNED) && !(enc & BTF_INT_BOOL);
			break;
		}
		case BTF_KIND_ENUM:
		case BTF_KIND_ENUM64:
			p->kind = LD_BTF_INT;
			p->is_signed = ld_btf_kflag(info);
			break;
		case BTF_KIND_PTR:
			p->kind = LD_BTF_PTR;
			p->size = sizeof(unsigned long);
			break;
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
			p->kind = LD_BTF_AGGR;
			break;
		case BTF_KIND_FLOAT:
			p->kind = LD_BTF_FLOAT;
			break;
		default:
			p->kind = LD_BTF_OTHER;
			p->size = 0;
			break;
		}
		return 0;
	}
	return -EINVAL;	/* a loop of typedefs, or absurdly deep */
}

/**
 * ld_btf_func_params_id() - the parameters of the function of type id @id
 * @b:   opened BTF
 * @id:  a BTF_KIND_FUNC's id (whose type is a FUNC_PROTO)
 * @out: the first @max parameters, in order: name and resolved type
 * @max: entries of @out
 * @n:   how many parameters the function has (may be more than @max)
 *
 * Return: 0; -EINVAL if @id is not a function or its BTF does not hold
 * together (its type is not a prototype, a parameter's type id or name is
 * outside the blob, a loop of typedefs).
 */
int ld_btf_func_params_id(const struct ld_btf *b, u32 id,
			  struct ld_btf_param *out, u32 max, u32 *n)
{
	u32 info, proto, vlen, i;
	const u8 *extra;
	int ret;

	ret = ld_btf_type(b, id, &info, &proto, NULL);
	if (ret || ld_btf_kind(info) != BTF_KIND_FUNC)
		return -EINVAL;
	ret = ld_btf_type(b, proto, &info, &id, &extra);
	if (ret || ld_btf_kind(info) != BTF_KIND_FUNC_PROTO)
		return -EINVAL;
	vlen = ld_btf_vlen(info);
	*n = vlen;
	for (i = 0; i < vlen && i < max; i++) {
		const u8 *prm = extra + i * sizeof(struct btf_param);
		u32 type = ld_btf_get32(prm + 4);
		const char *s = ld_btf_str(b, ld_btf_get32(prm));

		memset(&out[i], 0, sizeof(out[i]));
		if (!s)
			return -EINVAL;
		out[i].name_long = ld_btf_name_copy(out[i].name, s);
		if (!type && i == vlen - 1 && !*s) {
			out[i].kind = LD_BTF_VARARGS;
			continue;
		}
		ret = ld_btf_resolve(b, type, &out[i]);
		if (ret)
			return ret;
	}
	return 0;
}

/**
 * ld_btf_func_params() - the parameters of the function named @func
 * @b:    opened BTF (@func is looked for in its own types)
 * @func: the function's name (BTF_KIND_FUNC, whose type is a FUNC_PROTO)
 * @out:  the first @max parameters, in order: name and resolved type
 * @max:  entries of @out
 * @n:    how many parameters the function has (may be more than @max)
 *
 * Return: 0; -ENOENT if @b has no function @func; -EINVAL as
 * ld_btf_func_params_id().
 */
int ld_btf_func_params(const struct ld_btf *b, const char *func,
		       struct ld_btf_param *out, u32 max, u32 *n)
{
	u32 id;
	int ret = ld_btf_find_func(b, func, &id);

	return ret ? ret : ld_btf_func_params_id(b, id, out, max, n);
}
