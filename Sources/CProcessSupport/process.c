#define _GNU_SOURCE
#include "CProcessSupport.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

extern char **environ;

static double now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void kill_group(pid_t pid) {
    kill(-pid, SIGKILL);
    kill(pid, SIGKILL);
}

/// Waits for `pid` until `deadline`; 1 when it ended (status set), 0 when time ran out.
static int wait_until(pid_t pid, double deadline, int *status) {
    for (;;) {
        pid_t done = waitpid(pid, status, WNOHANG);
        if (done == pid || (done < 0 && errno != EINTR)) return 1;
        double left = deadline - now_seconds();
        if (left <= 0) return 0;
        // A command that closed its stdout and goes on: look again soon (no pidfd needed).
        struct timespec pause = {0, left < 0.01 ? (long)(left * 1e9) : 10000000L};
        nanosleep(&pause, NULL);
    }
}

int cprocess_run(const char *command, double timeout_seconds, size_t max_output,
                 char **output, size_t *length, int *status) {
    *output = NULL;
    *length = 0;
    *status = 0;
    int pipefd[2];
    if (pipe2(pipefd, O_CLOEXEC) != 0) return CPROCESS_FAILED;
    // Prepared before fork: the child may only call async-signal-safe functions.
    char *argv[] = {"sh", "-c", (char *)command, NULL};
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        int saved = errno;
        close(pipefd[0]);
        close(pipefd[1]);
        errno = saved;
        return CPROCESS_FAILED;
    }
    if (pid == 0) {
        setpgid(0, 0);
#ifdef __linux__
        prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
        if (getppid() != parent) _exit(127);
        int null = open("/dev/null", O_RDONLY);
        if (null < 0 || dup2(null, 0) < 0 || dup2(pipefd[1], 1) < 0) _exit(127);
        // Nothing else of ours (the book, a session's pipes) reaches the command.
#ifdef SYS_close_range
        if (syscall(SYS_close_range, 3, ~0U, 0) != 0)
#endif
        {
            for (int fd = 3; fd < 4096; fd++) close(fd);
        }
        execve("/bin/sh", argv, environ);
        _exit(127);
    }
    setpgid(pid, pid);  // as the child does: whichever runs first, the group exists
    close(pipefd[1]);
    double deadline = now_seconds() + timeout_seconds;
    size_t capacity = 256;
    char *buffer = malloc(capacity);
    int result = CPROCESS_EXITED;
    for (;;) {
        double left = deadline - now_seconds();
        if (left <= 0) { result = CPROCESS_TIMED_OUT; break; }
        struct pollfd p = {pipefd[0], POLLIN, 0};
        int ready = poll(&p, 1, (int)(left * 1000) + 1);
        if (ready < 0 && errno == EINTR) continue;
        if (ready <= 0) { if (ready == 0) continue; result = CPROCESS_FAILED; break; }
        if (buffer == NULL) { result = CPROCESS_FAILED; break; }
        if (*length == capacity) {
            char *bigger = realloc(buffer, capacity * 2);
            if (bigger == NULL) { result = CPROCESS_FAILED; break; }
            buffer = bigger;
            capacity *= 2;
        }
        ssize_t got = read(pipefd[0], buffer + *length, capacity - *length);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;  // end of its output
        *length += (size_t)got;
        if (*length > max_output) { result = CPROCESS_TOO_MUCH; break; }
    }
    close(pipefd[0]);
    if (result == CPROCESS_EXITED && !wait_until(pid, deadline, status)) result = CPROCESS_TIMED_OUT;
    if (result != CPROCESS_EXITED) {
        int saved = errno;
        kill_group(pid);
        while (waitpid(pid, status, 0) < 0 && errno == EINTR) {}
        errno = saved;
    }
    *output = buffer;
    return result;
}
