// SPDX-License-Identifier: GPL-2.0
/* Instantiates the RPC-over-RDMA server transport's tracepoints (svc_trace.h). */
#define CREATE_TRACE_POINTS
#include "svc_trace.h"
