/*
 * load.h - the loadfile of fileload: a dbench-4 style list of
 * file-server operations, parsed once and replayed by every client.
 *
 * A line is
 *
 *	[TIMESTAMP] OPERATION ARGUMENT... STATUS
 *
 * TIMESTAMP (optional) is seconds from the start of a pass over the file;
 * OPERATION is one of the names in fl_op_names (matched without regard to
 * case); paths are double-quoted, with '\' or '/' separators, and are
 * taken relative to the client's own directory (a leading separator is
 * dropped; ".." is refused, so no line can reach outside it); numbers are
 * decimal or 0x-hex; STATUS is NT_STATUS_OK, another NT_STATUS_* name, or
 * a 0x number (0x0 is success): what the call is expected to return.
 * '#' starts a comment line; blank lines are ignored.
 *
 * Arguments before the status, per operation:
 *	NTCreateX "path" create-options disposition handle
 *	Close handle			Flush handle
 *	Rename "old" "new"		Unlink "path" [attributes]
 *	Deltree "path"   Mkdir "path"   Rmdir "path"
 *	QUERY_PATH_INFORMATION "path" level
 *	QUERY_FILE_INFORMATION handle level
 *	QUERY_FS_INFORMATION level
 *	SET_FILE_INFORMATION handle level
 *	FIND_FIRST "pattern" level max-count expected-count
 *	WriteX|ReadX handle offset size returned-size
 *	LockX|UnlockX handle offset length
 */
#ifndef FILELOAD_LOAD_H
#define FILELOAD_LOAD_H

#include <stddef.h>
#include <stdint.h>

enum fl_opcode {
	FL_NTCREATEX, FL_CLOSE, FL_RENAME, FL_UNLINK, FL_DELTREE, FL_MKDIR,
	FL_RMDIR, FL_QPATHINFO, FL_QFILEINFO, FL_QFSINFO, FL_SFILEINFO,
	FL_FINDFIRST, FL_WRITEX, FL_READX, FL_LOCKX, FL_UNLOCKX, FL_FLUSH,
	FL_NOPS
};

/* Largest ReadX/WriteX size accepted (the replay's I/O buffer). */
#define FL_MAXIO (16u << 20)

/* Expected outcome of an operation. */
enum fl_status {
	FL_ST_OK,		/* NT_STATUS_OK, 0x0 */
	FL_ST_NOTFOUND,		/* *_NOT_FOUND, NO_SUCH_FILE: ENOENT */
	FL_ST_ERROR,		/* any other failure */
};

/* Operation names as written in loadfiles, indexed by enum fl_opcode. */
extern const char *const fl_op_names[FL_NOPS];
/* Lower-case metric stems ("ntcreatex", "qpathinfo"), same index. */
extern const char *const fl_op_stems[FL_NOPS];

struct fl_op {
	uint8_t code;		/* enum fl_opcode */
	uint8_t status;		/* enum fl_status */
	uint32_t lineno;
	uint32_t path;		/* offset into fl_load.strs; 0: none */
	uint32_t path2;
	double when;		/* timestamp (s), or -1 when none */
	int64_t arg[4];		/* arg[i]: the i-th argument if a number */
};

struct fl_load {
	char *name;		/* file name, for messages */
	size_t nops;
	struct fl_op *ops;
	char *strs;		/* "\0path\0path\0..." */
	size_t strs_len, strs_cap;
	/* per pass: operations of each kind, bytes of ReadX and WriteX */
	uint64_t count[FL_NOPS];
	uint64_t read_bytes, write_bytes;
	uint64_t max_io;	/* largest ReadX/WriteX size */
};

/* The path at offset @off ("" for none). */
static inline const char *
fl_str(const struct fl_load *l, uint32_t off)
{
	return l->strs + off;
}

/* enum fl_opcode of @name (@len bytes, any case), or -1. */
int fl_op_lookup(const char *name, size_t len);
/*
 * Parse @len bytes of @text (not necessarily NUL-terminated); @name is
 * used in messages.  0, or -1 with "name:line: what is wrong" in @err.
 * A file without a single operation is an error.
 */
int fl_load_parse(const char *name, const char *text, size_t len,
    struct fl_load *l, char *err, size_t errlen);
/* Read and parse the file @path. */
int fl_load_read(const char *path, struct fl_load *l, char *err,
    size_t errlen);
void fl_load_free(struct fl_load *l);

#endif
