// SPDX-License-Identifier: GPL-2.0
/*
 * gendat.c - test-only writer of a small trace-cmd v6 trace.dat holding
 * logdev events in the layout of docs/TRACE-CMD.md, "The events" (the layout
 * `logdev convert` writes), so the trace-cmd plugin can be tested without
 * the converter.
 *
 *   gendat OUT.dat [NFOREIGN [IDBASE]]
 *
 * The file: one CPU, page size 4096, system `logdev` with seven events (a
 * plain site, a site with a string argument, a probe and its return, two
 * sites of one func:line (the second name with a collision suffix), an
 * unknown site), ten records, two comms.  The
 * expected `trace-cmd report` text of each record is in run.sh.  NFOREIGN:
 * also that many events (no records) of another system, `xtra`, with ids
 * from 2000 (to time the plugin's cost on files of other events).  IDBASE:
 * the logdev events' ids are IDBASE.. (default 1000, as `logdev convert`).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PAGE 4096

struct buf {
	unsigned char *p;
	size_t len, cap;
};

static void put(struct buf *b, const void *d, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2 + 64;
		b->p = realloc(b->p, b->cap);
		if (!b->p) {
			perror("realloc");
			exit(1);
		}
	}
	memcpy(b->p + b->len, d, n);
	b->len += n;
}

static void put_u16(struct buf *b, uint16_t v) { put(b, &v, 2); }	/* little endian host */
static void put_u32(struct buf *b, uint32_t v) { put(b, &v, 4); }
static void put_u64(struct buf *b, uint64_t v) { put(b, &v, 8); }
static void put_str0(struct buf *b, const char *s) { put(b, s, strlen(s) + 1); }

/* u64 length + text (no NUL) */
static void put_text64(struct buf *b, const char *s)
{
	put_u64(b, strlen(s));
	put(b, s, strlen(s));
}

enum argk { A_NONE, A_S64, A_U64, A_STR };

struct ev {
	const char *name;
	unsigned int site, line;
	const char *file;
	enum argk args[2];
};

static const struct ev evs[] = {
	{ "demo_kfree_skbmem_106", 3, 106, "kernel/test/logdev_demo.c", { A_U64, A_S64 } },
	{ "demo_skb_124", 5, 124, "kernel/test/logdev_demo.c", { A_STR, A_NONE } },
	{ "tcp_sendmsg", 7, 0, "probe", { A_NONE, A_NONE } },
	{ "tcp_sendmsg__return", 8, 0, "probe", { A_U64, A_NONE } },
	{ "f_10_2", 9, 10, "b.c", { A_NONE, A_NONE } },
	{ "f_10", 10, 10, "b.c", { A_NONE, A_NONE } },
	{ "site_42", 42, 0, "", { A_NONE, A_NONE } },
};
#define NEV (sizeof(evs) / sizeof(evs[0]))

/* event ids: IDBASE + index */
static unsigned int ids[NEV];

/* field offsets of the fixed part (the writer's choice; the plugin must look them up) */
#define OFF_SITE 8
#define OFF_FILE 12
#define OFF_LINE 16
#define OFF_CTX 20
#define OFF_DELTA 24
#define OFF_MSG 32
#define OFF_ARG0 36	/* args: 8-byte integers at 40, 48; strings 4 bytes */

static unsigned int arg_off(const struct ev *e, int i)
{
	unsigned int off = OFF_ARG0;

	for (int k = 0; k <= i; k++) {
		if (e->args[k] == A_STR) {
			if (k == i)
				return off;
			off += 4;
		} else {
			off = (off + 7) & ~7u;
			if (k == i)
				return off;
			off += 8;
		}
	}
	return off;
}

static unsigned int fixed_end(const struct ev *e)
{
	unsigned int end = OFF_ARG0;

	for (int i = 0; i < 2 && e->args[i] != A_NONE; i++)
		end = arg_off(e, i) + (e->args[i] == A_STR ? 4 : 8);
	return end;
}

static char *format_of(const struct ev *e)
{
	static char t[4096];
	int n;

	n = snprintf(t, sizeof(t),
		     "name: %s\nID: %u\nformat:\n"
		     "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		     "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		     "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		     "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
		     "\tfield:unsigned int site;\toffset:%d;\tsize:4;\tsigned:0;\n"
		     "\tfield:__data_loc char[] file;\toffset:%d;\tsize:4;\tsigned:0;\n"
		     "\tfield:unsigned int line;\toffset:%d;\tsize:4;\tsigned:0;\n"
		     "\tfield:unsigned char ctx;\toffset:%d;\tsize:1;\tsigned:0;\n"
		     "\tfield:long long delta_ns;\toffset:%d;\tsize:8;\tsigned:1;\n"
		     "\tfield:__data_loc char[] msg;\toffset:%d;\tsize:4;\tsigned:0;\n",
		     e->name, ids[e - evs], OFF_SITE, OFF_FILE, OFF_LINE, OFF_CTX, OFF_DELTA, OFF_MSG);
	for (int i = 0; i < 2 && e->args[i] != A_NONE; i++) {
		const char *ty = e->args[i] == A_STR ? "__data_loc char[]" :
				 e->args[i] == A_S64 ? "long long" : "unsigned long long";

		n += snprintf(t + n, sizeof(t) - n, "\tfield:%s arg%d;\toffset:%u;\tsize:%d;\tsigned:%d;\n",
			      ty, i, arg_off(e, i), e->args[i] == A_STR ? 4 : 8,
			      e->args[i] == A_S64);
	}
	snprintf(t + n, sizeof(t) - n, "\nprint fmt: \"%%s\", __get_str(msg)\n");
	return t;
}

struct rec {
	int ev;			/* index in evs */
	uint64_t ts;		/* ns */
	int pid;
	unsigned char ctx;	/* 0 task 1 softirq 2 hardirq 3 NMI */
	int64_t delta_ns;
	const char *msg;
	uint64_t a0;		/* integer args */
	int64_t a1;
	const char *s0;		/* string arg0 */
};

static const struct rec recs[] = {
	{ 0, 4026146000ull, 100, 0, -1, "in skb=ffff8e969ffa0e00 len=154", 0xffff8e969ffa0e00ull, 154, NULL },
	{ 1, 4026149855ull, 100, 0, 3855, "2 data=x tail=154", 0, 0, "eth0" },
	{ 4, 4026166547ull, 100, 2, 16692, "out", 0, 0, NULL },
	{ 2, 4026170000ull, 200, 1, 3453, "", 0, 0, NULL },
	{ 3, 4026171001ull, 200, 1, 1001, "<- ret=0", 0, 0, NULL },
	{ 0, 4026180000ull, 100, 3, 8999, "in skb=0 len=-5", 0, -5, NULL },
	/* a gap over 2^27 ns: needs a time extend */
	{ 4, 4526180000ull, 100, 0, 500000000, "out", 0, 0, NULL },
	{ 1, 4526180001ull, 100, 0, 1, "message with %s and \\ in it", 0, 0, "a b" },
	{ 5, 4526180500ull, 100, 0, 499, "twin one", 0, 0, NULL },
	{ 6, 4526181000ull, 100, 0, 500, "?", 0, 0, NULL },
};
#define NREC (sizeof(recs) / sizeof(recs[0]))

static void put_dl(unsigned char *p, unsigned int field_off, unsigned int *dyn,
		   const char *s)
{
	uint32_t len = (uint32_t)strlen(s) + 1;
	uint32_t v = *dyn | len << 16;

	memcpy(p + field_off, &v, 4);
	memcpy(p + *dyn, s, len);
	*dyn += len;
}

/* the payload of one record; returns its length, padded to 4 */
static unsigned int payload(const struct rec *r, unsigned char *p)
{
	const struct ev *e = &evs[r->ev];
	unsigned int dyn = fixed_end(e);
	uint16_t type = (uint16_t)ids[r->ev];
	unsigned char flags = r->ctx == 1 ? 0x10 : r->ctx == 2 ? 0x08 : r->ctx == 3 ? 0x40 : 0;
	int32_t pid = r->pid;

	memset(p, 0, 512);
	memcpy(p, &type, 2);
	p[2] = flags;
	p[3] = 0;
	memcpy(p + 4, &pid, 4);
	memcpy(p + OFF_SITE, &e->site, 4);
	memcpy(p + OFF_LINE, &e->line, 4);
	p[OFF_CTX] = r->ctx;
	memcpy(p + OFF_DELTA, &r->delta_ns, 8);
	put_dl(p, OFF_FILE, &dyn, e->file);
	put_dl(p, OFF_MSG, &dyn, r->msg);
	for (int i = 0; i < 2 && e->args[i] != A_NONE; i++) {
		unsigned int off = arg_off(e, i);

		if (e->args[i] == A_STR)
			put_dl(p, off, &dyn, r->s0);
		else if (i == 0)
			memcpy(p + off, &r->a0, 8);
		else
			memcpy(p + off, &r->a1, 8);
	}
	return (dyn + 3) & ~3u;
}

static const char header_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n";

static const char header_event[] =
	"# compressed entry header\n"
	"\ttype_len    :    5 bits\n"
	"\ttime_delta  :   27 bits\n"
	"\tarray       :   32 bits\n\n"
	"\tpadding     : type == 29\n"
	"\ttime_extend : type == 30\n"
	"\ttime_stamp : type == 31\n"
	"\tdata max type_len  == 28\n";

int main(int argc, char **argv)
{
	struct buf f = { 0 }, page = { 0 };
	unsigned char p[512];
	uint64_t prev = recs[0].ts;
	FILE *out;

	int nforeign = argc >= 3 ? atoi(argv[2]) : 0;
	int idbase = argc >= 4 ? atoi(argv[3]) : 1000;

	if (argc < 2 || argc > 4 || nforeign < 0 || nforeign > 20000 ||
	    idbase < 0 || idbase > 60000) {
		fprintf(stderr, "usage: gendat OUT.dat [NFOREIGN [IDBASE]]\n");
		return 2;
	}
	for (size_t i = 0; i < NEV; i++)
		ids[i] = (unsigned int)idbase + (unsigned int)i;
	/* the one data page */
	put_u64(&page, recs[0].ts);
	put_u64(&page, 0);	/* commit, filled below */
	for (size_t i = 0; i < NREC; i++) {
		unsigned int n = payload(&recs[i], p);
		uint64_t d = recs[i].ts - prev;

		if (d >= (1u << 27)) {
			put_u32(&page, 30u | (uint32_t)(d & ((1u << 27) - 1)) << 5);
			put_u32(&page, (uint32_t)(d >> 27));
			d = 0;
		}
		if (n <= 28 * 4) {
			put_u32(&page, n / 4 | (uint32_t)d << 5);
		} else {
			put_u32(&page, (uint32_t)d << 5);
			put_u32(&page, n + 4);
		}
		put(&page, p, n);
		prev = recs[i].ts;
	}
	{
		uint64_t commit = page.len - 16;

		memcpy(page.p + 8, &commit, 8);
	}
	if (page.len > PAGE) {
		fprintf(stderr, "gendat: page overflow\n");
		return 1;
	}
	while (page.len < PAGE)
		put(&page, "", 1);

	put(&f, "\027\010\104tracing", 10);
	put_str0(&f, "6");
	put(&f, "\0", 1);		/* little endian */
	put(&f, "\010", 1);		/* long size */
	put_u32(&f, PAGE);
	put_str0(&f, "header_page");
	put_text64(&f, header_page);
	put_str0(&f, "header_event");
	put_text64(&f, header_event);
	put_u32(&f, 0);			/* ftrace event formats */
	put_u32(&f, nforeign ? 2 : 1);	/* event systems */
	if (nforeign) {
		put_str0(&f, "xtra");
		put_u32(&f, nforeign);
		for (int i = 0; i < nforeign; i++) {
			char t[512];

			snprintf(t, sizeof(t),
				 "name: x%d\nID: %d\nformat:\n"
				 "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
				 "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
				 "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
				 "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
				 "\tfield:int v;\toffset:8;\tsize:4;\tsigned:1;\n\n"
				 "print fmt: \"v=%%d\", REC->v\n", i, 2000 + i);
			put_text64(&f, t);
		}
	}
	put_str0(&f, "logdev");
	put_u32(&f, NEV);
	for (size_t i = 0; i < NEV; i++)
		put_text64(&f, format_of(&evs[i]));
	put_u32(&f, 0);			/* kallsyms */
	put_u32(&f, 0);			/* printk formats */
	put_text64(&f, "100 demo\n200 kworker/0:1\n");
	put_u32(&f, 1);			/* CPUs */
	put(&f, "options  ", 10);
	put_u16(&f, 0);
	put_str0(&f, "flyrecord");
	{
		uint64_t off = (f.len + 16 + PAGE - 1) / PAGE * PAGE;

		put_u64(&f, off);
		put_u64(&f, PAGE);
		while (f.len < off)
			put(&f, "", 1);
	}
	put(&f, page.p, page.len);

	out = fopen(argv[1], "wb");
	if (!out || fwrite(f.p, 1, f.len, out) != f.len || fclose(out)) {
		perror(argv[1]);
		return 1;
	}
	return 0;
}
