#ifndef THEMELAB_SIGNAL_FORWARD_H
#define THEMELAB_SIGNAL_FORWARD_H

/// Makes a pipe and has SIGINT and SIGTERM (each unless the process started with it ignored) write their number, one
/// byte, to its write end (non-blocking) and nothing else, the only thing a handler may safely do; a thread reading the
/// returned read end does the work. Both ends close on exec, and a caught signal's handler is reset to the default in a
/// program this process executes, so children are interrupted as usual. Returns the read end, or −1 (errno).
int tl_forward_signals(void);

/// Puts SIGINT and SIGTERM back to their defaults unless they were ignored: a second signal ends the process at once.
void tl_default_signals(void);

#endif
