// SPDX-License-Identifier: GPL-2.0
/*
 * Does __assign_str() take the field alone, its source coming from
 * __string() (6.10 on), rather than the field and the source again?
 */
#define CREATE_TRACE_POINTS
#include "have_assign_str_one_arg.h"
