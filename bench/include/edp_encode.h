/* SPDX-License-Identifier: GPL-2.0 */
/* The benchmark's name for the encoding that edprint() now uses. */
#ifndef EDP_ENCODE_H
#define EDP_ENCODE_H
#include "../../include/linux/edprint_slots.h"
#endif
