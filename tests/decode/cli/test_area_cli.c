// SPDX-License-Identifier: GPL-2.0
/*
 * test_area_cli.c: the flight recorder's area in the CLI: `logdev record
 * --last-boot` with no debugfs file (how to get one) and with one (a
 * capture written, mode 0600); `logdev report` and the other verbs on a
 * raw area image (converted in memory: the same output as on the capture
 * `record --area` writes); the banner (how the boot ended, what was lost)
 * and its warnings; a hard reset's end; a truncated image; areas refused
 * (damaged header, cut header, unknown version) with their messages;
 * usage errors of --last-boot and --area.  Areas are built in memory
 * (areabuild.h) and written to a temporary folder.
 * Usage: test_area_cli PATH-TO-logdev.  Output: PASS/FAIL lines (ldcheck.h).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "liblogdev.h"
#include "testlib.h"
#include "areabuild.h"

char tmpdir[] = "/tmp/logdev-areacli-XXXXXX";


static const char fmts[] =
	"# id\tfile\tline\tfunc\tformat\n"
	"1\tdrivers/x.c\t10\tx_in\tin n=%d\n"
	"2\tdrivers/x.c\t20\tx_out\tout n=%d\n";

/* an area: 2 CPUs, 70 and 15 records; @end: a panic's end; @corrupt: seq 7 of CPU 0 */
static char *area_file(const char *name, int end, int corrupt, size_t cut_to)
{
	struct ab_area *ab = calloc(1, sizeof(*ab));
	struct ab_opts o = { .formats = fmts };
	uint64_t ts = 1000000000ull;
	char *path;

	ab_init(ab, &o);
	for (uint32_t i = 0; i < 85; i++) {
		uint8_t pl[4];

		lgd_cap_put_u32(pl, i);
		ab_rec(ab, i < 70 ? 0 : 1, ts += 1000, 1 + (i & 1), 100, pl, 4);
	}
	if (end)
		ab_end(ab, LOGDEV_END_PANIC, "Kernel panic - not syncing: sysrq triggered crash",
		       301123456789ull, 1796000300000000000ull);
	ab_finish(ab);
	if (corrupt)
		ab->img[ab_sb_off(ab, 0, 7) + LOGDEV_SUBBUF_HDR_SIZE + 26] ^= 0x40;
	path = write_tmp(name, ab->img, cut_to ? cut_to : ab->len);
	ab_free(ab);
	free(ab);
	return path;
}

static void test_no_last_boot(void)
{
	char args[1000], *dir = strdup(tmp_path("dbg"));

	snprintf(args, sizeof(args), "record --last-boot -o %s", tmp_path("lb.cap"));
	{
		char *out, *err;
		int st = run_cli_env("LOGDEV_DEBUGFS=/nonexistent/logdev", args, &out, &err);

		CHECK_WHY(st == 1 && strstr(err, "no previous boot's buffer at "
					    "/nonexistent/logdev/last_boot/area") &&
			  strstr(err, "persist=memmap:SIZE@ADDR") && strstr(err, "docs/CRASHDUMP.md") &&
			  access(tmp_path("lb.cap"), F_OK),
			  "--last-boot, no module: says how to get one, exit 1, no file",
			  "exit %d, stderr:\n%s", st, err);
		free(out);
		free(err);
	}
	mkdir(dir, 0755);	/* the module, loaded without persist=: no last_boot/ */
	snprintf(args, sizeof(args), "record --last-boot -d %s -o %s", dir, tmp_path("lb.cap"));
	check_cli("--last-boot, no last_boot/area under -d DIR: exit 1", args, 1, NULL,
		  "load logdev with persist=memmap:SIZE@ADDR");
	free(dir);
}

static void test_last_boot(void)
{
	char args[1200], p[600], *dir = strdup(tmp_path("dbg2")), *img, *out, *err;
	const char *cap = tmp_path("last.cap");
	struct stat st;

	snprintf(p, sizeof(p), "%s/last_boot", dir);
	mkdir(dir, 0755);
	mkdir(p, 0755);
	img = area_file("dbg2/last_boot/area", 1, 0, 0);
	snprintf(args, sizeof(args), "record --last-boot -d %s -o %s", dir, cap);
	snprintf(p, sizeof(p), "records in 11 sub-buffers -> %s", cap);
	check_cli("--last-boot: the capture written, what it holds said, exit 0", args, 0, NULL, p);
	CHECK_WHY(!stat(cap, &st) && (st.st_mode & 0777) == 0600, "--last-boot: the capture is 0600",
		  "mode %o", (unsigned)(st.st_mode & 0777));
	snprintf(args, sizeof(args), "report %s", cap);
	snprintf(p, sizeof(p), "a previous boot's buffer (6.1.0-57-cloud-amd64, debugfs %s/last_boot/area)",
		 dir);
	/* the ring wrapped: what it overwrote is lost (overrun), exit 3 */
	check_cli("report of it: the records, the banner with its source", args, 3,
		  "x_out:20 out n=69", p);
	check_cli("report of it: the records the ring overwrote before the crash, as lost (overrun)",
		  args, 3, "*** LOST 28 events (overrun) ***", "(overrun 28)");
	check_cli("report of it: how the boot ended", args, 3, NULL,
		  "ended: panic \"Kernel panic - not syncing: sysrq triggered crash\" at "
		  "2026-11-30 00:58:20.000000000 UTC (trace ts 301.123456)");
	/* the raw image: the same records */
	{
		char *out2, *err2;
		int s1, s2;

		s1 = run_cli(args, &out, &err);
		snprintf(args, sizeof(args), "report %s", img);
		s2 = run_cli(args, &out2, &err2);
		CHECK_WHY(s1 == 3 && s2 == 3 && !strcmp(out, out2) && strstr(err2, "image "),
			  "report of the raw image: the records of its capture, source image",
			  "exit %d/%d, stderr:\n%s", s1, s2, err2);
		free(out2);
		free(err2);
		free(out);
		free(err);
	}
	snprintf(args, sizeof(args), "deltas %s", img);
	check_cli("deltas of the raw image", args, 3, "x_in:10", NULL);
	snprintf(args, sizeof(args), "convert -o %s %s", tmp_path("a.dat"), img);
	check_cli("convert of the raw image", args, 3, NULL, NULL);
	snprintf(args, sizeof(args), "record --area %s -o -", img);
	if (run_cli(args, &out, &err) == 0)
		CHECK_TRUE(!memcmp(out, LGD_CAP_MAGIC, 8), "record --area -o -: a capture on stdout");
	else
		fail("record --area -o -", "stderr: %s", err);
	free(out);
	free(err);
	free(dir);
}

static void test_lost(void)
{
	char args[800], *img = area_file("corrupt.img", 1, 1, 0), *out, *err;
	int st;

	snprintf(args, sizeof(args), "report %s", img);
	st = run_cli(args, &out, &err);
	CHECK_WHY(st == 3 && strstr(err, "(CPU 0, sub-buffer seq 7): area slot 7") &&
		  strstr(err, "is corrupt: seal CRC-32 mismatch") &&
		  strstr(err, "logdev: warning: ") && strstr(err, "lost: 1 sub-buffer (corrupt 1, ") &&
		  strstr(err, "lost events: cpu:0 28 (overrun 28, subbufs 1 sub-buffers)") &&
		  strstr(out, "*** LOST 1 sub-buffers"),
		  "report of a corrupt area: the sub-buffer named, lost in the banner and in the "
		  "records, exit 3", "exit %d, stderr:\n%s", st, err);
	free(out);
	free(err);
	img = area_file("reset.img", 0, 0, 0);
	snprintf(args, sizeof(args), "report %s", img);
	check_cli("report of a hard reset's area: the end unknown, the wrapped ring said, exit 3",
		  args, 3, "x_in:10", "ended: unknown (no end seen: hard reset, power loss or hang)");
	check_cli("report of a hard reset's area: overwritten records said to exist, count unknown",
		  args, 3, NULL, "the ring had wrapped: the records of its");
	img = area_file("cut.img", 1, 0, 8192 + 8192 + 3000);
	snprintf(args, sizeof(args), "report %s", img);
	check_cli("report of a truncated image: what is inside, exit 3", args, 3, "x_in:10",
		  "truncated at byte 19384: the image has 19384 of the area's 24576 bytes");
}

/*
 * A warning of the reader on a raw image is about the capture converted
 * from it: its byte says so (a fresh user looked for it in the image).
 * The formats text lacks site 2: its records warn, with their position.
 */
static void test_converted_offsets(void)
{
	static const char only1[] = "# id\tfile\tline\tfunc\tformat\n"
				    "1\tdrivers/x.c\t10\tx_in\tin n=%d\n";
	struct ab_area *ab = calloc(1, sizeof(*ab));
	struct ab_opts o = { .formats = only1 };
	char args[800], *img;
	uint8_t pl[4];

	ab_init(ab, &o);
	for (uint32_t i = 0; i < 4; i++) {
		lgd_cap_put_u32(pl, i);
		ab_rec(ab, 0, 1000000000ull + 1000 * i, 1 + (i & 1), 100, pl, 4);
	}
	ab_end(ab, LOGDEV_END_PANIC, "sysrq triggered crash", 301123456789ull,
	       1796000300000000000ull);
	ab_finish(ab);
	img = write_tmp("nosite2.img", ab->img, ab->len);
	snprintf(args, sizeof(args), "report %s", img);
	check_cli("a raw image's record warning gives the byte of the capture converted from it",
		  args, 3, "x_in:10", "of the capture converted from ");
	check_cli("... and what it is about", args, 3, NULL, "call site 2 is not in the capture's");
	ab_free(ab);
	free(ab);
}

/*
 * The formats text's warnings name the byte at fault (a fresh user's
 * findings: "byte 0" for a bad text_len, the slot's start for a cut image,
 * a CRC blamed for an empty slot).
 */
static void test_text_bytes(void)
{
	struct ab_area *ab = calloc(1, sizeof(*ab));
	struct ab_opts o = { .formats = fmts };
	uint32_t lenat = lgd_area_field_off(LGD_AH_TEXT_LEN), cur;
	char args[800], want[200], *img;
	uint8_t pl[4] = { 0 };

	ab_init(ab, &o);
	ab_rec(ab, 0, 1000000000ull, 1, 100, pl, 4);
	ab_finish(ab);
	cur = ab->h.text_cur;
	lenat += 4 * cur;
	img = write_tmp("cut-text.img", ab->img, ab->h.text_off + 10);
	snprintf(args, sizeof(args), "report %s", img);
	snprintf(want, sizeof(want), "truncated at byte %llu: formats text (slot %u",
		 (unsigned long long)ab->h.text_off + 10, cur);
	check_cli("an image cut inside the formats text: the byte where it ends", args, 3, NULL,
		  want);
	poke(ab->img, lenat, 0, 4);
	img = write_tmp("empty-text.img", ab->img, ab->len);
	snprintf(args, sizeof(args), "report %s", img);
	check_cli("an empty formats slot: said empty, not a CRC mismatch", args, 3, NULL,
		  "it is empty (text_len 0)");
	poke(ab->img, lenat, 0xffffff, 4);
	img = write_tmp("bad-len.img", ab->img, ab->len);
	snprintf(args, sizeof(args), "report %s", img);
	snprintf(want, sizeof(want), "corrupt at byte %u: formats text (slot %u, 16777215 bytes): "
		 "text_len beyond its slot", lenat, cur);
	check_cli("a text_len beyond its slot: the byte of text_len", args, 3, NULL, want);
	ab_free(ab);
	free(ab);
}

/*
 * The open sub-buffer's walk stops at a bad record (a fresh user's: its
 * first timestamp before first_ts dropped 4 records with no word, exit 0):
 * warned, exit 3.
 */
static void test_open_cut(void)
{
	struct ab_area *ab = calloc(1, sizeof(*ab));
	struct ab_opts o = { .formats = fmts };
	char args[800], *img;
	uint8_t pl[4] = { 0 };

	ab_init(ab, &o);
	for (uint32_t i = 0; i < 4; i++)
		ab_rec(ab, 0, 1000000000ull + 1000 * i, 1, 100, pl, 4);
	ab_finish(ab);
	/* the first record's ts (offset 0 of a record): 1 ns, before first_ts */
	poke(ab->img, ab_sb_off(ab, 0, 0) + LOGDEV_SUBBUF_HDR_SIZE, 1, 8);
	img = write_tmp("open-cut.img", ab->img, ab->len);
	snprintf(args, sizeof(args), "report %s", img);
	check_cli("the open sub-buffer cut at a bad record: the records left out said, exit 3",
		  args, 3, NULL, "record stamped before first_ts; 0 of its ");
	ab_free(ab);
	free(ab);
}

/*
 * Losses the saved counters hold that no kept sub-buffer notes (a fresh
 * user's: too_big 2 saved, 1 reported) are reported, once, at the first.
 */
static void test_unnoted_losses(void)
{
	struct ab_area *ab = calloc(1, sizeof(*ab));
	struct ab_opts o = { .formats = fmts };
	struct logdev_area_cpu ac;
	char args[800], *img;
	uint8_t pl[4] = { 0 };

	ab_init(ab, &o);
	for (uint32_t i = 0; i < 4; i++)
		ab_rec(ab, 0, 1000000000ull + 1000 * i, 1, 100, pl, 4);
	ab_end(ab, LOGDEV_END_PANIC, "sysrq triggered crash", 301123456789ull,
	       1796000300000000000ull);
	ab_finish(ab);
	lgd_area_cpu_get(ab->img + ab->h.cpu_off, LOGDEV_AREA_CPU_SIZE, &ac);
	ac.too_big = 2;
	ac.nesting_lost = 5;
	lgd_area_cpu_put(ab->img + ab->h.cpu_off, &ac);
	img = write_tmp("unnoted.img", ab->img, ab->len);
	snprintf(args, sizeof(args), "report %s", img);
	check_cli("losses saved but noted in no kept sub-buffer: reported, exit 3", args, 3, NULL,
		  "nesting_lost 5, too_big 2");
	ab_free(ab);
	free(ab);
}

/* does @path still start as an area? */
static int cli_is_area_ok(const char *path)
{
	size_t n;
	char *b = slurp_n(path, &n);
	int ok = n >= 8 && !memcmp(b, LOGDEV_AREA_MAGIC, 8);

	free(b);
	return ok;
}

static void test_refused(void)
{
	struct ab_area *ab = calloc(1, sizeof(*ab));
	struct ab_opts o = { .formats = fmts };
	struct logdev_area_hdr h;
	char args[800], *p;

	ab_init(ab, &o);
	ab->img[lgd_area_field_off(LGD_AH_CPU_OFF)] ^= 1;
	p = write_tmp("badcrc.img", ab->img, ab->len);
	snprintf(args, sizeof(args), "report %s", p);
	check_cli("a damaged area header: refused, exit 1", args, 1, NULL,
		  "the header is damaged, and the layout it gives cannot be trusted (byte 224)");
	snprintf(args, sizeof(args), "record --area %s -o %s", p, tmp_path("x.cap"));
	check_cli("record --area of it: refused, exit 1", args, 1, NULL, "the header is damaged");
	p = write_tmp("short.img", ab->img, 100);
	snprintf(args, sizeof(args), "report %s", p);
	check_cli("an area cut inside its header: exit 1", args, 1, NULL,
		  "the area's header has 100 of its 368 bytes");
	ab->img[lgd_area_field_off(LGD_AH_CPU_OFF)] ^= 1;
	lgd_area_hdr_get(ab->img, ab->len, &h);
	h.version = 7;
	lgd_area_hdr_put(ab->img, &h);
	p = write_tmp("v7.img", ab->img, ab->len);
	snprintf(args, sizeof(args), "deltas %s", p);
	check_cli("an area of another version: exit 1", args, 1, NULL,
		  "area version 7: this reader knows version 1");
	snprintf(args, sizeof(args), "record --area %s -p r:vfs_read -o %s", p, tmp_path("x.cap"));
	check_cli("record --area with -p: usage error", args, 2, NULL, "no -p, --callees");
	snprintf(args, sizeof(args), "record --last-boot --area %s", p);
	check_cli("record --last-boot and --area: usage error", args, 2, NULL, "(one)");
	p = area_file("in.img", 1, 0, 0);
	snprintf(args, sizeof(args), "record --area %s -o %s", p, p);
	check_cli("record --area IMAGE -o IMAGE: refused, the image kept", args, 2, NULL,
		  "is an input");
	CHECK_TRUE(cli_is_area_ok(p), "record --area IMAGE -o IMAGE: the image is still an area");
	snprintf(args, sizeof(args), "record --area %s/none.img", tmpdir);
	check_cli("record --area of no file: exit 1", args, 1, NULL, "No such file");
	ab_free(ab);
	free(ab);
}

int main(int argc, char **argv)
{
	cli = argc > 1 ? argv[1] : "../../userspace/logdev";
	if (tmpdir_make())
		return 1;
	test_no_last_boot();
	test_last_boot();
	test_lost();
	test_refused();
	test_converted_offsets();
	test_text_bytes();
	test_open_cut();
	test_unnoted_losses();
	tmpdir_remove();
	return ldc_exit_status();
}
