// libedit loaded on first use (issue 32), as CLazyXML2 loads libxml2. Only the REPL calls
// libedit, yet linking it made every `query`, `--rpc` and piped command map it and the three
// libraries behind it (libtinfo, libbsd, libmd). The stubs in stubs.S carry libedit's function
// names; the first call lands in cb_edit_load_or_exit, which dlopens libedit.so.2 once and fills
// every stub's slot with the real function.
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "CLazyEdit.h"

#define HIDDEN __attribute__((visibility("hidden")))

#define X(name) HIDDEN void *cb_edit_slot_##name;
#include "symbols.def"
#undef X

static const struct {
    const char *name;
    void **slot;
} symbols[] = {
#define X(name) {#name, &cb_edit_slot_##name},
#include "symbols.def"
#undef X
};

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char failure[512];

static void load(void) {
    const char *name = "libedit.so.2";
    void *library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *why = dlerror();
        snprintf(failure, sizeof failure,
                 "the REPL needs libedit, which could not be loaded (%s); on Debian or Ubuntu install the libedit2 package",
                 why ? why : name);
        return;
    }
    void *found[sizeof symbols / sizeof symbols[0]];
    for (size_t i = 0; i < sizeof symbols / sizeof symbols[0]; i++) {
        if (!(found[i] = dlsym(library, symbols[i].name))) {
            snprintf(failure, sizeof failure, "%s has no %s: it is not the libedit this contactsbook needs", name,
                     symbols[i].name);
            return;
        }
    }
    // Filled only when all are found: a stub either jumps to libedit or asks to load.
    for (size_t i = 0; i < sizeof symbols / sizeof symbols[0]; i++) {
        __atomic_store_n(symbols[i].slot, found[i], __ATOMIC_RELEASE);
    }
}

const char *cb_edit_load_failure(void) {
    pthread_once(&once, load);
    return failure[0] ? failure : NULL;
}

/// Called by a stub whose function is not there yet. Not there after loading means libedit is
/// missing: said on stderr, and the process ends with EX_UNAVAILABLE (69) rather than jumping
/// nowhere.
HIDDEN void cb_edit_load_or_exit(void) {
    const char *why = cb_edit_load_failure();
    if (why) {
        fprintf(stderr, "contactsbook: %s\n", why);
        exit(69);
    }
}
