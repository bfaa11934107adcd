// Typed, non-variadic wrappers for libcurl's variadic curl_easy_setopt and curl_easy_getinfo:
// one per kind of argument the sync's transport passes. libcurl itself is loaded on first use
// (lazycurl.c), so these and libcurl's own functions may be called without linking it.
#ifndef CCURLSUPPORT_H
#define CCURLSUPPORT_H

#include <curl/curl.h>

/// The write and header callbacks' type (CURLOPT_WRITEFUNCTION, CURLOPT_HEADERFUNCTION).
typedef size_t (*ccurl_data_fn)(char *_Nonnull data, size_t size, size_t count, void *_Nullable context);
/// The progress callback's type (CURLOPT_XFERINFOFUNCTION): non-zero stops the transfer.
typedef int (*ccurl_progress_fn)(void *_Nullable context, curl_off_t download_total, curl_off_t downloaded,
                                 curl_off_t upload_total, curl_off_t uploaded);

CURLcode ccurl_setopt_long(CURL *_Nonnull handle, CURLoption option, long value);
CURLcode ccurl_setopt_off_t(CURL *_Nonnull handle, CURLoption option, curl_off_t value);
/// A string option; libcurl copies it (except CURLOPT_POSTFIELDS, see below).
CURLcode ccurl_setopt_string(CURL *_Nonnull handle, CURLoption option, const char *_Nullable value);
/// A pointer option: CURLOPT_POSTFIELDS (not copied: valid until the transfer ends), the
/// callbacks' context, CURLOPT_ERRORBUFFER.
CURLcode ccurl_setopt_pointer(CURL *_Nonnull handle, CURLoption option, void *_Nullable value);
CURLcode ccurl_setopt_slist(CURL *_Nonnull handle, CURLoption option, struct curl_slist *_Nullable value);
CURLcode ccurl_setopt_data_function(CURL *_Nonnull handle, CURLoption option, ccurl_data_fn _Nullable function);
CURLcode ccurl_setopt_progress_function(CURL *_Nonnull handle, ccurl_progress_fn _Nullable function);

CURLcode ccurl_getinfo_long(CURL *_Nonnull handle, CURLINFO info, long *_Nonnull value);

/// libcurl is loaded on its first use (lazycurl.c): NULL once it is, or why it could not be,
/// naming the package to install (what curl_easy_strerror then answers for every failure).
const char *_Nullable ccurl_load_failure(void);

/// CURLAUTH_BASIC | CURLAUTH_DIGEST (the macros are casts Swift cannot import): libcurl learns from
/// the first 401 which of the two the server asks for, and keeps using it on the same handle.
static const long ccurl_auth_basic = (long)CURLAUTH_BASIC;
static const long ccurl_auth_digest = (long)CURLAUTH_DIGEST;

#endif
