// SPDX-License-Identifier: GPL-2.0
/* logdev_syma.ko: see logdev_sym.h */
#define LSYM_FN lsym_a_fn
#include "logdev_sym.h"
