#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Daemons a test starts with system(3) (PostgreSQL, tmux) outlive the test and would keep every
/// descriptor the test process has open, such as the read end of another test's pipe: a server
/// whose log reader the other test closed would then block on a pipe nobody reads. Marking them
/// close-on-exec first keeps the daemons' hands clean.
enum InheritedDescriptors {
    static func closeOnExec() {
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
            guard let fd = Int32(entry), fd > 2 else { continue }
            let flags = fcntl(fd, F_GETFD)
            if flags >= 0 && flags & FD_CLOEXEC == 0 { _ = fcntl(fd, F_SETFD, flags | FD_CLOEXEC) }
        }
    }
}
