/* PXT_ASAN: 1 when the tests are built with AddressSanitizer (gcc's __SANITIZE_ADDRESS__ or clang's
 * __has_feature), for the suites that shrink their random workloads under it. */
#pragma once

#if defined(__SANITIZE_ADDRESS__)
#define PXT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PXT_ASAN 1
#endif
#endif
#ifndef PXT_ASAN
#define PXT_ASAN 0
#endif
