/*
 * fuzz.h - what the libFuzzer targets (tests/fuzz/fuzz_<reader>.c)
 * share: most readers take a path, so each input is written to a file
 * in a folder of the fuzzing process's own, made on first use and
 * removed at exit.  A broken invariant is reported with fz_fail(),
 * which aborts, so that libFuzzer keeps the input as a crash.
 *
 * Built and run by `make fuzz` (docs/testing.md).
 */
#ifndef VB_FUZZ_H
#define VB_FUZZ_H

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char fz_dir[256];
static char fz_path[512];

/* Remove the file and the folder (at exit). */
static inline void
fz_cleanup(void)
{
	if (fz_path[0])
		unlink(fz_path);
	if (fz_dir[0])
		rmdir(fz_dir);
}

/* A broken invariant: say which, and abort (libFuzzer keeps the input). */
static inline void __attribute__((noreturn, format(printf, 1, 2)))
fz_fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("fuzz: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	abort();
}

/* The folder of this process, made on first use. */
static inline const char *
fz_folder(void)
{
	const char *t = getenv("TMPDIR");

	if (fz_dir[0])
		return fz_dir;
	snprintf(fz_dir, sizeof(fz_dir), "%s/vmbench-fuzz.XXXXXX",
	    t && *t ? t : "/tmp");
	if (!mkdtemp(fz_dir))
		fz_fail("cannot make %s: %s", fz_dir, strerror(errno));
	atexit(fz_cleanup);
	return fz_dir;
}

/* Write @size bytes of @data to the file @name in the folder; its path. */
static inline const char *
fz_file(const char *name, const uint8_t *data, size_t size)
{
	size_t done = 0;
	int fd;

	snprintf(fz_path, sizeof(fz_path), "%s/%s", fz_folder(), name);
	fd = open(fz_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		fz_fail("cannot create %s: %s", fz_path, strerror(errno));
	while (done < size) {
		ssize_t n = write(fd, data + done, size - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			fz_fail("cannot write %s: %s", fz_path,
			    strerror(errno));
		done += (size_t)n;
	}
	if (close(fd) < 0)
		fz_fail("cannot write %s: %s", fz_path, strerror(errno));
	return fz_path;
}

/* Does the error message @err name @path first, as "path..."? */
static inline void
fz_check_err(const char *err, const char *path)
{
	if (strncmp(err, path, strlen(path)) != 0)
		fz_fail("error message does not start with the file's name: "
		    "'%s'", err);
	if (strchr(err, '\n'))
		fz_fail("error message spans lines: '%s'", err);
}

#endif
