// libldap loaded on first use, as libcurl is (CCurlSupport/lazycurl.c): the executable has no
// NEEDED entry for it, so a `query`, `--help` or a session that asks no directory never maps
// libldap and what it pulls in (liblber, libsasl2, GnuTLS...). Each function below has
// libldap's own name and prototype (from its headers), so cldap.c calls OpenLDAP as documented;
// the first call dlopens the library once and every call goes on to the real function. Hidden:
// nothing outside this executable (libldap itself included) binds to these names.
//
// Without libldap nothing crashes: cldap_search asks cldap_load_failure first and reports what
// to install as the directory's error; the functions below are then never called.
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ldap.h>

#include "CLDAPSupport.h"

#define HIDDEN __attribute__((visibility("hidden")))

static struct {
    int (*initialize)(LDAP **, const char *);
    int (*set_option)(LDAP *, int, const void *);
    int (*get_option)(LDAP *, int, void *);
    int (*start_tls_s)(LDAP *, LDAPControl **, LDAPControl **);
    int (*sasl_bind)(LDAP *, const char *, const char *, struct berval *, LDAPControl **, LDAPControl **, int *);
    int (*result)(LDAP *, int, int, struct timeval *, LDAPMessage **);
    int (*parse_result)(LDAP *, LDAPMessage *, int *, char **, char **, char ***, LDAPControl ***, int);
    int (*search_ext)(LDAP *, const char *, int, const char *, char **, int, LDAPControl **, LDAPControl **,
                      struct timeval *, int, int *);
    int (*msgtype)(LDAPMessage *);
    int (*get_dn_ber)(LDAP *, LDAPMessage *, BerElement **, struct berval *);
    int (*get_attribute_ber)(LDAP *, LDAPMessage *, BerElement *, struct berval *, struct berval **);
    void (*memfree)(void *);
    void (*ber_free)(BerElement *, int);
    void (*ber_memfree)(void *);
    int (*msgfree)(LDAPMessage *);
    char *(*err2string)(int);
    int (*unbind_ext)(LDAP *, LDAPControl **, LDAPControl **);
    int (*abandon_ext)(LDAP *, int, LDAPControl **, LDAPControl **);
} real;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static char failure[512];

/// OpenLDAP 2.6 (Debian 13, Ubuntu 24.04) names its library libldap.so.2; 2.5 (Debian 12,
/// Ubuntu 22.04) libldap-2.5.so.0. The one whose headers this was compiled against is tried
/// first (the other misses and walks the loader's whole path). CONTACTSBOOK_TEST_LIBLDAP
/// replaces both, only so that a test can see what a machine without libldap gets.
#if LDAP_VENDOR_VERSION < 20600
static const char *const sonames[] = {"libldap-2.5.so.0", "libldap.so.2", NULL};
#else
static const char *const sonames[] = {"libldap.so.2", "libldap-2.5.so.0", NULL};
#endif

/// libldap starts Cyrus SASL on its first use, and SASL then loads every mechanism plugin it
/// finds (Debian: eight, DIGEST-MD5's pulling in libcrypto and sasldb's Berkeley DB), a third of
/// an `ldapsearch`'s CPU (bench/DIRECTORY.md). A directory binds simply or anonymously, never
/// through SASL, so SASL's plugin path is set, before libldap starts it, to one where no plugin can
/// be. Nothing happens where libldap has no SASL (no libsasl2 among its libraries).
static void skip_sasl_plugins(void) {
    void *sasl = dlopen("libsasl2.so.2", RTLD_LAZY | RTLD_LOCAL | RTLD_NOLOAD);
    if (!sasl) return;
    // sasl.h's sasl_set_path(SASL_PATH_TYPE_PLUGIN, path); its header is not needed for one call.
    int (*set_path)(int, char *) = NULL;
    *(void **)&set_path = dlsym(sasl, "sasl_set_path");
    if (set_path) set_path(0, "/dev/null");
    dlclose(sasl);  // drops the reference RTLD_NOLOAD took; libldap keeps the library loaded
}

/// RTLD_LAZY, as a program linked with libldap gets it (`ldapsearch`): most of its libraries are
/// linked BIND_NOW anyway, but not libgmp or libffi, whose every symbol RTLD_NOW bound at load
/// for the few a search calls: 0.47M of a C search's 6.4M instructions (bench/DIRECTORY.md, `directory5`).
static void load(void) {
    const char *test = getenv("CONTACTSBOOK_TEST_LIBLDAP");
    void *library = NULL;
    const char *name = NULL;
    const char *why = NULL;
    if (test && *test) {
        name = test;
        library = dlopen(name, RTLD_LAZY | RTLD_LOCAL);
        if (!library) why = dlerror();
    } else {
        for (int i = 0; sonames[i] && !library; i++) {
            name = sonames[i];
            library = dlopen(name, RTLD_LAZY | RTLD_LOCAL);
            if (!library) why = dlerror();
        }
    }
    if (!library) {
        snprintf(failure, sizeof failure,
                 "directories need OpenLDAP's client library, which could not be loaded (%s); on Debian or "
                 "Ubuntu install the libldap2 package (libldap-2.5-0 on Debian 12 and Ubuntu 22.04)",
                 why ? why : name);
        return;
    }
    skip_sasl_plugins();
#define FIND(field, symbol)                                                                                  \
    if (!(*(void **)&real.field = dlsym(library, symbol))) {                                                \
        snprintf(failure, sizeof failure, "%s has no %s: it is not the OpenLDAP library this contactsbook needs", \
                 name, symbol);                                                                              \
        return;                                                                                              \
    }
    FIND(initialize, "ldap_initialize")
    FIND(set_option, "ldap_set_option")
    FIND(get_option, "ldap_get_option")
    FIND(start_tls_s, "ldap_start_tls_s")
    FIND(sasl_bind, "ldap_sasl_bind")
    FIND(result, "ldap_result")
    FIND(parse_result, "ldap_parse_result")
    FIND(search_ext, "ldap_search_ext")
    FIND(msgtype, "ldap_msgtype")
    FIND(get_dn_ber, "ldap_get_dn_ber")
    FIND(get_attribute_ber, "ldap_get_attribute_ber")
    FIND(memfree, "ldap_memfree")
    // liblber's, found through libldap's own dependencies.
    FIND(ber_free, "ber_free")
    FIND(ber_memfree, "ber_memfree")
    FIND(msgfree, "ldap_msgfree")
    FIND(err2string, "ldap_err2string")
    FIND(unbind_ext, "ldap_unbind_ext")
    FIND(abandon_ext, "ldap_abandon_ext")
#undef FIND
    loaded = 1;
}

const char *cldap_load_failure(void) {
    pthread_once(&once, load);
    return loaded ? NULL : failure;
}

// Called only after cldap_load_failure() said the library is there.
HIDDEN int ldap_initialize(LDAP **ld, const char *uri) { return real.initialize(ld, uri); }
HIDDEN int ldap_set_option(LDAP *ld, int option, const void *value) { return real.set_option(ld, option, value); }
HIDDEN int ldap_get_option(LDAP *ld, int option, void *value) { return real.get_option(ld, option, value); }
HIDDEN int ldap_start_tls_s(LDAP *ld, LDAPControl **s, LDAPControl **c) { return real.start_tls_s(ld, s, c); }
HIDDEN int ldap_sasl_bind(LDAP *ld, const char *dn, const char *mechanism, struct berval *cred, LDAPControl **s,
                          LDAPControl **c, int *msgid) {
    return real.sasl_bind(ld, dn, mechanism, cred, s, c, msgid);
}
HIDDEN int ldap_result(LDAP *ld, int msgid, int all, struct timeval *timeout, LDAPMessage **result) {
    return real.result(ld, msgid, all, timeout, result);
}
HIDDEN int ldap_parse_result(LDAP *ld, LDAPMessage *res, int *code, char **matched, char **diagnostic,
                             char ***referrals, LDAPControl ***controls, int freeit) {
    return real.parse_result(ld, res, code, matched, diagnostic, referrals, controls, freeit);
}
HIDDEN int ldap_search_ext(LDAP *ld, const char *base, int scope, const char *filter, char **attrs, int attrsonly,
                           LDAPControl **s, LDAPControl **c, struct timeval *timeout, int sizelimit, int *msgid) {
    return real.search_ext(ld, base, scope, filter, attrs, attrsonly, s, c, timeout, sizelimit, msgid);
}
HIDDEN int ldap_msgtype(LDAPMessage *message) { return real.msgtype(message); }
HIDDEN int ldap_get_dn_ber(LDAP *ld, LDAPMessage *entry, BerElement **ber, struct berval *dn) {
    return real.get_dn_ber(ld, entry, ber, dn);
}
HIDDEN int ldap_get_attribute_ber(LDAP *ld, LDAPMessage *entry, BerElement *ber, struct berval *name,
                                  struct berval **values) {
    return real.get_attribute_ber(ld, entry, ber, name, values);
}
HIDDEN void ldap_memfree(void *p) { real.memfree(p); }
HIDDEN void ber_free(BerElement *ber, int freebuf) { real.ber_free(ber, freebuf); }
HIDDEN void ber_memfree(void *p) { real.ber_memfree(p); }
HIDDEN int ldap_msgfree(LDAPMessage *message) { return real.msgfree(message); }
HIDDEN char *ldap_err2string(int code) { return real.err2string(code); }
HIDDEN int ldap_unbind_ext(LDAP *ld, LDAPControl **s, LDAPControl **c) { return real.unbind_ext(ld, s, c); }
HIDDEN int ldap_abandon_ext(LDAP *ld, int msgid, LDAPControl **s, LDAPControl **c) {
    return real.abandon_ext(ld, msgid, s, c);
}
