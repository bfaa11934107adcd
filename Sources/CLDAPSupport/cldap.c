// One LDAP search under one deadline (CLDAPSupport.h). Every step that can wait on the server
// (connect, TLS, bind, each answer of the search) gets what is left of the time limit, so a
// slow or silent directory costs at most its limit and never holds the book's own answer.
#include <fcntl.h>
#include <math.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include <ldap.h>

#include "CLDAPSupport.h"

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/// What is left until `deadline`, as a timeval; false when nothing is.
static int remaining(double deadline, struct timeval *left) {
    double rest = deadline - now();
    if (rest <= 0) return 0;
    left->tv_sec = (time_t)rest;
    left->tv_usec = (suseconds_t)((rest - (double)left->tv_sec) * 1e6);
    if (left->tv_sec == 0 && left->tv_usec == 0) left->tv_usec = 1;
    return 1;
}

/// The server's own words for a failure, when it sent some (diagnostic message), after libldap's.
static void describe(LDAP *ld, int code, const char *what, char *message, size_t size) {
    char *diagnostic = NULL;
    ldap_get_option(ld, LDAP_OPT_DIAGNOSTIC_MESSAGE, &diagnostic);
    if (diagnostic && *diagnostic) {
        snprintf(message, size, "%s: %s (%s)", what, ldap_err2string(code), diagnostic);
    } else {
        snprintf(message, size, "%s: %s", what, ldap_err2string(code));
    }
    if (diagnostic) ldap_memfree(diagnostic);
}

/// Sets the per-call time-outs to what is left; false (and the timeout message) when nothing is.
static int arm(LDAP *ld, double deadline, double limit, char *message, size_t size) {
    struct timeval left;
    if (!remaining(deadline, &left)) {
        snprintf(message, size, "no answer within %g s", limit);
        return 0;
    }
    ldap_set_option(ld, LDAP_OPT_NETWORK_TIMEOUT, &left);
    ldap_set_option(ld, LDAP_OPT_TIMEOUT, &left);
    return 1;
}

static int is_connection_failure(int code) {
    return code == LDAP_SERVER_DOWN || code == LDAP_CONNECT_ERROR;
}

/// Whether a TCP connection to the URI's host and port opens before the deadline.
static int reachable(const char *uri, double deadline) {
    const char *start = strstr(uri, "://");
    if (!start) return 0;
    start += 3;
    char host[256];
    char port[16] = "389";
    if (strncmp(uri, "ldaps", 5) == 0) strcpy(port, "636");
    const char *end = start;
    if (*start == '[') {
        end = strchr(start, ']');
        if (!end || (size_t)(end - start - 1) >= sizeof host) return 0;
        memcpy(host, start + 1, (size_t)(end - start - 1));
        host[end - start - 1] = 0;
        end++;
    } else {
        end = start + strcspn(start, ":/");
        if ((size_t)(end - start) >= sizeof host) return 0;
        memcpy(host, start, (size_t)(end - start));
        host[end - start] = 0;
    }
    if (*end == ':') snprintf(port, sizeof port, "%.*s", (int)strcspn(end + 1, "/"), end + 1);
    struct addrinfo hints = {0}, *found = NULL;
    hints.ai_socktype = SOCK_STREAM;
    if (getaddrinfo(host, port, &hints, &found) != 0) return 0;
    int ok = 0;
    for (struct addrinfo *a = found; a && !ok; a = a->ai_next) {
        int fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, a->ai_protocol);
        if (fd < 0) continue;
        if (connect(fd, a->ai_addr, a->ai_addrlen) == 0) {
            ok = 1;
        } else {
            struct pollfd pfd = {fd, POLLOUT, 0};
            double rest = deadline - now();
            if (rest > 0 && poll(&pfd, 1, (int)(rest * 1000) + 1) == 1) {
                int error = 0;
                socklen_t length = sizeof error;
                ok = getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0 && error == 0;
            }
        }
        close(fd);
    }
    freeaddrinfo(found);
    return ok;
}

/// A connection that failed under TLS. libldap reports a refused certificate as a connection
/// failure ("Can't contact LDAP server", often with "(unknown error code)"), so the server's
/// port is tried once more without TLS: open means the TLS handshake is what failed.
static int connect_or_tls(const cldap_search_params *p, double deadline, char *message, size_t size) {
    if (!reachable(p->uri, deadline)) return CLDAP_CONNECT;
    snprintf(message, size, "the TLS handshake failed: the server's certificate is not trusted or does not name the host "
             "in the address (--ca-file names the authority that signed it), or the server does not speak %s",
             p->tls == CLDAP_TLS_LDAPS ? "LDAPS on this port" : "TLS");
    return CLDAP_TLS;
}

/// Waits for the answer to `msgid` (one message) until the deadline.
static int await(LDAP *ld, int msgid, double deadline, LDAPMessage **answer) {
    struct timeval left;
    if (!remaining(deadline, &left)) return 0;
    return ldap_result(ld, msgid, LDAP_MSG_ONE, &left, answer);
}

static int bind_simple(LDAP *ld, const cldap_search_params *p, double deadline, char *message, size_t size) {
    struct berval credentials;
    credentials.bv_val = (char *)(p->password ? p->password : "");
    credentials.bv_len = p->password ? strlen(p->password) : 0;
    int msgid = -1;
    int code = ldap_sasl_bind(ld, p->bind_dn, LDAP_SASL_SIMPLE, &credentials, NULL, NULL, &msgid);
    if (code != LDAP_SUCCESS) {
        describe(ld, code, "cannot bind", message, size);
        return is_connection_failure(code) ? CLDAP_CONNECT : CLDAP_BIND;
    }
    LDAPMessage *answer = NULL;
    int got = await(ld, msgid, deadline, &answer);
    if (got == 0) {
        snprintf(message, size, "no answer to the bind within %g s", p->time_limit);
        return CLDAP_TIMEOUT;
    }
    if (got < 0) {
        int error = LDAP_SERVER_DOWN;
        ldap_get_option(ld, LDAP_OPT_RESULT_CODE, &error);
        describe(ld, error, "cannot bind", message, size);
        return CLDAP_CONNECT;
    }
    int result = LDAP_OTHER;
    char *diagnostic = NULL;
    ldap_parse_result(ld, answer, &result, NULL, &diagnostic, NULL, NULL, 1);
    if (result != LDAP_SUCCESS) {
        // The bind DN is named (it is no secret); the password never is.
        snprintf(message, size, "the server refused the bind as %s: %s%s%s%s", p->bind_dn, ldap_err2string(result),
                 diagnostic && *diagnostic ? " (" : "", diagnostic && *diagnostic ? diagnostic : "",
                 diagnostic && *diagnostic ? ")" : "");
        if (diagnostic) ldap_memfree(diagnostic);
        return CLDAP_BIND;
    }
    if (diagnostic) ldap_memfree(diagnostic);
    return CLDAP_OK;
}

/// One entry's DN, then each value, read in one pass over the entry as ldapsearch reads it
/// (`ldap_get_dn_ber`, `ldap_get_attribute_ber`): the values point into the message, nothing is
/// copied. `ldap_first_attribute` + `ldap_get_values_len` rescanned the entry from its start for
/// every attribute and copied every value: 30,000 instructions an entry (bench/DIRECTORY.md).
static void hand_over(LDAP *ld, LDAPMessage *entry, void *context, cldap_value_fn each) {
    BerElement *ber = NULL;
    struct berval dn = {0, NULL};
    if (ldap_get_dn_ber(ld, entry, &ber, &dn) != LDAP_SUCCESS) {
        if (ber) ber_free(ber, 0);
        return;
    }
    each(context, NULL, dn.bv_val ? dn.bv_val : "", dn.bv_val ? dn.bv_len : 0);
    char small[128];
    for (;;) {
        struct berval name = {0, NULL};
        struct berval *values = NULL;
        if (ldap_get_attribute_ber(ld, entry, ber, &name, &values) != LDAP_SUCCESS || !name.bv_val) {
            if (values) ber_memfree(values);
            break;
        }
        // The name is not NUL-terminated in the message; the callback takes a C string.
        char *attribute = name.bv_len < sizeof small ? small : malloc(name.bv_len + 1);
        if (attribute) {
            memcpy(attribute, name.bv_val, name.bv_len);
            attribute[name.bv_len] = 0;
            for (int i = 0; values && values[i].bv_val; i++) {
                each(context, attribute, values[i].bv_val, values[i].bv_len);
            }
            if (attribute != small) free(attribute);
        }
        if (values) ber_memfree(values);
    }
    ber_free(ber, 0);
}

static int run(LDAP *ld, const cldap_search_params *p, double deadline, void *context, cldap_value_fn each,
               char *message, size_t size) {
    int version = LDAP_VERSION3;
    ldap_set_option(ld, LDAP_OPT_PROTOCOL_VERSION, &version);
    ldap_set_option(ld, LDAP_OPT_REFERRALS, LDAP_OPT_OFF);
    if (p->tls != CLDAP_TLS_NONE) {
        // Certificates are checked (name and chain): a directory holds names and addresses of a
        // whole organisation, and a bind sends a password.
        int demand = LDAP_OPT_X_TLS_DEMAND;
        ldap_set_option(ld, LDAP_OPT_X_TLS_REQUIRE_CERT, &demand);
        if (p->ca_file) ldap_set_option(ld, LDAP_OPT_X_TLS_CACERTFILE, p->ca_file);
        int server = 0;
        ldap_set_option(ld, LDAP_OPT_X_TLS_NEWCTX, &server);
    }
    if (!arm(ld, deadline, p->time_limit, message, size)) return CLDAP_TIMEOUT;
    if (p->tls == CLDAP_TLS_START) {
        int code = ldap_start_tls_s(ld, NULL, NULL);
        if (code != LDAP_SUCCESS) {
            if (code == LDAP_TIMEOUT) {
                snprintf(message, size, "no answer to StartTLS within %g s", p->time_limit);
                return CLDAP_TIMEOUT;
            }
            if (code == LDAP_SERVER_DOWN && now() >= deadline) {
                snprintf(message, size, "no answer within %g s", p->time_limit);
                return CLDAP_TIMEOUT;
            }
            describe(ld, code, "StartTLS failed", message, size);
            return is_connection_failure(code) ? connect_or_tls(p, deadline, message, size) : CLDAP_TLS;
        }
    }
    if (p->bind_dn && *p->bind_dn) {
        if (!arm(ld, deadline, p->time_limit, message, size)) return CLDAP_TIMEOUT;
        int bound = bind_simple(ld, p, deadline, message, size);
        if (bound != CLDAP_OK) {
            if (bound == CLDAP_CONNECT && p->tls == CLDAP_TLS_LDAPS) return connect_or_tls(p, deadline, message, size);
            return bound;
        }
    }
    if (!arm(ld, deadline, p->time_limit, message, size)) return CLDAP_TIMEOUT;
    struct timeval left;
    remaining(deadline, &left);
    // The server's own limit too, in whole seconds (at least one), so it stops working for us.
    struct timeval server_limit = {(time_t)ceil(p->time_limit), 0};
    if (server_limit.tv_sec < 1) server_limit.tv_sec = 1;
    int msgid = -1;
    int code = ldap_search_ext(ld, p->base, LDAP_SCOPE_SUBTREE, p->filter, (char **)p->attributes, 0, NULL, NULL,
                               &server_limit, p->size_limit, &msgid);
    if (code != LDAP_SUCCESS) {
        describe(ld, code, "cannot search", message, size);
        if (is_connection_failure(code)) return p->tls == CLDAP_TLS_LDAPS ? connect_or_tls(p, deadline, message, size) : CLDAP_CONNECT;
        return CLDAP_SEARCH;
    }
    for (;;) {
        LDAPMessage *answer = NULL;
        int got = await(ld, msgid, deadline, &answer);
        if (got == 0) {
            ldap_abandon_ext(ld, msgid, NULL, NULL);
            snprintf(message, size, "no complete answer within %g s", p->time_limit);
            return CLDAP_TIMEOUT;
        }
        if (got < 0) {
            int error = LDAP_SERVER_DOWN;
            ldap_get_option(ld, LDAP_OPT_RESULT_CODE, &error);
            describe(ld, error, "cannot search", message, size);
            if (is_connection_failure(error) && p->tls == CLDAP_TLS_LDAPS) return connect_or_tls(p, deadline, message, size);
            return CLDAP_CONNECT;
        }
        switch (ldap_msgtype(answer)) {
        case LDAP_RES_SEARCH_ENTRY:
            hand_over(ld, answer, context, each);
            ldap_msgfree(answer);
            break;
        case LDAP_RES_SEARCH_RESULT: {
            int result = LDAP_OTHER;
            char *diagnostic = NULL;
            ldap_parse_result(ld, answer, &result, NULL, &diagnostic, NULL, NULL, 1);
            int status = CLDAP_OK;
            if (result == LDAP_SIZELIMIT_EXCEEDED || result == LDAP_ADMINLIMIT_EXCEEDED) {
                status = CLDAP_MORE;
            } else if (result == LDAP_TIMELIMIT_EXCEEDED) {
                snprintf(message, size, "the server stopped at its time limit (%g s)", p->time_limit);
                status = CLDAP_TIMEOUT;
            } else if (result != LDAP_SUCCESS) {
                snprintf(message, size, "the server refused the search: %s%s%s%s", ldap_err2string(result),
                         diagnostic && *diagnostic ? " (" : "", diagnostic && *diagnostic ? diagnostic : "",
                         diagnostic && *diagnostic ? ")" : "");
                status = result == LDAP_INVALID_CREDENTIALS || result == LDAP_INAPPROPRIATE_AUTH
                    || result == LDAP_STRONG_AUTH_REQUIRED || result == LDAP_INSUFFICIENT_ACCESS ? CLDAP_BIND : CLDAP_SEARCH;
            }
            if (diagnostic) ldap_memfree(diagnostic);
            return status;
        }
        default:
            // A referral or intermediate message: not followed (referrals are off).
            ldap_msgfree(answer);
            break;
        }
    }
}

static pthread_once_t prepared = PTHREAD_ONCE_INIT;

static void prepare_once(void) {
    if (cldap_load_failure()) return;
    // Any option read on the global options runs libldap's one-time start (ldap_int_initialize):
    // it resolves the host's own name and reads ldap.conf, which ldap_initialize would do anyway.
    int version = 0;
    ldap_get_option(NULL, LDAP_OPT_PROTOCOL_VERSION, &version);
}

// Once per process: `query`'s early thread and a later search may both call it; the second waits.
void cldap_prepare(void) { pthread_once(&prepared, prepare_once); }

int cldap_search(const cldap_search_params *p, void *context, cldap_value_fn each, char *message, size_t size) {
    message[0] = 0;
    const char *missing = cldap_load_failure();
    if (missing) {
        snprintf(message, size, "%s", missing);
        return CLDAP_NO_LIBRARY;
    }
    double deadline = now() + (p->time_limit > 0 ? p->time_limit : 10);
    LDAP *ld = NULL;
    int code = ldap_initialize(&ld, p->uri);
    if (code != LDAP_SUCCESS || !ld) {
        snprintf(message, size, "not an LDAP address: %s", ldap_err2string(code));
        return CLDAP_CONNECT;
    }
    // A server that drops the connection must not kill the process with SIGPIPE (a `query`
    // ignores no signal): blocked in this thread for the search, and one raised meanwhile dropped.
    sigset_t pipe_signal, old_mask;
    sigemptyset(&pipe_signal);
    sigaddset(&pipe_signal, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_signal, &old_mask);
    int status = run(ld, p, deadline, context, each, message, size);
    ldap_unbind_ext(ld, NULL, NULL);
    struct timespec zero = {0, 0};
    while (sigtimedwait(&pipe_signal, NULL, &zero) > 0) {
    }
    pthread_sigmask(SIG_SETMASK, &old_mask, NULL);
    return status;
}
