/*
 * stress.h - what the plain-main() stress programs share (they run under
 * ThreadSanitizer, where Criterion cannot): a failure counter, fail() and
 * CHECK() that report on stderr under the program's name, and a monotonic
 * clock. Define STRESS_NAME ("stress_x") before including it.
 */
#ifndef GTS_TESTS_STRESS_H
#define GTS_TESTS_STRESS_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#ifndef STRESS_NAME
#error "define STRESS_NAME before including stress.h"
#endif

/* Checks that failed, from any thread. */
static uint32_t failures;

__attribute__((format(printf, 1, 2))) static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs(STRESS_NAME ": FAIL: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    __atomic_fetch_add(&failures, 1, __ATOMIC_RELAXED);
}

#define CHECK(cond, ...)                                                      \
    do {                                                                      \
        if (!(cond))                                                          \
            fail(__VA_ARGS__);                                                \
    } while (0)

/* Seconds on the monotonic clock. */
static inline double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

#endif
