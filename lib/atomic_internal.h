/*
 * atomic_internal.h - Concurrency Kit atomics that ThreadSanitizer can see
 * (internal).
 *
 * Concurrency Kit implements ck_pr_* with inline assembly. The compiler's
 * ThreadSanitizer instrumentation never sees those accesses: it reports no
 * race on them (fine: they are atomic), but it also sees none of the
 * happens-before edges they establish, so it would report false races on the
 * ordinary data they publish (a task written before a deque push and read by
 * the thief, a TT entry, a result written before a counter is released...).
 *
 * Every synchronising operation of libgts therefore goes through the helpers
 * below. Each one is the ck_pr operation plus the ck_pr fence that gives it
 * its C11 memory order, plus, in a TSan build only, the matching annotation
 * on the address of the atomic object:
 *
 *   release side   __tsan_release(addr)   before the store / RMW
 *   acquire side   __tsan_acquire(addr)   after the load / RMW
 *
 * TSan then sees "everything before a release on X happens before
 * everything after an acquire on X", which is exactly the C11 rule for a
 * release store read by an acquire load. (TSan's model is slightly coarser:
 * an acquire synchronises with every earlier release on X, not only with the
 * one whose value it read. That can hide a race, never invent one.)
 * Outside TSan builds the annotations compile to nothing and every helper is
 * exactly one ck_pr call plus the fence (which is only a compiler barrier on
 * x86-64, a TSO machine).
 *
 * Orders provided (names carry the order, as C11 would):
 *   load_relaxed / store_relaxed      no ordering, no annotation
 *   load_acquire                      load; fence_acquire; tsan_acquire
 *   store_release                     tsan_release; fence_release; store
 *   cas (acq_rel; seq_cst on x86)     tsan_release; fence; cas; fence;
 *                                     tsan_acquire (the acquire only on success)
 *   faa_relaxed / faa_release / faa_acq_rel
 *   fence_seq_cst                     full fence (mfence on x86)
 *
 * Fences have no address, so TSan cannot be told about them (it ignores
 * atomic_thread_fence as well). Code that publishes through a fence must
 * also put the edge on an address: prefer store_release / load_acquire on
 * the flag itself, or call GTS__TSAN_RELEASE / GTS__TSAN_ACQUIRE by hand.
 *
 * Rules for users of this header:
 *   - a shared word is accessed only through these helpers (or ck_pr_*),
 *     never with plain loads and stores, or TSan will flag the plain access
 *     against nothing (it does not see the asm side) and the compiler may
 *     tear or hoist it;
 *   - the annotation goes on the word that carries the edge; every
 *     release/acquire pair must use the same address.
 *   - 64-bit helpers require naturally aligned uint64_t objects.
 */
#ifndef GTS_ATOMIC_INTERNAL_H
#define GTS_ATOMIC_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include <ck_pr.h>

/* Size of a cache line (ck_md.h's value), for padding shared structures so
 * that words written by different threads never share a line. */
#define GTS__CACHELINE 64
_Static_assert(GTS__CACHELINE >= CK_MD_CACHELINE, "GTS__CACHELINE smaller than ck_md.h's");

/* Step 1. Is this a ThreadSanitizer build? (gcc defines the macro; clang
 * only answers __has_feature, which gcc 12 does not have at all.) */
#if defined(__SANITIZE_THREAD__)
#  define GTS__TSAN 1
#elif defined(__has_feature)
#  if __has_feature(thread_sanitizer)
#    define GTS__TSAN 1
#  endif
#endif
#ifndef GTS__TSAN
#  define GTS__TSAN 0
#endif

/* Step 2. The raw annotations, usable by hand for fence-based protocols. */
#if GTS__TSAN
#  include <sanitizer/tsan_interface.h>
#  define GTS__TSAN_ACQUIRE(addr) __tsan_acquire((void *)(uintptr_t)(addr))
#  define GTS__TSAN_RELEASE(addr) __tsan_release((void *)(uintptr_t)(addr))
#else
#  define GTS__TSAN_ACQUIRE(addr) ((void)(addr))
#  define GTS__TSAN_RELEASE(addr) ((void)(addr))
#endif

/* Step 3. Fences (no TSan annotation possible, see above). */

/* Full two-way fence: orders earlier stores before later loads (Dekker,
 * Chase-Lev pop/steal). mfence on x86-64. */
static inline void gts__atomic_fence_seq_cst(void)
{
    ck_pr_fence_memory();
}

static inline void gts__atomic_fence_acquire(void)
{
    ck_pr_fence_acquire();
}

static inline void gts__atomic_fence_release(void)
{
    ck_pr_fence_release();
}

/* CPU hint inside a spin loop (x86 "pause"). */
static inline void gts__atomic_pause(void)
{
    ck_pr_stall();
}

/* Step 4. Loads and stores. The type suffix is the width; _ptr handles any
 * object pointer stored in a void * sized slot. */

#define GTS__ATOMIC_LOADSTORE(SFX, T)                                         \
    static inline T gts__atomic_load_relaxed_##SFX(const T *p)                \
    {                                                                         \
        return ck_pr_md_load_##SFX(p);                                        \
    }                                                                         \
    static inline void gts__atomic_store_relaxed_##SFX(T *p, T v)             \
    {                                                                         \
        ck_pr_md_store_##SFX(p, v);                                           \
    }                                                                         \
    static inline T gts__atomic_load_acquire_##SFX(const T *p)                \
    {                                                                         \
        T v = ck_pr_md_load_##SFX(p);                                         \
        ck_pr_fence_acquire();                                                \
        GTS__TSAN_ACQUIRE(p);                                                 \
        return v;                                                             \
    }                                                                         \
    static inline void gts__atomic_store_release_##SFX(T *p, T v)             \
    {                                                                         \
        GTS__TSAN_RELEASE(p);                                                 \
        ck_pr_fence_release();                                                \
        ck_pr_md_store_##SFX(p, v);                                           \
    }

GTS__ATOMIC_LOADSTORE(32, uint32_t)
GTS__ATOMIC_LOADSTORE(64, uint64_t)
#undef GTS__ATOMIC_LOADSTORE

/* Pointers: @p is the address of a pointer-sized object (e.g. &s->next). */
static inline void *gts__atomic_load_relaxed_ptr(const void *p)
{
    return ck_pr_md_load_ptr(p);
}

static inline void gts__atomic_store_relaxed_ptr(void *p, const void *v)
{
    ck_pr_md_store_ptr(p, v);
}

static inline void *gts__atomic_load_acquire_ptr(const void *p)
{
    void *v = ck_pr_md_load_ptr(p);
    ck_pr_fence_acquire();
    GTS__TSAN_ACQUIRE(p);
    return v;
}

static inline void gts__atomic_store_release_ptr(void *p, const void *v)
{
    GTS__TSAN_RELEASE(p);
    ck_pr_fence_release();
    ck_pr_md_store_ptr(p, v);
}

/* Step 5. Read-modify-write operations. */

/*
 * Compare-and-swap: if *p == expected, store desired and return true.
 * Acquire-release (sequentially consistent on x86, where lock cmpxchg is a
 * full barrier). A failed CAS is a relaxed load: it synchronises with
 * nothing and is not annotated as an acquire.
 */
#define GTS__ATOMIC_CAS(SFX, T)                                               \
    static inline bool gts__atomic_cas_##SFX(T *p, T expected, T desired)     \
    {                                                                         \
        bool ok;                                                              \
        GTS__TSAN_RELEASE(p);                                                 \
        ck_pr_fence_atomic();                                                 \
        ck_pr_fence_load_atomic();                                            \
        ck_pr_fence_store_atomic();                                           \
        ok = ck_pr_cas_##SFX(p, expected, desired);                           \
        ck_pr_fence_atomic_load();                                            \
        ck_pr_fence_atomic_store();                                           \
        if (ok)                                                               \
            GTS__TSAN_ACQUIRE(p);                                             \
        return ok;                                                            \
    }

GTS__ATOMIC_CAS(32, uint32_t)
GTS__ATOMIC_CAS(64, uint64_t)
#undef GTS__ATOMIC_CAS

static inline bool gts__atomic_cas_ptr(void *p, void *expected, void *desired)
{
    bool ok;
    GTS__TSAN_RELEASE(p);
    ck_pr_fence_atomic();
    ck_pr_fence_load_atomic();
    ck_pr_fence_store_atomic();
    ok = ck_pr_cas_ptr(p, expected, desired);
    ck_pr_fence_atomic_load();
    ck_pr_fence_atomic_store();
    if (ok)
        GTS__TSAN_ACQUIRE(p);
    return ok;
}

/*
 * Fetch-and-add; returns the previous value. Subtract with a negative delta
 * cast to the unsigned type (e.g. (uint32_t)-1).
 *   _relaxed  counters that publish nothing (statistics, spawn counts);
 *   _release  "I am done writing": a decrement whose zero an acquire load
 *             observes (join counters);
 *   _acq_rel  both: a RMW that also consumes what earlier releasers wrote.
 */
#define GTS__ATOMIC_FAA(SFX, T)                                               \
    static inline T gts__atomic_faa_relaxed_##SFX(T *p, T delta)              \
    {                                                                         \
        return ck_pr_faa_##SFX(p, delta);                                     \
    }                                                                         \
    static inline T gts__atomic_faa_release_##SFX(T *p, T delta)              \
    {                                                                         \
        GTS__TSAN_RELEASE(p);                                                 \
        ck_pr_fence_load_atomic();                                            \
        ck_pr_fence_store_atomic();                                           \
        return ck_pr_faa_##SFX(p, delta);                                     \
    }                                                                         \
    static inline T gts__atomic_faa_acq_rel_##SFX(T *p, T delta)              \
    {                                                                         \
        T old;                                                                \
        GTS__TSAN_RELEASE(p);                                                 \
        ck_pr_fence_load_atomic();                                            \
        ck_pr_fence_store_atomic();                                           \
        old = ck_pr_faa_##SFX(p, delta);                                      \
        ck_pr_fence_atomic_load();                                            \
        ck_pr_fence_atomic_store();                                           \
        GTS__TSAN_ACQUIRE(p);                                                 \
        return old;                                                           \
    }

GTS__ATOMIC_FAA(32, uint32_t)
GTS__ATOMIC_FAA(64, uint64_t)
#undef GTS__ATOMIC_FAA

/* Fetch-and-or for flag words that publish nothing (set bits, read with
 * relaxed loads); returns nothing. */
#define GTS__ATOMIC_OR(SFX, T)                                                \
    static inline void gts__atomic_or_relaxed_##SFX(T *p, T bits)             \
    {                                                                         \
        ck_pr_or_##SFX(p, bits);                                              \
    }

GTS__ATOMIC_OR(32, uint32_t)
GTS__ATOMIC_OR(64, uint64_t)
#undef GTS__ATOMIC_OR

#endif /* GTS_ATOMIC_INTERNAL_H */
