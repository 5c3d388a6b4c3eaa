/*
 * fuzz_vmstat.c - libFuzzer target for the .vmstat reader: the report's
 * `vmstat 1` dump (dump_vmstat(), src/report/views/dump.c), which reads
 * a result folder's <id>.vmstat and refuses a line that is not a sample.
 *
 * The reader dies (die()) on a malformed line, as the report program
 * does; here the die hook jumps back instead of exiting.  Each input is
 * dumped whole and for iteration 1, the two ways the report reads it.
 */
#include <setjmp.h>
#include <stddef.h>

#include "msg.h"
#include "fuzz.h"
#include "views/dump.h"

static jmp_buf fz_jump;

static void
fz_died(void *unused)
{
	(void)unused;
	longjmp(fz_jump, 1);
}

/* Dump @s's series "in" for @iter; 1 if the reader died. */
static int
dump(FILE *out, const struct rl_set *s, int iter)
{
	if (setjmp(fz_jump))
		return 1;
	vb_set_die_hook(fz_died, NULL);
	if (dump_vmstat(out, s, "in", iter, 80) < 0)
		fz_fail("the .vmstat file was not found");
	vb_set_die_hook(NULL, NULL);
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *out;
	struct rl_kernel k;
	struct rl_set s;

	if (!out && !(out = fopen("/dev/null", "w")))
		fz_fail("cannot open /dev/null: %s", strerror(errno));
	fz_file("in.vmstat", data, size);
	memset(&k, 0, sizeof(k));
	memset(&s, 0, sizeof(s));
	k.dir = (char *)fz_folder();
	k.label = "fuzz";
	s.nk = 1;
	s.k = &k;
	dump(out, &s, 0);
	dump(out, &s, 1);
	return 0;
}
