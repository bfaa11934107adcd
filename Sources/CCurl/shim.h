// libcurl's easy interface (Debian's libcurl4-openssl-dev) for Swift. curl_easy_setopt and
// curl_easy_getinfo are C variadic functions, which Swift cannot call: CCurlSupport wraps them.
#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H

#include <curl/curl.h>

#endif
