#define _GNU_SOURCE
#include "CLinux.h"
#include <errno.h>
#include <sys/ioctl.h>

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
