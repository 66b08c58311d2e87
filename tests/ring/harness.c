// SPDX-License-Identifier: GPL-2.0
/* Userspace harness glue: see harness.h. */
#include <time.h>
#include "harness.h"

__thread int ld_thread_nesting;
void (*ld_hook_fn)(int where);

/* Trace clock for the harness: CLOCK_MONOTONIC in ns. */
u64 ld_clock_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

void ld_test_hook(int where)
{
	void (*fn)(int) = __atomic_load_n(&ld_hook_fn, __ATOMIC_RELAXED);

	if (fn)
		fn(where);
}
