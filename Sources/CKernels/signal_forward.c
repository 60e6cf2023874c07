#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
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

/// Sets `signal`'s handler unless it was ignored when the process started (a background job's SIGINT stays ignored).
static void handle_unless_ignored(int signal, void (*handler)(int)) {
    struct sigaction action, old;
    if (sigaction(signal, NULL, &old) != 0 || old.sa_handler == SIG_IGN) return;
    memset(&action, 0, sizeof action);
    action.sa_handler = handler;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    sigaction(signal, &action, NULL);
}

int tl_forward_signals(void) {
    int ends[2];
    if (pipe2(ends, O_CLOEXEC | O_NONBLOCK) != 0) return -1;
    // The reader waits: only the write end stays non-blocking, so a full pipe drops a signal instead of a handler hanging.
    fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) & ~O_NONBLOCK);
    forward_fd = ends[1];
    handle_unless_ignored(SIGINT, forward);
    handle_unless_ignored(SIGTERM, forward);
    return ends[0];
}

void tl_default_signals(void) {
    handle_unless_ignored(SIGINT, SIG_DFL);
    handle_unless_ignored(SIGTERM, SIG_DFL);
}
