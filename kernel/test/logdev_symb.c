// SPDX-License-Identifier: GPL-2.0
/* logdev_symb.ko: see logdev_sym.h */
#define LSYM_FN lsym_b_fn
#include "logdev_sym.h"
