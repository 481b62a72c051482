#define _GNU_SOURCE
#include "CLinux.h"
#include <errno.h>
#include <sys/ioctl.h>
#include <pthread.h>
#include <string.h>

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

void snapshare_name_this_thread(const char *name) {
    char shortened[16];
    strncpy(shortened, name, sizeof shortened - 1);
    shortened[sizeof shortened - 1] = 0;
    pthread_setname_np(pthread_self(), shortened);
}
