/*
 * util.h - allocation that cannot fail (it dies with "out of memory",
 * the only sensible answer in a benchmark harness), a growable string
 * buffer, showing untrusted text safely, and removal of a folder tree.
 * Shared by lib/, the programs and the report.
 */
#ifndef VB_UTIL_H
#define VB_UTIL_H

#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>
#include <sys/stat.h>

void *vb_xmalloc(size_t n);
void *vb_xcalloc(size_t n, size_t size);
void *vb_xrealloc(void *p, size_t n);
char *vb_xstrdup(const char *s);
char *vb_xstrndup(const char *s, size_t n);
/*
 * A growable string: text of any length is appended with vb_buf_printf()
 * (never cut).  Start from VB_BUF_INIT; s is always a C string.
 */
struct vb_buf {
	char *s;
	size_t len, cap;
};
#define VB_BUF_INIT { NULL, 0, 0 }
void vb_buf_printf(struct vb_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The text so far ("" when nothing was appended). */
const char *vb_buf_str(const struct vb_buf *b);
void vb_buf_free(struct vb_buf *b);

/*
 * Length of the valid UTF-8 sequence at @p (at most @n bytes): 1 to 4,
 * or 0 when the bytes there are not UTF-8 (overlong forms, surrogates
 * and code points above U+10FFFF are not).
 */
size_t vb_utf8_len(const char *p, size_t n);
/*
 * Untrusted text (labels, file names, values from files) shown safely:
 * control characters as \n \r \t or \xNN, bytes that are not UTF-8
 * and the C1 controls U+0080-U+009F as \xNN of each byte; the rest as
 * it is.  A newline is kept when @keep_nl.  vb_esc() writes into @buf
 * (cut at a whole escape; @len > 0), vb_fput_esc() to @f.
 */
char *vb_esc(char *buf, size_t len, const char *s, int keep_nl);
void vb_fput_esc(FILE *f, const char *s, size_t n, int keep_nl);

/*
 * Remove @path and everything below it, not following symlinks: its
 * parent opened once, the rest through folder descriptors
 * (vb_rmtree_at(), safedir.h).  0 (also when @path is not there), or
 * -1 with errno of the first failure (it goes on removing the rest).
 */
int vb_rmtree(const char *path);

/*
 * Files in folders other users may write (a 1777 work folder, --out in
 * /tmp): never opened through a symlink, never another user's file.
 *
 * vb_create(): a new file at @path, opened with @flags (O_WRONLY or
 * O_RDWR, ...) | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC; a file or a
 * symlink already at @path is unlinked first (the name, never what a
 * symlink points to).  The fd, or -1 (errno).
 *
 * vb_open_own(): @path for writing, O_APPEND kept: an existing regular
 * file of this user with one link (O_NOFOLLOW), emptied when @flags has
 * O_TRUNC, else a new one made with O_EXCL.  The fd, or -1 with errno:
 * ELOOP for a symlink, EPERM for a file that is not a plain one of ours.
 */
int vb_create(const char *path, int flags, mode_t mode);
int vb_open_own(const char *path, int flags, mode_t mode);
/*
 * @path as a folder of this user that no one else may write: made with
 * @mode when missing, else checked (lstat: not a symlink, a folder,
 * owned by the effective user, no group or other write).  0, or -1 with
 * one line in @err.
 */
int vb_own_dir(const char *path, mode_t mode, char *err, size_t errlen);

/*
 * Read the start of a small file (/proc, /sys) into @buf, at most
 * @len - 1 bytes, NUL-terminated (@len > 0); its length, or -1 with
 * errno.
 */
ssize_t vb_read_small(const char *path, char *buf, size_t len);

/*
 * The current value of the setting file @path (/proc/sys, /sys): its
 * text without the trailing newline, or the bracketed choice of a list
 * such as "always [madvise] never".  0, or -1 (errno).
 */
int vb_read_setting(const char *path, char *val, size_t len);
/*
 * The last line of @path that is not empty (its end of line and a \r
 * before it cut), into @buf: 1, or 0 when there is none (@buf as it
 * was).  Only a regular file is read (safedir.h's bound for logs).
 */
int vb_last_line(const char *path, char *buf, size_t len);
/*
 * As vb_last_line(), the line of @path holding @needle: the first
 * (from @needle on), or with VB_GREP_LAST the last, or with
 * VB_GREP_START only a line that starts with @needle (all of it).
 */
#define VB_GREP_LAST	1
#define VB_GREP_START	2
int vb_grep_file(const char *path, const char *needle, int flags, char *buf,
    size_t len);
/*
 * Read @fd to its end a line at a time: @fn(@arg, LINE) for each, the
 * line NUL-terminated without its newline; a line of @cap bytes or more
 * is dropped.  EINTR reads again, or ends the reading when @stop is set
 * and *@stop is not 0.
 */
void vb_read_lines(int fd, size_t cap, const volatile sig_atomic_t *stop,
    void (*fn)(void *arg, char *line), void *arg);
/*
 * A path from the command line (CONFIG=, RESULTS=, WORKDIR=) goes into
 * meta (one value a line) and into messages: no control characters,
 * and short enough for the folders and files made under it.  0, or -1 with one line in @err naming @what.
 */
int vb_path_check(const char *what, const char *path, char *err,
    size_t errlen);
/* The work folder's name: @given, else $VMBENCH_WORKDIR, else "work". */
const char *vb_workdir_name(const char *given);
/*
 * The work folder @name, made (mode 0755) when @make, resolved into
 * @out (PATH_MAX bytes): 0; 1 when it does not exist and was not to be
 * made; -1 with errno (@out: what failed, "cannot create" or not).
 */
int vb_workdir_find(const char *name, int make, char *out, int *made_failed);
/* Is @path a folder with nothing in it (it can be read)?  1 or 0. */
int vb_dir_empty(const char *path);

/*
 * Write @val to the kernel file @dir/@file (a sysctl, a cgroup or
 * tracefs control), truncated first, never through a symlink; a
 * failed write or close is the error.  0, or -1 (errno).
 */
int vb_put_at(const char *dir, const char *file, const char *val);
/* Does @dir/@file exist? */
int vb_exists_at(const char *dir, const char *file);

#endif
