// SPDX-License-Identifier: GPL-2.0
/*
 * rnic_mgr's copy of the /dev/rnic_mgr event codec (common/), which
 * librnic, the unit tests and the fuzzer build too.
 */
#include "../../common/rnic_user_event.c"
