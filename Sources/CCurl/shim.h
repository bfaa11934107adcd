// libcurl's easy interface (Debian's libcurl4-openssl-dev) for Swift. curl_easy_setopt and
// curl_easy_getinfo are C variadic functions, which Swift cannot call: CCurlSupport wraps them.
// Headers only: the executable does not link libcurl, CCurlSupport loads it on first use.
#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H

#include <curl/curl.h>

#endif
