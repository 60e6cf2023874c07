#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include "signal_forward.h"

static volatile sig_atomic_t forward_fd = -1;

static void forward(int signal) {
    int saved = errno;
    unsigned char number = (unsigned char)signal;
    ssize_t written = write(forward_fd, &number, 1);
    (void)written;
    errno = saved;
}

/// Forwards `signal` unless it was ignored when the process started (a background job's SIGINT stays ignored).
static int forward_unless_ignored(int signal) {
    struct sigaction action, old;
    if (sigaction(signal, NULL, &old) != 0) return -1;
    if (old.sa_handler == SIG_IGN) return 0;
    memset(&action, 0, sizeof action);
    action.sa_handler = forward;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    return sigaction(signal, &action, NULL);
}

int tl_forward_signals(int fd) {
    forward_fd = fd;
    return forward_unless_ignored(SIGINT) == 0 && forward_unless_ignored(SIGTERM) == 0 ? 0 : -1;
}
