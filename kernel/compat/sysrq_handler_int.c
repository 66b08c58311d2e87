// SPDX-License-Identifier: GPL-2.0
/*
 * sysrq_handler_int: struct sysrq_key_op's handler takes the key as an
 * int.  Up to Linux 6.5; a u8 since 6.6 (sysrq_handler_u8.c).
 * Alternative: sysrq_handler_u8.c (one of the two must compile).  Used by:
 * logdev_compat.h ld_sysrq_key_t (logdev_dump.c).
 */
#include <linux/types.h>
#include <linux/sysrq.h>

static void ldc_sysrq_fn(int key)
{
}

static const struct sysrq_key_op ldc_sysrq_op = {
	.handler = ldc_sysrq_fn,
};

const struct sysrq_key_op *ldc_sysrq_handler_int(void);
const struct sysrq_key_op *ldc_sysrq_handler_int(void)
{
	return &ldc_sysrq_op;
}
