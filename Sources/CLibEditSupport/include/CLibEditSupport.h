// Process state the REPL needs from C: a SIGINT flag and the standard streams.
#ifndef CLIBEDITSUPPORT_H
#define CLIBEDITSUPPORT_H

#include <stdio.h>

/// Installs a SIGINT handler with sigaction and without SA_RESTART, so a Ctrl-C interrupts
/// libedit's read (el_gets returns NULL, errno EINTR) instead of killing the process.
/// Returns 0 on success.
int clibedit_install_sigint_handler(void);

/// Restores the SIGINT disposition saved by the install call.
void clibedit_restore_sigint_handler(void);

/// Returns whether a SIGINT arrived since the last call, and clears the flag.
int clibedit_take_sigint(void);

/// Whether a SIGINT arrived since the flag was last cleared, leaving it set: long work asks
/// this between its steps (a Ctrl-C during a command stops it).
int clibedit_sigint_pending(void);

/// Swift 6 rejects the C globals stdin/stdout/stderr as not concurrency-safe.
FILE *_Nonnull clibedit_stdin(void);
FILE *_Nonnull clibedit_stdout(void);
FILE *_Nonnull clibedit_stderr(void);

/// setlocale(LC_CTYPE, ""): libedit drops non-ASCII input without it.
void clibedit_use_environment_ctype(void);

#endif
