// SPDX-License-Identifier: GPL-2.0
/*
 * vmtool_storm.c - vmtool ctlstorm (concurrent writers to every control
 * file) and vmtool probestorm (the probes file under concurrent add and
 * remove while probes fire), under load (vmtool_faults.c).
 */
#include "vmtool.h"

/* ---- ctlstorm: concurrent writers to every control file --------------- */
/*
 * One thread per control file writes random words from its table, good and
 * bad, while logdev_test's writers run; the first half with no reader, the
 * second with the readers consuming.  A word marked bad must fail with
 * EINVAL; a good one must be accepted, except: mode, clock, buffer_size_kb
 * and subbuf_size may be refused with EBUSY (recording was on), and with
 * the readers' files open those and clear must be (issue 24: a reset under
 * a reader lost its unread records); around the readers' start either
 * outcome is allowed.  Any other outcome is a FAIL.  Afterwards: every file
 * reads back a value of its table, the sizes agree, and, the readers closed
 * for a clear and opened again, one more epoch (recording on, a run,
 * recording off) is exact.
 */
struct ctl {
	const char *file;
	const char *words[8];	/* "!" first: must be refused with EINVAL */
	int busy_ok;		/* good words may be refused with EBUSY;
				 * 2: must be while readers are open */
	unsigned long ok, busy, inval, busy_read;	/* busy_read: EBUSY, readers open */
	char err[160];
	unsigned long nerr;
};

static struct ctl ctls[] = {
	{ "enable", { "1\n", "0\n", "1\n", "!2\n", "!on\n", "!\n" }, 0 },
	{ "mode", { "overwrite\n", "discard\n", "!bogus\n", "!overwrite discard\n" }, 2 },
	{ "clock", { "local\n", "global\n", "mono\n", "!loc\n" }, 2 },
	{ "buffer_size_kb", { "16\n", "32\n", "64\n", "!0\n", "!abc\n", "!12abc\n" }, 2 },
	{ "subbuf_size", { "1024\n", "2048\n", "4096\n", "!3000\n", "!0\n" }, 2 },
	{ "clear", { "1\n", "!\n" }, 2 },
	{ "flush", { "1\n", "!2\n" }, 0 },
	{ "dump_on_oops", { "0\n", "!7\n" }, 0 },
};
#define NCTL (sizeof(ctls) / sizeof(ctls[0]))
static volatile int stop_ctl;
/* 0: no reader; 1: the readers' files are opening; 2: all open */
static volatile int ctl_readers;

static void *ctl_thread(void *arg)
{
	struct ctl *k = arg;
	unsigned int seed = (unsigned int)(k - ctls) * 7919 + 1;
	int nw = 0;

	while (nw < 8 && k->words[nw])
		nw++;
	while (!stop_ctl) {
		const char *w = k->words[rand_r(&seed) % nw];
		int badw = *w == '!', err;

		int ph0 = ctl_readers, ph1, want_busy, may_busy;

		if (badw)
			w++;
		if (!strcmp(k->file, "enable")) {
			/* keep en_state/en_gen true for the readers' EOF check */
			if (badw) {
				err = put(k->file, w);
			} else {
				set_enable(w[0] == '1');
				err = 0;
			}
		} else {
			err = put(k->file, w);
		}
		ph1 = ctl_readers;
		/* the readers' state for the whole write: 0 none, 2 open, else either */
		want_busy = k->busy_ok == 2 && ph0 == 2 && ph1 == 2;
		may_busy = k->busy_ok == 1 || (k->busy_ok == 2 &&
					       (strcmp(k->file, "clear") || ph0 || ph1));
		if (badw ? err == EINVAL :
		    want_busy ? err == EBUSY : (!err || (err == EBUSY && may_busy))) {
			if (badw)
				k->inval++;
			else if (err)
				k->busy++, k->busy_read += want_busy;
			else
				k->ok++;
		} else {
			k->nerr++;
			snprintf(k->err, sizeof(k->err), "'%.*s' -> %s (want %s)",
				 (int)strcspn(w, "\n"), w, err ? strerror(err) : "accepted",
				 badw ? "EINVAL" : want_busy ? "EBUSY, readers open" :
				 may_busy ? "accepted or EBUSY" : "accepted");
		}
		if (rand_r(&seed) % 4 == 0)
			sleep_ms(rand_r(&seed) % 5);
	}
	return NULL;
}

/* is @v one of @k's good words (without their newline)? */
static int ctl_good(const struct ctl *k, const char *v)
{
	int i;

	for (i = 0; i < 8 && k->words[i]; i++)
		if (k->words[i][0] != '!' &&
		    !strncmp(k->words[i], v, strcspn(k->words[i], "\n")) &&
		    strlen(v) == strcspn(k->words[i], "\n"))
			return 1;
	return 0;
}

static int ctl_has_bad(const struct ctl *k)
{
	int i;

	for (i = 0; i < 8 && k->words[i]; i++)
		if (k->words[i][0] == '!')
			return 1;
	return 0;
}

int ctlstorm_main(double secs)
{
	pthread_t th[NCTL], w1;
	char v[128], kb[128], sb[128];
	unsigned long tot = 0;
	double t_end;
	size_t i;
	int bad;

	ncpu = sysconf(_SC_NPROCESSORS_CONF);
	if (ncpu < 1 || ncpu > MAXCPU)
		return 1;
	snprintf(name, sizeof(name), "vm-faults-ctl: storm");
	put("enable", "0\n");
	put("subbuf_size", "4096\n");
	put("buffer_size_kb", "32\n");
	put("clear", "1\n");
	ctl_readers = 0;
	set_enable(1);
	pthread_create(&w1, NULL, run_thread, "100\n");
	for (i = 0; i < NCTL; i++)
		pthread_create(&th[i], NULL, ctl_thread, &ctls[i]);
	t_end = now() + secs;
	while (now() < t_end) {
		sleep_ms(1000);
		printf("INFO: %s: %lu runs so far\n", name, wr_runs);
		if (!ctl_readers && now() > t_end - secs / 2) {
			ctl_readers = 1;	/* the second half: readers */
			fault_start_readers();
			if (readers_open(1))
				break;
			ctl_readers = 2;
		}
	}
	stop_ctl = 1;
	for (i = 0; i < NCTL; i++)
		pthread_join(th[i], NULL);
	stop_writers = 1;
	pthread_join(w1, NULL);

	for (i = 0; i < NCTL; i++) {
		struct ctl *k = &ctls[i];

		tot += k->ok + k->busy + k->inval;
		if (k->nerr)
			fail("%s: %s: %lu writes with the wrong outcome, e.g. %s", name,
			     k->file, k->nerr, k->err);
		else if (!k->ok || (ctl_has_bad(k) && !k->inval) ||
			 (k->busy_ok == 2 && !k->busy_read))
			fail("%s: %s: %lu accepted, %lu EBUSY (%lu with readers open), %lu EINVAL: a kind never tried",
			     name, k->file, k->ok, k->busy, k->busy_read, k->inval);
		else
			printf("PASS: %s: %s: %lu accepted, %lu EBUSY (%lu with readers open), %lu EINVAL, each as documented\n",
			       name, k->file, k->ok, k->busy, k->busy_read, k->inval);
	}
	/* recording off, readers drained; the files hold values of their tables */
	set_enable(0);
	drain(1);
	check_epoch(1, 0);	/* clears ran meanwhile: not exact, counts reset */
	for (i = 1; i < NCTL; i++) {
		struct ctl *k = &ctls[i];

		if (!strcmp(k->file, "clear") || !strcmp(k->file, "flush"))
			continue;
		get(k->file, v, sizeof(v));
		if (!ctl_good(k, v))
			fail("%s: %s reads '%s' after the storm, not a value written", name,
			     k->file, v);
		else
			printf("PASS: %s: %s reads '%s' after the storm\n", name, k->file, v);
	}
	get("buffer_size_kb", kb, sizeof(kb));
	get("subbuf_size", sb, sizeof(sb));
	if (atoi(sb) <= 0 || atoi(kb) * 1024 / atoi(sb) < 2 || atoi(kb) * 1024 % atoi(sb))
		fail("%s: buffer_size_kb %s and subbuf_size %s disagree", name, kb, sb);
	/* one clean epoch: exact accounting after the storm (readers closed for the clear) */
	bad = fault_stop_readers();
	if (put("clear", "1\n"))
		fail("%s: clear after the storm refused", name);
	fault_start_readers();
	readers_open(1);
	__atomic_store_n(&pause_req, 0, __ATOMIC_RELEASE);
	set_enable(1);
	if (put_path(T "/run", "300\n"))
		fail("%s: logdev_test run after the storm failed", name);
	if (fault_end_epoch(2) == 0 && tot_read)
		printf("PASS: %s: after %lu control writes from %zu threads, an epoch is exact: read %llu + lost %llu == written %llu\n",
		       name, tot, NCTL, tot_read, tot_lost, tot_written);
	else if (!tot_read)
		fail("%s: nothing read in the epoch after the storm", name);
	if (!fault_stop_readers() && !bad)
		printf("PASS: %s: no EOF while recording, no malformed data, no read error\n", name);
	put("dump_on_oops", "0\n");
	return fails ? 1 : 0;
}

/* ---- probestorm: the probes file under concurrent add/remove --------- */
/*
 * Threads add and remove probes on functions that fire all the time (the
 * readers' own vfs_read, kmem_cache_free), some under the same names as
 * other threads', one truncating the file (O_TRUNC removes every probe),
 * one reading the listing, while recording is on.  Outcomes allowed: add
 * 0 or EEXIST (the name is taken), removal 0 or ENOENT (already gone).
 * Then every probe removed, the listing empty, recording off, and per CPU
 * read + lost == written (no clear in this run: one exact span).
 */
struct pst {
	const char *add, *del;
	unsigned long added, exist, removed, noent, nerr;
	char err[200];
};

static struct pst psts[] = {
	{ "p:fs_a vfs_read", "-:fs_a" },
	{ "p:fs_a vfs_write", "-:fs_a" },	/* same name: EEXIST / ENOENT */
	{ "r:fs_r vfs_read $retval", "-:fs_r" },
	{ "p:fs_k kmem_cache_free s=$arg1 o=$arg2", "-:fs_k" },
	{ "p:kprobes/fs_g vfs_read $comm", "-:kprobes/fs_g" },
};
#define NPST (sizeof(psts) / sizeof(psts[0]))
static unsigned long ps_trunc, ps_lists;

static void *pst_thread(void *arg)
{
	struct pst *k = arg;
	char path[] = D "/probes";
	int err;

	while (!stop_ctl) {
		err = put_path(path, k->add);
		if (!err)
			k->added++;
		else if (err == EEXIST)
			k->exist++;
		else if (k->nerr++ == 0)
			snprintf(k->err, sizeof(k->err), "'%s' -> %s", k->add, strerror(err));
		usleep(rand() % 3000);
		err = put_path(path, k->del);
		if (!err)
			k->removed++;
		else if (err == ENOENT)
			k->noent++;
		else if (k->nerr++ == 0)
			snprintf(k->err, sizeof(k->err), "'%s' -> %s", k->del, strerror(err));
	}
	return NULL;
}

static void *pst_other(void *arg)
{
	char buf[4096];
	int fd;

	(void)arg;
	while (!stop_ctl) {
		fd = open(D "/probes", O_RDONLY);
		if (fd >= 0) {
			while (read(fd, buf, sizeof(buf)) > 0)
				;
			close(fd);
			ps_lists++;
		}
		if (rand() % 4 == 0) {
			fd = open(D "/probes", O_WRONLY | O_TRUNC);
			if (fd >= 0) {
				close(fd);
				ps_trunc++;
			}
		}
		usleep(2000);
	}
	return NULL;
}

int probestorm_main(double secs)
{
	pthread_t th[NPST], o;
	char buf[4096];
	double t_end;
	size_t i;
	ssize_t n;
	int fd, bad = 0;
	unsigned long adds = 0;

	ncpu = sysconf(_SC_NPROCESSORS_CONF);
	if (ncpu < 1 || ncpu > MAXCPU)
		return 1;
	snprintf(name, sizeof(name), "vm-faults-ctl: probes");
	put("enable", "0\n");
	put("subbuf_size", "4096\n");
	put("buffer_size_kb", "64\n");
	put("mode", "overwrite\n");
	put("clear", "1\n");
	stop_readers = 0;
	stop_ctl = 0;
	fault_start_readers();
	set_enable(1);
	for (i = 0; i < NPST; i++)
		pthread_create(&th[i], NULL, pst_thread, &psts[i]);
	pthread_create(&o, NULL, pst_other, NULL);
	t_end = now() + secs;
	while (now() < t_end) {
		sleep_ms(1000);
		printf("INFO: %s: %lu listings, %lu truncations\n", name, ps_lists, ps_trunc);
	}
	stop_ctl = 1;
	for (i = 0; i < NPST; i++)
		pthread_join(th[i], NULL);
	pthread_join(o, NULL);
	for (i = 0; i < NPST; i++) {
		struct pst *k = &psts[i];

		adds += k->added;
		if (k->nerr) {
			fail("%s: '%s' / '%s': %lu unexpected outcomes, e.g. %s", name,
			     k->add, k->del, k->nerr, k->err);
			bad++;
		}
	}
	if (!bad && adds > 10)
		printf("PASS: %s: %lu adds (%lu + %lu EEXIST for the shared name), %lu listings, %lu truncations: every outcome 0, EEXIST or ENOENT\n",
		       name, adds, psts[1].added, psts[1].exist, ps_lists, ps_trunc);
	else if (!bad)
		fail("%s: only %lu probes added", name, adds);
	/* remove what is left; the listing must be empty */
	fd = open(D "/probes", O_WRONLY | O_TRUNC);
	if (fd >= 0)
		close(fd);
	fd = open(D "/probes", O_RDONLY);
	n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	if (fd >= 0)
		close(fd);
	if (n != 0)
		fail("%s: probes lists %zd bytes after every probe was removed: %.80s",
		     name, n, n > 0 ? (buf[n] = 0, buf) : "");
	else
		printf("PASS: %s: the listing is empty after removing every probe\n", name);
	if (fault_end_epoch(1) == 0 && tot_read)
		printf("PASS: %s: read + lost == written per CPU (read %llu lost %llu written %llu)\n",
		       name, tot_read, tot_lost, tot_written);
	else if (!tot_read)
		fail("%s: no record read: the probes never fired", name);
	if (!fault_stop_readers())
		printf("PASS: %s: no EOF while recording, no malformed data, no read error\n", name);
	return fails ? 1 : 0;
}

