// SPDX-License-Identifier: GPL-2.0
/*
 * Are a VMA's flags changed through vm_flags_mod() (6.3 on: vm_flags is
 * const) rather than written directly?
 */
#include <linux/mm.h>

void kcompat_probe(struct vm_area_struct *vma);
/**
 * kcompat_probe - compiles only where vm_flags_mod() exists
 * @vma: a mapping
 */
void kcompat_probe(struct vm_area_struct *vma)
{
	vm_flags_mod(vma, VM_DONTEXPAND, VM_MAYWRITE);
}
