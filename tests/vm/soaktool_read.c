/*
 * soaktool_read.c: the soak test's per-CPU readers (guest side, see
 * soaktool.c's header for what is checked): each drains its CPU's
 * trace_pipe_raw and checks every record as it is read; nothing is stored.
 */
#include "soaktool.h"

/* ---- which site ids are logdev_test's ctx=/seq= records ------------- */

static pthread_mutex_t site_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned char site_kind[MAXSITE];	/* 0 unknown, 1 ours, 2 other */

/* Read D/formats again and classify every listed site (site_lock held). */
static void load_sites(void)
{
	char line[1024];
	FILE *f = fopen(D "/formats", "r");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *fmt;
		unsigned long id;
		int i;

		if (line[0] == '#')
			continue;
		id = strtoul(line, NULL, 10);
		fmt = line;
		for (i = 0; i < 4 && fmt; i++) {	/* id file line func format */
			fmt = strchr(fmt, '\t');
			if (fmt)
				fmt++;
		}
		if (!fmt || id == 0 || id >= MAXSITE)
			continue;
		fmt[strcspn(fmt, "\n")] = '\0';
		site_kind[id] = !strcmp(fmt, "ctx=%d seq=%u") ||
				!strcmp(fmt, "ctx=%d seq=%u pad=%llx") ? 1 : 2;
	}
	fclose(f);
}

static int site_is_ours(uint32_t id)
{
	int k;

	if (id >= MAXSITE)
		return 0;
	k = __atomic_load_n(&site_kind[id], __ATOMIC_ACQUIRE);
	if (!k) {	/* registered at its first record: listed by now */
		pthread_mutex_lock(&site_lock);
		load_sites();
		k = site_kind[id];
		if (!k)
			site_kind[id] = k = 2;
		pthread_mutex_unlock(&site_lock);
	}
	return k == 1;
}

/* ---- readers ------------------------------------------------------- */


static void note(struct rd *r, const char *fmt, ...)
{
	va_list ap;

	if (r->ex[0])
		return;
	va_start(ap, fmt);
	vsnprintf(r->ex, sizeof(r->ex), fmt, ap);
	va_end(ap);
}

static void eat_subbuf(struct rd *r, const unsigned char *b)
{
	const struct logdev_subbuf_hdr *h = (const void *)b;
	uint32_t off = 0;

	if (h->magic != LOGDEV_SUBBUF_MAGIC || h->version != LOGDEV_FORMAT_VERSION ||
	    h->cpu != (uint32_t)r->cpu || h->data_bytes > r->sb - LOGDEV_SUBBUF_HDR_SIZE) {
		r->bad_sb++;
		note(r, "bad sub-buffer header (magic %x version %u cpu %u data_bytes %u)",
		     h->magic, h->version, h->cpu, h->data_bytes);
		return;
	}
	r->subbufs++;
	r->lost[L_OVERRUN] += h->overrun_before;
	r->lost[L_DROPPED] += h->dropped_before;
	r->lost[L_NESTING_LOST] += h->nesting_lost_before;
	r->lost[L_TOO_BIG] += h->too_big_before;
	while (off + LOGDEV_REC_HDR_SIZE <= h->data_bytes) {
		const struct logdev_rec_hdr *rec =
			(const void *)(b + LOGDEV_SUBBUF_HDR_SIZE + off);
		const uint32_t *pl = (const void *)(rec + 1);
		uint32_t ctx, seq;

		if (rec->len < LOGDEV_REC_HDR_SIZE || rec->len % 8 ||
		    off + rec->len > h->data_bytes) {
			r->bad_sb++;
			note(r, "bad record length %u at offset %u", rec->len, off);
			return;
		}
		off += rec->len;
		if (rec->type == LOGDEV_REC_COMM) {
			r->comm++;
			continue;
		}
		if ((rec->type != LOGDEV_REC_PRINT_SLOTS && rec->type != LOGDEV_REC_PRINT) ||
		    rec->arg_bytes < 8 || !site_is_ours(rec->site)) {
			r->other++;
			note(r, "a record not from logdev_test: type %u site %u", rec->type, rec->site);
			continue;
		}
		ctx = pl[0];
		seq = pl[1];
		if (ctx >= NCTX || ctx != (rec->ctx & LOGDEV_CTX_MASK)) {
			r->ctx_bad++;
			note(r, "payload ctx=%u in a record of context %u", ctx, rec->ctx & LOGDEV_CTX_MASK);
			continue;
		}
		if (seq < r->next[ctx]) {
			r->order_bad++;
			note(r, "ctx %u: seq %u after %llu", ctx, seq,
			     (unsigned long long)r->next[ctx] - 1);
			continue;
		}
		r->gaps[ctx] += seq - r->next[ctx];
		r->next[ctx] = (uint64_t)seq + 1;
		r->read[ctx]++;
	}
	if (off != h->data_bytes) {
		r->bad_sb++;
		note(r, "records end at %u, data_bytes %u", off, h->data_bytes);
	}
}

void *reader(void *arg)
{
	struct rd *r = arg;
	unsigned char *buf = malloc(RDBUF);
	char path[128];
	int fd;

	snprintf(path, sizeof(path), D "/per_cpu/cpu%d/trace_pipe_raw", r->cpu);
	r->tid = (int)syscall(SYS_gettid);
	fd = open(path, O_RDONLY);
	if (fd < 0 || !buf) {
		r->errors++;
		note(r, "open %s: %s", path, strerror(errno));
		free(buf);
		return NULL;
	}
	for (;;) {
		ssize_t n = read(fd, buf, RDBUF);
		ssize_t o;

		r->last_ret = now();
		r->nreads++;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			r->errors++;
			note(r, "read: %s", strerror(errno));
			break;
		}
		if (n == 0) {
			if (!writers_done)
				r->eof_early++;	/* EOF while recording: a failure */
			break;
		}
		r->bytes += n;
		if (n % r->sb) {
			r->bad_sb++;
			note(r, "read returned %zd bytes, not whole sub-buffers of %u", n, r->sb);
			continue;
		}
		for (o = 0; o < n; o += r->sb)
			eat_subbuf(r, buf + o);
	}
	close(fd);
	free(buf);
	return NULL;
}

