#define _GNU_SOURCE
#include "pickup_system.h"

#if defined(__linux__)
#include <fcntl.h>

int pickup_start_writeback(int fd, int64_t offset, int64_t count) {
    return sync_file_range(fd, (off_t)offset, (off_t)count, SYNC_FILE_RANGE_WRITE);
}
#else
int pickup_start_writeback(int fd, int64_t offset, int64_t count) {
    (void)fd;
    (void)offset;
    (void)count;
    return 0;
}
#endif
