// SPDX-License-Identifier: GPL-2.0
/*
 * demo-workload.c: the workload of tools/demo-compare.sh, built static for
 * the busybox VM.
 *
 *   demo-workload MMAPS WCHANS KBYTES
 *
 * 1. MMAPS times (lat_mmap style): mmap 64 KiB anonymous, touch every page,
 *    munmap.
 * 2. WCHANS reads of /proc/PID/wchan of a sleeping child (the kernel looks
 *    its wait channel up with kallsyms).
 * 3. KBYTES KiB over a TCP connection on 127.0.0.1 (a child writes, the
 *    parent reads), 1 KiB per write.
 * Exit 0, or 1 with a message on stderr.
 */
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAP_BYTES	(64 * 1024)

static int do_mmaps(long n)
{
	long page = sysconf(_SC_PAGESIZE);

	for (long i = 0; i < n; i++) {
		char *p = mmap(NULL, MAP_BYTES, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED) {
			perror("mmap");
			return 1;
		}
		for (long o = 0; o < MAP_BYTES; o += page)
			p[o] = (char)o;
		if (munmap(p, MAP_BYTES)) {
			perror("munmap");
			return 1;
		}
	}
	return 0;
}

static int do_wchans(long n)
{
	char path[64], buf[128];
	pid_t c = fork();
	int ret = 0;

	if (c < 0) {
		perror("fork");
		return 1;
	}
	if (c == 0) {
		pause();
		_exit(0);
	}
	usleep(20000);		/* let it reach pause() */
	snprintf(path, sizeof(path), "/proc/%d/wchan", (int)c);
	for (long i = 0; i < n; i++) {
		int fd = open(path, O_RDONLY);

		if (fd < 0 || read(fd, buf, sizeof(buf)) < 0) {
			perror(path);
			ret = 1;
			if (fd >= 0)
				close(fd);
			break;
		}
		close(fd);
	}
	kill(c, SIGKILL);
	waitpid(c, NULL, 0);
	return ret;
}

static int do_tcp(long kbytes)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t al = sizeof(a);
	char buf[1024];
	int ls, s, st;
	long got = 0;
	ssize_t r;
	pid_t c;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ls = socket(AF_INET, SOCK_STREAM, 0);
	if (ls < 0 || bind(ls, (struct sockaddr *)&a, sizeof(a)) ||
	    listen(ls, 1) || getsockname(ls, (struct sockaddr *)&a, &al)) {
		perror("tcp listen");
		return 1;
	}
	c = fork();
	if (c < 0) {
		perror("fork");
		return 1;
	}
	if (c == 0) {
		int cs = socket(AF_INET, SOCK_STREAM, 0);

		if (cs < 0 || connect(cs, (struct sockaddr *)&a, sizeof(a)))
			_exit(1);
		memset(buf, 'x', sizeof(buf));
		for (long i = 0; i < kbytes; i++)
			if (write(cs, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
				_exit(1);
		close(cs);
		_exit(0);
	}
	s = accept(ls, NULL, NULL);
	if (s < 0) {
		perror("accept");
		return 1;
	}
	while ((r = read(s, buf, sizeof(buf))) > 0)
		got += r;
	close(s);
	close(ls);
	waitpid(c, &st, 0);
	if (got != kbytes * 1024 || !WIFEXITED(st) || WEXITSTATUS(st)) {
		fprintf(stderr, "tcp: got %ld bytes of %ld\n", got, kbytes * 1024);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: demo-workload MMAPS WCHANS KBYTES\n");
		return 2;
	}
	if (do_mmaps(atol(argv[1])) || do_wchans(atol(argv[2])) ||
	    do_tcp(atol(argv[3])))
		return 1;
	return 0;
}
