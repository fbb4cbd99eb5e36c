// SPDX-License-Identifier: GPL-2.0
/*
 * The shared iSER codec, built into the initiator module too (an object
 * may belong to one module only, and rdmastor_isert has iser_wire.o).
 */
#include "iser_wire.c"
#include "iser_wire_initiator.c"
