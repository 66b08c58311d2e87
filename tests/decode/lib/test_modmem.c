// SPDX-License-Identifier: GPL-2.0
/*
 * test_modmem.c: module memory as it is (issue 23, point 4).  Since Linux
 * 6.4 a module's memory is several allocations (text, rodata,
 * ro_after_init, data and their init counterparts), placed apart: on 7.x
 * the text of every module above the data of every module, so the regions
 * of two modules interleave.  debugfs "module_log" format 2 lists each
 * region of a module (docs/DEBUGFS.md); the reader names an address after
 * the module with a region holding it, and sizes its symbol as the kernel
 * that wrote the log does ("sizes text": up to the end of the module's text
 * or init text, as 6.1 and 6.4+ before the fix of find_kallsyms_symbol();
 * "sizes region": up to the end of the region, only that region's
 * symbols, as 6.12.118 and 7.3 do).  Expected texts are what those
 * kernels print for the same layouts (the 6.12 layout below is the one a
 * test module had on 6.12.118: exp_sink+0x0/0xac0).
 *
 * Checks, through the library (lgd_ksyms_add_modlog(),
 * lgd_ksyms_lookup_at()) and through `logdev report --raw` of a capture:
 *   - format 2, both size rules: data of module B between regions of
 *     module A (loaded later, so looked at first) is named after B;
 *   - format 2 of a 6.1 kernel (one core and one init allocation split in
 *     regions) names every address as the format 1 log of the same layout;
 *   - format 1 logs read as before (test_symbols.c has their goldens);
 *   - a malformed region field, header or format is one malformed line,
 *     its module read without layout (named between two of its symbols),
 *     never a crash; the CLI warns (exit 3).
 * Usage: test_modmem PATH-TO-logdev
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "liblogdev.h"
#include "capture.h"
#include "testlib.h"

char tmpdir[] = "/tmp/logdev-modmem-XXXXXX";

#define HDR2(sizes) "# logdev module log: format 2, sizes " sizes ", clock local, 0 entries dropped\n"

/*
 * modb loaded at 3000 (init done at 3100), moda at 3200, modc at 4000.
 * 7.x layout: texts at 0xffffffffc08xxxxx, data and rodata at
 * 0xffffffffc02xxxxx; moda's data lies below modb's data, its rodata
 * above, its text above modb's text: one range from moda's lowest to its
 * highest byte would hold all of modb.  modc has 6.12's layout (data above
 * text).
 */
#define MODS2								\
	"load 3000 modb text=ffffffffc0800000/1000 rodata=ffffffffc0250000/1000 "	\
	"data=ffffffffc0251000/1000 init_text=ffffffffc0801000/1000 "	\
	"init_data=ffffffffc0252000/1000\n"				\
	"ffffffffc0800000 t modb_fn\t[modb]\n"				\
	"ffffffffc0800100 t modb_fn2\t[modb]\n"				\
	"ffffffffc0250100 r modb_ro\t[modb]\n"				\
	"ffffffffc0251010 d modb_data\t[modb]\n"			\
	"ffffffffc0251040 b modb_sink\t[modb]\n"			\
	"ffffffffc0801000 t modb_init\t[modb]\n"			\
	"ffffffffc0252000 d modb_initdata\t[modb]\n"			\
	"live 3100 modb\n"						\
	"load 3200 moda text=ffffffffc0802000/2000 data=ffffffffc024f000/1000 "	\
	"rodata=ffffffffc0253000/1000\n"				\
	"ffffffffc0802000 t moda_fn\t[moda]\n"				\
	"ffffffffc0802800 t moda_fn2\t[moda]\n"				\
	"ffffffffc024f000 d moda_data\t[moda]\n"			\
	"ffffffffc0253000 r moda_ro\t[moda]\n"				\
	"live 3201 moda\n"						\
	"load 4000 modc text=ffffffffc0432000/1000 data=ffffffffc0434000/1000 "	\
	"rodata=ffffffffc0436000/1000\n"				\
	"ffffffffc0432010 t modc_fn\t[modc]\n"				\
	"ffffffffc0434018 d modc_sink2\t[modc]\n"			\
	"ffffffffc0434540 b modc_sink\t[modc]\n"			\
	"ffffffffc04360a0 r modc_ro\t[modc]\n"				\
	"ffffffffc043619c r modc_note\t[modc]\n"			\
	"live 4001 modc\n"

static const char log_region[] = HDR2("region") MODS2;
static const char log_text[] = HDR2("text") MODS2;

struct q {
	uint64_t addr, ts;
	const char *region, *text;	/* "sizes region", "sizes text" */
};

static const struct q qs[] = {
	/* modb's data, between moda's data and moda's rodata */
	{ 0xffffffffc0251040ull, 3300, "modb_sink+0x0/0xfc0 [modb]",
	  "modb_sink+0x0/0x5aefc0 [modb]" },
	{ 0xffffffffc0251018ull, 3300, "modb_data+0x8/0x30 [modb]",
	  "modb_data+0x8/0x30 [modb]" },
	/* in modb's data before its first symbol: the region has none */
	{ 0xffffffffc0251004ull, 3300, "0xffffffffc0251004",
	  "modb_ro+0xf04/0xf10 [modb]" },
	{ 0xffffffffc0250200ull, 3300, "modb_ro+0x100/0xf00 [modb]",
	  "modb_ro+0x100/0xf10 [modb]" },
	{ 0xffffffffc0800010ull, 3300, "modb_fn+0x10/0x100 [modb]",
	  "modb_fn+0x10/0x100 [modb]" },
	{ 0xffffffffc0800110ull, 3300, "modb_fn2+0x10/0xf00 [modb]",
	  "modb_fn2+0x10/0xf00 [modb]" },
	/* modb's init memory, before and after its init finished */
	{ 0xffffffffc0801010ull, 3050, "modb_init+0x10/0x1000 [modb]",
	  "modb_init+0x10/0x1000 [modb]" },
	{ 0xffffffffc0252008ull, 3050, "modb_initdata+0x8/0x1000 [modb]",
	  "modb_initdata+0x8/0x5ae000 [modb]" },
	{ 0xffffffffc0801010ull, 3300, "0xffffffffc0801010", "0xffffffffc0801010" },
	{ 0xffffffffc0252008ull, 3300, "0xffffffffc0252008", "0xffffffffc0252008" },
	/* moda, whose regions straddle modb's */
	{ 0xffffffffc024f010ull, 3300, "moda_data+0x10/0x1000 [moda]",
	  "moda_data+0x10/0x4000 [moda]" },
	{ 0xffffffffc0253010ull, 3300, "moda_ro+0x10/0x1000 [moda]",
	  "moda_ro+0x10/0x5af000 [moda]" },
	{ 0xffffffffc0802010ull, 3300, "moda_fn+0x10/0x800 [moda]",
	  "moda_fn+0x10/0x800 [moda]" },
	{ 0xffffffffc0802900ull, 3300, "moda_fn2+0x100/0x1800 [moda]",
	  "moda_fn2+0x100/0x1800 [moda]" },
	/* modb's data before moda was loaded, and before modb was */
	{ 0xffffffffc0251040ull, 3150, "modb_sink+0x0/0xfc0 [modb]",
	  "modb_sink+0x0/0x5aefc0 [modb]" },
	{ 0xffffffffc0251040ull, 2000, "0xffffffffc0251040", "0xffffffffc0251040" },
	/* between regions, in no module */
	{ 0xffffffffc0255000ull, 3300, "0xffffffffc0255000", "0xffffffffc0255000" },
	{ 0xffffffffc0804000ull, 3300, "0xffffffffc0804000", "0xffffffffc0804000" },
	/* modc: 6.12's layout, data above text (the text rule wraps) */
	{ 0xffffffffc0434540ull, 4100, "modc_sink+0x0/0xac0 [modc]",
	  "modc_sink+0x0/0xffffffffffffeac0 [modc]" },
	{ 0xffffffffc0434018ull, 4100, "modc_sink2+0x0/0x528 [modc]",
	  "modc_sink2+0x0/0xffffffffffffefe8 [modc]" },
	{ 0xffffffffc04360a0ull, 4100, "modc_ro+0x0/0xfc [modc]",
	  "modc_ro+0x0/0xffffffffffffcf60 [modc]" },
	{ 0xffffffffc04361a0ull, 4100, "modc_note+0x4/0xe64 [modc]",
	  "modc_note+0x4/0xffffffffffffce64 [modc]" },
	{ 0xffffffffc0432014ull, 4100, "modc_fn+0x4/0xff0 [modc]",
	  "modc_fn+0x4/0xff0 [modc]" },
};
#define NQ (sizeof(qs) / sizeof(qs[0]))

/* what %pS prints for @addr at @ts */
static void name_of(const struct lgd_ksyms *k, uint64_t addr, uint64_t ts, char *out,
		    size_t size)
{
	uint64_t off, sz;
	const struct lgd_ksym *s = lgd_ksyms_lookup_at(k, addr, ts, &off, &sz);

	if (!s)
		snprintf(out, size, "0x%llx", (unsigned long long)addr);
	else
		snprintf(out, size, "%s+0x%llx/0x%llx%s%s%s", s->name,
			 (unsigned long long)off, (unsigned long long)sz,
			 s->mod ? " [" : "", s->mod ? s->mod : "", s->mod ? "]" : "");
}

static void lib_format2(int region)
{
	const char *log = region ? log_region : log_text;
	const char *rule = region ? "sizes region" : "sizes text";
	struct lgd_ksyms k = { 0 };
	char got[300], name[300];
	int bad = lgd_ksyms_add_modlog(&k, log, strlen(log));

	snprintf(name, sizeof(name), "modmem: format 2, %s: no malformed line", rule);
	CHECK_EQ(bad, 0, name);
	for (size_t i = 0; i < NQ; i++) {
		const char *exp = region ? qs[i].region : qs[i].text;

		name_of(&k, qs[i].addr, qs[i].ts, got, sizeof(got));
		snprintf(name, sizeof(name), "modmem: %s: %#llx at %llu is '%s'", rule,
			 (unsigned long long)qs[i].addr, (unsigned long long)qs[i].ts, exp);
		CHECK_STR_EQ(got, exp, name);
	}
	lgd_ksyms_free(&k);
}

/*
 * A 6.1 kernel's module: one core allocation (text, rodata, ro_after_init,
 * data at text_size/ro_size/ro_after_init_size/size) and one init
 * allocation.  Format 1 and format 2 "sizes text" say the same.
 */
static const char log61_v1[] =
	"# logdev module log: clock local, 0 entries dropped\n"
	"load 3000 moda core=ffffffffc0000000+2000/5000 init=ffffffffc0010000+1000/3000\n"
	"ffffffffc0000000 t moda_fn\t[moda]\n"
	"ffffffffc0000100 t moda_fn2\t[moda]\n"
	"ffffffffc0002100 r moda_ro\t[moda]\n"
	"ffffffffc0004000 d moda_data\t[moda]\n"
	"ffffffffc00043c0 b moda_sink\t[moda]\n"
	"ffffffffc0010000 t moda_init\t[moda]\n"
	"ffffffffc0011000 r moda_initro\t[moda]\n"
	"live 3100 moda\n"
	"unload 4000 moda\n";
static const char log61_v2[] =
	HDR2("text")
	"load 3000 moda text=ffffffffc0000000/2000 rodata=ffffffffc0002000/1000 "
	"ro_after_init=ffffffffc0003000/1000 data=ffffffffc0004000/1000 "
	"init_text=ffffffffc0010000/1000 init_rodata=ffffffffc0011000/1000 "
	"init_data=ffffffffc0012000/1000\n"
	"ffffffffc0000000 t moda_fn\t[moda]\n"
	"ffffffffc0000100 t moda_fn2\t[moda]\n"
	"ffffffffc0002100 r moda_ro\t[moda]\n"
	"ffffffffc0004000 d moda_data\t[moda]\n"
	"ffffffffc00043c0 b moda_sink\t[moda]\n"
	"ffffffffc0010000 t moda_init\t[moda]\n"
	"ffffffffc0011000 r moda_initro\t[moda]\n"
	"live 3100 moda\n"
	"unload 4000 moda\n";

static void lib_format2_61(void)
{
	static const uint64_t ts[] = { 2000, 3050, 3200, 4000 };
	struct lgd_ksyms k1 = { 0 }, k2 = { 0 };
	char a[300], b[300], name[400];
	int same = 0, named = 0, n = 0;

	CHECK_EQ(lgd_ksyms_add_modlog(&k1, log61_v1, strlen(log61_v1)), 0,
		 "modmem: 6.1 layout, format 1: no malformed line");
	CHECK_EQ(lgd_ksyms_add_modlog(&k2, log61_v2, strlen(log61_v2)), 0,
		 "modmem: 6.1 layout, format 2: no malformed line");
	for (int t = 0; t < 4; t++) {
		for (uint64_t addr = 0xffffffffbffffff0ull; addr < 0xffffffffc0013100ull;
		     addr += 0x40) {
			name_of(&k1, addr, ts[t], a, sizeof(a));
			name_of(&k2, addr, ts[t], b, sizeof(b));
			n++;
			named += a[0] != '0';
			if (!strcmp(a, b)) {
				same++;
			} else if (n - same <= 3) {
				snprintf(name, sizeof(name),
					 "modmem: 6.1 layout: %#llx at %llu, format 2 as format 1",
					 (unsigned long long)addr, (unsigned long long)ts[t]);
				CHECK_STR_EQ(b, a, name);
			}
		}
	}
	snprintf(name, sizeof(name),
		 "modmem: 6.1 layout: format 2 names all %d addresses as format 1 does", n);
	CHECK_EQ(same, n, name);
	/* the comparison means something: many are named, in data too */
	CHECK_GT(named, n / 10, "modmem: 6.1 layout: a tenth of the addresses named");
	name_of(&k2, 0xffffffffc00043c8ull, 3200, b, sizeof(b));
	CHECK_STR_EQ(b, "moda_sink+0x8/0xffffffffffffdc40 [moda]",
		     "modmem: 6.1 layout: data sized to the end of the text, as 6.1 does");
	name_of(&k2, 0xffffffffc0011008ull, 3050, b, sizeof(b));
	CHECK_STR_EQ(b, "moda_initro+0x8/0x0 [moda]",
		     "modmem: 6.1 layout: init rodata sized to the end of the init text");
	lgd_ksyms_free(&k1);
	lgd_ksyms_free(&k2);
}

/*
 * Malformed region fields: each is one malformed line; its module is read
 * without layout, so its addresses are named only between two of its
 * symbols (modc_fn+0x10/0x100; after its last symbol: hex), as a snapshot
 * module is.  The good module before it is read as ever.
 */
static const char *const bad_loads[] = {
	"load 6000 modc text=ffffffffc09",
	"load 6000 modc text=ffffffffc0900000",
	"load 6000 modc text=ffffffffc0900000/",
	"load 6000 modc text=zz/1000",
	"load 6000 modc text=/1000",
	"load 6000 modc text=ffffffffc0900000/1000x",
	"load 6000 modc text=ffffffffc0900000/-1000",
	"load 6000 modc text=0xffffffffc0900000/1000",
	"load 6000 modc text=1ffffffffc0900000/1000",
	"load 6000 modc text=ffffffffc0900000/1000 data=ffffffffc0900800/1000",
	"load 6000 modc text=ffffffffffffff00/1000",
	"load 6000 modc text=ffffffffc0900000/1000 text=ffffffffc0a00000/1000",
	"load 6000 modc text=ffffffffc0900000/1000 =ffffffffc0a00000/1000",
	"load 6000 modc text=ffffffffc0900000/1000 data",
	"load 6000 modc",
	"unload 6000 modc text=ffffffffc0900000/",
};

static void lib_malformed(void)
{
	char log[1024], got[300], name[400];

	for (size_t i = 0; i < sizeof(bad_loads) / sizeof(bad_loads[0]); i++) {
		struct lgd_ksyms k = { 0 };
		int unload = !strncmp(bad_loads[i], "unload", 6);
		uint64_t ts = unload ? 5500 : 6100;
		int bad;

		snprintf(log, sizeof(log), HDR2("region")
			 "load 5000 modb text=ffffffffc0800000/1000 data=ffffffffc0251000/1000\n"
			 "ffffffffc0800000 t modb_fn\t[modb]\n"
			 "ffffffffc0251040 b modb_sink\t[modb]\n"
			 "%s\n"
			 "ffffffffc0900000 t modc_fn\t[modc]\n"
			 "ffffffffc0900100 t modc_fn2\t[modc]\n", bad_loads[i]);
		bad = lgd_ksyms_add_modlog(&k, log, strlen(log));
		snprintf(name, sizeof(name), "modmem: [%s]: one malformed line", bad_loads[i]);
		CHECK_EQ(bad, 1, name);
		name_of(&k, 0xffffffffc0900010ull, ts, got, sizeof(got));
		snprintf(name, sizeof(name), "modmem: [%s]: its module named between its symbols",
			 bad_loads[i]);
		CHECK_STR_EQ(got, "modc_fn+0x10/0x100 [modc]", name);
		name_of(&k, 0xffffffffc0900110ull, ts, got, sizeof(got));
		snprintf(name, sizeof(name), "modmem: [%s]: not past its last symbol",
			 bad_loads[i]);
		CHECK_STR_EQ(got, "0xffffffffc0900110", name);
		name_of(&k, 0xffffffffc0251048ull, ts, got, sizeof(got));
		snprintf(name, sizeof(name), "modmem: [%s]: the module before it as ever",
			 bad_loads[i]);
		CHECK_STR_EQ(got, "modb_sink+0x8/0xfc0 [modb]", name);
		lgd_ksyms_free(&k);
	}
}

/*
 * Headers: a region of size 0 or of a kind this reader does not know is
 * skipped (newer kernels may add kinds); a format this reader does not
 * know, or a header it cannot read, leaves every module without layout
 * (one malformed line).
 */
static void lib_headers(void)
{
	static const struct {
		const char *hdr, *load, *exp;
		int bad;
	} hs[] = {
		{ HDR2("region"), "load 5000 modb text=ffffffffc0800000/1000 "
		  "data=ffffffffc0251000/1000 text_2=ffffffffc0900000/1000 rodata=0/0",
		  "modb_sink+0x8/0xfc0 [modb]", 0 },
		{ "# logdev module log: format 3, sizes region, clock local, 0 entries dropped\n",
		  "load 5000 modb text=ffffffffc0800000/1000 data=ffffffffc0251000/1000",
		  "modb_sink+0x8/0x5aefc0 [modb]", 1 },
		{ "# logdev module log: format two, sizes region\n",
		  "load 5000 modb text=ffffffffc0800000/1000 data=ffffffffc0251000/1000",
		  "modb_sink+0x8/0x5aefc0 [modb]", 1 },
		/* a format 1 log has no region fields: they are not read */
		{ "# logdev module log: clock local, 0 entries dropped\n",
		  "load 5000 modb text=ffffffffc0800000/1000 data=ffffffffc0251000/1000",
		  "modb_sink+0x8/0x5aefc0 [modb]", 0 },
	};
	char log[1024], got[300], name[400];

	for (size_t i = 0; i < sizeof(hs) / sizeof(hs[0]); i++) {
		struct lgd_ksyms k = { 0 };
		int bad;

		snprintf(log, sizeof(log), "%s%s\n"
			 "ffffffffc0800000 t modb_fn\t[modb]\n"
			 "ffffffffc0251040 b modb_sink\t[modb]\n", hs[i].hdr, hs[i].load);
		bad = lgd_ksyms_add_modlog(&k, log, strlen(log));
		snprintf(name, sizeof(name), "modmem: header [%.60s] load [%.60s]: %d malformed",
			 hs[i].hdr, hs[i].load, hs[i].bad);
		CHECK_EQ(bad, hs[i].bad, name);
		name_of(&k, 0xffffffffc0251048ull, 5100, got, sizeof(got));
		snprintf(name, sizeof(name), "modmem: header [%.60s] load [%.60s]: '%s'",
			 hs[i].hdr, hs[i].load, hs[i].exp);
		CHECK_STR_EQ(got, hs[i].exp, name);
		lgd_ksyms_free(&k);
	}
}

/* ---- through the CLI ------------------------------------------------- */

static const char formats[] = "1\tt.c\t1\tsym\t%pS\n";

static char *build(const char *file, const char *log, const uint64_t *addr,
		   const uint64_t *ts, size_t n)
{
	struct buf b = { 0 };
	struct sbuf s;
	uint8_t pl[8];
	uint64_t seq = 0;
	char *path;

	cap_meta(&b, formats);
	sb_begin(&s, 0, 0, ts[0], 0, 0);
	for (size_t i = 0; i < n; i++) {
		lgd_cap_put_u64(pl, addr[i]);
		if (!sb_rec(&s, ts[i], 1, LOGDEV_REC_PRINT, 0, 1, pl, 8)) {
			cap_sect(&b, LGD_SECT_CPU_DATA, 0, s.b, SBS);
			sb_begin(&s, 0, ++seq, ts[i], 0, 0);
			sb_rec(&s, ts[i], 1, LOGDEV_REC_PRINT, 0, 1, pl, 8);
		}
	}
	cap_sect(&b, LGD_SECT_CPU_DATA, 0, s.b, SBS);
	cap_sect(&b, LGD_SECT_MODLOG, LGD_CAP_NO_CPU, log, strlen(log));
	cap_sect(&b, LGD_SECT_END, LGD_CAP_NO_CPU, NULL, 0);
	path = write_tmp(file, b.p, b.n);
	free(b.p);
	return path;
}

/* message column (8th on) of each line of `report --raw`, one per line */
static void msgs(const char *out, char *m, size_t size)
{
	size_t n = 0;

	m[0] = 0;
	for (const char *l = out; *l && n + 1 < size;) {
		const char *e = l + strcspn(l, "\n"), *f = l;

		for (int t = 0; t < 7 && f && f < e; t++) {
			f = memchr(f, '\t', (size_t)(e - f));
			if (f)
				f++;
		}
		if (f && f <= e)
			n += (size_t)snprintf(m + n, size - n, "%.*s\n", (int)(e - f), f);
		l = *e ? e + 1 : e;
	}
}

static void cli_format2(void)
{
	uint64_t addr[NQ], ts[NQ];
	char exp[4096] = "", got[4096], args[600], name[300];
	size_t n = 0;
	char *out, *err, *path;
	int st;

	for (size_t i = 0; i < NQ; i++) {	/* records in time order */
		size_t j = n;

		while (j > 0 && ts[j - 1] > qs[i].ts) {
			ts[j] = ts[j - 1];
			addr[j] = addr[j - 1];
			j--;
		}
		ts[j] = qs[i].ts;
		addr[j] = qs[i].addr;
		n++;
	}
	path = build("region.cap", log_region, addr, ts, n);
	for (size_t i = 0, e = 0; i < n; i++) {
		for (size_t q = 0; q < NQ; q++)
			if (qs[q].addr == addr[i] && qs[q].ts == ts[i])
				e += (size_t)snprintf(exp + e, sizeof(exp) - e, "%s\n",
						      qs[q].region);
	}
	snprintf(args, sizeof(args), "report --raw %s", path);
	st = run_cli(args, &out, &err);
	check("modmem: report of a format 2 capture exits 0, no warning", st == 0 && !*err,
	      "status %d, stderr: %s", st, err);
	msgs(out, got, sizeof(got));
	snprintf(name, sizeof(name), "modmem: report --raw names all %zu addresses", n);
	CHECK_STR_EQ(got, exp, name);
	free(out);
	free(err);

	/* a malformed region field: warned, exit 3, the rest decoded */
	{
		static const char badlog[] = HDR2("region")
			"load 3000 modb text=ffffffffc0800000/1000 data=ffffffffc0251000/\n"
			"ffffffffc0800000 t modb_fn\t[modb]\n"
			"ffffffffc0251040 b modb_sink\t[modb]\n";
		uint64_t a[2] = { 0xffffffffc0800010ull, 0xffffffffc0251048ull }, t[2] = { 3100, 3200 };

		path = build("bad.cap", badlog, a, t, 2);
		snprintf(args, sizeof(args), "report --raw %s", path);
		st = run_cli(args, &out, &err);
		CHECK_EQ(st, 3, "modmem: a malformed region field: exit 3");
		CHECK_STR_CONTAINS(err, "malformed module log line",
				   "modmem: a malformed region field: warned");
		msgs(out, got, sizeof(got));
		CHECK_STR_EQ(got, "0xffffffffc0800010\nmodb_sink+0x8/0x5aefc0 [modb]\n",
			     "modmem: a malformed region field: named by its symbols only");
		free(out);
		free(err);
	}
	/* the kernel's size rule unknown: warned (sizes of data may differ) */
	{
		static const char unklog[] = HDR2("unknown")
			"load 3000 modb text=ffffffffc0800000/1000 data=ffffffffc0251000/1000\n"
			"ffffffffc0800000 t modb_fn\t[modb]\n"
			"ffffffffc0251040 b modb_sink\t[modb]\n";
		uint64_t a[1] = { 0xffffffffc0800010ull }, t[1] = { 3100 };

		path = build("unknown.cap", unklog, a, t, 1);
		snprintf(args, sizeof(args), "report --raw %s", path);
		st = run_cli(args, &out, &err);
		CHECK_EQ(st, 3, "modmem: size rule unknown: exit 3");
		CHECK_STR_CONTAINS(err, "sizes unknown",
				   "modmem: size rule unknown: warned");
		msgs(out, got, sizeof(got));
		CHECK_STR_EQ(got, "modb_fn+0x10/0x1000 [modb]\n",
			     "modmem: size rule unknown: text still named");
		free(out);
		free(err);
	}
	/* a newer format: warned, modules named by their symbols */
	{
		static const char newlog[] =
			"# logdev module log: format 3, sizes region, clock local, 0 entries dropped\n"
			"load 3000 modb text=ffffffffc0800000/1000 data=ffffffffc0251000/1000\n"
			"ffffffffc0800000 t modb_fn\t[modb]\n"
			"ffffffffc0251040 b modb_sink\t[modb]\n";
		uint64_t a[1] = { 0xffffffffc0251048ull }, t[1] = { 3100 };

		path = build("format3.cap", newlog, a, t, 1);
		snprintf(args, sizeof(args), "report --raw %s", path);
		st = run_cli(args, &out, &err);
		CHECK_EQ(st, 3, "modmem: format 3: exit 3");
		CHECK_STR_CONTAINS(err, "format is newer than this reader's",
				   "modmem: format 3: warned");
		CHECK_FALSE(strstr(err, "malformed"), "modmem: format 3: its header not also "
			    "called a malformed line");
		msgs(out, got, sizeof(got));
		CHECK_STR_EQ(got, "modb_sink+0x8/0x5aefc0 [modb]\n",
			     "modmem: format 3: named between two symbols");
		free(out);
		free(err);
	}
}

/*
 * issue 24 item 7: names at the kernel's maximum round-trip.  A symbol of
 * 511 characters (KSYM_NAME_LEN 512) in a module of 55 (MODULE_NAME_LEN
 * 56), in the module log and in a kallsyms snapshot: %pS inside it names
 * it, not the symbol before it, with no malformed line.  A name one longer
 * than the kernel makes is one malformed line, never an overflow.
 */
static void long_names(void)
{
	static char log[4096], sym[600], mod[64], want[800], args[600], got[1000];
	struct lgd_ksyms k = { 0 };
	uint64_t a[1] = { 0xffffffffc0800210ull }, t[1] = { 3100 }, off, sz;
	const struct lgd_ksym *ks;
	char *out, *err, *path;
	int st;

	memset(sym, 's', 511);
	sym[511] = 0;
	memset(mod, 'm', 55);
	mod[55] = 0;
	snprintf(log, sizeof(log), HDR2("region")
		 "load 3000 %s text=ffffffffc0800000/1000\n"
		 "ffffffffc0800000 t before\t[%s]\n"
		 "ffffffffc0800200 t %s\t[%s]\n"
		 "ffffffffc0800400 t after\t[%s]\n", mod, mod, sym, mod, mod);
	CHECK_EQ(lgd_ksyms_add_modlog(&k, log, strlen(log)), 0,
		 "long names: a 511-character symbol of a 55-character module: no malformed line");
	ks = lgd_ksyms_lookup_at(&k, a[0], t[0], &off, &sz);
	CHECK_TRUE(ks && strlen(ks->name) == 511 && ks->mod && !strcmp(ks->mod, mod) &&
		   off == 0x10, "long names: the module log's symbol found whole");
	lgd_ksyms_free(&k);

	path = build("long.cap", log, a, t, 1);
	snprintf(args, sizeof(args), "report --raw %s", path);
	st = run_cli(args, &out, &err);
	check("long names: report exits 0, no warning", st == 0 && !*err, "status %d, stderr: %s",
	      st, err);
	msgs(out, got, sizeof(got));
	snprintf(want, sizeof(want), "%s+0x10/0x200 [%s]\n", sym, mod);
	CHECK_STR_EQ(got, want, "long names: %pS inside it prints all 511 characters and the module");
	free(out);
	free(err);

	snprintf(log, sizeof(log), "ffffffff81000000 T before\nffffffff81000100 T %s\n"
		 "ffffffff81000200 T after\n", sym);
	CHECK_EQ(lgd_ksyms_parse(&k, log, strlen(log)), 3, "long names: kallsyms: 3 symbols");
	ks = lgd_ksyms_lookup_at(&k, 0xffffffff81000108ull, 0, &off, &sz);
	CHECK_TRUE(ks && strlen(ks->name) == 511 && !ks->mod,
		   "long names: a 511-character kernel symbol from a kallsyms snapshot");
	lgd_ksyms_free(&k);

	/* one character more than the kernel allows: refused, not cut or overrun */
	sym[511] = 'S';
	sym[512] = 0;
	snprintf(log, sizeof(log), HDR2("region")
		 "load 3000 %s text=ffffffffc0800000/1000\n"
		 "ffffffffc0800200 t %s\t[%s]\n", mod, sym, mod);
	CHECK_EQ(lgd_ksyms_add_modlog(&k, log, strlen(log)), 1,
		 "long names: a 512-character symbol is one malformed line");
	lgd_ksyms_free(&k);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: test_modmem PATH-TO-logdev\n");
		return 2;
	}
	cli = argv[1];
	if (tmpdir_make())
		return 1;
	lib_format2(1);
	lib_format2(0);
	lib_format2_61();
	lib_malformed();
	lib_headers();
	cli_format2();
	long_names();
	tmpdir_remove();
	printf("modmem: %d passed, %d failed\n", passes, failures);
	return failures ? 1 : 0;
}
