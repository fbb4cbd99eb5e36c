// SPDX-License-Identifier: GPL-2.0
/*
 * insnmark start|stop|mark: execute insncount's marker (ic_map.h) with
 * code 1, 2 or 3, so that the plugin writes the counts out at this
 * point of the guest's instruction stream. Outside the plugin the
 * marker is a plain cpuid.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * One marker. The immediate must be in the instruction itself: "i" with a
 * constant @code, inlined (glibc's __always_inline; a build without
 * optimisation fails here, it does not emit another instruction).
 */
static __always_inline void ic_mark(const unsigned int code)
{
	__asm__ volatile("mov %0, %%eax\n\tcpuid"
			 :: "i" (0x52444d00u + code) : "eax", "ebx", "ecx", "edx", "memory");
}

/**
 * main - execute the marker the argument names
 * @argc: 2
 * @argv: start (code 1), stop (code 2) or mark (code 3)
 *
 * Return: 0, or 2 for another argument.
 */
int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "start"))
		ic_mark(1);
	else if (argc == 2 && !strcmp(argv[1], "stop"))
		ic_mark(2);
	else if (argc == 2 && !strcmp(argv[1], "mark"))
		ic_mark(3);
	else {
		fprintf(stderr, "usage: insnmark start|stop|mark\n");
		return 2;
	}
	return 0;
}
