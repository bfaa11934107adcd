// `contactsbook query` with a book whose header says it has directory sources: libldap starts
// loading (cldap_prepare) from a constructor that runs before the executable's others (the Swift
// runtime's and Foundation's) and before main, about a millisecond earlier than `query`'s own
// thread could start it (bench/DIRECTORY.md, `directory5`). Only what is certain is read here:
// `query` as the first argument, `--db PATH`/`--db=PATH` or the default book (XDG_DATA_HOME, HOME),
// the book's 100-byte header as SQLiteContactStore.mayHaveDirectorySources reads it. Anything
// else does nothing and `query` starts libldap itself, as it would without this. Whatever is
// read here, the directories asked are the book's own list; a wrong guess costs a load of libldap.
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "CLDAPSupport.h"

static pthread_t thread;
static int started;

static void *prepare(void *unused) {
    (void)unused;
    cldap_prepare();
    return NULL;
}

/// At exit, before the libraries' destructors: never exit with the loader or libldap's start under
/// way on another thread (a `query` that fails before it asks, or another command's parse).
static void finish(void) {
    if (started) pthread_join(thread, NULL);
}

/// Bit 0 of the SQLite header's user_version (offset 60, big-endian): the book has directories.
static int marked(const char *path) {
    // Non-blocking: a `--db` naming a FIFO must not hang here.
    int file = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (file < 0) return 0;
    unsigned char header[100];
    ssize_t got = pread(file, header, sizeof header, 0);
    close(file);
    return got == (ssize_t)sizeof header && memcmp(header, "SQLite format 3", 16) == 0 && (header[63] & 1);
}

__attribute__((constructor(101))) static void prewarm(int argc, char **argv, char **envp) {
    (void)envp;
    if (argc < 3 || !argv || strcmp(argv[1], "query") != 0) return;
    const char *db = NULL;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) break;
        if (strcmp(argv[i], "--db") == 0) {
            if (i + 1 >= argc) return;
            db = argv[++i];
        } else if (strncmp(argv[i], "--db=", 5) == 0) {
            db = argv[i] + 5;
        }
    }
    char path[4096];
    if (db) {
        // `~` is expanded by the Swift side from the environment: left to it.
        if (!*db || db[0] == '~' || snprintf(path, sizeof path, "%s", db) >= (int)sizeof path) return;
    } else {
        const char *data = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
        int length;
        if (data && data[0] == '/') {
            length = snprintf(path, sizeof path, "%s/contactsbook/contacts.sqlite", data);
        } else if (home && *home) {
            length = snprintf(path, sizeof path, "%s/.local/share/contactsbook/contacts.sqlite", home);
        } else {
            return;
        }
        if (length >= (int)sizeof path) return;
    }
    if (!marked(path)) return;
    if (pthread_create(&thread, NULL, prepare, NULL) == 0) {
        started = 1;
        atexit(finish);
    }
}
