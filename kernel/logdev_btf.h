/* SPDX-License-Identifier: GPL-2.0 */
/*
 * logdev_btf.h - a small reader of the kernel's BTF (BPF Type Format,
 * include/uapi/linux/btf.h): enough to name a function's parameters and
 * their types (logdev_btf.c).  Used by logdev_probe_tp.c for a tracepoint's
 * arguments by name (the parameters of __bpf_trace_<class>).
 *
 * Layer: probes (beside logdev_probe_tp.c, its one user); calls nothing of
 * logdev.  Portable: built unchanged in userspace by tests/btf (unit test)
 * and tests/fuzz (fuzz_btf; its struct in fuzz_probespec); there the includer provides
 * u8, u16, u32, s32, kvcalloc() and kvfree() first (tests/fuzz/kshim/ldk_btf.h).
 */
#ifndef _LOGDEV_BTF_H
#define _LOGDEV_BTF_H

#ifdef __KERNEL__
#include <linux/types.h>
#endif

#define LD_BTF_NAME_LEN		32	/* bytes of a parameter name kept, NUL included */
#define LD_BTF_MAX_DEPTH	32	/* typedef/const/volatile/... followed at most */

/**
 * struct ld_btf - one BTF blob, checked and indexed by ld_btf_open()
 * @types:     the type section (bytes)
 * @types_len: its length in bytes
 * @strs:      the string section (its last byte is a NUL: checked)
 * @str_len:   its length in bytes
 * @offs:      byte offset in @types of each of its types, by id - @start_id
 * @nr:        types in this blob
 * @start_id:  id of its first type: 1 (void is 0), or for split BTF (a
 *             module's) the base's start_id + nr: ids continue
 * @start_str: offset of its first string: 0, or the base's start_str +
 *             str_len (split BTF's string offsets continue too)
 * @base:      the BTF this one extends (vmlinux's for a module), or NULL
 * @layout:    the layout section (7.x: 4 bytes per kind, the sizes of a
 *             kind newer than this reader's), or NULL
 * @layout_kinds: kinds it describes (0 without one)
 */
struct ld_btf {
	const u8 *types;
	u32 types_len;
	const char *strs;
	u32 str_len;
	u32 *offs;
	u32 nr;
	u32 start_id;
	u32 start_str;
	const struct ld_btf *base;
	const u8 *layout;
	u32 layout_kinds;
};

/* What a parameter's type is, after typedef/const/volatile/restrict/type_tag. */
enum ld_btf_kind {
	LD_BTF_INT,	/* integer (bool: @size 1, unsigned), or enum */
	LD_BTF_PTR,	/* pointer: 8 bytes on 64-bit */
	LD_BTF_AGGR,	/* struct or union by value */
	LD_BTF_FLOAT,	/* float, double */
	LD_BTF_VARARGS,	/* "..." (type 0 as the last parameter) */
	LD_BTF_OTHER,	/* anything else (array, function, forward, void) */
};

/**
 * struct ld_btf_param - one parameter of a function, as ld_btf_func_params()
 * finds it
 * @name:      its name ("" if none), cut to LD_BTF_NAME_LEN - 1 bytes
 * @name_long: the name did not fit @name
 * @kind:      enum ld_btf_kind
 * @is_signed: LD_BTF_INT: signed (an enum: its BTF kind_flag)
 * @size:      bytes of the value (LD_BTF_INT, LD_BTF_PTR: 1, 2, 4, 8 or 16;
 *             others: as BTF says, or 0)
 * @type_name: the name of the type it resolved to ("" if anonymous), for
 *             messages: "struct task_struct" is "task_struct"
 */
struct ld_btf_param {
	char name[LD_BTF_NAME_LEN];
	bool name_long;
	u8 kind;
	bool is_signed;
	u32 size;
	char type_name[LD_BTF_NAME_LEN];
};

int ld_btf_open(struct ld_btf *b, const void *data, size_t size,
		const struct ld_btf *base);
void ld_btf_close(struct ld_btf *b);
const char *ld_btf_str(const struct ld_btf *b, u32 off);
int ld_btf_type(const struct ld_btf *b, u32 id, u32 *info, u32 *size_type,
		const u8 **extra);
int ld_btf_find_func(const struct ld_btf *b, const char *name, u32 *id);
int ld_btf_func_params_id(const struct ld_btf *b, u32 id,
			  struct ld_btf_param *out, u32 max, u32 *n);
int ld_btf_func_params(const struct ld_btf *b, const char *func,
		       struct ld_btf_param *out, u32 max, u32 *n);

#endif /* _LOGDEV_BTF_H */
