// libedit's native API (Debian's libedit-dev) for Swift.
//
// el_set, el_get and history are C variadic functions, which Swift cannot call: each
// operation the REPL needs gets one small, typed static inline wrapper here.
#ifndef CLIBEDIT_SHIM_H
#define CLIBEDIT_SHIM_H

#include <histedit.h>
#include <stddef.h>

typedef char *(*clibedit_prompt_fn)(EditLine *);
typedef unsigned char (*clibedit_command_fn)(EditLine *, int);

static inline int clibedit_set_prompt_esc(EditLine *el, clibedit_prompt_fn fn, char delimiter) {
    return el_set(el, EL_PROMPT_ESC, fn, delimiter);
}

static inline int clibedit_set_editor(EditLine *el, const char *mode) {
    return el_set(el, EL_EDITOR, mode);
}

static inline int clibedit_set_signal(EditLine *el, int on) {
    return el_set(el, EL_SIGNAL, on);
}

static inline int clibedit_set_clientdata(EditLine *el, void *data) {
    return el_set(el, EL_CLIENTDATA, data);
}

static inline void *clibedit_get_clientdata(EditLine *el) {
    void *data = NULL;
    el_get(el, EL_CLIENTDATA, &data);
    return data;
}

static inline int clibedit_add_function(EditLine *el, const char *name, const char *help,
                                        clibedit_command_fn fn) {
    return el_set(el, EL_ADDFN, name, help, fn);
}

static inline int clibedit_bind(EditLine *el, const char *key, const char *command) {
    return el_set(el, EL_BIND, key, command, NULL);
}

static inline int clibedit_set_history(EditLine *el, History *h) {
    return el_set(el, EL_HIST, history, h);
}

/// Terminal width in columns, as libedit knows it (it tracks SIGWINCH); 80 if unknown.
static inline int clibedit_columns(EditLine *el) {
    int columns = 0;
    if (el_get(el, EL_GETTC, "co", &columns) != 0 || columns <= 0) return 80;
    return columns;
}

static inline int clibedit_history_set_size(History *h, int size) {
    HistEvent ev;
    return history(h, &ev, H_SETSIZE, size);
}

static inline int clibedit_history_set_unique(History *h, int unique) {
    HistEvent ev;
    return history(h, &ev, H_SETUNIQUE, unique);
}

static inline int clibedit_history_enter(History *h, const char *line) {
    HistEvent ev;
    return history(h, &ev, H_ENTER, line);
}

static inline int clibedit_history_load(History *h, const char *path) {
    HistEvent ev;
    return history(h, &ev, H_LOAD, path);
}

static inline int clibedit_history_save(History *h, const char *path) {
    HistEvent ev;
    return history(h, &ev, H_SAVE, path);
}

#endif
