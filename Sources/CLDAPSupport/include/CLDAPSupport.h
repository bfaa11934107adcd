// One LDAP search from Swift, in a single call: connect (ldap:// with StartTLS, ldaps://, or
// plain when asked), bind (simple, or anonymous), search with a size and a time limit, and hand
// each value back through a callback. OpenLDAP's own headers stay out of Swift, and libldap is
// loaded on first use (lazyldap.c): a `query`, `--help` or a session that asks no directory never
// maps it (issue 32's start-up work).
#ifndef CLDAPSUPPORT_H
#define CLDAPSUPPORT_H

#include <stddef.h>

#define CLDAP_OK 0              // every entry the search found was handed over
#define CLDAP_MORE 1            // the size limit cut the answer short: more entries match
#define CLDAP_NO_LIBRARY (-1)   // libldap could not be loaded; the message names the package
#define CLDAP_CONNECT (-2)      // the server could not be reached
#define CLDAP_TIMEOUT (-3)      // the time limit passed before the answer was complete
#define CLDAP_BIND (-4)         // the server refused the bind DN and password
#define CLDAP_TLS (-5)          // StartTLS or LDAPS failed: certificate refused, or no TLS
#define CLDAP_SEARCH (-6)       // the server refused the search (bad base, bad filter, ...)

#define CLDAP_TLS_NONE 0        // ldap:// in the clear (asked for with --plaintext)
#define CLDAP_TLS_START 1       // ldap:// with StartTLS, required
#define CLDAP_TLS_LDAPS 2       // ldaps://

typedef struct {
    const char *_Nonnull uri;               // scheme://host:port, without the base
    const char *_Nullable bind_dn;          // NULL: anonymous
    const char *_Nullable password;         // with bind_dn; never logged
    const char *_Nonnull base;
    const char *_Nonnull filter;
    const char *_Nullable const *_Nullable attributes;  // NULL-terminated; NULL asks for all
    int tls;                                // CLDAP_TLS_*
    const char *_Nullable ca_file;          // NULL: the system's trusted authorities
    int size_limit;                         // entries; 0: the server's own
    double time_limit;                      // seconds for the whole exchange, connect included
} cldap_search_params;

/// Called once per entry with attribute NULL (its DN in `value`), then once per value.
typedef void (*cldap_value_fn)(void *_Nullable context, const char *_Nullable attribute,
                               const char *_Nonnull value, size_t length);

/// Runs one search; returns CLDAP_OK or CLDAP_MORE after handing every entry over, or a negative
/// CLDAP_* with a sentence in `message` (never containing the password). `message` is always
/// written (empty on success).
int cldap_search(const cldap_search_params *_Nonnull params, void *_Nullable context,
                 cldap_value_fn _Nonnull each, char *_Nonnull message, size_t message_size);

/// NULL when libldap is loaded (loading it if needed), else why not, naming the package.
const char *_Nullable cldap_load_failure(void);

/// Loads libldap and runs its process-wide start (the host's name, ldap.conf), which the first
/// search would do; nothing else. For a thread that starts before the directory is known.
void cldap_prepare(void);

#endif
