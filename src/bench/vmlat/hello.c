/*
 * hello.c - vmlat_hello - the tiny program vmlat's exec and sh figures run
 * (as LMbench's hello): write a line to stdout, which vmlat has closed,
 * and exit 0.  Linked statically (see the Makefile).
 */
#include <unistd.h>

int
main(void)
{
	(void)!write(1, "Hello world\n", 12);
	return 0;
}
