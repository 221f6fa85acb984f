// NB: The Glibc Swift module does not export <malloc.h>, so `mallinfo2` is reached from C.
#include "CHeap.h"

#if defined(__linux__)
#include <features.h>
#endif

#if defined(__GLIBC__) && \
    (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
#include <malloc.h>

long long cheap_live_heap_bytes(void) {
  struct mallinfo2 info = mallinfo2();
  return (long long)(info.uordblks + info.hblkhd);
}
#elif defined(__APPLE__)
#include <malloc/malloc.h>

long long cheap_live_heap_bytes(void) {
  malloc_statistics_t statistics;
  malloc_zone_statistics(NULL, &statistics);
  return (long long)statistics.size_in_use;
}
#else
long long cheap_live_heap_bytes(void) { return -1; }
#endif
