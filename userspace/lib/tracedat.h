/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracedat.h: the trace.dat v6 writer (tracedat.c), library-private: only
 * convert.c writes trace.dat files (lgd_convert_tracedat(), lgd_convert.h).
 */
#ifndef LGD_TRACEDAT_H
#define LGD_TRACEDAT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "lgd_convert.h"

/* ---- trace.dat (trace-cmd file format v6) writer: tracedat.c ---------- */

#define LGD_TDW_MAX_CPUS	4096

struct lgd_tdw_cpu;


/**
 * struct lgd_tdw - a trace.dat v6 being written (tracedat.c's file comment
 * has the layout): events are added per CPU in time order into 4096-byte
 * pages kept in temporary files; lgd_tdw_finish() writes the file.
 * @cpu_max: bytes of data one CPU may reach (lgd_tdw_init(): 0 is
 *           LGD_TDW_CPU_MAX); beyond, adding returns -EOVERFLOW
 * @full_cpu: the CPU that reached @cpu_max (after -EOVERFLOW)
 * @events: events added
 */
struct lgd_tdw {
	uint64_t cpu_max;
	uint32_t full_cpu;
	struct lgd_tdw_cpu **cpus;
	uint32_t nr_cpus;
	char **formats;
	size_t nr_formats;
	uint8_t *opts;
	size_t opts_len;
	uint64_t events;
};

/* trace.dat option ids (trace-cmd's enum tracecmd_option_id) */
#define LGD_TDW_OPT_CPUSTAT	2
#define LGD_TDW_OPT_TRACECLOCK	4
#define LGD_TDW_OPT_VERSION	9

/**
 * lgd_tdw_init() - an empty writer whose CPUs may hold @cpu_max bytes of
 * data each (0: LGD_TDW_CPU_MAX; whole 4096-byte pages: below 4096 no CPU
 * may have data).  Return: 0.
 */
int lgd_tdw_init(struct lgd_tdw *w, uint64_t cpu_max);
/**
 * lgd_tdw_event() - add an event of CPU @cpu (< LGD_TDW_MAX_CPUS) at @ts
 * (ns; a time before the previous event of @cpu starts a new page) whose
 * payload (common header first) is @len bytes (padded to 4).
 * Return: 0, -E2BIG (longer than a page holds), -EINVAL, -ENOMEM, -EIO.
 */
int lgd_tdw_event(struct lgd_tdw *w, uint32_t cpu, uint64_t ts, const void *payload,
		  uint32_t len);
/**
 * lgd_tdw_missed() - @count events of @cpu were lost here (< 0: an unknown
 * number); the next event of @cpu starts a page marked with the losses
 * (counts of several calls add up; one unknown makes the sum unknown).
 * Return: 0 or negative errno.
 */
int lgd_tdw_missed(struct lgd_tdw *w, uint32_t cpu, int64_t count);
/** lgd_tdw_option() - add option @id with @size bytes of @data.  0 or -ENOMEM. */
int lgd_tdw_option(struct lgd_tdw *w, uint16_t id, const void *data, uint32_t size);
/** lgd_tdw_format() - add an event format text (of the one system).  0 or -ENOMEM. */
int lgd_tdw_format(struct lgd_tdw *w, const char *text);
/**
 * lgd_tdw_finish() - write the whole file to @out (seekable or not: only
 * ftell() is used): headers, the formats under @system, the @kallsyms text
 * (@kallsyms_len bytes, may be 0), the @cmdlines text ("pid comm" lines),
 * the options, then every CPU's pages.  Return: 0 or negative errno.
 */
int lgd_tdw_finish(struct lgd_tdw *w, FILE *out, const char *system,
		   const char *kallsyms, size_t kallsyms_len,
		   const char *cmdlines, size_t cmdlines_len);
void lgd_tdw_free(struct lgd_tdw *w);

#endif /* LGD_TRACEDAT_H */
