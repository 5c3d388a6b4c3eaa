/*
 * fsinfo.h - what the work folder's filesystem does to the figures.
 *
 * An ext4 without a journal (the root filesystem of some virtual
 * machines) passes over, when it allocates an inode, every inode deleted
 * in an earlier second and less than 1 min before, or 6 min while that
 * inode's table block is dirty (fs/ext4/ialloc.c, find_inode_bit() ->
 * recently_deleted(), only when the superblock has no journal).  A file
 * create there costs what the minutes before it deleted, so the
 * benchmarks that time creates say so.
 */
#ifndef VB_FSINFO_H
#define VB_FSINFO_H

#include <stddef.h>

/*
 * Is @dir on an ext4 whose superblock has no journal?  1 yes, 0 no (a
 * journal, or not ext4), -1 cannot tell.  The block device's name
 * ("vda", "vda1", "loop0", "dm-0") goes into @dev (@devlen > 0; "" when
 * unknown).  Reads /sys/dev/block and /sys/fs/ext4 (or /proc/fs/jbd2 on
 * kernels without journal_task).
 */
int vb_fs_nojournal(const char *dir, char *dev, size_t devlen);

/*
 * The one line a benchmark that times file creates in @dir says when
 * @dir is on such an ext4: 1 with the line in @buf, else 0 (nothing to
 * say, or it cannot tell).
 */
int vb_fs_create_note(const char *dir, char *buf, size_t len);

/*
 * Mark @dir FS_TOPDIR_FL (chattr +T): ext4 then places each folder made
 * in it as a top-level folder (Orlov, in a group picked from the name's
 * hash), and that folder's files with it, not in @dir's group among
 * what was deleted there before (a benchmark's --own-group).  0, or -1
 * with errno when the file system refuses or drops the flag.
 */
int vb_fs_set_topdir(const char *dir);

/*
 * A benchmark's --own-group, once in its setup(): vb_fs_set_topdir()
 * on @dir, and the note its result keeps into @buf, naming @what goes
 * in a group of its own ("each client's folder and files"), or that
 * the file system does not take the flag.
 */
void vb_fs_own_group(const char *dir, const char *what, char *buf,
    size_t len);

#endif
