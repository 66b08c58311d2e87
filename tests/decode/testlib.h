/* SPDX-License-Identifier: GPL-2.0 */
/*
 * testlib.h - what the decoder tests share: PASS/FAIL lines, byte builders
 * for hand-made captures (capture sections, 256-byte sub-buffers, records),
 * and running the CLI with its output captured.
 *
 * Each test program defines `char tmpdir[]` (a mkdtemp() template it fills
 * in) and sets `cli` to the logdev binary under test.
 */
#ifndef LGD_TESTLIB_H
#define LGD_TESTLIB_H

#include <stddef.h>
#include <stdint.h>
#include "ldcheck.h"
#include "subbuf.h"

#define SBS 256		/* sub-buffer size of the hand-made captures */

extern const char *cli;
extern char tmpdir[];

/*
 * The older checks, on top of ldcheck.h (which new checks use directly):
 * pass(name); fail(name, fmt, ...): FAIL with file:line and the text of fmt;
 * check(name, ok, fmt, ...): CHECK_WHY(ok, name, fmt, ...).
 */
#define failures ldc_failures
#define passes ldc_passes
#define pass(name) ldc_pass(name)
#define skip(name, why) ldc_skip(name, why)
#define fail(name, ...) ldc_fail((name), __FILE__, __LINE__, __VA_ARGS__)
#define check(name, ok, ...) CHECK_WHY(ok, name, __VA_ARGS__)

/* a growing byte buffer */
struct buf {
	uint8_t *p;
	size_t n, cap;
};

void b_put(struct buf *b, const void *d, size_t n);
/* capture file header */
void cap_start(struct buf *b);
/* append a section; returns the file offset of its data */
size_t cap_sect(struct buf *b, uint32_t type, uint32_t cpu, const void *d, size_t n);
/* file header, HEADER (header_text) and FORMATS (@formats) sections */
void cap_meta(struct buf *b, const char *formats);

/*
 * the debugfs "header" text of the hand-made captures (SBS sub-buffers):
 * format version 3 (LOGDEV_FORMAT_VERSION), and version 1 (older captures)
 */
extern const char header_text[];
extern const char header_text_v1[];

/* one sub-buffer being built */
struct sbuf {
	uint8_t b[SBS];
	uint32_t pos;
};

/* start a version 2 sub-buffer with these dropped_before, overrun_before */
void sb_begin(struct sbuf *s, uint16_t cpu, uint64_t seq, uint64_t ts0,
	      uint32_t dropped, uint32_t overrun);
/* start a sub-buffer with header @h (any version: lgd_sb_enc_begin()) */
void sb_begin_info(struct sbuf *s, const struct lgd_sb_info *h);
/* append a record; returns its offset in the sub-buffer, 0 if it does not fit */
uint32_t sb_rec(struct sbuf *s, uint64_t ts, uint32_t site, uint8_t type,
		uint8_t ctx, uint32_t pid, const void *pl, uint32_t plen);

/* mkdtemp() of tmpdir (perror on failure); Return: 0 or -1 */
int tmpdir_make(void);
/* rm -rf tmpdir, at the end of a test program (a failure is only said) */
void tmpdir_remove(void);
/* tmpdir/NAME (one of 16 rotating static buffers) */
char *tmp_path(const char *name);
/* write @n bytes to tmpdir/NAME; returns the path */
char *write_tmp(const char *name, const void *d, size_t n);
/* whole file, NUL-terminated, malloc'd ("" if missing); *len its size if @len */
char *slurp_n(const char *path, size_t *len);
char *slurp(const char *path);
/* run "[ENV] timeout 60 cli ARGS"; exit status (255: killed); out, err malloc'd */
int run_cli_env(const char *env, const char *args, char **out, char **err);
int run_cli(const char *args, char **out, char **err);
/*
 * check_cli(): one PASS/FAIL line @name: `logdev ARGS` exits @want_st and
 * its stdout holds @out_has, its stderr @err_has (NULL: not checked); on
 * failure both outputs are printed.  Returns 1 if it passed.
 */
int check_cli(const char *name, const char *args, int want_st, const char *out_has,
	      const char *err_has);
/*
 * report's text form starts with "# clock: ..." (the capture's trace clock):
 * remove that line from @out in place, for checks of the records alone.
 * Returns 1 if it was there.
 */
int tl_strip_clock(char *out);

/*
 * Small captures for CLI tests (cli/test_record_edges, test_damaged_records, test_output_files):
 * one record on CPU 0, pid 1 (payload optional: an int 1 without; type 0:
 * LOGDEV_REC_PRINT).
 */
struct trec {
	uint64_t ts;
	uint32_t site;
	const void *pl;
	uint32_t n;
	uint8_t ctx;
	uint8_t type;
};

/* formats of two sites, f:1 "in" and g:2 "out" (file a.c) */
extern const char tl_fts[];
/* the payload of a record without one: an int 1 */
extern const uint8_t tl_int1[4];

/*
 * records into capture @name in the test's tmpdir (a new sub-buffer when
 * one is full), with a PROBES section of @probes if not NULL; its path
 */
char *tl_build_ex(const char *name, const char *formats, const struct trec *r, int nr,
	       const char *probes);
char *tl_build(const char *name, const char *formats, const struct trec *r, int nr);
/* `logdev VERB CAP` (a "diff" verb gets CAP twice): run_cli()'s status */
int tl_run_verb(const char *verb, const char *cap, char **out, char **err);

#endif
