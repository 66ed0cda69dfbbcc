// Counts the heap allocations of the `bonework` executable (never linked into the libraries): the
// crowd reports allocations per steady frame with it. malloc, calloc, realloc, posix_memalign,
// aligned_alloc and memalign are defined here and forward to glibc's own (__libc_*), adding one to
// a counter. Under AddressSanitizer or ThreadSanitizer, whose allocators replace glibc's, nothing
// is defined and the counter reads -1.
#ifndef BONEWORK_ALLOCATION_COUNTER_H
#define BONEWORK_ALLOCATION_COUNTER_H

/// Allocations made since the process started, on every thread; -1 when not counted.
long bonework_allocation_count(void);

/// Of those, the allocations made while some thread was inside a driver section (see below).
long bonework_driver_allocation_count(void);

/// Enters (1) or leaves (0) a driver section: while one is open, allocations on every thread are
/// counted as the driver's. The crowd opens one around the GL calls that let the driver work (the
/// draw call, the buffer swap, event polling) on the thread that makes them, while its own worker
/// threads are idle.
void bonework_driver_section(int open);

#endif
