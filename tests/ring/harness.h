/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace harness glue for the portable ring core: the clock, the
 * per-thread nesting depth, and the test hook through which a test can
 * make a "nested writer" (signal handler) run in the middle of a
 * reservation.
 */
#ifndef LD_TEST_HARNESS_H
#define LD_TEST_HARNESS_H

#include "logdev_ring_write.h"

/* Called at ld_test_hook(where); NULL by default. */
extern void (*ld_hook_fn)(int where);

#endif
