// SPDX-License-Identifier: GPL-2.0
/*
 * logdev_btf.c - a small BTF reader: a function's parameters by name, with
 * their types (logdev_btf.h).  The format is the kernel's uapi
 * include/uapi/linux/btf.h and Documentation/bpf/btf.rst: a header
 * (magic 0xeB9F, version 1, the offsets and lengths of a type section and
 * a string section after the header), then types one after the other,
 * each a struct btf_type (12 bytes) and kind-specific bytes; type ids
 * count from 1 in that order (0 is void); names are offsets into the
 * string section.  A module's BTF is "split": its ids and string offsets
 * continue after those of vmlinux's BTF (its base).
 *
 * Written from that description, not from the kernel's kernel/bpf/btf.c
 * (whose functions are not exported to modules and change between
 * kernels).  Every read is bounds-checked: ld_btf_open() walks the whole
 * type section once, refusing a header, a section or a type that does not
 * fit (-EINVAL) or a version or kind it does not know (-EOPNOTSUPP), and
 * keeps each type's offset; later reads go through that index, and names
 * through ld_btf_str(), which checks the offset (the string section ends
 * with a NUL: checked).  Nothing here is trusted from the bytes: a blob
 * built to loop (a typedef of itself) is stopped after LD_BTF_MAX_DEPTH.
 *
 * Layer: feature (used by logdev_probes.c only); calls nothing of logdev.
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

#define LD_BTF_MAX_TYPES	0x000fffffU	/* ids above are refused (the kernel's BTF_MAX_TYPE) */
#define LD_BTF_TYPE_BYTES	12U		/* struct btf_type */

/* A little-endian-as-the-host u32 at @p, any alignment (the blob may be). */
static u32 ld_btf_get32(const u8 *p)
{
	u32 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static u32 ld_btf_kind(u32 info)
{
	return (info >> 24) & 0x1f;
}

static u32 ld_btf_vlen(u32 info)
{
	return info & 0xffff;
}

static bool ld_btf_kflag(u32 info)
{
	return info >> 31;
}

/*
 * Bytes of the type at @pos of @types (@len bytes): its struct btf_type and
 * what its kind adds.  0 and *@err: -EINVAL if it runs past the section,
 * -EOPNOTSUPP for a kind this reader does not know.
 */
static u32 ld_btf_type_len(const u8 *types, u32 len, u32 pos, int *err)
{
	u32 info, vlen;
	u64 extra;

	if (len - pos < LD_BTF_TYPE_BYTES) {
		*err = -EINVAL;
		return 0;
	}
	info = ld_btf_get32(types + pos + 4);
	vlen = ld_btf_vlen(info);
	switch (ld_btf_kind(info)) {
	case BTF_KIND_INT:
	case BTF_KIND_VAR:
	case BTF_KIND_DECL_TAG:
		extra = 4;
		break;
	case BTF_KIND_PTR:
	case BTF_KIND_FWD:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_FUNC:
	case BTF_KIND_FLOAT:
	case BTF_KIND_TYPE_TAG:
		extra = 0;
		break;
	case BTF_KIND_ARRAY:
		extra = sizeof(struct btf_array);
		break;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		extra = (u64)vlen * sizeof(struct btf_member);
		break;
	case BTF_KIND_ENUM:
		extra = (u64)vlen * sizeof(struct btf_enum);
		break;
	case BTF_KIND_FUNC_PROTO:
		extra = (u64)vlen * sizeof(struct btf_param);
		break;
	case BTF_KIND_DATASEC:
		extra = (u64)vlen * sizeof(struct btf_var_secinfo);
		break;
	case BTF_KIND_ENUM64:
		extra = (u64)vlen * sizeof(struct btf_enum64);
		break;
	default:
		*err = -EOPNOTSUPP;
		return 0;
	}
	if (extra > len - pos - LD_BTF_TYPE_BYTES) {
		*err = -EINVAL;
		return 0;
	}
	return LD_BTF_TYPE_BYTES + (u32)extra;
}

/**
 * ld_btf_open() - check a BTF blob and index its types
 * @b:    filled; ld_btf_close() it after a success
 * @data: the blob (vmlinux's: __start_BTF; a module's: its btf_data); it
 *        must stay in place while @b is used
 * @size: its bytes
 * @base: for split BTF (a module's), the opened BTF it extends; else NULL
 *
 * Return: 0; -EINVAL for a blob that is not BTF or does not hold together
 * (a section or a type past the end, no NUL ending the strings, more than
 * 2^20 types); -EOPNOTSUPP for another version, a header with fields this
 * reader does not know set, a type kind it does not know, or the other
 * byte order; -ENOMEM.
 */
int ld_btf_open(struct ld_btf *b, const void *data, size_t size,
		const struct ld_btf *base)
{
	struct btf_header h;
	const u8 *d = data;
	u32 pos, i, n, rest, len;
	int err = 0;

	memset(b, 0, sizeof(*b));
	if (!data || size < sizeof(h) || size > 0x7fffffffU)
		return -EINVAL;
	memcpy(&h, d, sizeof(h));
	if (h.magic == 0x9feb)
		return -EOPNOTSUPP;	/* the other byte order */
	if (h.magic != BTF_MAGIC)
		return -EINVAL;
	if (h.version != BTF_VERSION)
		return -EOPNOTSUPP;
	if (h.hdr_len < sizeof(h) || h.hdr_len > size)
		return -EINVAL;
	for (i = sizeof(h); i < h.hdr_len; i++)
		if (d[i])
			return -EOPNOTSUPP;	/* a newer header's fields */
	rest = size - h.hdr_len;
	if (h.type_off > rest || h.type_len > rest - h.type_off ||
	    h.str_off > rest || h.str_len > rest - h.str_off || h.type_off % 4)
		return -EINVAL;
	b->types = d + h.hdr_len + h.type_off;
	b->types_len = h.type_len;
	b->strs = (const char *)d + h.hdr_len + h.str_off;
	b->str_len = h.str_len;
	if (!b->str_len || b->strs[b->str_len - 1])
		return -EINVAL;	/* names must end inside the section */
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
		len = ld_btf_type_len(b->types, b->types_len, pos, &err);
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
		pos += ld_btf_type_len(b->types, b->types_len, pos, &err);
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
 * type_name (the outermost typedef's name if the type itself has none).  0 or -EINVAL (an id no type has, a loop, a name outside the
 * strings).
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
