// libxml2 loaded on first use (issue 32). FoundationXML's XMLParser (linked statically into a
// release build) and the sync's own XML reading call libxml2; nothing else does, yet linking it
// made every `query` and `--help` map it and ICU's 30 MB behind it. The stubs in stubs.S carry
// libxml2's function names; the first call lands in cb_xml2_load_or_exit, which dlopens
// libxml2.so.2 once and fills every stub's slot with the real function.
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "CLazyXML2.h"
// Through include/libxml (a link to libxml2's headers): the ABI these stubs forward to.
#include <libxml/xmlversion.h>
#if LIBXML_VERSION < 20900
#error "libxml2 2.9 or later (Debian's libxml2-dev)"
#endif

#define HIDDEN __attribute__((visibility("hidden")))

#define X(name) HIDDEN void *cb_xml2_slot_##name;
#include "symbols.def"
#undef X

static const struct {
    const char *name;
    void **slot;
} symbols[] = {
#define X(name) {#name, &cb_xml2_slot_##name},
#include "symbols.def"
#undef X
};

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char failure[512];
static void (*real_free)(void *);

static void lazy_free(void *memory);

/// libxml2's `xmlFree` is a variable holding its deallocator (callers read it, then call it): the
/// same here, holding a function that loads libxml2 first, then libxml2's own.
HIDDEN void (*xmlFree)(void *) = lazy_free;

/// The library's name; CONTACTSBOOK_TEST_LIBXML2 replaces it, only so that a test can see what a
/// machine without libxml2 gets.
static const char *soname(void) {
    const char *test = getenv("CONTACTSBOOK_TEST_LIBXML2");
    return test && *test ? test : "libxml2.so.2";
}

static void load(void) {
    const char *name = soname();
    void *library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *why = dlerror();
        snprintf(failure, sizeof failure,
                 "sync needs libxml2, which could not be loaded (%s); on Debian or Ubuntu install the libxml2 package",
                 why ? why : name);
        return;
    }
    void (**free_variable)(void *) = (void (**)(void *))dlsym(library, "xmlFree");
    if (!free_variable) {
        snprintf(failure, sizeof failure, "%s has no xmlFree: it is not the libxml2 this contactsbook needs", name);
        return;
    }
    void *found[sizeof symbols / sizeof symbols[0]];
    for (size_t i = 0; i < sizeof symbols / sizeof symbols[0]; i++) {
        if (!(found[i] = dlsym(library, symbols[i].name))) {
            snprintf(failure, sizeof failure, "%s has no %s: it is not the libxml2 this contactsbook needs", name,
                     symbols[i].name);
            return;
        }
    }
    // Filled only when all are found: a stub either jumps to libxml2 or asks to load.
    for (size_t i = 0; i < sizeof symbols / sizeof symbols[0]; i++) {
        __atomic_store_n(symbols[i].slot, found[i], __ATOMIC_RELEASE);
    }
    real_free = *free_variable;
    __atomic_store_n(&xmlFree, real_free, __ATOMIC_RELEASE);
}

const char *cb_xml2_load_failure(void) {
    pthread_once(&once, load);
    return failure[0] ? failure : NULL;
}

/// Called by a stub whose function is not there yet. Not there after loading means libxml2 is
/// missing: said on stderr, and the process ends with EX_UNAVAILABLE (69) rather than jumping
/// nowhere. (The sync checks first, through libcurl's loader, and fails as a request would.)
HIDDEN void cb_xml2_load_or_exit(void) {
    const char *why = cb_xml2_load_failure();
    if (why) {
        fprintf(stderr, "contactsbook: %s\n", why);
        exit(69);
    }
}

static void lazy_free(void *memory) {
    cb_xml2_load_or_exit();
    real_free(memory);
}
