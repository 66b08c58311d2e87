// SPDX-License-Identifier: GPL-2.0
/*
 * hrtimer_setup: void hrtimer_setup(struct hrtimer *, callback, clockid,
 * mode) initialises a timer and sets its function in one call.  Linux
 * 6.13; hrtimer_init() (hrtimer_init.c) was removed in 6.15.  Alternative: hrtimer_init.c (one of the two must compile).  Used
 * by: logdev_compat.h ld_hrtimer_setup() (test/logdev_test_ctx.c).
 */
#include <linux/hrtimer.h>

static enum hrtimer_restart ldc_hrtimer_fn(struct hrtimer *t)
{
	return HRTIMER_NORESTART;
}

void ldc_hrtimer_setup(struct hrtimer *t);
void ldc_hrtimer_setup(struct hrtimer *t)
{
	hrtimer_setup(t, ldc_hrtimer_fn, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
}
