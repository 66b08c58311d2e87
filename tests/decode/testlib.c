// SPDX-License-Identifier: GPL-2.0
/* testlib.c - see testlib.h. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "liblogdev.h"
#include "subbuf.h"
#include "testlib.h"

const char *cli;

void b_put(struct buf *b, const void *d, size_t n)
{
	if (b->n + n > b->cap) {
		b->cap = (b->n + n) * 2 + 64;
		b->p = realloc(b->p, b->cap);
	}
	if (n)
		memcpy(b->p + b->n, d, n);
	b->n += n;
}

void cap_start(struct buf *b)
{
	uint8_t h[LGD_CAP_FILE_HDR_BYTES];

	lgd_cap_file_hdr_put(h);
	b_put(b, h, sizeof(h));
}

size_t cap_sect(struct buf *b, uint32_t type, uint32_t cpu, const void *d, size_t n)
{
	uint8_t h[LGD_CAP_SECT_HDR_BYTES];

	lgd_cap_sect_hdr_put(h, type, cpu, n);
	b_put(b, h, sizeof(h));
	b_put(b, d, n);
	return b->n - n;
}

const char header_text[] =
	"version: 3\nendian: little\nsubbuf_size: 256\nnr_subbufs: 4\n"
	"subbuf_hdr_size: 48\nrec_hdr_size: 24\nclock: local\nmode: overwrite\n"
	"field: subbuf.seq offset:8 size:8\nfield: rec.len offset:12 size:2\n"
	"field: subbuf.too_big_before offset:44 size:4\n";

const char header_text_v1[] =
	"version: 1\nendian: little\nsubbuf_size: 256\nnr_subbufs: 4\n"
	"subbuf_hdr_size: 40\nrec_hdr_size: 24\nclock: local\nmode: overwrite\n"
	"field: subbuf.seq offset:8 size:8\nfield: rec.len offset:12 size:2\n";

void cap_meta(struct buf *b, const char *formats)
{
	cap_start(b);
	cap_sect(b, LGD_SECT_HEADER, LGD_CAP_NO_CPU, header_text, strlen(header_text));
	cap_sect(b, LGD_SECT_FORMATS, LGD_CAP_NO_CPU, formats, strlen(formats));
}

void sb_begin(struct sbuf *s, uint16_t cpu, uint64_t seq, uint64_t ts0,
	      uint32_t dropped, uint32_t overrun)
{
	struct lgd_sb_info h = {
		.magic = LOGDEV_SUBBUF_MAGIC, .version = LOGDEV_FORMAT_VERSION,
		.cpu = cpu, .seq = seq, .first_ts = ts0,
		.dropped_before = dropped, .overrun_before = overrun,
	};

	memset(s->b, 0xee, SBS);	/* unused bytes are undefined */
	s->pos = lgd_sb_enc_begin(s->b, SBS, &h);
}

void sb_begin_info(struct sbuf *s, const struct lgd_sb_info *h)
{
	memset(s->b, 0xee, SBS);
	s->pos = lgd_sb_enc_begin(s->b, SBS, h);
}

uint32_t sb_rec(struct sbuf *s, uint64_t ts, uint32_t site, uint8_t type,
		uint8_t ctx, uint32_t pid, const void *pl, uint32_t plen)
{
	struct logdev_rec_hdr h = {
		.ts = ts, .site = site, .type = type, .ctx = ctx, .pid = pid,
		.arg_bytes = plen,
	};
	uint32_t at = s->pos, next = lgd_sb_enc_rec(s->b, SBS, at, &h, pl);

	if (!next)
		return 0;
	s->pos = next;
	return at;
}

char *tmp_path(const char *name)
{
	static char path[16][512];
	static int k;
	char *p = path[k++ % 16];

	snprintf(p, 512, "%s/%s", tmpdir, name);
	return p;
}

char *write_tmp(const char *name, const void *d, size_t n)
{
	char *p = tmp_path(name);
	FILE *f = fopen(p, "wb");

	fwrite(d, 1, n, f);
	fclose(f);
	return p;
}

char *slurp_n(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *s;
	long n;

	if (len)
		*len = 0;
	if (!f)
		return strdup("");
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	s = calloc(1, (size_t)n + 1);
	if (fread(s, 1, (size_t)n, f) != (size_t)n)
		s[0] = 0;
	else if (len)
		*len = (size_t)n;
	fclose(f);
	return s;
}

char *slurp(const char *path)
{
	return slurp_n(path, NULL);
}

int run_cli_env(const char *env, const char *args, char **out, char **err)
{
	char cmd[4096], o[600], e[600];
	int st;

	snprintf(o, sizeof(o), "%s/out", tmpdir);
	snprintf(e, sizeof(e), "%s/err", tmpdir);
	snprintf(cmd, sizeof(cmd), "%s timeout 60 %s %s >%s 2>%s", env ? env : "", cli, args,
		 o, e);
	st = system(cmd);
	*out = slurp_n(o, NULL);
	*err = slurp_n(e, NULL);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 255;
}

int run_cli(const char *args, char **out, char **err)
{
	return run_cli_env(NULL, args, out, err);
}

int check_cli(const char *name, const char *args, int want_st, const char *out_has,
	      const char *err_has)
{
	char *out, *err;
	int st = run_cli(args, &out, &err), ok;

	ok = st == want_st && (!out_has || strstr(out, out_has)) &&
	     (!err_has || strstr(err, err_has));
	CHECK_WHY(ok, name, "logdev %s: status %d (want %d)\nstdout: %s\nstderr: %s", args, st,
		  want_st, out, err);
	free(out);
	free(err);
	return ok;
}

int tl_strip_clock(char *out)
{
	char *nl;

	if (!out || strncmp(out, "# clock: ", 9) || !(nl = strchr(out, '\n')))
		return 0;
	memmove(out, nl + 1, strlen(nl + 1) + 1);
	return 1;
}

int tmpdir_make(void)
{
	if (mkdtemp(tmpdir))
		return 0;
	perror("mkdtemp");
	return -1;
}

void tmpdir_remove(void)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", tmpdir);
}

const uint8_t tl_int1[4] = { 1, 0, 0, 0 };

const char tl_fts[] =
	"# id\tfile\tline\tfunc\tformat\n"
	"1\ta.c\t1\tf\tin\n"
	"2\ta.c\t2\tg\tout\n";

/*
 * records into a capture (a new sub-buffer when one is full), with a
 * PROBES section of @probes if not NULL
 */
char *tl_build_ex(const char *name, const char *formats, const struct trec *r, int nr,
		      const char *probes)
{
	struct buf b = { 0 };
	struct sbuf s;
	uint64_t seq = 0;
	char *path;

	cap_meta(&b, formats);
	sb_begin(&s, 0, seq++, r[0].ts, 0, 0);
	for (int i = 0; i < nr; i++) {
		const void *pl = r[i].pl ? r[i].pl : tl_int1;
		uint32_t n = r[i].pl ? r[i].n : 4;

		uint8_t type = r[i].type ? r[i].type : LOGDEV_REC_PRINT;

		if (!sb_rec(&s, r[i].ts, r[i].site, type, r[i].ctx, 1, pl, n)) {
			cap_sect(&b, LGD_SECT_CPU_DATA, 0, s.b, SBS);
			sb_begin(&s, 0, seq++, r[i].ts, 0, 0);
			sb_rec(&s, r[i].ts, r[i].site, type, r[i].ctx, 1, pl, n);
		}
	}
	cap_sect(&b, LGD_SECT_CPU_DATA, 0, s.b, SBS);
	if (probes)
		cap_sect(&b, LGD_SECT_PROBES, LGD_CAP_NO_CPU, probes, strlen(probes));
	cap_sect(&b, LGD_SECT_END, LGD_CAP_NO_CPU, NULL, 0);
	path = write_tmp(name, b.p, b.n);
	free(b.p);
	return path;
}

char *tl_build(const char *name, const char *formats, const struct trec *r, int nr)
{
	return tl_build_ex(name, formats, r, nr, NULL);
}

/*
 * `logdev VERB CAP` (a "diff" verb gets CAP twice, as both captures): the
 * CLI's status, its stdout and stderr in *out and *err (the caller frees).
 */
int tl_run_verb(const char *verb, const char *cap, char **out, char **err)
{
	char args[1400];

	if (!strncmp(verb, "diff", 4))
		snprintf(args, sizeof(args), "%s %s %s", verb, cap, cap);
	else
		snprintf(args, sizeof(args), "%s %s", verb, cap);
	return run_cli(args, out, err);
}
