// libcurl loaded on first use. The executable does not link libcurl (no NEEDED entry), so a
// `query`, `--help` or a session never maps it and the ~30 libraries it pulls in (OpenSSL,
// GnuTLS, Kerberos, LDAP...: bench/STARTUP.md, issue 32); only `sync` and `account` call it.
// Each function below has libcurl's own name and prototype (from its headers), so the Swift code
// calls libcurl as it always did; the first call dlopens libcurl.so.4 once and every call goes on
// to the real function. Hidden: nothing outside this executable (libcurl itself included) binds
// to these names.
//
// Without libcurl.so.4 nothing crashes: curl_easy_init hands out a placeholder handle, every
// request fails with CURLE_FAILED_INIT, and curl_easy_strerror says what to install, which the
// sync reports as its network error. The same when libxml2 is missing (CLazyXML2), which every
// sync needs to read its answers.
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "CLazyXML2.h"
#include "lazycurl.h"

/// Not exported from the executable: libcurl's own calls never land here.
#define HIDDEN __attribute__((visibility("hidden")))

static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    void (*easy_reset)(CURL *);
    CURLcode (*easy_perform)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
} real;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static char failure[512];
/// What curl_easy_init returns when libcurl is missing: not NULL (the transport takes a handle as
/// given), never passed to libcurl.
static char placeholder;

/// The library's name; CONTACTSBOOK_TEST_LIBCURL replaces it, only so that a test can see what a
/// machine without libcurl gets.
static const char *soname(void) {
    const char *test = getenv("CONTACTSBOOK_TEST_LIBCURL");
    return test && *test ? test : "libcurl.so.4";
}

static void load(void) {
    const char *name = soname();
    void *library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *why = dlerror();
        snprintf(failure, sizeof failure,
                 "sync needs libcurl, which could not be loaded (%s); on Debian or Ubuntu install the libcurl4 package",
                 why ? why : name);
        return;
    }
#define FIND(field, symbol)                                                                              \
    if (!(*(void **)&real.field = dlsym(library, symbol))) {                                            \
        snprintf(failure, sizeof failure, "%s has no %s: it is not the libcurl this contactsbook needs (libcurl4)", \
                 name, symbol);                                                                          \
        return;                                                                                          \
    }
    FIND(global_init, "curl_global_init")
    FIND(easy_init, "curl_easy_init")
    FIND(easy_cleanup, "curl_easy_cleanup")
    FIND(easy_reset, "curl_easy_reset")
    FIND(easy_perform, "curl_easy_perform")
    FIND(easy_strerror, "curl_easy_strerror")
    FIND(easy_setopt, "curl_easy_setopt")
    FIND(easy_getinfo, "curl_easy_getinfo")
    FIND(slist_append, "curl_slist_append")
    FIND(slist_free_all, "curl_slist_free_all")
#undef FIND
    // Every answer a sync reads is XML: without libxml2 it fails here, as a request, rather than
    // at its first answer.
    const char *xml = cb_xml2_load_failure();
    if (xml) {
        snprintf(failure, sizeof failure, "%s", xml);
        return;
    }
    loaded = 1;
}

/// Loads libcurl the first time (pthread_once: any thread may be first); true when it is there.
static int ready(void) {
    pthread_once(&once, load);
    return loaded;
}

HIDDEN const char *ccurl_load_failure(void) {
    return ready() ? NULL : failure;
}

HIDDEN CURLcode curl_global_init(long flags) {
    return ready() ? real.global_init(flags) : CURLE_FAILED_INIT;
}

HIDDEN CURL *curl_easy_init(void) {
    return ready() ? real.easy_init() : (CURL *)&placeholder;
}

HIDDEN void curl_easy_cleanup(CURL *handle) {
    if (ready() && handle != (CURL *)&placeholder) real.easy_cleanup(handle);
}

HIDDEN void curl_easy_reset(CURL *handle) {
    if (ready() && handle != (CURL *)&placeholder) real.easy_reset(handle);
}

HIDDEN CURLcode curl_easy_perform(CURL *handle) {
    return ready() && handle != (CURL *)&placeholder ? real.easy_perform(handle) : CURLE_FAILED_INIT;
}

HIDDEN const char *curl_easy_strerror(CURLcode code) {
    return ready() ? real.easy_strerror(code) : failure;
}

HIDDEN struct curl_slist *curl_slist_append(struct curl_slist *list, const char *text) {
    // NULL is libcurl's own answer when it cannot append; the request then fails as above.
    return ready() ? real.slist_append(list, text) : NULL;
}

HIDDEN void curl_slist_free_all(struct curl_slist *list) {
    if (ready()) real.slist_free_all(list);
}

// The variadic setopt and getinfo are only called from the typed wrappers (ccurl.c), which pass
// one argument of a known type: they call these.
HIDDEN CURLcode ccurl_real_setopt_long(CURL *handle, CURLoption option, long value) {
    return ready() && handle != (CURL *)&placeholder ? real.easy_setopt(handle, option, value) : CURLE_FAILED_INIT;
}

HIDDEN CURLcode ccurl_real_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return ready() && handle != (CURL *)&placeholder ? real.easy_setopt(handle, option, value) : CURLE_FAILED_INIT;
}

HIDDEN CURLcode ccurl_real_setopt_pointer(CURL *handle, CURLoption option, const void *value) {
    return ready() && handle != (CURL *)&placeholder ? real.easy_setopt(handle, option, value) : CURLE_FAILED_INIT;
}

HIDDEN CURLcode ccurl_real_setopt_function(CURL *handle, CURLoption option, void (*value)(void)) {
    return ready() && handle != (CURL *)&placeholder ? real.easy_setopt(handle, option, value) : CURLE_FAILED_INIT;
}

HIDDEN CURLcode ccurl_real_getinfo_pointer(CURL *handle, CURLINFO info, void *value) {
    return ready() && handle != (CURL *)&placeholder ? real.easy_getinfo(handle, info, value) : CURLE_FAILED_INIT;
}
