/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vmtool.h - between the files of vmtool, the guest-side helper of the VM
 * tests (tests/vm/vmtool*.c, built static by tests/vm/run-tests.sh): the
 * debugfs paths, the sub-buffer reading of vmtool.c, the control-write
 * stress's shared state and steps (vmtool_stress.c), the fault readers of
 * vmtool_faults.c, and each verb's entry point.
 */
#ifndef VMTOOL_H
#define VMTOOL_H

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/logdev.h>
#include <linux/random.h>

#define D	"/sys/kernel/debug/logdev"
#define T	"/sys/kernel/debug/logdev_test"
#define MAXSB	65536
#define MAXCPU	64

/* losses by cause, as in the sub-buffer header and the stats file */
enum { L_OVERRUN, L_DROPPED, L_NESTING_LOST, L_TOO_BIG, L_NR };

struct rd {
	pthread_t th;
	int cpu;
	uint64_t recs, lost[L_NR];	/* this epoch */
	volatile unsigned int acked;	/* pause_req value seen drained */
	volatile int is_open;		/* its trace_pipe_raw is open */
	uint64_t eof_while_on, bad, errors;
	char err[160];
};

struct st { unsigned long long w, r, lost[L_NR], by; };


/* vmtool.c */
int open_pipe(int cpu);
extern const char *const l_name[L_NR];
long count_records(const unsigned char *buf, size_t n, size_t sb, int cpu, uint64_t *lost, long *comm);
int read_u32_file(const char *path, unsigned int *v);

/* vmtool_stress.c */
extern int ncpu;
extern volatile int stop_writers;
extern volatile int stop_readers;
extern volatile int en_state;
extern volatile unsigned int en_gen;
extern volatile unsigned int pause_req;
extern int fails;
extern struct rd rds[MAXCPU];
void fail(const char *fmt, ...);
extern char name[32];
int put(const char *file, const char *val);
void get(const char *file, char *out, size_t size);
void set_enable(int on);
void sleep_ms(unsigned int ms);
double now(void);
int readers_open(int open);
int drain(unsigned int epoch);
extern unsigned long long tot_read;
extern unsigned long long tot_lost;
extern unsigned long long tot_written;
void check_epoch(unsigned int epoch, int exact);
int stress(double secs, unsigned int it, unsigned int seed);

/* vmtool_faults.c */
void fault_start_readers(void);
int fault_stop_readers(void);
int put_path(const char *path, const char *val);
int fault_end_epoch(unsigned int epoch);
extern unsigned long wr_runs;
void *run_thread(void *arg);
int hotplug_main(double secs);

/* vmtool_storm.c */
int ctlstorm_main(double secs);
int probestorm_main(double secs);

/* vmtool_comm.c */
int seed_rng_main(void);
int comm_main(const char *a, const char *b, const char *c);
int cross_main(unsigned int rounds);

#endif /* VMTOOL_H */
