#define _GNU_SOURCE
#include "pickup_system.h"

#if defined(__linux__)
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/vfs.h>
#include <unistd.h>

// Whether /proc/self/fd can be used: 0 not yet asked, 1 yes, 2 no. Asked once
// a process (a small photo's copy should not pay for it again); atomic, so
// threads copying at once may each ask first and agree.
static int proc_fd_usable = 0;

int pickup_open_unnamed(const char *folder, int mode) {
    // Naming the file later goes through /proc/self/fd (linkat with
    // AT_EMPTY_PATH needs a capability): without /proc, no unnamed files.
    int usable = __atomic_load_n(&proc_fd_usable, __ATOMIC_RELAXED);
    if (usable == 0) {
        usable = access("/proc/self/fd", X_OK) == 0 ? 1 : 2;
        __atomic_store_n(&proc_fd_usable, usable, __ATOMIC_RELAXED);
    }
    if (usable != 1) {
        errno = ENOSYS;
        return -1;
    }
    return open(folder, O_TMPFILE | O_WRONLY | O_CLOEXEC, (mode_t)mode);
}

int pickup_link_unnamed(int fd, const char *path) {
    char self[64];
    snprintf(self, sizeof self, "/proc/self/fd/%d", fd);
    return linkat(AT_FDCWD, self, AT_FDCWD, path, AT_SYMLINK_FOLLOW);
}

int64_t pickup_filesystem_type(const char *path) {
    struct statfs info;
    if (statfs(path, &info) != 0) return -1;
    return (int64_t)info.f_type;
}

int pickup_start_writeback(int fd, int64_t offset, int64_t count) {
    return sync_file_range(fd, (off_t)offset, (off_t)count, SYNC_FILE_RANGE_WRITE);
}

int pickup_finish_writeback(int fd, int64_t offset, int64_t count) {
    // Waits for the range to be written (starting what is not yet), then lets its pages go: a
    // file streamed to the disk keeps no more than a chunk or two in the page cache. Pages are
    // dropped only once written. The wait reports a write that failed anywhere in the file
    // since the descriptor last asked, and a later fsync does not report it again.
    if (sync_file_range(fd, (off_t)offset, (off_t)count,
            SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE | SYNC_FILE_RANGE_WAIT_AFTER) != 0) {
        return -1;
    }
    (void)posix_fadvise(fd, (off_t)offset, (off_t)count, POSIX_FADV_DONTNEED);
    return 0;
}

void pickup_drop_cached(int fd) { (void)posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED); }

int pickup_sync_filesystem(int fd) { return syncfs(fd); }

int64_t pickup_copy_range(int in, int64_t in_offset, int out, int64_t out_offset, int64_t count) {
    off64_t from = (off64_t)in_offset;
    off64_t to = (off64_t)out_offset;
    return (int64_t)copy_file_range(in, &from, out, &to, (size_t)count, 0);
}
#else
#include <errno.h>
#include <fcntl.h>

int pickup_open_unnamed(const char *folder, int mode) {
    (void)folder;
    (void)mode;
    errno = ENOSYS;
    return -1;
}

int pickup_link_unnamed(int fd, const char *path) {
    (void)fd;
    (void)path;
    errno = ENOSYS;
    return -1;
}

int64_t pickup_filesystem_type(const char *path) {
    (void)path;
    return -1;
}

int pickup_sync_filesystem(int fd) {
    (void)fd;
    errno = ENOSYS;
    return -1;
}

int64_t pickup_copy_range(int in, int64_t in_offset, int out, int64_t out_offset, int64_t count) {
    (void)in;
    (void)in_offset;
    (void)out;
    (void)out_offset;
    (void)count;
    errno = ENOSYS;
    return -1;
}


int pickup_start_writeback(int fd, int64_t offset, int64_t count) {
    (void)fd;
    (void)offset;
    (void)count;
    return 0;
}

int pickup_finish_writeback(int fd, int64_t offset, int64_t count) {
    (void)fd;
    (void)offset;
    (void)count;
    return 0;
}

void pickup_drop_cached(int fd) { (void)fd; }
#endif

int pickup_set_direct_io(int fd, int on) {
#if defined(F_NOCACHE)
    // Apple platforms. Linux streams its copies instead (ChunkWriter), so it has no such call.
    return fcntl(fd, F_NOCACHE, on ? 1 : 0);
#else
    (void)fd;
    (void)on;
    errno = ENOSYS;
    return -1;
#endif
}

#include <sys/types.h>
#include <sys/xattr.h>

int64_t pickup_get_attribute(const char *path, const char *name, void *value, int64_t size) {
#if defined(__APPLE__)
    return (int64_t)getxattr(path, name, value, (size_t)size, 0, 0);
#else
    return (int64_t)getxattr(path, name, value, (size_t)size);
#endif
}

int pickup_set_attribute(const char *path, const char *name, const void *value, int64_t size) {
#if defined(__APPLE__)
    return setxattr(path, name, value, (size_t)size, 0, 0);
#else
    return setxattr(path, name, value, (size_t)size, 0);
#endif
}
