// SPDX-License-Identifier: GPL-2.0
/* Instantiates the iSER initiator's tracepoints (ini_trace.h). */
#define CREATE_TRACE_POINTS
#include "ini_trace.h"
