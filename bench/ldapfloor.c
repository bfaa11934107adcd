/* The floor of one directory search through our own C path (bench/directory.py): a C program that
   runs Sources/CLDAPSupport's cldap_search (libldap loaded on first use, SASL's plugins skipped,
   connect, bind, search) exactly as `query` does, and writes each entry's mail value, and nothing
   else: no Swift runtime, no book. Its CPU minus a C program that exits (echo.c) is libldap's own
   work for the search, the part `query` cannot go under whatever its own code does.
       ldapfloor URI BASE FILTER SIZE_LIMIT TIME_LIMIT ATTRIBUTE...
   Built by bench/directory.py with Sources/CLDAPSupport/{cldap,lazyldap}.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "CLDAPSupport.h"

static void each(void *context, const char *attribute, const char *value, size_t length) {
    (void)context;
    if (attribute && strcmp(attribute, "mail") == 0) {
        fwrite(value, 1, length, stdout);
        fputc('\n', stdout);
    }
}

int main(int argc, char **argv) {
    if (argc < 6) {
        fprintf(stderr, "usage: ldapfloor URI BASE FILTER SIZE_LIMIT TIME_LIMIT ATTRIBUTE...\n");
        return 2;
    }
    cldap_search_params p = {0};
    p.uri = argv[1];
    p.base = argv[2];
    p.filter = argv[3];
    p.size_limit = atoi(argv[4]);
    p.time_limit = atof(argv[5]);
    p.attributes = (const char *const *)(argv + 6);  /* argv is NULL-terminated */
    p.tls = CLDAP_TLS_NONE;
    char message[1024];
    int status = cldap_search(&p, NULL, each, message, sizeof message);
    if (status < 0) {
        fprintf(stderr, "ldapfloor: %s\n", message);
        return 1;
    }
    return 0;
}
