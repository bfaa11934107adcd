#include "lazycurl.h"

CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value) {
    return ccurl_real_setopt_long(handle, option, value);
}

CURLcode ccurl_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return ccurl_real_setopt_off_t(handle, option, value);
}

CURLcode ccurl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return ccurl_real_setopt_pointer(handle, option, value);
}

CURLcode ccurl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return ccurl_real_setopt_pointer(handle, option, value);
}

CURLcode ccurl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return ccurl_real_setopt_pointer(handle, option, value);
}

CURLcode ccurl_setopt_data_function(CURL *handle, CURLoption option, ccurl_data_fn function) {
    return ccurl_real_setopt_function(handle, option, (void (*)(void))function);
}

CURLcode ccurl_setopt_progress_function(CURL *handle, ccurl_progress_fn function) {
    return ccurl_real_setopt_function(handle, CURLOPT_XFERINFOFUNCTION, (void (*)(void))function);
}

CURLcode ccurl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return ccurl_real_getinfo_pointer(handle, info, value);
}
