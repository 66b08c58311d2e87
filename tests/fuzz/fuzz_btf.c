// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_btf.c - libFuzzer target: kernel/logdev_btf.c, the BTF reader of
 * tracepoint arguments by name, unchanged (types from kshim/ldk_btf.h).
 *
 * Input: byte 0 even: the rest is one BTF blob (vmlinux's); odd: a u32 (the
 * base's size), the base blob, then a split blob on top of it (a module's).
 * Each blob is copied to a buffer of its exact size (ASan sees a read past
 * it).  The last opened blob's functions (the first 64) are looked up by
 * name with ld_btf_func_params() for 0..12 parameters (byte 0 / 2 picks
 * how many), and a few string offsets are read.
 * Checks beyond the sanitizers: ld_btf_open() returns 0, -EINVAL,
 * -EOPNOTSUPP (or -ENOMEM); a lookup 0, -EINVAL or -ENOENT; a found
 * function's parameters have NUL-terminated names and type names and a
 * known kind (sizes are passed on as BTF says them: logdev_probe_tp.c
 * refuses the ones it cannot record).
 * Seeds: corpus/btf, written by tests/btf (make -C tests/btf corpus).
 */
#include "logdev_btf.c"
#include <stdio.h>

static void check_params(const struct ld_btf *b, u32 max)
{
	struct ld_btf_param p[12];
	u32 i, info, st, n, found = 0;

	for (i = 0; i < b->nr && found < 64; i++) {
		const char *name;
		int ret;

		if (ld_btf_type(b, b->start_id + i, &info, &st, NULL))
			abort();	/* every id of the blob is a type */
		if (ld_btf_kind(info) != BTF_KIND_FUNC)
			continue;
		found++;
		ret = ld_btf_func_params_id(b, b->start_id + i, p, max, &n);
		if (ret && ret != -EINVAL)
			abort();
		name = ld_btf_str(b, ld_btf_get32(b->types + b->offs[i]));
		if (!name)
			continue;
		ret = ld_btf_func_params(b, name, p, max, &n);
		if (ret && ret != -EINVAL && ret != -ENOENT)
			abort();
		if (ret)
			continue;
		for (u32 k = 0; k < n && k < max; k++)
			if (strnlen(p[k].name, sizeof(p[k].name)) == sizeof(p[k].name) ||
			    strnlen(p[k].type_name, sizeof(p[k].type_name)) ==
			    sizeof(p[k].type_name) || p[k].kind > LD_BTF_OTHER)
				abort();
	}
	for (i = 0; i < 8; i++) {
		const char *s = ld_btf_str(b, b->start_str + i * 7);

		if (s)
			(void)strlen(s);
	}
}

static int open_checked(struct ld_btf *b, const uint8_t *d, size_t n,
			const struct ld_btf *base, uint8_t **copy)
{
	int ret;

	*copy = malloc(n ? n : 1);
	if (!*copy)
		abort();
	memcpy(*copy, d, n);
	ret = ld_btf_open(b, *copy, n, base);
	if (ret && ret != -EINVAL && ret != -EOPNOTSUPP && ret != -ENOMEM)
		abort();
	return ret;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ld_btf base, split;
	uint8_t *c1 = NULL, *c2 = NULL;
	u32 bsize, max;

	if (!size)
		return 0;
	max = (data[0] >> 1) % 13;
	if (!(data[0] & 1)) {
		if (!open_checked(&base, data + 1, size - 1, NULL, &c1))
			check_params(&base, max);
		ld_btf_close(&base);
		free(c1);
		return 0;
	}
	if (size < 5)
		return 0;
	memcpy(&bsize, data + 1, 4);
	if (bsize > size - 5)
		return 0;
	if (!open_checked(&base, data + 5, bsize, NULL, &c1)) {
		if (!open_checked(&split, data + 5 + bsize, size - 5 - bsize, &base, &c2))
			check_params(&split, max);
		ld_btf_close(&split);
		free(c2);
	}
	ld_btf_close(&base);
	free(c1);
	return 0;
}
