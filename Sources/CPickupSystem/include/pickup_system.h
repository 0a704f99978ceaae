#ifndef PICKUP_SYSTEM_H
#define PICKUP_SYSTEM_H

#include <stdint.h>

/// Starts writing a byte range of a file to disk without waiting (Linux
/// sync_file_range with SYNC_FILE_RANGE_WRITE). Returns 0, or -1 with errno;
/// a no-op returning 0 where the call does not exist.
int pickup_start_writeback(int fd, int64_t offset, int64_t count);

#endif
