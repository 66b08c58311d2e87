// SPDX-License-Identifier: GPL-2.0
/*
 * vmtool pingpong N CPU: a context-switch-heavy workload for
 * bench/kernel/bdcost.sh (the cost of record --breakdown's markers).
 * Two processes pinned to CPU pass one byte back and forth over two pipes
 * N times; each round trip is 2 context switches and 2 wake-ups (each side
 * blocks in read() and is woken by the other's write()).  After 1000
 * round trips of warm-up, times N of them (CLOCK_MONOTONIC) and prints
 * "pingpong N NS_PER_ROUNDTRIP".
 */
#include "vmtool.h"

#define WARMUP	1000

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "vmtool: sched_setaffinity(%d): %s\n", cpu, strerror(errno));
		return -1;
	}
	return 0;
}

/* one byte through fd @w, then one back from fd @r; 0 or -1 */
static int hop(int w, int r, char *c)
{
	return write(w, c, 1) == 1 && read(r, c, 1) == 1 ? 0 : -1;
}

int pingpong_main(long n, int cpu)
{
	int to_child[2], to_parent[2], status;
	struct timespec a, b;
	char c = 'x';
	pid_t pid;
	long i;

	if (n <= 0 || cpu < 0 || pipe(to_child) || pipe(to_parent)) {
		fprintf(stderr, "vmtool pingpong: bad N or CPU, or pipe(): %s\n", strerror(errno));
		return 1;
	}
	if (pin(cpu))
		return 1;
	pid = fork();	/* the child inherits the affinity */
	if (pid < 0) {
		perror("vmtool pingpong: fork");
		return 1;
	}
	if (!pid) {	/* the echo: read a byte, send it back, until EOF */
		close(to_child[1]);
		close(to_parent[0]);
		while (read(to_child[0], &c, 1) == 1)
			if (write(to_parent[1], &c, 1) != 1)
				_exit(1);
		_exit(0);
	}
	close(to_child[0]);
	close(to_parent[1]);
	for (i = 0; i < WARMUP; i++)
		if (hop(to_child[1], to_parent[0], &c))
			goto broken;
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (i = 0; i < n; i++)
		if (hop(to_child[1], to_parent[0], &c))
			goto broken;
	clock_gettime(CLOCK_MONOTONIC, &b);
	close(to_child[1]);	/* EOF: the child exits */
	waitpid(pid, &status, 0);
	printf("pingpong %ld %.1f\n", n,
	       ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / n);
	return 0;
broken:
	fprintf(stderr, "vmtool pingpong: pipe broken after %ld round trips\n", i);
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return 1;
}
