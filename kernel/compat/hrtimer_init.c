// SPDX-License-Identifier: GPL-2.0
/*
 * hrtimer_init: void hrtimer_init(struct hrtimer *, clockid, mode), the
 * function set by the caller afterwards.  Every kernel up to Linux 6.14;
 * removed in 6.15, hrtimer_setup() (hrtimer_setup.c) since 6.13.
 * Alternative: hrtimer_setup.c (one of the two must compile).  Used by:
 * logdev_compat.h ld_hrtimer_setup() (test/logdev_test_ctx.c).
 */
#include <linux/hrtimer.h>

static enum hrtimer_restart ldc_hrtimer_fn(struct hrtimer *t)
{
	return HRTIMER_NORESTART;
}

void ldc_hrtimer_init(struct hrtimer *t);
void ldc_hrtimer_init(struct hrtimer *t)
{
	hrtimer_init(t, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	t->function = ldc_hrtimer_fn;
}
