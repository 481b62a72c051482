#define _GNU_SOURCE
#include "CLinux.h"
#include <errno.h>
#include <sys/ioctl.h>
#include <pthread.h>
#include <string.h>
#include <signal.h>
#include <fcntl.h>
#include <unistd.h>

int snapshare_accept4(int fd, struct sockaddr *addr, socklen_t *len, int flags) {
    return accept4(fd, addr, len, flags);
}

int snapshare_terminal_size(int fd, unsigned short *columns, unsigned short *rows) {
    struct winsize ws;
    if (ioctl(fd, TIOCGWINSZ, &ws) != 0) return -1;
    *columns = ws.ws_col;
    *rows = ws.ws_row;
    return 0;
}

int snapshare_errno(void) { return errno; }

int snapshare_pipe(int fds[2]) { return pipe2(fds, O_NONBLOCK | O_CLOEXEC); }

void snapshare_name_this_thread(const char *name) {
    char shortened[16];
    strncpy(shortened, name, sizeof shortened - 1);
    shortened[sizeof shortened - 1] = 0;
    pthread_setname_np(pthread_self(), shortened);
}

/// The pipe `snapshare_forward_signal` writes to; set before any handler is installed.
static volatile int snapshare_signal_pipe = -1;

static void snapshare_signal_to_pipe(int signo) {
    int saved = errno;
    unsigned char byte = (unsigned char)signo;
    if (snapshare_signal_pipe >= 0) { ssize_t ignored = write(snapshare_signal_pipe, &byte, 1); (void)ignored; }
    errno = saved;
}

int snapshare_forward_signal(int signo, int fd) {
    snapshare_signal_pipe = fd;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = snapshare_signal_to_pipe;
    action.sa_flags = SA_RESTART;
    sigemptyset(&action.sa_mask);
    return sigaction(signo, &action, NULL);
}

int snapshare_default_signal(int signo) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = SIG_DFL;
    sigemptyset(&action.sa_mask);
    return sigaction(signo, &action, NULL);
}
