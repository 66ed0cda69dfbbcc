#include "CAllocationCounter.h"

#include <stdatomic.h>
#include <stddef.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define BONEWORK_SANITIZER_ALLOCATOR 1
#endif
#endif

static _Atomic long counted;
static _Atomic long driver;
static _Atomic int section;

#ifndef BONEWORK_SANITIZER_ALLOCATOR

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static inline void note(void) {
    atomic_fetch_add_explicit(&counted, 1, memory_order_relaxed);
    if (atomic_load_explicit(&section, memory_order_relaxed)) {
        atomic_fetch_add_explicit(&driver, 1, memory_order_relaxed);
    }
}

void *malloc(size_t size) {
    note();
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    note();
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    note();
    return __libc_realloc(pointer, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    note();
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return 22;  // EINVAL
    void *p = __libc_memalign(alignment, size);
    if (p == NULL) return 12;  // ENOMEM
    *result = p;
    return 0;
}

void *aligned_alloc(size_t alignment, size_t size) {
    note();
    return __libc_memalign(alignment, size);
}

void *memalign(size_t alignment, size_t size) {
    note();
    return __libc_memalign(alignment, size);
}

long bonework_allocation_count(void) { return atomic_load_explicit(&counted, memory_order_relaxed); }
long bonework_driver_allocation_count(void) { return atomic_load_explicit(&driver, memory_order_relaxed); }

#else

long bonework_allocation_count(void) { return -1; }
long bonework_driver_allocation_count(void) { return -1; }

#endif

void bonework_driver_section(int open) { atomic_store_explicit(&section, open, memory_order_relaxed); }
