/*
 * ops.h - the operations vmlat times, one function per figure,
 * each measured as LMbench measures it (see src/bench/vmlat/vmlat.c).  Every
 * function returns the figure (us, us per file or page, MB/s), or NAN
 * with a one-line reason in @err.
 */
#ifndef VB_VMLAT_OPS_H
#define VB_VMLAT_OPS_H

#include <stddef.h>
#include <stdint.h>

#include "time.h"

struct lo_ctx {
	struct lt_spec spec;
	const char *dir;		/* an existing folder for the files */
	const char *helper;		/* the static helper exec runs */
	uint64_t size;			/* file and buffer size */
	uint64_t cold_passes;		/* lo_pagefault_cold: passes whose
					   pages mincore() found gone */
	char err[256];
};

double lo_fork(struct lo_ctx *c);
double lo_exec(struct lo_ctx *c);
double lo_sh(struct lo_ctx *c);
/* Create (@del 0) or delete (1) files of @fsize bytes: us per file. */
double lo_fs(struct lo_ctx *c, size_t fsize, int del);
double lo_mmap(struct lo_ctx *c);
double lo_prot(struct lo_ctx *c);
double lo_pagefault(struct lo_ctx *c);
/*
 * Page fault on pages not in the cache: the data file fsync()ed once;
 * before each pass, untimed, drop its pages (POSIX_FADV_DONTNEED) and
 * check with mincore() that none is left; map it MADV_RANDOM, read a
 * byte a page in a fixed random order, unmap; less the same without
 * the reads; us per page.
 */
double lo_pagefault_cold(struct lo_ctx *c);
double lo_anonfault(struct lo_ctx *c);
double lo_filerd(struct lo_ctx *c);
double lo_mmaprd(struct lo_ctx *c);
double lo_memrd(struct lo_ctx *c);
double lo_memwr(struct lo_ctx *c);
double lo_bcopy(struct lo_ctx *c);

/* Make c->dir/vmlat.data of c->size bytes (written, fsync()ed). */
int lo_make_file(struct lo_ctx *c);
/* Drop the data file's pages from the cache (on @fd); 0, or -1 (said). */
int lo_drop_cache(struct lo_ctx *c, int fd);
/* Pages of the data file (on @fd) in the cache (mincore), or -1 (said). */
long lo_cached_pages(struct lo_ctx *c, int fd);

#endif
