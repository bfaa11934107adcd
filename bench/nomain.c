/* The floor of a binary's start-up: `LD_PRELOAD=nomain.so PROGRAM` runs everything PROGRAM does
   before its main (the dynamic loader: mapping, relocations, symbol look-ups; the libraries' and
   its own static constructors) and at exit, and nothing of main: __libc_start_main is handed a
   main that returns 0 at once. bench/compare-start.py builds it (cc -O2 -shared -fPIC). */
#define _GNU_SOURCE
#include <dlfcn.h>

static int nothing(int argc, char **argv, char **envp) {
    (void)argc, (void)argv, (void)envp;
    return 0;
}

typedef int (*start_main)(int (*)(int, char **, char **), int, char **, void (*)(void), void (*)(void),
                          void (*)(void), void *);

int __libc_start_main(int (*main)(int, char **, char **), int argc, char **argv, void (*init)(void),
                      void (*fini)(void), void (*rtld_fini)(void), void *stack_end) {
    (void)main;
    start_main real = (start_main)dlsym(RTLD_NEXT, "__libc_start_main");
    return real(nothing, argc, argv, init, fini, rtld_fini, stack_end);
}
