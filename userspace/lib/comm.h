/* SPDX-License-Identifier: GPL-2.0 */
/*
 * comm.h: the reader's table of task names (library-private: reader.c
 * keeps it, convert.c walks it for trace.dat's cmdlines).  Readers of the
 * library ask lgd_comm_at() (lgd_read.h).
 */
#ifndef LGD_COMM_H
#define LGD_COMM_H

#include <stdint.h>
#include <uapi/linux/logdev.h>

/**
 * struct lgd_comm - task @pid had name @comm from @ts (ns) on: the first of
 * a run of comm records of @pid with this name (renames and pid reuse start
 * a new entry)
 */
struct lgd_comm {
	uint32_t pid;
	uint64_t ts;
	char comm[LOGDEV_COMM_LEN + 1];
};

/**
 * struct lgd_comm_task - the names of one pid, @n of them in @v sorted by ts
 * (@cap allocated).  Entries that arrive out of time order (a clock that went
 * back) are kept only while the pid has fewer than LGD_COMM_UNORDERED_MAX,
 * so that a hostile capture cannot make the insertions quadratic.
 */
struct lgd_comm_task {
	uint32_t pid;
	uint32_t n, cap;
	struct lgd_comm *v;
};

#endif /* LGD_COMM_H */
