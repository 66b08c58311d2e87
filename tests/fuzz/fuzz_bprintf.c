// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_bprintf.c - libFuzzer target: the binary printf renderer (bprintf.c),
 * a format and the argument bytes of a record, in both payload encodings
 * (vbin_printf()'s, LOGDEV_REC_PRINT; and edprint()'s slots,
 * LOGDEV_REC_PRINT_SLOTS), with and without the cut flag, with and without
 * a symbol table (%pS).
 *
 * Input: byte 0: bit 0 slots, bit 1 cut, bit 2 symbols; byte 1: output
 * buffer size (0..255: truncation); then the format up to the first NUL
 * (the whole rest if none), then the argument bytes.  The format and the
 * arguments are copied to buffers of their exact size so that ASan sees
 * any read past either.  Checks: the output is NUL-terminated inside its
 * buffer and the returned length is at least what was written.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "liblogdev.h"

static const char ksyms_text[] =
	"ffffffff81000000 T _stext\n"
	"ffffffff81000100 T do_one\n"
	"ffffffff81000200 t helper\n"
	"ffffffff81100000 T _etext\n"
	"ffffffffc0000000 t mod_fn\t[mymod]\n"
	"ffffffffc0000080 t mod_fn2\t[mymod]\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct lgd_ksyms ks;
	static int ks_ready;
	unsigned int flags = 0, status;
	struct lgd_bp_args a;
	int kinds[LGD_BP_MAX_ARGS];
	const uint8_t *nul;
	char *fmt, *out;
	uint8_t *args;
	size_t flen, nargs, osize;
	int len;

	if (!ks_ready) {
		if (lgd_ksyms_parse(&ks, ksyms_text, sizeof(ksyms_text) - 1) < 0)
			abort();
		ks_ready = 1;
	}
	if (size < 2)
		return 0;
	if (data[0] & 1)
		flags |= LGD_BP_SLOTS;
	if (data[0] & 2)
		flags |= LGD_BP_CUT;
	osize = data[1];
	data += 2;
	size -= 2;
	nul = memchr(data, 0, size);
	flen = nul ? (size_t)(nul - data) : size;
	nargs = nul ? size - flen - 1 : 0;
	fmt = malloc(flen + 1);
	args = malloc(nargs ? nargs : 1);
	out = malloc(osize ? osize : 1);
	if (!fmt || !args || !out)
		abort();
	memcpy(fmt, data, flen);
	fmt[flen] = '\0';
	if (nargs)
		memcpy(args, nul + 1, nargs);

	len = lgd_bprintf_rec_status(out, osize, fmt, args, nargs,
				     (data[-2] & 4) ? &ks : NULL, 1000, flags, &status);
	if (len < 0)
		abort();
	if (osize && (memchr(out, 0, osize) == NULL || (size_t)len < strlen(out)))
		abort();
	(void)lgd_bprintf_args(fmt, args, nargs, flags, &a);
	if (a.nr > LGD_BP_MAX_ARGS)
		abort();
	for (unsigned int i = 0; i < a.nr; i++)
		if (a.kind[i] == LGD_ARG_STR && a.len[i] &&
		    ((const uint8_t *)a.str[i] < args ||
		     (const uint8_t *)a.str[i] + a.len[i] > args + nargs))
			abort();
	if ((unsigned int)lgd_fmt_arg_kinds(fmt, kinds, LGD_BP_MAX_ARGS) > LGD_BP_MAX_ARGS)
		abort();
	free(fmt);
	free(args);
	free(out);
	return 0;
}
