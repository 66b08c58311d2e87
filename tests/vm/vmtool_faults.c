// SPDX-License-Identifier: GPL-2.0
/*
 * vmtool_faults.c - faults under load (guest-faults.sh): the consuming
 * readers and epochs every fault run uses, and vmtool hotplug (every CPU but
 * 0 offline and online again under writers and readers).
 */
#include "vmtool.h"

/* ---- faults under load (guest-faults.sh, issue 13 item 3) ------------- */
/*
 * Shared by hotplug, ctlstorm and probestorm: the stress part's readers,
 * drain() and check_epoch(), with readers that find the sub-buffer size
 * from the data (subbuf_size may change between their reads) and a
 * controller of its own.  Each mode ends with recording off, every reader
 * drained to EOF and, per CPU, read + lost in headers == written (and the
 * other equalities of check_epoch()) over a span with no clear in it.
 */

/*
 * The sub-buffer size of @n bytes read from one trace_pipe_raw: the
 * smallest power of two 1024..65536 that divides @n and at every multiple
 * of which a sub-buffer header of @cpu starts (a smaller guess would put a
 * header inside a real sub-buffer's records).  0 if none fits.
 */
static size_t guess_sb(const unsigned char *buf, size_t n, int cpu)
{
	size_t sb, o;

	for (sb = 1024; sb <= MAXSB; sb *= 2) {
		if (n % sb)
			continue;
		for (o = 0; o < n; o += sb) {
			const struct logdev_subbuf_hdr *h = (const void *)(buf + o);

			if (h->magic != LOGDEV_SUBBUF_MAGIC || h->cpu != (uint32_t)cpu ||
			    h->data_bytes > sb - LOGDEV_SUBBUF_HDR_SIZE)
				break;
		}
		if (o >= n)
			return sb;
	}
	return 0;
}

/* the stress reader, reading MAXSB at a time, sub-buffer size from the data */
static void *fault_reader(void *arg)
{
	struct rd *r = arg;
	unsigned char *buf = malloc(MAXSB);
	int fd = open_pipe(r->cpu);

	if (fd < 0 || !buf) {
		r->errors++;
		return NULL;
	}
	__atomic_store_n(&r->is_open, 1, __ATOMIC_RELEASE);
	while (!stop_readers) {
		unsigned int want = __atomic_load_n(&pause_req, __ATOMIC_ACQUIRE);
		unsigned int g0 = en_gen, on0 = en_state;
		ssize_t n;
		size_t sb;
		long k;

		if (want && r->acked == want) {
			usleep(1000);
			continue;
		}
		n = read(fd, buf, MAXSB);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			snprintf(r->err, sizeof(r->err), "read: %s", strerror(errno));
			r->errors++;
			usleep(1000);
			continue;
		}
		if (n == 0) {
			if (on0 && en_state && g0 == en_gen)
				r->eof_while_on++;
			if (want)
				__atomic_store_n(&r->acked, want, __ATOMIC_RELEASE);
			else
				usleep(1000);
			continue;
		}
		sb = guess_sb(buf, n, r->cpu);
		k = sb ? count_records(buf, n, sb, r->cpu, r->lost, NULL) : -1;
		if (k < 0)
			r->bad++;
		else
			r->recs += k;
	}
	close(fd);
	__atomic_store_n(&r->is_open, 0, __ATOMIC_RELEASE);
	free(buf);
	return NULL;
}

/* start one fault_reader per CPU, its counts zeroed; see fault_stop_readers() */
void fault_start_readers(void)
{
	int c;

	stop_readers = 0;
	for (c = 0; c < ncpu; c++) {
		struct rd *r = &rds[c];

		r->cpu = c;
		r->recs = r->eof_while_on = r->bad = r->errors = 0;
		memset(r->lost, 0, sizeof(r->lost));
		r->acked = 0;
		pthread_create(&r->th, NULL, fault_reader, r);
	}
}

/* stop and join the readers; FAIL lines for what they saw; 0 if all well */
int fault_stop_readers(void)
{
	int c, bad = 0;

	stop_readers = 1;
	for (c = 0; c < ncpu; c++)
		pthread_join(rds[c].th, NULL);
	for (c = 0; c < ncpu; c++) {
		if (rds[c].eof_while_on)
			fail("%s: cpu %d: read() returned 0 (EOF) %llu times while recording was on",
			     name, c, (unsigned long long)rds[c].eof_while_on), bad++;
		if (rds[c].bad)
			fail("%s: cpu %d: %llu malformed reads", name, c,
			     (unsigned long long)rds[c].bad), bad++;
		if (rds[c].errors)
			fail("%s: cpu %d: %llu read errors (%s)", name, c,
			     (unsigned long long)rds[c].errors, rds[c].err), bad++;
	}
	return bad;
}

/* one write of "@val" to @path (absolute): 0 or errno */
int put_path(const char *path, const char *val)
{
	int fd, err = 0;

	fd = open(path, O_WRONLY);
	if (fd < 0)
		return errno;
	if (write(fd, val, strlen(val)) != (ssize_t)strlen(val))
		err = errno ? errno : EIO;
	close(fd);
	return err;
}

/* final epoch: recording off, readers drained, exact accounting; 0 if exact */
int fault_end_epoch(unsigned int epoch)
{
	int before = fails;

	set_enable(0);
	if (drain(epoch))
		return -1;
	check_epoch(epoch, 1);
	return fails != before;
}

/* ---- hotplug: every CPU but 0 offline and online again, in a loop ---- */
static volatile int stop_hp;
static unsigned long hp_cycles, hp_err;
unsigned long wr_runs, wr_bursts, wr_offline;
static char hp_msg[160];

static void *hp_thread(void *arg)
{
	char path[96];
	int c, on, err;

	(void)arg;
	while (!stop_hp) {
		for (c = 1; c < ncpu; c++) {
			for (on = 0; on <= 1; on++) {
				snprintf(path, sizeof(path),
					 "/sys/devices/system/cpu/cpu%d/online", c);
				err = put_path(path, on ? "1\n" : "0\n");
				if (err) {
					hp_err++;
					snprintf(hp_msg, sizeof(hp_msg), "cpu%d online <- %d: %s",
						 c, on, strerror(err));
				}
			}
		}
		hp_cycles++;
	}
	return NULL;
}

/* logdev_test's run (every online CPU, every context), again and again */
void *run_thread(void *arg)
{
	const char *n = arg;

	while (!stop_writers) {
		int err = put_path(T "/run", n);

		if (err)
			fail("%s: logdev_test run %s: %s", name, n, strerror(err));
		wr_runs++;
	}
	return NULL;
}

/* bursts on random CPUs: -ENODEV if the CPU is offline (counted) */
static void *burst_thread(void *arg)
{
	char v[32];

	(void)arg;
	while (!stop_writers) {
		int err;

		snprintf(v, sizeof(v), "%d 50", rand() % ncpu);
		err = put_path(T "/burst", v);
		if (err == ENODEV)
			wr_offline++;
		else if (err)
			fail("%s: burst %s: %s", name, v, strerror(err));
		else
			wr_bursts++;
	}
	return NULL;
}

/*
 * vmtool hotplug SECONDS: recording on for the whole run; writers in every
 * context (logdev_test run) and bursts on random CPUs, one consuming reader
 * per possible CPU, while CPUs 1..N-1 go offline and online again in a loop.
 * Then CPUs 1..N-1 offline for good under the writers, recording off
 * with them offline (their final flush runs remotely), the readers
 * drained, and per CPU read + lost == written, each cause of loss equal in
 * headers and stats; then the CPUs online again.
 */
int hotplug_main(double secs)
{
	pthread_t hp, w1, w2;
	char path[96];
	double t_end;
	int c, bad;

	ncpu = sysconf(_SC_NPROCESSORS_CONF);
	if (ncpu < 2 || ncpu > MAXCPU)
		return printf("FAIL: vm-faults: hotplug: %d CPUs (want 2..%d)\n", ncpu, MAXCPU), 1;
	snprintf(name, sizeof(name), "vm-faults: hotplug");
	srand(1);
	put("enable", "0\n");
	put("mode", "overwrite\n");
	put("subbuf_size", "4096\n");
	/* 4 sub-buffers per CPU: the readers fall behind, losses are counted too */
	put("buffer_size_kb", "16\n");
	put("clear", "1\n");
	fault_start_readers();
	set_enable(1);
	pthread_create(&w1, NULL, run_thread, "200\n");
	pthread_create(&w2, NULL, burst_thread, NULL);
	pthread_create(&hp, NULL, hp_thread, NULL);
	t_end = now() + secs;
	while (now() < t_end) {
		sleep_ms(1000);
		printf("INFO: %s: %lu hotplug cycles, %lu runs, %lu bursts\n", name,
		       hp_cycles, wr_runs, wr_bursts);
	}
	stop_hp = 1;
	pthread_join(hp, NULL);
	/*
	 * CPUs 1..N-1 go offline for good while the writers still run, so
	 * their open sub-buffers hold records; recording stops with them
	 * offline (their final flush runs on another CPU), then they come back.
	 */
	for (c = 1; c < ncpu; c++) {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", c);
		if (put_path(path, "0\n"))
			fail("%s: cpu%d offline before the stop refused", name, c);
		sleep_ms(100);
	}
	stop_writers = 1;
	pthread_join(w1, NULL);
	pthread_join(w2, NULL);
	if (fault_end_epoch(1) == 0)
		printf("PASS: %s: read + lost == written per CPU after %lu offline/online cycles of CPUs 1..%d and a stop with them offline (read %llu lost %llu written %llu)\n",
		       name, hp_cycles, ncpu - 1, tot_read, tot_lost, tot_written);
	for (c = 1; c < ncpu; c++) {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", c);
		if (put_path(path, "1\n"))
			fail("%s: cpu%d online after the stop refused", name, c);
	}
	bad = fault_stop_readers();
	if (!bad)
		printf("PASS: %s: no EOF while recording, no malformed data, no read error\n", name);
	if (hp_err)
		fail("%s: %lu hotplug writes failed, e.g. %s", name, hp_err, hp_msg);
	else if (hp_cycles < 3)
		fail("%s: only %lu hotplug cycles in %.0f s", name, hp_cycles, secs);
	else
		printf("PASS: %s: %lu cycles of CPUs 1..%d offline and online, every write accepted\n",
		       name, hp_cycles, ncpu - 1);
	if (wr_runs < 2 || wr_bursts < 10 || !tot_read)
		fail("%s: too little load: %lu runs, %lu bursts, %llu records read",
		     name, wr_runs, wr_bursts, tot_read);
	else
		printf("PASS: %s: writers ran meanwhile: %lu runs, %lu bursts (%lu refused ENODEV: CPU offline)\n",
		       name, wr_runs, wr_bursts, wr_offline);
	return fails ? 1 : 0;
}

