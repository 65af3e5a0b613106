/*
 * Shared by the C ABI's test driver (driver.c, misuse.c): the failure counter and the
 * check macros. Compiled as C99 and as C++11.
 */
#ifndef INBAND_TEST_CHECK_H
#define INBAND_TEST_CHECK_H

#include "inband.h"

#include <stdio.h>

/* Checks that failed so far; main() exits 1 when any did. */
extern int failures;

#define CHECK(cond, ...)                                                                   \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond);      \
            fprintf(stderr, __VA_ARGS__);                                                  \
            fprintf(stderr, " (last error: %s)\n", inband_last_error());                   \
            failures++;                                                                    \
        }                                                                                  \
    } while (0)

#define EXPECT_STATUS(call, want)                                                          \
    do {                                                                                   \
        inband_status_t got_ = (call);                                                     \
        CHECK(got_ == (want), "%s returned %s, expected %s", #call,                        \
              inband_status_name(got_), inband_status_name(want));                         \
    } while (0)

/* The misuse checks (misuse.c); returns 0. */
int misuse(void);

#endif
