// SPDX-License-Identifier: GPL-2.0
/*
 * test_symbols.c: golden tests for %pS/%ps against the symbols valid when
 * a record was taken (capture sections KALLSYMS and MODLOG, docs/FORMAT.md).
 *
 * One capture: a KALLSYMS snapshot (vmlinux, per-CPU symbols at 0, module
 * "early" loaded before logdev) and a MODLOG: "early" unloaded at 2000,
 * "moda" loaded at 3000 (init done at 3100), unloaded at 4000, "modb"
 * loaded at 5000 at the same address.  Records at chosen times print %pS or
 * %ps of chosen addresses; `logdev report --raw` must print exactly what
 * the kernel printed then (rules of kernel/kallsyms.c and
 * kernel/module/kallsyms.c, Linux 6.1, CONFIG_KALLSYMS_ALL):
 *   - an address in vmlinux [_stext, _end): the last vmlinux symbol at or
 *     below it, size to the next vmlinux symbol;
 *   - an address in a module loaded at that time (its core layout, or its
 *     init layout before init finished): the last symbol of that module,
 *     size to the next symbol of the module or the end of its text;
 *   - anything else (NULL, per-CPU offsets, freed or unused addresses, a
 *     heap address above a module's per-CPU symbol): "0x" and the hex value.
 * Also: a capture without MODLOG (older recorders) still names what its
 * KALLSYMS snapshot can tell exactly, and prints hex where it cannot (the
 * end of a module's text is unknown there).
 * Usage: test_symbols PATH-TO-logdev
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "liblogdev.h"
#include "capture.h"
#include "testlib.h"

char tmpdir[] = "/tmp/logdev-symbols-XXXXXX";

#ifndef LGD_SECT_MODLOG
#define LGD_SECT_MODLOG 7	/* what a reader without it skips */
#endif

static const char formats[] =
	"1\tt.c\t1\tsym\t%pS\n"
	"2\tt.c\t2\tsym_noff\t%ps\n";

static const char kallsyms[] =
	"0000000000000000 A fixed_percpu_data\n"
	"0000000000001000 A cpu_number\n"
	"ffffffff81000000 T _stext\n"
	"ffffffff81000000 T startup_64\n"
	"ffffffff81000100 T vm_func\n"
	"ffffffff81000100 T vm_func_alias\n"
	"ffffffff81000200 T _etext\n"
	"ffffffff81800000 D jiffies_64\n"
	"ffffffff81800008 D other_data\n"
	"ffffffff82000000 B _end\n"
	"0000000000034000 d early_pcpu\t[early]\n"
	"ffffffffc0000000 t early_fn\t[early]\n"
	"ffffffffc0000040 t early_fn2\t[early]\n";

static const char modlog[] =
	"# logdev module log\n"
	"unload 2000 early core=ffffffffc0000000+100/1000\n"
	"ffffffffc0000000 t early_fn\t[early]\n"
	"ffffffffc0000040 t early_fn2\t[early]\n"
	"load 3000 moda core=ffffffffc0000000+200/2000 init=ffffffffc0010000+80/1000\n"
	"ffffffffc0000000 t moda_fn\t[moda]\n"
	"ffffffffc0000100 t moda_fn2\t[moda]\n"
	"ffffffffc0001000 d moda_data\t[moda]\n"
	"ffffffffc0010000 t moda_init\t[moda]\n"
	"live 3100 moda\n"
	"unload 4000 moda\n"
	"load 5000 modb core=ffffffffc0000000+300/2000 init=0+0/0\n"
	"ffffffffc0000000 t modb_fn\t[modb]\n"
	"ffffffffc0000080 T modb_fn2\t[modb]\n"
	"live 5001 modb\n";

struct rec {
	uint64_t ts;
	uint32_t site;
	uint64_t addr;
	const char *exp;
	const char *exp_nolog;	/* without MODLOG; NULL: not checked */
};

static const struct rec recs[] = {
	{ 1000, 1, 0, "0x0", "0x0" },
	{ 1001, 2, 0, "0x0", "0x0" },
	{ 1002, 1, 0x1000, "0x1000", "0x1000" },
	{ 1003, 1, 0xffffffff81000110ull, "vm_func+0x10/0x100", "vm_func+0x10/0x100" },
	{ 1004, 2, 0xffffffff81000000ull, "_stext", "_stext" },
	{ 1005, 1, 0xffffffff81800000ull, "jiffies_64+0x0/0x8", "jiffies_64+0x0/0x8" },
	{ 1006, 1, 0xffffffff81800010ull, "other_data+0x8/0x7ffff8", "other_data+0x8/0x7ffff8" },
	{ 1007, 1, 0xffffffff82001000ull, "0xffffffff82001000", "0xffffffff82001000" },
	{ 1008, 1, 0xffffffffc0000050ull, "early_fn2+0x10/0xc0 [early]",
	  "0xffffffffc0000050" },
	/* a heap address: no module's, though "early" has a per-CPU symbol
	 * (at its offset, 0x34000) below it and text above */
	{ 1009, 1, 0xffff8edf0348c000ull, "0xffff8edf0348c000", "0xffff8edf0348c000" },
	{ 2500, 1, 0xffffffffc0000050ull, "0xffffffffc0000050", NULL },
	{ 3050, 1, 0xffffffffc0010010ull, "moda_init+0x10/0x80 [moda]", NULL },
	{ 3200, 1, 0xffffffffc0010010ull, "0xffffffffc0010010", NULL },
	{ 3201, 1, 0xffffffffc0000110ull, "moda_fn2+0x10/0x100 [moda]", NULL },
	{ 3202, 2, 0xffffffffc0000000ull, "moda_fn [moda]", NULL },
	{ 4500, 1, 0xffffffffc0000110ull, "0xffffffffc0000110", NULL },
	{ 5500, 1, 0xffffffffc0000010ull, "modb_fn+0x10/0x80 [modb]", NULL },
	{ 5501, 2, 0xffffffffc0000090ull, "modb_fn2 [modb]", NULL },
	{ 5502, 1, 0xffffffffc0000090ull, "modb_fn2+0x10/0x280 [modb]", NULL },
};
#define NRECS (sizeof(recs) / sizeof(recs[0]))

static char *build(int with_log)
{
	struct buf b = { 0 };
	struct sbuf s;
	uint8_t pl[8];
	char *path;
	uint64_t seq = 0;

	cap_meta(&b, formats);
	cap_sect(&b, LGD_SECT_KALLSYMS, LGD_CAP_NO_CPU, kallsyms, strlen(kallsyms));
	sb_begin(&s, 0, 0, recs[0].ts, 0, 0);
	for (size_t i = 0; i < NRECS; i++) {
		lgd_cap_put_u64(pl, recs[i].addr);
		if (!sb_rec(&s, recs[i].ts, recs[i].site, LOGDEV_REC_PRINT, 0, 1, pl, 8)) {
			cap_sect(&b, LGD_SECT_CPU_DATA, 0, s.b, SBS);
			sb_begin(&s, 0, ++seq, recs[i].ts, 0, 0);
			sb_rec(&s, recs[i].ts, recs[i].site, LOGDEV_REC_PRINT, 0, 1, pl, 8);
		}
	}
	cap_sect(&b, LGD_SECT_CPU_DATA, 0, s.b, SBS);
	if (with_log)	/* the recorder writes it last */
		cap_sect(&b, LGD_SECT_MODLOG, LGD_CAP_NO_CPU, modlog, strlen(modlog));
	cap_sect(&b, LGD_SECT_END, LGD_CAP_NO_CPU, NULL, 0);
	path = write_tmp(with_log ? "modlog.cap" : "nolog.cap", b.p, b.n);
	free(b.p);
	return path;
}

/* message column (8th on) of line @i of `report --raw` output */
static int nth_msg(const char *out, size_t i, char *msg, size_t size)
{
	const char *l = out;

	for (size_t k = 0; k < i && l; k++) {
		l = strchr(l, '\n');
		if (l)
			l++;
	}
	if (!l || !*l)
		return -1;
	for (int t = 0; t < 7; t++) {
		l = strchr(l, '\t');
		if (!l)
			return -1;
		l++;
	}
	snprintf(msg, size, "%.*s", (int)strcspn(l, "\n"), l);
	return 0;
}

static void run(int with_log)
{
	char args[600], msg[256], name[200];
	char *out, *err, *path = build(with_log);
	int st;

	snprintf(args, sizeof(args), "report --raw %s", path);
	st = run_cli(args, &out, &err);
	check(with_log ? "symbols: report exits 0" : "symbols: report without MODLOG exits 0",
	      st == 0 && !*err, "status %d, stderr: %s", st, err);
	for (size_t i = 0; i < NRECS; i++) {
		const char *exp = with_log ? recs[i].exp : recs[i].exp_nolog;

		if (!exp)
			continue;
		snprintf(name, sizeof(name), "symbols%s: ts %llu %s of %#llx is '%s'",
			 with_log ? "" : " (no MODLOG)", (unsigned long long)recs[i].ts,
			 recs[i].site == 1 ? "%pS" : "%ps",
			 (unsigned long long)recs[i].addr, exp);
		if (nth_msg(out, i, msg, sizeof(msg)))
			fail(name, "no line %zu in output", i);
		else
			CHECK_STR_EQ(msg, exp, name);
	}
	free(out);
	free(err);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: test_symbols PATH-TO-logdev\n");
		return 2;
	}
	cli = argv[1];
	if (tmpdir_make())
		return 1;
	run(1);
	run(0);
	tmpdir_remove();
	printf("symbols: %d passed, %d failed\n", passes, failures);
	return failures ? 1 : 0;
}
