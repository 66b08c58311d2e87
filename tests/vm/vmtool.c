// SPDX-License-Identifier: GPL-2.0
/*
 * vmtool: guest-side helpers for the VM tests that need more than busybox
 * (built static on the host by tests/vm/run-tests.sh, run in the guest).
 * This file: the verbs, the sub-buffer reading they share, eof-read and
 * eof-poll; the other verbs are in vmtool_*.c (vmtool.h).
 *
 *   vmtool eof-read CPU      one blocking reader of CPU's trace_pipe_raw:
 *                            prints "ready", reads until read() returns 0,
 *                            then reads once more; prints
 *                            "records=R after_eof=B" (B: bytes the read after
 *                            the first EOF returned, must be 0)
 *   vmtool eof-poll CPU      the same through poll(): waits in poll(), reads
 *                            on POLLIN; on POLLHUP without POLLIN reads once:
 *                            data there is a violation (counted in
 *                            hup_with_data); prints
 *                            "records=R hup_with_data=H after_eof=B"
 *   vmtool cross ROUNDS      does every sub-buffer name the tasks of its
 *                            records (comm records)? see cross_main()
 *   vmtool seed-rng          credit entropy (test guests: %p hash key)
 *   vmtool sigdfl CMD [ARGS] CMD with SIGINT and SIGQUIT at their defaults
 *                            (a non-interactive shell starts "cmd &" with
 *                            them ignored, and logdev record keeps that)
 *   vmtool hotplug SECONDS   CPUs 1..N-1 offline/online in a loop under
 *                            writers and readers; vmtool ctlstorm SECONDS:
 *                            concurrent writers to every control file;
 *                            vmtool probestorm SECONDS: the probes file
 *                            under concurrent add/remove while probes fire
 *                            (see "faults under load" below; PASS:/FAIL:)
 *   vmtool pingpong N CPU    two processes pinned to CPU pass a byte N times
 *                            over two pipes; prints "pingpong N NS_PER_ROUNDTRIP"
 *                            (vmtool_pingpong.c; bench/kernel/bdcost.sh)
 *   vmtool stress SECONDS ITERS SEED
 *                            control-write stress, see stress() below; prints
 *                            PASS:/FAIL: lines (name vm-stress-smpN)
 *
 * Exit status: 0, or 1 on a setup error (or a FAIL line for stress).
 */
#include "vmtool.h"


int open_pipe(int cpu)
{
	char path[128];
	int fd;

	snprintf(path, sizeof(path), D "/per_cpu/cpu%d/trace_pipe_raw", cpu);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		fprintf(stderr, "vmtool: open %s: %s\n", path, strerror(errno));
	return fd;
}

/* losses by cause, as in the sub-buffer header and the stats file */
const char *const l_name[L_NR] = { "overrun", "dropped", "nesting_lost", "too_big" };

/*
 * Records in @n bytes of whole sub-buffers of @sb bytes, comm records
 * (LOGDEV_REC_COMM, which the stats count as written too) included and also
 * added to *@comm if given; losses in their headers added to @lost[L_*].
 * Returns -1 on a malformed sub-buffer.
 */
long count_records(const unsigned char *buf, size_t n, size_t sb,
			  int cpu, uint64_t *lost, long *comm)
{
	long recs = 0;
	size_t o;

	if (!sb || n % sb)
		return -1;
	for (o = 0; o < n; o += sb) {
		const struct logdev_subbuf_hdr *h = (const void *)(buf + o);
		uint32_t off = 0;

		if (h->magic != LOGDEV_SUBBUF_MAGIC || h->version != LOGDEV_FORMAT_VERSION ||
		    (cpu >= 0 && h->cpu != cpu) || h->data_bytes > sb - LOGDEV_SUBBUF_HDR_SIZE)
			return -1;
		if (lost) {
			lost[L_OVERRUN] += h->overrun_before;
			lost[L_DROPPED] += h->dropped_before;
			lost[L_NESTING_LOST] += h->nesting_lost_before;
			lost[L_TOO_BIG] += h->too_big_before;
		}
		while (off + LOGDEV_REC_HDR_SIZE <= h->data_bytes) {
			const struct logdev_rec_hdr *r =
				(const void *)(buf + o + LOGDEV_SUBBUF_HDR_SIZE + off);

			if (r->len < LOGDEV_REC_HDR_SIZE || r->len % 8 ||
			    off + r->len > h->data_bytes)
				return -1;
			off += r->len;
			recs++;
			if (comm && r->type == LOGDEV_REC_COMM)
				(*comm)++;
		}
		if (off != h->data_bytes)
			return -1;
	}
	return recs;
}

int read_u32_file(const char *path, unsigned int *v)
{
	FILE *f = fopen(path, "r");
	int ok;

	if (!f)
		return -1;
	ok = fscanf(f, "%u", v) == 1;
	fclose(f);
	return ok ? 0 : -1;
}

static unsigned char eofbuf[MAXSB];

static int eof_main(int cpu, int use_poll)
{
	unsigned int sb;
	long recs = 0, k, comm = 0;
	ssize_t n, after = 0;
	int fd, hup_data = 0;

	if (read_u32_file(D "/subbuf_size", &sb) || sb > MAXSB)
		return 1;
	fd = open_pipe(cpu);
	if (fd < 0)
		return 1;
	printf("ready\n");
	fflush(stdout);
	for (;;) {
		if (use_poll) {
			struct pollfd p = { .fd = fd, .events = POLLIN };

			if (poll(&p, 1, -1) < 0) {
				if (errno == EINTR)
					continue;
				perror("vmtool: poll");
				return 1;
			}
			if ((p.revents & POLLHUP) && !(p.revents & POLLIN)) {
				/* a read now must give nothing */
				n = read(fd, eofbuf, sb);
				if (n > 0) {
					hup_data++;
					k = count_records(eofbuf, n, sb, cpu, NULL, &comm);
					recs += k > 0 ? k : 0;
					continue;
				}
				break;
			}
		}
		n = read(fd, eofbuf, sb);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			perror("vmtool: read");
			return 1;
		}
		if (n == 0)
			break;
		k = count_records(eofbuf, n, sb, cpu, NULL, &comm);
		if (k < 0) {
			fprintf(stderr, "vmtool: malformed sub-buffer\n");
			return 1;
		}
		recs += k;
	}
	after = read(fd, eofbuf, sb);
	recs -= comm;	/* the burst's records only */
	if (use_poll)
		printf("records=%ld hup_with_data=%d after_eof=%zd\n", recs,
		       hup_data, after);
	else
		printf("records=%ld after_eof=%zd\n", recs, after);
	close(fd);
	return 0;
}

int pingpong_main(long n, int cpu);	/* vmtool_pingpong.c */

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 3 && !strcmp(argv[1], "eof-read"))
		return eof_main(atoi(argv[2]), 0);
	if (argc == 3 && !strcmp(argv[1], "eof-poll"))
		return eof_main(atoi(argv[2]), 1);
	if (argc == 5 && !strcmp(argv[1], "stress"))
		return stress(atof(argv[2]), strtoul(argv[3], NULL, 0),
			      strtoul(argv[4], NULL, 0));
	if (argc == 5 && !strcmp(argv[1], "comm"))
		return comm_main(argv[2], argv[3], argv[4]);
	if (argc == 3 && !strcmp(argv[1], "cross"))
		return cross_main(strtoul(argv[2], NULL, 0));
	if (argc >= 3 && !strcmp(argv[1], "sigdfl")) {
		signal(SIGINT, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
		execvp(argv[2], argv + 2);
		perror(argv[2]);
		return 127;
	}
	if (argc == 2 && !strcmp(argv[1], "seed-rng"))
		return seed_rng_main();
	if (argc == 3 && !strcmp(argv[1], "hotplug"))
		return hotplug_main(atof(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "ctlstorm"))
		return ctlstorm_main(atof(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "probestorm"))
		return probestorm_main(atof(argv[2]));
	if (argc == 4 && !strcmp(argv[1], "pingpong"))
		return pingpong_main(strtol(argv[2], NULL, 0), atoi(argv[3]));
	fprintf(stderr, "usage: vmtool eof-read CPU | eof-poll CPU | stress SECONDS ITERS SEED | comm A B C | cross ROUNDS | sigdfl CMD... | seed-rng | hotplug SECONDS | ctlstorm SECONDS | probestorm SECONDS | pingpong N CPU\n");
	return 2;
}
