#include "ldk_kernel.h"
