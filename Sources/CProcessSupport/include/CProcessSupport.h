// Running a short helper command (an account's --password-command) safely, from C: what must
// happen between fork and exec cannot be written in Swift (prctl is variadic).
#ifndef CPROCESSSUPPORT_H
#define CPROCESSSUPPORT_H

#include <stddef.h>

#define CPROCESS_EXITED 0     // the command ended; *status is its wait status
#define CPROCESS_TIMED_OUT 1  // the deadline passed: its process group was killed
#define CPROCESS_TOO_MUCH 2   // it printed more than max_output bytes: its process group was killed
#define CPROCESS_FAILED 3     // it could not be started or read; errno says why

/// Runs `/bin/sh -c command` with stdin from /dev/null (never the caller's), stdout a pipe read
/// into *output (malloc'ed, *length bytes; free it), stderr inherited, no other descriptor.
/// The command leads a process group of its own, killed (SIGKILL) on timeout or overflow, and
/// dies with the calling thread (PR_SET_PDEATHSIG) if contactsbook is killed meanwhile.
int cprocess_run(const char *_Nonnull command, double timeout_seconds, size_t max_output,
                 char *_Nullable *_Nonnull output, size_t *_Nonnull length, int *_Nonnull status);

/// Sets SQLite's multi-thread mode and turns its memory statistics off, before SQLite starts
/// (the first connection opened starts it). 0 when both were set; -1 when SQLite had started
/// already (or was built without threads), nothing changed.
int csqlite_configure_connections_per_thread(void);

#endif
