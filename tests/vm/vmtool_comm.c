// SPDX-License-Identifier: GPL-2.0
/*
 * vmtool_comm.c - vmtool seed-rng (entropy for the %p hash key), comm (task
 * names across exit and pid reuse) and cross (does every sub-buffer name
 * the tasks of its records?).
 */
#include "vmtool.h"

/* ---- seed-rng: credit entropy so the kernel's %p hash key gets made ---- */
/*
 * vmtool seed-rng: RNDADDENTROPY of 64 bytes of getrandom() output, credited
 * as 512 bits (root only), so that crng is initialised in a guest without
 * an entropy source (qemu64 has no RDRAND) and lib/vsprintf.c's key for
 * hashing %p is drawn (it retries every 2 s): plain %p then prints a hash,
 * not "(____ptrval____)".  A test guest only.
 */
int seed_rng_main(void)
{
	struct {
		int entropy_count;
		int buf_size;
		unsigned char buf[64];
	} e;
	int fd, ok;

	e.entropy_count = 8 * sizeof(e.buf);
	e.buf_size = sizeof(e.buf);
	if (getrandom(e.buf, sizeof(e.buf), GRND_INSECURE) != (ssize_t)sizeof(e.buf))
		return perror("vmtool: getrandom"), 1;
	fd = open("/dev/random", O_WRONLY);
	if (fd < 0)
		return perror("vmtool: /dev/random"), 1;
	ok = ioctl(fd, RNDADDENTROPY, &e) == 0;
	if (!ok)
		perror("vmtool: RNDADDENTROPY");
	close(fd);
	return ok ? 0 : 1;
}

/* ---- comm: task names across exit and pid reuse (guest-comm.sh) ---- */

/* as task NAME, write TAG to logdev_test's comm file; Return: 0 or -1 */
static int comm_write(const char *name, unsigned int tag)
{
	char b[16];
	int fd, n, ok;

	if (name && prctl(PR_SET_NAME, name, 0, 0, 0))
		return -1;
	fd = open("/sys/kernel/debug/logdev_test/comm", O_WRONLY);
	if (fd < 0)
		return -1;
	n = snprintf(b, sizeof(b), "%u", tag);
	ok = write(fd, b, (size_t)n) == n;
	close(fd);
	return ok ? 0 : -1;
}

/*
 * vmtool comm A B C: this process (named vmtool) writes tag 0; a child named
 * A (pid 300 or more) writes tag 1 and exits; children are forked until one gets A's pid
 * again: it names itself B, writes tag 2, renames itself C (prctl, same
 * pid), writes tag 3; then this process writes tag 4.  Prints
 * "pid vmtool=P A=Q" and "PASS:"/"FAIL:" lines.
 */
int comm_main(const char *a, const char *b, const char *c)
{
	pid_t pa, p;
	int st, tries;

	if (comm_write(NULL, 0))
		return printf("FAIL: vm-comm: write tag 0: %s\n", strerror(errno)), 1;
	/*
	 * pids below 300 (RESERVED_PIDS) are not handed out again after the
	 * pid counter wraps: make lt_alpha's pid at least 300 (the guest sets
	 * a small pid_max, so the counter wraps soon after).
	 */
	for (tries = 0; tries < 100000; tries++) {
		p = fork();
		if (p == 0)
			_exit(0);
		if (p < 0 || waitpid(p, &st, 0) != p)
			return printf("FAIL: vm-comm: fork: %s\n", strerror(errno)), 1;
		if (p >= 300)
			break;
	}
	pa = fork();
	if (pa == 0)
		_exit(comm_write(a, 1) ? 1 : 0);
	if (pa < 0 || waitpid(pa, &st, 0) != pa || !WIFEXITED(st) || WEXITSTATUS(st))
		return printf("FAIL: vm-comm: task %s did not record\n", a), 1;
	for (tries = 0; tries < 200000; tries++) {
		p = fork();
		if (p == 0) {
			if (getpid() != pa)
				_exit(0);
			_exit(comm_write(b, 2) || comm_write(c, 3) ? 1 : 0);
		}
		if (p < 0 || waitpid(p, &st, 0) != p)
			return printf("FAIL: vm-comm: fork: %s\n", strerror(errno)), 1;
		if (p == pa)
			break;
	}
	if (p != pa)
		return printf("FAIL: vm-comm: pid %d not reused in %d forks\n", pa, tries), 1;
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		return printf("FAIL: vm-comm: task %s/%s did not record\n", b, c), 1;
	if (comm_write(NULL, 4))
		return printf("FAIL: vm-comm: write tag 4\n"), 1;
	printf("pid vmtool=%d %s=%d\n", getpid(), a, pa);
	printf("PASS: vm-comm: pid %d reused after %d forks, every task recorded\n", pa, tries);
	return 0;
}

/* ------------------------------------------------------------------ cross */

/* One write of "N BYTES" to logdev_test's fill file: 0 or -1. */
static int fill_write(unsigned int n, unsigned int bytes)
{
	char b[32];
	int fd, len, ok;

	fd = open(T "/fill", O_WRONLY);
	if (fd < 0)
		return -1;
	len = snprintf(b, sizeof(b), "%u %u", n, bytes);
	ok = write(fd, b, (size_t)len) == len;
	close(fd);
	return ok ? 0 : -1;
}

/* A byte over a pipe, and the answer: 0 or -1. */
static int turn(int wfd, int rfd, char c)
{
	char a;

	if (write(wfd, &c, 1) != 1 || read(rfd, &a, 1) != 1)
		return -1;
	return a == 'k' ? 0 : -1;
}

/* what cross_main() counts in the sub-buffers it read */
struct cross_count {
	unsigned int nsb, opened, flushed, unnamed, recs;
	uint64_t lost;
};

/*
 * Check @n bytes of whole sub-buffers of @sbsz bytes read after the rounds:
 * every sub-buffer names the tasks of its records (@child is lt_cross, @me
 * vmtool); counts into @cc.  Return: 0, or -1 on a malformed sub-buffer.
 */
static int cross_check(const unsigned char *buf, size_t n, unsigned int sbsz,
		       pid_t child, pid_t me, struct cross_count *cc)
{
	size_t o;

	for (o = 0; o < n; o += sbsz) {
		const struct logdev_subbuf_hdr *h = (const void *)(buf + o);
		uint32_t off = 0, first_pid = 0, named[8], nn = 0, i, first_type = 0;
		uint32_t second_pid = 0, second_bytes = 0, nrec = 0;
		uint32_t need[64], nneed = 0;

		if (h->magic != LOGDEV_SUBBUF_MAGIC || h->data_bytes > sbsz - LOGDEV_SUBBUF_HDR_SIZE)
			return printf("FAIL: vm-comm: cross: malformed sub-buffer at byte %zu\n", o), -1;
		cc->nsb++;
		cc->lost += h->overrun_before + h->dropped_before + h->nesting_lost_before +
			h->too_big_before;
		while (off + LOGDEV_REC_HDR_SIZE <= h->data_bytes) {
			const struct logdev_rec_hdr *rec =
				(const void *)(buf + o + LOGDEV_SUBBUF_HDR_SIZE + off);

			if (rec->len < LOGDEV_REC_HDR_SIZE || off + rec->len > h->data_bytes)
				break;
			if (!off) {
				first_pid = rec->pid;
				first_type = rec->type;
			} else if (nrec == 1) {
				second_pid = rec->pid;
				second_bytes = rec->arg_bytes;
			}
			nrec++;
			if (rec->type == LOGDEV_REC_COMM) {
				if (nn < 8)
					named[nn++] = rec->pid;
			} else {
				cc->recs++;
				for (i = 0; i < nneed && need[i] != rec->pid; i++)
					;
				if (i == nneed && nneed < 64)
					need[nneed++] = rec->pid;
			}
			off += rec->len;
		}
		if (first_type != LOGDEV_REC_COMM && first_pid == (uint32_t)child)
			cc->opened++;
		/* after a flush: lt_cross's name, then its 8-byte record */
		if (first_type == LOGDEV_REC_COMM && first_pid == (uint32_t)child &&
		    second_pid == (uint32_t)child && second_bytes == 8)
			cc->flushed++;
		for (i = 0; i < nneed; i++) {
			uint32_t j;

			for (j = 0; j < nn && named[j] != need[i]; j++)
				;
			if (j == nn && cc->unnamed++ < 5)
				printf("FAIL: vm-comm: cross: sub-buffer seq %llu: records of pid %u (%s), no comm record of it\n",
				       (unsigned long long)h->seq, need[i],
				       need[i] == (uint32_t)child ? "lt_cross" :
				       need[i] == (uint32_t)me ? "vmtool" : "?");
		}
	}
	return 0;
}

/*
 * vmtool cross ROUNDS: does every sub-buffer name the tasks of its records?
 * On CPU 0, in overwrite mode with 1024-byte sub-buffers: this process
 * (vmtool) and a child named lt_cross take turns.  Per round vmtool writes
 * 4-6 records of 8-200 payload bytes (the sizes vary so that the open
 * sub-buffer's free space does), then lt_cross one of 512 bytes, which fits
 * a sub-buffer with vmtool's records in it about half of the time: else it
 * opens the next one, lt_cross's comm record left in the one before.  Every
 * 10th round vmtool then flushes and lt_cross writes one 8-byte record,
 * which opens a sub-buffer too.  vmtool's records that follow fill the
 * rest of that sub-buffer, so lt_cross's name can only be in it if the
 * kernel wrote one there for the record that opened it (the reader names a
 * record by its pid's comm record before it, else the first after:
 * lgd_comm_at(); with the older sub-buffers overwritten only that one is
 * left).  Then recording off, CPU 0 drained to EOF, and every sub-buffer
 * checked: each pid of a record has a comm record in the same sub-buffer.
 * Prints "PASS:"/"FAIL:" lines (vm-comm).
 */
int cross_main(unsigned int rounds)
{
	struct cross_count cc = { 0 };
	unsigned int sbsz, r, flushes = 0;
	int p2c[2], c2p[2], fd, st, fails0 = 0;
	size_t cap = 8 << 20, n = 0;
	unsigned char *buf;
	cpu_set_t set;
	ssize_t k;
	pid_t child, me = getpid();

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		return printf("FAIL: vm-comm: cross: pin to CPU 0: %s\n", strerror(errno)), 1;
	if (put("enable", "0") || put("mode", "overwrite") || put("subbuf_size", "1024") ||
	    put("buffer_size_kb", "1024") || put("clear", "1") ||
	    read_u32_file(D "/subbuf_size", &sbsz) || sbsz != 1024)
		return printf("FAIL: vm-comm: cross: setup refused\n"), 1;
	if (pipe(p2c) || pipe(c2p))
		return printf("FAIL: vm-comm: cross: pipe: %s\n", strerror(errno)), 1;
	child = fork();
	if (child < 0)
		return printf("FAIL: vm-comm: cross: fork: %s\n", strerror(errno)), 1;
	if (child == 0) {
		char c, a;

		if (prctl(PR_SET_NAME, "lt_cross", 0, 0, 0))
			_exit(1);
		while (read(p2c[0], &c, 1) == 1 && c != 'q') {
			a = fill_write(1, c == 'b' ? 512 : 8) ? 'e' : 'k';
			if (write(c2p[1], &a, 1) != 1)
				_exit(1);
		}
		_exit(0);
	}
	if (put("enable", "1"))
		return printf("FAIL: vm-comm: cross: enable refused\n"), 1;
	for (r = 0; r < rounds; r++) {
		if (fill_write(4 + r % 3, 8 + (r * 53) % 193 / 4 * 4) ||
		    turn(p2c[1], c2p[0], 'b')) {
			printf("FAIL: vm-comm: cross: round %u did not record\n", r);
			fails0 = 1;
			break;
		}
		if (r % 10 == 9) {
			if (put("flush", "1") || turn(p2c[1], c2p[0], 's')) {
				printf("FAIL: vm-comm: cross: flush round %u did not record\n", r);
				fails0 = 1;
				break;
			}
			flushes++;
		}
	}
	if (write(p2c[1], "q", 1) != 1 || waitpid(child, &st, 0) != child ||
	    !WIFEXITED(st) || WEXITSTATUS(st))
		fails0 = 1;
	if (put("enable", "0"))
		fails0 = 1;
	buf = malloc(cap);
	fd = open_pipe(0);
	if (!buf || fd < 0)
		return printf("FAIL: vm-comm: cross: no buffer or no trace_pipe_raw\n"), 1;
	while (n + sbsz <= cap && (k = read(fd, buf + n, sbsz)) > 0)
		n += (size_t)k;
	close(fd);
	if (n % sbsz) {
		free(buf);
		return printf("FAIL: vm-comm: cross: read %zu bytes, not whole sub-buffers\n", n), 1;
	}
	if (cross_check(buf, n, sbsz, child, me, &cc)) {
		free(buf);
		return 1;
	}
	free(buf);
	if (fails0)
		return printf("FAIL: vm-comm: cross: the rounds did not complete\n"), 1;
	if (cc.lost)
		printf("FAIL: vm-comm: cross: %llu records lost, want none\n", (unsigned long long)cc.lost);
	if (cc.opened < rounds / 5)
		printf("FAIL: vm-comm: cross: %u of %u sub-buffers opened by lt_cross's 512-byte record, want at least %u\n",
		       cc.opened, cc.nsb, rounds / 5);
	if (cc.flushed != flushes)
		printf("FAIL: vm-comm: cross: %u sub-buffers after a flush begin with lt_cross's name, want %u\n",
		       cc.flushed, flushes);
	if (cc.unnamed)
		printf("FAIL: vm-comm: cross: %u sub-buffers hold records of a task they do not name\n",
		       cc.unnamed);
	if (cc.lost || cc.opened < rounds / 5 || cc.flushed != flushes || cc.unnamed)
		return 1;
	printf("PASS: vm-comm: cross: %u rounds, %u records in %u sub-buffers; %u opened by lt_cross's record, %u after a flush: every sub-buffer names the tasks of its records\n",
	       rounds, cc.recs, cc.nsb, cc.opened, cc.flushed);
	return 0;
}

