// SPDX-License-Identifier: GPL-2.0
/*
 * del_timer_sync: int del_timer_sync(struct timer_list *).  Every kernel
 * up to Linux 6.14; removed in 6.15.  timer_delete_sync()
 * (timer_delete_sync.c) exists since 6.2.  Alternative: timer_delete_sync.c (one of the two must
 * compile).  Used by: logdev_compat.h ld_timer_delete_sync()
 * (logdev_wake.c).
 */
#include <linux/timer.h>

int ldc_del_timer_sync(struct timer_list *t);
int ldc_del_timer_sync(struct timer_list *t)
{
	return del_timer_sync(t);
}
