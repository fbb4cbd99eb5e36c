// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only: WARNs as it loads. The guest harness must fail any test that
 * loads it and say that a WARNING was the reason (tests/host/).
 */
#include <linux/module.h>
#include <linux/bug.h>

static int __init warn_on_load_init(void)
{
	WARN(1, "rdmastor_warn_on_load: deliberate warning for the harness self-test\n");
	return 0;
}

static void __exit warn_on_load_exit(void)
{
}

module_init(warn_on_load_init);
module_exit(warn_on_load_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("rdmastor test: WARN on load, to prove the harness catches it");
