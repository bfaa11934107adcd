// libcurl's variadic curl_easy_setopt and curl_easy_getinfo, reached through the library loaded
// on first use (lazycurl.c), one argument type each: only ccurl.c calls them.
#ifndef CCURL_LAZYCURL_H
#define CCURL_LAZYCURL_H

#include "CCurlSupport.h"

__attribute__((visibility("hidden"))) CURLcode ccurl_real_setopt_long(CURL *handle, CURLoption option, long value);
__attribute__((visibility("hidden"))) CURLcode ccurl_real_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value);
__attribute__((visibility("hidden"))) CURLcode ccurl_real_setopt_pointer(CURL *handle, CURLoption option, const void *value);
__attribute__((visibility("hidden"))) CURLcode ccurl_real_setopt_function(CURL *handle, CURLoption option, void (*value)(void));
__attribute__((visibility("hidden"))) CURLcode ccurl_real_getinfo_pointer(CURL *handle, CURLINFO info, void *value);

#endif
