// SPDX-License-Identifier: GPL-2.0
/*
 * The server module's copy of the RPC-over-RDMA codec and of the
 * responder's call checks (common/): each module links its own, as they
 * load independently, and an object file belongs to one module only.
 */
#include "../../common/rpcrdma_wire.c"
#include "../../common/rpcrdma_call.c"
