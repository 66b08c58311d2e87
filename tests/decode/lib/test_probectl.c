// SPDX-License-Identifier: GPL-2.0
/*
 * test_probectl.c: probes attached for a recording (lib/probectl.c; issue
 * 26, point 1), against a fake debugfs directory whose "probes" is a plain
 * file (each write appends a line, the listing is what was written): each
 * spec is one write ending in a newline, in order, comments and blank lines
 * skipped; what a spec added is what the listing gained, removed by name
 * ("-:NAME", last first) by lgd_probes_detach(), never a probe that was
 * there before; a call with a removal spec is refused before it writes
 * anything (the kernel's refusals, which remove what the call added before
 * them, are the vm-probes-cli VM test's);
 * probe files are read without comments and with a too-long line refused
 * by number.
 * Usage: test_probectl (no argument).  Output: PASS/FAIL lines (ldcheck.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "liblogdev.h"
#include "testlib.h"

char tmpdir[] = "/tmp/logdev-probectl-XXXXXX";

static void test_attach_detach(void)
{
	static const char before[] = "p:keep vfs_read hits=3 missed=0\n";
	const char *specs[] = { "# a comment", "", "r:kfree_skbmem", "p:g vfs_*" };
	const char *removal[] = { "p:ok f", "-:keep" };
	struct lgd_probe_set set;
	char *probes = strdup(write_tmp("probes", before, strlen(before))), *t;
	int e;

	lgd_probe_set_init(&set);
	e = lgd_probes_attach(tmpdir, specs, 4, &set);
	t = slurp(probes);
	CHECK_EQ(e, 0, "attach: 0");
	CHECK_STR_EQ(t, "p:keep vfs_read hits=3 missed=0\nr:kfree_skbmem\np:g vfs_*\n",
		     "attach: one line per spec, in order, comments and blank lines skipped");
	free(t);
	CHECK_EQ(set.nr, 2, "attach: two probes added");
	if (set.nr == 2) {
		CHECK_STR_EQ(set.names[0], "kfree_skbmem", "attach: the first added by name");
		CHECK_STR_EQ(set.names[1], "g", "attach: the second added by name");
	}

	e = lgd_probes_attach(tmpdir, removal, 2, &set);
	t = slurp(probes);
	CHECK_EQ(e, -EINVAL, "attach: a removal spec is refused (-EINVAL)");
	CHECK_EQ(set.failed, 1, "attach: the refused spec's index");
	CHECK_WHY(strstr(set.err, "removes a probe") != NULL, "attach: the refusal says why",
		  "err '%s'", set.err);
	CHECK_STR_EQ(t, "p:keep vfs_read hits=3 missed=0\nr:kfree_skbmem\np:g vfs_*\n",
		     "attach: a call with a removal spec writes nothing, the earlier calls' probes kept");
	free(t);
	CHECK_EQ(set.nr, 2, "attach: the set keeps the earlier calls' probes");
	{
		const char *label[] = { "show_smap%return" }, *fine[] = { "p:x show_smap%return" };

		e = lgd_probes_attach(tmpdir, label, 1, &set);
		CHECK_WHY(e == -EINVAL && strstr(set.err, "'show_smap%return' is the label of a "
			  "return probe's return site: attach the probe as r:show_smap"),
			  "attach: a label as a spec is refused, the spec to write named",
			  "e %d err '%s'", e, set.err);
		{
			const char *upper[] = { "R:show_smap" };

			e = lgd_probes_attach(tmpdir, upper, 1, &set);
			CHECK_WHY(e == -EINVAL && strstr(set.err, "'R:show_smap' reads as a function "
				  "of a module named R: a probe's kind is lower case (r:show_smap)"),
				  "attach: a kind in upper case is refused, the spec to write named",
				  "e %d err '%s'", e, set.err);
		}
		e = lgd_probes_attach(tmpdir, fine, 1, &set);
		CHECK_EQ(e, 0, "attach: p:NAME FUNC%return (ftrace's return probe form) passes");
		CHECK_EQ(set.nr, 3, "attach: ... and is added");
		if (set.nr == 3)
			free(set.names[--set.nr]);	/* not detached below */
	}
	{
		/* the fake probes file lists what was written: a line as the
		 * kernel lists a probe on a module not loaded yet */
		const char *pm[] = { "p:pm mod:fn hits=0 missed=0 state=pending" };

		CHECK_EQ(set.pending, 0, "attach: nothing pending so far");
		e = lgd_probes_attach(tmpdir, pm, 1, &set);
		CHECK_WHY(e == 0 && set.pending == 1 && !strcmp(set.pending_name, "pm") &&
			  !strcmp(set.pending_spec, pm[0]),
			  "attach: a probe listed state=pending is counted, by name, with its spec",
			  "e %d pending %zu name '%s' spec '%s'", e, set.pending, set.pending_name,
			  set.pending_spec);
		if (set.nr == 3)
			free(set.names[--set.nr]);	/* not detached below */
	}

	e = lgd_probes_detach(tmpdir, &set);
	t = slurp(probes);
	CHECK_EQ(e, 0, "detach: 0");
	CHECK_WHY(strlen(t) > 19 && !strcmp(t + strlen(t) - 19, "-:g\n-:kfree_skbmem\n"),
		  "detach: each removed by name, last added first, the probe there before not",
		  "probes:\n%s", t);
	CHECK_EQ(set.nr, 0, "detach: the set is empty");
	CHECK_EQ(lgd_probes_detach(tmpdir, &set), 0, "detach: twice is harmless");
	free(t);
	lgd_probe_set_free(&set);
	free(probes);

	lgd_probe_set_init(&set);
	e = lgd_probes_attach("/nonexistent-logdev-dir", specs, 4, &set);
	CHECK_EQ(e, -ENOENT, "attach: no probes file: -ENOENT");
	CHECK_EQ(set.failed, -1, "attach: no probes file is not a refused spec");
	lgd_probe_set_free(&set);
}

static void test_read_file(void)
{
	static const char f[] = "# probes\n\n  r:kfree_skbmem  \n\tp:kfs kfree_skbmem+5 $arg1\r\n"
				"  # indented comment\nt:kmem:kmem_cache_free";
	char **v, *longl, *path;
	size_t n, *ln;
	int e;

	path = write_tmp("pf", f, strlen(f));
	e = lgd_probes_read_file(path, &v, NULL, &n);
	CHECK_EQ(e, 0, "probe file: read");
	CHECK_EQ(n, 3, "probe file: three probes, comments and blank lines dropped");
	if (!e && n == 3) {
		CHECK_STR_EQ(v[0], "r:kfree_skbmem", "probe file: blanks around a line cut");
		CHECK_STR_EQ(v[1], "p:kfs kfree_skbmem+5 $arg1", "probe file: CR LF line end");
		CHECK_STR_EQ(v[2], "t:kmem:kmem_cache_free", "probe file: last line without newline");
	}
	for (size_t i = 0; !e && i < n; i++)
		free(v[i]);
	if (!e)
		free(v);
	e = lgd_probes_read_file(path, &v, &ln, &n);
	CHECK_EQ(e, 0, "probe file: read with line numbers");
	if (!e && n == 3)
		CHECK_WHY(ln[0] == 3 && ln[1] == 4 && ln[2] == 6,
			  "probe file: each probe's line number in the file",
			  "lines %zu %zu %zu, want 3 4 6", ln[0], ln[1], ln[2]);
	for (size_t i = 0; !e && i < n; i++)
		free(v[i]);
	if (!e) {
		free(v);
		free(ln);
	}

	longl = malloc(1200);
	memset(longl, 'a', 1199);
	memcpy(longl, "# x\np:", 6);
	longl[1199] = 0;
	path = write_tmp("pf-long", longl, strlen(longl));
	e = lgd_probes_read_file(path, &v, NULL, &n);
	CHECK_EQ(e, -E2BIG, "probe file: a line over 1023 bytes is refused (-E2BIG)");
	CHECK_EQ(n, 2, "probe file: ... with its line number");
	free(longl);
	e = lgd_probes_read_file(tmp_path("no-such-file"), &v, NULL, &n);
	CHECK_EQ(e, -ENOENT, "probe file: missing: -ENOENT");
}

int main(void)
{
	if (tmpdir_make())
		return 1;
	test_attach_detach();
	test_read_file();
	tmpdir_remove();
	printf("probectl: %d passed, %d failed\n", ldc_passes, ldc_failures);
	return ldc_exit_status();
}
