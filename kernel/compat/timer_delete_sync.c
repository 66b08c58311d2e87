// SPDX-License-Identifier: GPL-2.0
/*
 * timer_delete_sync: int timer_delete_sync(struct timer_list *).  Linux
 * 6.2, and backported to 6.1 stable (Debian's 6.1.0-57 has it, beside
 * del_timer_sync()); the old name del_timer_sync() (del_timer_sync.c) was
 * removed in 6.15.
 * Alternative: del_timer_sync.c (one of the two must compile).  Used by:
 * logdev_compat.h ld_timer_delete_sync() (logdev_wake.c).
 */
#include <linux/timer.h>

int ldc_timer_delete_sync(struct timer_list *t);
int ldc_timer_delete_sync(struct timer_list *t)
{
	return timer_delete_sync(t);
}
