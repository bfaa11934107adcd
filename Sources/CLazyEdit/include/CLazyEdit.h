// libedit loaded on first use (lazyedit.c, stubs.S): its functions keep their names, so the REPL
// needs nothing but this target linked in place of libedit.
#ifndef CLAZYEDIT_H
#define CLAZYEDIT_H

/// Loads libedit if it is not loaded yet: NULL when it is there, or why it could not be,
/// naming the package to install.
const char *_Nullable cb_edit_load_failure(void);

#endif
