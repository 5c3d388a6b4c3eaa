/*
 * replay.h - one client's replay of loadfile operations with
 * real system calls, relative to the client's own directory, and the
 * accounting of what it did.
 *
 * Operation -> system calls (all *at() on the client's directory):
 *	NTCreateX	openat() (flags from the disposition: 0 supersede
 *			and 5 overwrite-if O_CREAT|O_TRUNC, 2 create and
 *			3 open-if O_CREAT, 4 overwrite O_TRUNC, 1 open);
 *			create option 0x1 (a directory): mkdirat() then
 *			openat(O_DIRECTORY); an open kept as a handle is
 *			then fstat()ed, as dbench does
 *	Close		close()		Flush		fsync()
 *	Rename		renameat()	Unlink		unlinkat()
 *	Mkdir		mkdirat()	Rmdir		unlinkat(AT_REMOVEDIR)
 *	Deltree		remove the tree (a missing tree is success)
 *	QUERY_PATH_INFORMATION	fstatat()
 *	QUERY_FILE_INFORMATION	fstat()
 *	QUERY_FS_INFORMATION	fstatvfs()
 *	SET_FILE_INFORMATION	fstat(), then utimensat() by the name the
 *			handle was opened by, its access and change times
 *			moved back 10 and 12 s (dbench's utime())
 *	FIND_FIRST	read the pattern's directory, up to max-count
 *			entries, matching names case-insensitively
 *			(DOS wildcards '<' '>' '"' read as '*' '?' '.');
 *			success when something matches
 *	WriteX		copy the data into a staging buffer (as a server
 *			receives it), pwrite()
 *	ReadX		pread()
 *	LockX, UnlockX	fcntl(F_SETLK) write lock / unlock
 * Every operation that names a path (NTCreateX, Rename (both names),
 * Unlink, Mkdir, Rmdir, FIND_FIRST) first resolves it, as the file
 * server the loadfiles were recorded against does: fstatat(), and when
 * the name is not there a read of the parent directory until an entry
 * matches it in any case (the case-insensitive lookup).
 * QUERY_PATH_INFORMATION is that lookup.  A directory is read with the
 * system calls of opendir(), readdir() and closedir(): openat(),
 * fstat(), getdents64() in 32 KiB, close().
 *
 * An operation whose outcome (success or failure) differs from the
 * loadfile's status is a mismatch: counted, the first few printed.
 * Only a failed or short WriteX (a full disk) stops the client.
 */
#ifndef FILELOAD_REPLAY_H
#define FILELOAD_REPLAY_H

#include <stddef.h>
#include <stdint.h>

#include "load.h"

struct fl_opstat {
	uint64_t count;
	uint64_t total_ns;
	uint64_t max_ns;
};

/* What a client did (in a phase). */
struct fl_stats {
	uint64_t bytes;		/* ReadX + WriteX sizes, as dbench counts */
	uint64_t ops;
	uint64_t mismatches;
	struct fl_opstat op[FL_NOPS];
};

struct fl_fh {
	int64_t handle;
	int fd;
	uint32_t path;		/* the name it was opened by (fl_str()) */
};

struct fl_client {
	const struct fl_load *load;
	int id;			/* for messages */
	int dirfd;
	struct fl_fh *fh;	/* open handles */
	size_t nfh, capfh;
	char *buf;		/* I/O buffer: the load's largest I/O */
	char *wbuf;		/* WriteX copies buf here, then writes it */
	size_t bufsize;
	unsigned warned;	/* mismatches printed */
	unsigned maxwarn;	/* print at most this many (default 5) */
};

/* Open @dir as the client's directory; -1 with a message in @err. */
int fl_client_init(struct fl_client *c, const struct fl_load *l, int id,
    const char *dir, char *err, size_t errlen);
/* Close every open handle and the directory; free. */
void fl_client_fini(struct fl_client *c);
/*
 * Execute @op.  Returns 1 if the outcome matched the expected status,
 * 0 if not (a mismatch), -1 on a fatal error (message in @err).
 */
int fl_exec(struct fl_client *c, const struct fl_op *op, char *err,
    size_t errlen);
/* Bytes @op counts towards the throughput (ReadX/WriteX size). */
uint64_t fl_op_bytes(const struct fl_op *op);
/* Account one operation of @ns nanoseconds into @s. */
void fl_account(struct fl_stats *s, const struct fl_op *op, uint64_t ns,
    int matched);
/* @sum += @s (counts and times add, maxima take the larger). */
void fl_stats_add(struct fl_stats *sum, const struct fl_stats *s);
/* dbench's figure: @bytes / @secs / 10^6 (0 when @secs <= 0). */
double fl_mb_per_s(uint64_t bytes, double secs);
/* Mean latency of @st in milliseconds (0 when there were none). */
double fl_mean_ms(const struct fl_opstat *st);
/* Remove @path under @dirfd and everything in it; missing is fine. */
int fl_rmtree(int dirfd, const char *path);

#endif
