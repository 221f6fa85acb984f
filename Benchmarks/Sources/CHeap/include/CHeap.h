#ifndef CHEAP_H
#define CHEAP_H

#include <stddef.h>

/// Bytes in use in the C heap: `uordblks + hblkhd` of glibc's `mallinfo2()` (every arena,
/// including large blocks served by mmap). Returns -1 where that is not available.
long long cheap_live_heap_bytes(void);

#endif
