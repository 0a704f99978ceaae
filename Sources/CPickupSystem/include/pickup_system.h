#ifndef PICKUP_SYSTEM_H
#define PICKUP_SYSTEM_H

#include <stdint.h>

/// Starts writing a byte range of a file to disk without waiting (Linux
/// sync_file_range with SYNC_FILE_RANGE_WRITE). Returns 0, or -1 with errno;
/// a no-op returning 0 where the call does not exist.
int pickup_start_writeback(int fd, int64_t offset, int64_t count);

/// Waits until a byte range of a file is written to disk (starting what is not
/// yet), then drops its pages from the page cache (Linux sync_file_range, then
/// posix_fadvise DONTNEED). Returns 0, or -1 with errno when the wait failed: a
/// write of the file that failed, which a later fsync of this descriptor will
/// not report again. A no-op returning 0 where the calls do not exist.
int pickup_finish_writeback(int fd, int64_t offset, int64_t count);

/// Drops a flushed file's pages from the page cache (Linux posix_fadvise
/// DONTNEED); a no-op elsewhere.
void pickup_drop_cached(int fd);

/// Copies `count` bytes from `in` at `in_offset` to `out` at `out_offset` inside
/// the kernel (Linux copy_file_range: a reflink on btrfs and XFS, no copy
/// through user space elsewhere). Returns the bytes copied, or -1 with errno
/// (ENOSYS where the call does not exist).
int64_t pickup_copy_range(int in, int64_t in_offset, int out, int64_t out_offset, int64_t count);

/// Turns uncached writes on or off for an open file (Apple platforms' F_NOCACHE,
/// sys/fcntl.h: "turn data caching off/on for this fd"). Returns 0, or -1 with
/// errno (ENOSYS elsewhere: Linux streams a copy to the disk instead).
int pickup_set_direct_io(int fd, int on);

/// Opens a new unnamed file in `folder` for writing (Linux O_TMPFILE): it has
/// no name until pickup_link_unnamed gives it one, and vanishes if it never
/// gets one. Returns the descriptor, or -1 with errno (EOPNOTSUPP and the like
/// where the file system cannot; ENOSYS off Linux or without /proc).
int pickup_open_unnamed(const char *folder, int mode);

/// Gives the unnamed file open as `fd` the name `path`; fails with EEXIST
/// rather than replace a file. Returns 0, or -1 with errno.
int pickup_link_unnamed(int fd, const char *path);

/// The file system type of the folder at `path` (statfs's f_type on Linux),
/// or -1 when unknown.
int64_t pickup_filesystem_type(const char *path);

/// Writes every file of the file system holding the open `fd` to the disk and
/// waits (Linux syncfs: the data, the inodes and the folders' entries; since
/// Linux 5.8 it reports a write that failed). Returns 0, or -1 with errno
/// (ENOSYS off Linux).
int pickup_sync_filesystem(int fd);

/// Reads a file's extended attribute `name` into `value` (at most `size`
/// bytes; Linux getxattr, Apple's with position 0 and no options). Returns the
/// bytes read, or -1 with errno (ENOTSUP where the file system keeps none).
int64_t pickup_get_attribute(const char *path, const char *name, void *value, int64_t size);

/// Sets a file's extended attribute `name` to `size` bytes of `value` (Linux
/// setxattr, Apple's with position 0 and no options). Returns 0, or -1 with
/// errno (ENOTSUP where the file system keeps none).
int pickup_set_attribute(const char *path, const char *name, const void *value, int64_t size);

#endif
