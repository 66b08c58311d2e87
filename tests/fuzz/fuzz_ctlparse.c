// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_ctlparse.c - libFuzzer target: the control-value parsers of the
 * module (kernel/logdev_parse.c, built unchanged in userspace through
 * logdev_shim.h and kshim/ldk_parse.h): every ld_parse_*() and
 * ld_size_kb_subbufs(), as the debugfs files enable, mode, clock,
 * buffer_size_kb and subbuf_size and the module parameters of the same
 * names call them.
 *
 * Input: the word, as written (copied into a NUL-terminated buffer of its
 * exact size; the input is cut at its first NUL, as a C string is).  Checks
 * beyond the sanitizers, for every parser: a refusal is -EINVAL and leaves
 * the output untouched; an acceptance is exactly what the parser's comment
 * promises (digits only, value equal to an independent reading, ranges,
 * powers of two, a name compared exactly).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "logdev_parse.h"

#define POISON 0x5a5a5a5a5a5a5a5aULL

/* the value of an all-digit word, or -1 past UINT64_MAX (not the kernel's code) */
static int ref_u64(const char *s, u64 *v)
{
	unsigned __int128 x = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		x = x * 10 + (unsigned)(*s - '0');
		if (x > UINT64_MAX)
			return -1;
	}
	*v = (u64)x;
	return 0;
}

static const char * const names[] = { "overwrite", "discard", "local", "global", "mono" };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t n = strnlen((const char *)data, size);
	char *w = malloc(n + 1);
	u64 v = POISON, ref = 0, kb = POISON;
	u32 sz = 0x5a5a5a5a, nr = 0x5a5a5a5a;
	bool on = true;
	int r, good, good1;

	if (!w)
		abort();
	memcpy(w, data, n);
	w[n] = '\0';
	good = ref_u64(w, &ref) == 0;

	r = ld_parse_u64(w, &v);
	if (r ? (r != -EINVAL || v != POISON || good) : (!good || v != ref))
		abort();

	/* a switch: the one character 0 or 1, no leading zeros */
	on = true;
	r = ld_parse_enable(w, &on);
	good1 = !strcmp(w, "0") || !strcmp(w, "1");
	if (r ? (r != -EINVAL || !on || good1) : (!good1 || on != (w[0] == '1')))
		abort();

	r = ld_parse_subbuf_size(w, &sz);
	if (r ? (r != -EINVAL || sz != 0x5a5a5a5a ||
		 (good && ref >= LD_SUBBUF_MIN && ref <= LD_SUBBUF_MAX && !(ref & (ref - 1))))
	      : (!good || sz != ref || sz < LD_SUBBUF_MIN || sz > LD_SUBBUF_MAX || (sz & (sz - 1))))
		abort();

	r = ld_parse_size_kb(w, &kb);
	if (r ? (r != -EINVAL || kb != POISON || (good && ref >= 1 && ref <= LD_BUF_KB_MAX))
	      : (!good || kb != ref || !kb || kb > LD_BUF_KB_MAX))
		abort();

	r = ld_parse_name(w, names, (int)(sizeof(names) / sizeof(names[0])));
	if (r >= 0 ? strcmp(w, names[r]) != 0 : r != -EINVAL)
		abort();
	if (r < 0)
		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (!strcmp(w, names[i]))
				abort();

	/* every sub-buffer size with the number as KiB, as buffer_size_kb does */
	if (good)
		for (u32 s = 256; s <= 2 * LD_SUBBUF_MAX; s <<= 1) {
			nr = 0x5a5a5a5a;
			r = ld_size_kb_subbufs(ref, s, &nr);
			if (r ? (r != -EINVAL || nr != 0x5a5a5a5a)
			      : (s < 1024 || ref > LD_BUF_KB_MAX || nr < 2 ||
				 (u64)nr * (s / 1024) != ref))
				abort();
		}
	free(w);
	return 0;
}
