// SPDX-License-Identifier: GPL-2.0
/*
 * The target module's copy of the iSER codec (common/): the initiator
 * module builds it too, and an object file belongs to one module only.
 */
#include "../../common/iser_wire.c"
