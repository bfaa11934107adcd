// SQLite's process-wide settings, made before its first connection opens (`sqlite3_config` is
// variadic: Swift cannot call it).
#include "CProcessSupport.h"

#include <sqlite3.h>

int csqlite_configure_connections_per_thread(void) {
    // Multi-thread mode: no mutex around each call on a connection, which GRDB already uses from
    // one thread at a time (it supports no other mode); and no count of SQLite's memory, whose
    // global mutex every allocation took. Both were about 6 % of an import's saving thread
    // (bench/FINDINGS.md, branch `import5`). Refused (SQLITE_MISUSE) once SQLite has started.
    int mode = sqlite3_config(SQLITE_CONFIG_MULTITHREAD);
    int memstatus = sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    return mode == SQLITE_OK && memstatus == SQLITE_OK ? 0 : -1;
}
