#define _GNU_SOURCE
#include "CLinux.h"
#include <errno.h>
#include <sys/ioctl.h>
#include <pthread.h>
#include <string.h>
#include <signal.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <stdio.h>

int snapshare_rename_noreplace(const char *from, const char *to) {
    if (renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) == 0) return 0;
    if (errno != EINVAL && errno != ENOSYS) return -1;
    struct stat info;
    if (lstat(from, &info) != 0) return -1;
    if (!S_ISDIR(info.st_mode)) {
        if (link(from, to) != 0) return -1;
        return unlink(from);
    }
    if (lstat(to, &info) == 0) {
        errno = EEXIST;
        return -1;
    }
    return rename(from, to);
}

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

int snapshare_terminal_pixels(int fd, unsigned short *width, unsigned short *height) {
    struct winsize ws;
    if (ioctl(fd, TIOCGWINSZ, &ws) != 0) return -1;
    *width = ws.ws_xpixel;
    *height = ws.ws_ypixel;
    return 0;
}

int snapshare_errno(void) { return errno; }

int snapshare_pipe(int fds[2]) { return pipe2(fds, O_NONBLOCK | O_CLOEXEC); }

int snapshare_pidfd_open(int pid) {
#ifdef SYS_pidfd_open
    return (int)syscall(SYS_pidfd_open, pid, 0);
#else
    errno = ENOSYS;
    return -1;
#endif
}

void snapshare_name_this_thread(const char *name) {
    char shortened[16];
    strncpy(shortened, name, sizeof shortened - 1);
    shortened[sizeof shortened - 1] = 0;
    pthread_setname_np(pthread_self(), shortened);
}

/// Per signal number, the pipe its handler writes to plus one (0: not forwarded), and the
/// disposition it had before, put back by `snapshare_release_signal`.
static volatile sig_atomic_t snapshare_signal_pipes[NSIG];
static struct sigaction snapshare_previous_actions[NSIG];

static void snapshare_signal_to_pipe(int signo) {
    int saved = errno;
    int fd = (int)snapshare_signal_pipes[signo] - 1;
    unsigned char byte = (unsigned char)signo;
    if (fd >= 0) { ssize_t ignored = write(fd, &byte, 1); (void)ignored; }
    errno = saved;
}

int snapshare_forward_signal(int signo, int fd) {
    if (signo <= 0 || signo >= NSIG || fd < 0) { errno = EINVAL; return -1; }
    if (snapshare_signal_pipes[signo] != 0) { errno = EBUSY; return -1; }
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = snapshare_signal_to_pipe;
    action.sa_flags = SA_RESTART;
    sigemptyset(&action.sa_mask);
    // The pipe is known before the handler can run.
    snapshare_signal_pipes[signo] = fd + 1;
    if (sigaction(signo, &action, &snapshare_previous_actions[signo]) != 0) {
        snapshare_signal_pipes[signo] = 0;
        return -1;
    }
    return 0;
}

int snapshare_release_signal(int signo, int fd) {
    if (signo <= 0 || signo >= NSIG || snapshare_signal_pipes[signo] != fd + 1) { errno = EINVAL; return -1; }
    // The old disposition first, so no late signal finds the pipe gone.
    int rc = sigaction(signo, &snapshare_previous_actions[signo], NULL);
    snapshare_signal_pipes[signo] = 0;
    return rc;
}

int snapshare_default_signal(int signo) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = SIG_DFL;
    sigemptyset(&action.sa_mask);
    return sigaction(signo, &action, NULL);
}

#include <sys/prctl.h>
#include <sys/wait.h>

int snapshare_spawn(const char *path, char *const argv[], char *const envp[], int out_fd, int err_fd, int *pid) {
    // exec's failure comes back on a pipe closed by a successful exec (O_CLOEXEC).
    int report[2];
    if (pipe2(report, O_CLOEXEC) != 0) return -1;
    pid_t parent = getpid();
    pid_t child = fork();
    if (child < 0) {
        int saved = errno;
        close(report[0]); close(report[1]);
        errno = saved;
        return -1;
    }
    if (child == 0) {
        // Only async-signal-safe calls from here to exec: the parent has other threads.
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) _exit(127);
        // Descriptors 0-2 are about to be replaced: pipes that landed there (a parent started
        // with them closed) are moved out of the way first.
        if (out_fd < 3) out_fd = fcntl(out_fd, F_DUPFD, 3);
        if (err_fd < 3) err_fd = fcntl(err_fd, F_DUPFD, 3);
        if (out_fd < 0 || err_fd < 0) _exit(127);
        int null = open("/dev/null", O_RDONLY);
        if (null >= 0) { dup2(null, 0); if (null != 0) close(null); }
        dup2(out_fd, 1);
        dup2(err_fd, 2);
        // dup2 clears O_CLOEXEC on the copies; the originals close at exec.
        int flags = fcntl(1, F_GETFL);
        if (flags >= 0) fcntl(1, F_SETFL, flags & ~O_NONBLOCK);
        flags = fcntl(2, F_GETFL);
        if (flags >= 0) fcntl(2, F_SETFL, flags & ~O_NONBLOCK);
        for (int signo = 1; signo < NSIG; signo++) signal(signo, SIG_DFL);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        execve(path, argv, envp);
        int failure = errno;
        (void)!write(report[1], &failure, sizeof failure);
        _exit(127);
    }
    close(report[1]);
    int failure = 0;
    ssize_t got;
    do { got = read(report[0], &failure, sizeof failure); } while (got < 0 && errno == EINTR);
    close(report[0]);
    if (got == (ssize_t)sizeof failure) {
        while (waitpid(child, NULL, 0) < 0 && errno == EINTR) {}
        errno = failure;
        return -1;
    }
    *pid = child;
    return 0;
}
