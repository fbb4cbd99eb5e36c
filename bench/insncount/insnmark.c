// SPDX-License-Identifier: GPL-2.0
/*
 * insnmark start|stop|mark: execute insncount's marker (ic_map.h) with
 * code 1, 2 or 3, so that the plugin writes the counts out at this
 * point of the guest's instruction stream. Outside the plugin the
 * marker is a plain cpuid. insnmark serve: the same for each line of
 * standard input, each answered once its marker ran.
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

/* Execute the marker @what names; -1 if it names none. */
static int ic_mark_named(const char *what)
{
	if (!strcmp(what, "start"))
		ic_mark(1);
	else if (!strcmp(what, "stop"))
		ic_mark(2);
	else if (!strcmp(what, "mark"))
		ic_mark(3);
	else
		return -1;
	return 0;
}

/*
 * serve: one marker for each line read, answered "ok" (or "?") once it
 * ran, so that a caller that waits for the answer knows its marker is
 * behind it. A resident marker costs a pipe's round trip where running
 * this program costs a fork and an exec, which the counts would hold.
 */
static int ic_serve(void)
{
	char line[32];

	while (fgets(line, sizeof(line), stdin)) {
		line[strcspn(line, "\n")] = 0;
		if (printf("%s\n", ic_mark_named(line) ? "?" : "ok") < 0 || fflush(stdout))
			return 1;
	}
	return 0;
}

/**
 * main - execute the marker the argument names, or serve markers
 * @argc: 2
 * @argv: start (code 1), stop (code 2), mark (code 3), or serve (one
 *	marker for each line of standard input)
 *
 * Return: 0, or 2 for another argument.
 */
int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "serve"))
		return ic_serve();
	if (argc != 2 || ic_mark_named(argv[1])) {
		fprintf(stderr, "usage: insnmark start|stop|mark|serve\n");
		return 2;
	}
	return 0;
}
