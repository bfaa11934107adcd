#include "CLibEditSupport.h"

#include <locale.h>
#include <signal.h>
#include <string.h>

static volatile sig_atomic_t sigint_seen = 0;
static struct sigaction previous_sigint;
static int installed = 0;

static void on_sigint(int signo) {
    (void)signo;
    sigint_seen = 1;
}

int clibedit_install_sigint_handler(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_sigint;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0; // no SA_RESTART: the blocked read must fail with EINTR
    if (sigaction(SIGINT, &action, &previous_sigint) != 0) return -1;
    installed = 1;
    return 0;
}

void clibedit_restore_sigint_handler(void) {
    if (!installed) return;
    sigaction(SIGINT, &previous_sigint, NULL);
    installed = 0;
}

int clibedit_take_sigint(void) {
    int seen = sigint_seen;
    sigint_seen = 0;
    return seen;
}

int clibedit_sigint_pending(void) { return sigint_seen; }

FILE *clibedit_stdin(void) { return stdin; }
FILE *clibedit_stdout(void) { return stdout; }
FILE *clibedit_stderr(void) { return stderr; }

void clibedit_use_environment_ctype(void) { setlocale(LC_CTYPE, ""); }
