// SPDX-License-Identifier: GPL-2.0
/*
 * The initiator module's copy of the iSER codec (common/), with the
 * initiator's half: the target module builds the codec too, and an
 * object file belongs to one module only.
 */
#include "../../common/iser_wire.c"
#include "../../common/iser_wire_initiator.c"
