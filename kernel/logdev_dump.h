/* SPDX-License-Identifier: GPL-2.0 */
/*
 * logdev_dump.h - between the crash dump (logdev_dump.c) and the text of
 * its records (logdev_dumpmsg.c).
 *
 * Layer: features; included by those two files only.
 */
#ifndef _LOGDEV_DUMP_H
#define _LOGDEV_DUMP_H

#include <uapi/linux/logdev.h>

#define LD_DUMP_MSG		512	/* bytes of a record's message */

/* the last message ld_dump_message() made, NUL-terminated */
extern char ld_dump_msg[LD_DUMP_MSG];

void ld_dump_message(const struct logdev_rec_hdr *r);
void ld_dump_msg_init(void);

#endif /* _LOGDEV_DUMP_H */
