/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim/logdev_parse.h - the two control-file parsers logdev_ksyms.c calls
 * ("ksyms" writes), defined in fuzz_probespec.c with the contract of
 * kernel/logdev_parse.c (fuzzed itself by fuzz_ctlparse, which builds it
 * through logdev_shim.h: not includable beside ldk_kernel.h).
 */
#ifndef LDK_LOGDEV_PARSE_H
#define LDK_LOGDEV_PARSE_H
#include "ldk_kernel.h"
int ld_parse_write(char *buf, size_t count);
int ld_parse_name(const char *s, const char * const *names, int nr);
#endif
