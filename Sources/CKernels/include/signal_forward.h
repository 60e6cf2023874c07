#ifndef THEMELAB_SIGNAL_FORWARD_H
#define THEMELAB_SIGNAL_FORWARD_H

/// From now on SIGINT and SIGTERM (each unless the process started with it ignored) write their number (one byte) to the file descriptor `fd` and nothing else, the
/// only thing a handler may safely do; a thread reading the other end does the work. A caught signal's handler is reset
/// to the default in a program this process executes, so children are interrupted as usual. Returns 0, or −1 (errno).
int tl_forward_signals(int fd);

#endif
