// SPDX-License-Identifier: GPL-2.0
/*
 * test_area_syms_cli.c: %pS of a previous boot in the CLI.  An area whose
 * text carries a module map (formats, a NUL, module_log format 2 text) and
 * records whose %pS/%ps point into vmlinux, into a module of the map, into
 * a module of the map without symbols: named with --kallsyms FILE (a
 * System.map whose _stext is not the area's: shifted), with this boot's
 * /proc/kallsyms when the build-ids match ($LOGDEV_NOTES, $LOGDEV_KALLSYMS
 * stand in for /sys/kernel/notes and /proc/kallsyms), hex and one warning
 * when they do not; `record --area --kallsyms` then `report` of the
 * capture; an older area (no map): a note; a map cut mid-line and one with
 * garbage: what parses is used, warned with where; Debian's placeholder
 * System.map, a file without _stext, all-zero addresses: refused (exit
 * 1); --kallsyms where it is not used.
 * Usage: test_area_syms_cli PATH-TO-logdev.  Output: PASS/FAIL lines.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "liblogdev.h"
#include "testlib.h"
#include "areabuild.h"

char tmpdir[] = "/tmp/logdev-areasyms-XXXXXX";

static const char fmts[] =
	"# id\tfile\tline\tfunc\tformat\n"
	"1\tdrivers/x.c\t10\tx_sym\tsym a=%pS b=%ps c=%pS\n"
	"2\tdrivers/x.c\t20\tx_mod\tmod %pS\n";

#define MAP_HEAD "# logdev module log: format 2, sizes region, clock local, 0 entries dropped\n"
#define MAP_DEMO \
	"load 0 demo text=ffffffffc0a00000/2000 data=ffffffffc0a04000/1000\n" \
	"ffffffffc0a00000 t demo_init\t[demo]\n" \
	"ffffffffc0a00100 T demo_fn\t[demo]\n" \
	"ffffffffc0a00400 t demo_exit\t[demo]\n" \
	"ffffffffc0a04000 d demo_data\t[demo]\n"
#define MAP_BARE "load 0 bare text=ffffffffc0b00000/1000\n"
#define MAP_TAIL "# logdev module map: 2 modules, 1 without symbols, 0 left out (the area's text is full)\n"

/* that boot's System.map: _stext 0x1c000000 below the area's text_addr */
static const char sysmap[] =
	"0000000000000000 A fixed_percpu_data\n"
	"ffffffff81000000 T _text\n"
	"ffffffff81000000 T _stext\n"
	"ffffffff81000100 T do_thing\n"
	"ffffffff81000200 T other_thing\n"
	"ffffffff82000000 T _etext\n"
	"ffffffffa0000000 t mod_of_this_boot\t[other]\n";

#define TEXT_ADDR	0xffffffff9d000000ull
#define VM_ADDR		(TEXT_ADDR + 0x150)
#define MOD_ADDR	0xffffffffc0a00123ull
#define BARE_ADDR	0xffffffffc0b00010ull

/* the area's image in the temporary folder: @mods the map (NULL: an older area) */
static char *area(const char *name, const char *mods)
{
	struct ab_area *ab = calloc(1, sizeof(*ab));
	struct ab_opts o = { .formats = fmts, .mods = mods };
	uint8_t pl[24];
	char *path;

	ab_init(ab, &o);
	ab->h.text_addr = TEXT_ADDR;
	lgd_cap_put_u64(pl, VM_ADDR);
	lgd_cap_put_u64(pl + 8, MOD_ADDR);
	lgd_cap_put_u64(pl + 16, BARE_ADDR);
	ab_rec(ab, 0, 1000000000ull, 1, 100, pl, 24);
	ab_rec(ab, 0, 1000001000ull, 2, 100, pl + 8, 8);
	ab_end(ab, LOGDEV_END_PANIC, "Kernel panic", 2000000000ull, 1796000300000000000ull);
	ab_finish(ab);
	path = write_tmp(name, ab->img, ab->len);
	ab_free(ab);
	free(ab);
	return path;
}

/* /sys/kernel/notes holding @hex's 20 bytes (after another note) */
static char *notes(const char *name, const char *hex)
{
	uint8_t b[64] = { 0 };

	lgd_cap_put_u32(b, 6);		/* "Linux", a note of another type first */
	lgd_cap_put_u32(b + 4, 4);
	lgd_cap_put_u32(b + 8, 0x101);
	memcpy(b + 12, "Linux", 6);
	lgd_cap_put_u32(b + 24, 4);	/* the GNU build-id */
	lgd_cap_put_u32(b + 28, 20);
	lgd_cap_put_u32(b + 32, 3);
	memcpy(b + 36, "GNU", 4);
	for (int i = 0; i < 20; i++)
		sscanf(hex + 2 * i, "%2hhx", &b[40 + i]);
	return write_tmp(name, b, 60);
}

/* run with @env; the status, stdout and stderr checked for the texts given */
static void check_env(const char *name, const char *env, const char *args, int want,
		      const char *const *out_has, const char *const *err_has, const char *err_not)
{
	char *out, *err;
	int st = run_cli_env(env, args, &out, &err), ok = st == want;

	for (int i = 0; out_has && out_has[i]; i++)
		ok &= strstr(out, out_has[i]) != NULL;
	for (int i = 0; err_has && err_has[i]; i++)
		ok &= strstr(err, err_has[i]) != NULL;
	if (err_not)
		ok &= !strstr(err, err_not);
	CHECK_WHY(ok, name, "logdev %s: status %d (want %d)\nstdout: %s\nstderr: %s", args, st,
		  want, out, err);
	free(out);
	free(err);
}

static const char *const named[] = {
	"sym a=do_thing+0x50/0x100 b=demo_fn [demo] c=0xffffffffc0b00010",
	"mod demo_fn+0x23/0x300 [demo]", NULL,
};

static void test_kallsyms_file(void)
{
	char *img = area("map.img", MAP_HEAD MAP_DEMO MAP_BARE MAP_TAIL);
	char *map = write_tmp("System.map", sysmap, strlen(sysmap)), args[1500], sym[900];
	char *other = notes("notes-other", "ffeeddccbbaa99887766554433221100ffeeddcc");
	char env[700];
	const char *cap = tmp_path("map.cap");
	const char *err_has[] = { sym, NULL };

	snprintf(sym, sizeof(sym), "symbols: vmlinux from %s (--kallsyms), shifted by "
		 "+0x1c000000 (6 symbols); modules from the area's map (2 modules, 1 without "
		 "symbols: their addresses print as hex)", map);
	snprintf(env, sizeof(env), "LOGDEV_NOTES=%s", other);
	snprintf(args, sizeof(args), "report --kallsyms %s %s", map, img);
	check_env("--kallsyms System.map: vmlinux shifted, the module from the map, one without "
		  "symbols in hex; the source said", env, args, 0, named, err_has, "warning");
	snprintf(args, sizeof(args), "record --area %s --kallsyms %s -o %s", img, map, cap);
	check_env("record --area --kallsyms: written, the source said", env, args, 0, NULL,
		  err_has, "warning");
	snprintf(args, sizeof(args), "report %s", cap);
	check_env("report of that capture: the same names, its banner says the source", env,
		  args, 0, named, err_has, "warning");
	snprintf(args, sizeof(args), "report %s", img);
	{
		const char *out_hex[] = { "sym a=0xffffffff9d000150 b=demo_fn [demo] c=0xffffffffc0b00010",
					  "mod demo_fn+0x23/0x300 [demo]", NULL };
		const char *warn[] = { "logdev: warning: ", "the previous boot ran "
				       "6.1.0-57-cloud-amd64 build-id 0123456789abcdef0123456789abcdef01234567, "
				       "this kernel is ffeeddccbbaa99887766554433221100ffeeddcc: vmlinux "
				       "addresses in %pS print as hex; give --kallsyms FILE (that kernel's "
				       "/proc/kallsyms saved while it ran, or the System.map of its "
				       "linux-image-...-dbg package; Debian's /boot/System.map is a "
				       "placeholder)", "symbols: vmlinux none (the previous boot's "
				       "build-id is not this kernel's: give --kallsyms FILE)", NULL };
		char *out, *err;

		check_env("another build-id, no --kallsyms: vmlinux in hex, modules named, the "
			  "warning", env, args, 0, out_hex, warn, NULL);
		run_cli_env(env, args, &out, &err);
		CHECK_TRUE(strstr(err, "give --kallsyms FILE (that") &&
			   !strstr(strstr(err, "give --kallsyms FILE (that") + 1, "give --kallsyms FILE (that"),
			   "another build-id: the warning is said once");
		free(out);
		free(err);
	}
	snprintf(env, sizeof(env), "LOGDEV_NOTES=%s/none", tmpdir);
	check_env("no /sys/kernel/notes: hex, the warning says so", env, args, 0, NULL,
		  (const char *const[]){ "this kernel is unknown (", "/none: No such file", NULL },
		  NULL);
}

static void test_same_build_id(void)
{
	static const char kallsyms[] =	/* this boot's: KASLR put _stext elsewhere */
		"ffffffffa9000000 T _stext\n"
		"ffffffffa9000100 T do_thing\n"
		"ffffffffa9000200 T other_thing\n"
		"ffffffffaa000000 T _etext\n"
		"ffffffffc0500000 t this_boots_module_fn\t[demo]\n";
	char *img = area("same.img", MAP_HEAD MAP_DEMO MAP_BARE MAP_TAIL), env[1400], args[700];
	char *ks = write_tmp("kallsyms", kallsyms, strlen(kallsyms));
	char *same = notes("notes-same", "0123456789abcdef0123456789abcdef01234567"), sym[800];
	const char *err_has[] = { sym, NULL };

	snprintf(sym, sizeof(sym), "symbols: vmlinux from %s (same build-id), shifted by "
		 "-0xc000000 (4 symbols)", ks);
	snprintf(env, sizeof(env), "LOGDEV_NOTES=%s LOGDEV_KALLSYMS=%s", same, ks);
	snprintf(args, sizeof(args), "report %s", img);
	check_env("same build-id: this boot's /proc/kallsyms, shifted, its module lines not used",
		  env, args, 0, named, err_has, "warning");
	snprintf(env, sizeof(env), "LOGDEV_NOTES=%s LOGDEV_KALLSYMS=%s/none", same, tmpdir);
	check_env("same build-id, /proc/kallsyms unreadable: hex, a warning why", env, args, 0,
		  (const char *const[]){ "mod demo_fn+0x23/0x300 [demo]", NULL },
		  (const char *const[]){ "this kernel is the previous boot's (build-id "
					 "0123456789abcdef0123456789abcdef01234567), but ", NULL },
		  NULL);
}

static void test_older_and_damaged_maps(void)
{
	char *map = write_tmp("System.map", sysmap, strlen(sysmap)), args[1500];
	char *img = area("old.img", NULL);

	snprintf(args, sizeof(args), "report --kallsyms %s %s", map, img);
	check_env("an older area (no map): vmlinux named, modules in hex, said", NULL, args, 0,
		  (const char *const[]){ "sym a=do_thing+0x50/0x100 b=0xffffffffc0a00123 c=", NULL },
		  (const char *const[]){ "; modules none (an older area: no module map): their "
					 "addresses print as hex", NULL }, "warning");
	img = area("cut.img", MAP_HEAD MAP_DEMO "ffffffffc0a00400 t demo_ex");
	snprintf(args, sizeof(args), "report --kallsyms %s %s", map, img);
	check_env("a map cut mid-line: the whole lines used, the cut warned at its byte", NULL,
		  args, 3, named,
		  (const char *const[]){ "module map (text slot, ",
					 "its last line has no end: its last 26 bytes are not read",
					 NULL }, NULL);
	img = area("garbage.img", MAP_HEAD "load 0 demo text=zz/1\n" MAP_BARE "garbage line\n"
		   MAP_DEMO);
	snprintf(args, sizeof(args), "report --kallsyms %s %s", map, img);
	check_env("a map with garbage lines: what parses used, warned with the first line", NULL,
		  args, 3, named,
		  (const char *const[]){ "module map (at this byte): 2 malformed lines, the first "
					 "is line 2", "the first is line 2 of the MODLOG section",
					 NULL }, NULL);
}

static void test_refused_sources(void)
{
	static const char placeholder[] =
		"ffffffffffffffff B The real System.map is in the linux-image-<version>-dbg package\n";
	static const char nostext[] = "ffffffff81000100 T do_thing\n";
	static const char zeros[] = "0000000000000000 T _stext\n0000000000000000 T do_thing\n";
	char *img = area("r.img", MAP_HEAD MAP_DEMO), args[1500], *p;

	p = write_tmp("System.map-6.1.0-57-cloud-amd64", placeholder, strlen(placeholder));
	snprintf(args, sizeof(args), "report --kallsyms %s %s", p, img);
	check_cli("Debian's placeholder System.map: refused, exit 1", args, 1, NULL,
		  "a placeholder System.map with no symbols");
	snprintf(args, sizeof(args), "record --area %s --kallsyms %s -o %s", img, p,
		 tmp_path("r.cap"));
	check_cli("record --area with the placeholder: refused, exit 1", args, 1, NULL,
		  "linux-image-<version>-dbg package");
	p = write_tmp("nostext", nostext, strlen(nostext));
	snprintf(args, sizeof(args), "report --kallsyms %s %s", p, img);
	check_cli("a --kallsyms FILE without _stext: refused, exit 1", args, 1, NULL,
		  "no _stext symbol");
	p = write_tmp("zeros", zeros, strlen(zeros));
	snprintf(args, sizeof(args), "deltas --kallsyms %s %s", p, img);
	check_cli("a --kallsyms FILE of zeros (kptr_restrict): refused, exit 1", args, 1, NULL,
		  "every vmlinux address is 0");
	/* a fresh user's: an empty file was blamed on root; /dev/zero ran out of memory */
	p = write_tmp("empty", "", 0);
	snprintf(args, sizeof(args), "report --kallsyms %s %s", p, img);
	check_cli("an empty --kallsyms FILE: no _stext (not root's fault), exit 1", args, 1, NULL,
		  "no _stext symbol");
	snprintf(args, sizeof(args), "report --kallsyms /dev/zero %s", img);
	check_cli("--kallsyms /dev/zero: too large, refused, exit 1", args, 1, NULL,
		  "File too large");
	snprintf(args, sizeof(args), "report --kallsyms %s/none %s", tmpdir, img);
	check_cli("a --kallsyms FILE that is not there: exit 1", args, 1, NULL,
		  "No such file");
	snprintf(args, sizeof(args), "record --kallsyms %s -o %s --duration 0", p,
		 tmp_path("x.cap"));
	check_cli("record --kallsyms without --area or --last-boot: usage error", args, 2, NULL,
		  "--kallsyms FILE goes with --last-boot or --area");
	snprintf(args, sizeof(args), "record --area %s -o %s", img, tmp_path("c.cap"));
	check_env("record --area, no /sys/kernel/notes: written, hex said", "LOGDEV_NOTES=/none",
		  args, 0, NULL, (const char *const[]){ "this kernel is unknown", NULL }, NULL);
	snprintf(args, sizeof(args), "report --kallsyms %s %s", tmp_path("zeros"),
		 tmp_path("c.cap"));
	check_cli("--kallsyms with a capture: not used, said", args, 0, NULL,
		  "--kallsyms not used: it names the symbols of a raw flight-recorder area's boot, "
		  "and this is a capture");
}

int main(int argc, char **argv)
{
	cli = argc > 1 ? argv[1] : "../../userspace/logdev";
	if (tmpdir_make())
		return 1;
	test_kallsyms_file();
	test_same_build_id();
	test_older_and_damaged_maps();
	test_refused_sources();
	tmpdir_remove();
	return ldc_exit_status();
}
