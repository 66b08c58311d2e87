// SPDX-License-Identifier: GPL-2.0
/* The LTTng-UST probe provider for hostbench (built only with HAVE_LTTNG). */
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE
#include "lttng_tp.h"
