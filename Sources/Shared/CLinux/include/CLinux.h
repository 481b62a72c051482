#ifndef SNAPSHARE_CLINUX_H
#define SNAPSHARE_CLINUX_H
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <termios.h>
#include <malloc.h>

/// accept4 with SOCK_NONBLOCK|SOCK_CLOEXEC; hidden from Swift because Glibc is built without _GNU_SOURCE.
int snapshare_accept4(int fd, struct sockaddr *addr, socklen_t *len, int flags);

/// ioctl is variadic; this asks the terminal for its size. Returns 0 on success.
int snapshare_terminal_size(int fd, unsigned short *columns, unsigned short *rows);
/// The text area in pixels (ws_xpixel, ws_ypixel): 0 x 0 where the terminal leaves them empty.
int snapshare_terminal_pixels(int fd, unsigned short *width, unsigned short *height);

/// Names the calling thread for ps, perf, gdb and crash backtraces (at most 15 bytes are kept).
void snapshare_name_this_thread(const char *name);

/// The errno of the calling thread, read in C so no Swift runtime call can clobber it.
int snapshare_errno(void);

/// Renames `from` to `to` only when nothing is called `to` yet (renameat2's RENAME_NOREPLACE; on a
/// file system without it, link then unlink for a file, or a check then rename for a folder).
/// Returns 0 on success, -1 with errno (EEXIST when `to` exists).
int snapshare_rename_noreplace(const char *from, const char *to);

/// pipe2 with O_NONBLOCK|O_CLOEXEC (hidden from Swift like accept4). Returns 0 on success.
int snapshare_pipe(int fds[2]);

/// A descriptor that turns readable once process `pid` (a child of ours not reaped yet) has
/// exited: pidfd_open (Linux 5.3), close-on-exec. Returns it, or -1 with errno (ENOSYS on an
/// older kernel).
int snapshare_pidfd_open(int pid);

/// Delivers `signo` as one byte (its number) written to `fd` by an async-signal-safe handler
/// (SA_RESTART), so a poll loop hears signals on a pipe; the previous disposition is kept for
/// `snapshare_release_signal`. Returns 0 on success, -1 with EBUSY when another pipe has it.
int snapshare_forward_signal(int signo, int fd);

/// Stops forwarding `signo` to `fd` and puts back the disposition it had before. Returns 0 on
/// success, -1 with EINVAL when `fd` was not forwarding it.
int snapshare_release_signal(int signo, int fd);

/// Puts `signo` back to its default action. Returns 0 on success.
int snapshare_default_signal(int signo);

/// Starts `path` (a full path) with `argv` and `envp` in a child that has standard input from
/// /dev/null, standard output on `out_fd` and standard error on `err_fd`, every signal at its
/// default action and none blocked, and SIGKILL sent to it when the calling thread ends
/// (PR_SET_PDEATHSIG: call it from a thread that lasts as long as the program, such as the main one). Returns 0 with the child's pid, or -1 with errno (exec's own, such as
/// ENOENT or EACCES, when the program could not be started).
int snapshare_spawn(const char *path, char *const argv[], char *const envp[], int out_fd, int err_fd, int *pid);
#endif
