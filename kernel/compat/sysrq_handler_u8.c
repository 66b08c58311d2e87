// SPDX-License-Identifier: GPL-2.0
/*
 * sysrq_handler_u8: struct sysrq_key_op's handler takes the key as a u8.
 * Linux 6.6; before, an int (sysrq_handler_int.c).  Alternative:
 * sysrq_handler_int.c (one of the two must compile).  Used by:
 * logdev_compat.h ld_sysrq_key_t (logdev_dump.c).
 */
#include <linux/types.h>
#include <linux/sysrq.h>

static void ldc_sysrq_fn(u8 key)
{
}

static const struct sysrq_key_op ldc_sysrq_op = {
	.handler = ldc_sysrq_fn,
};

const struct sysrq_key_op *ldc_sysrq_handler_u8(void);
const struct sysrq_key_op *ldc_sysrq_handler_u8(void)
{
	return &ldc_sysrq_op;
}
