import Foundation
import Posix

/// Daemons a test starts with system(3) (PostgreSQL, tmux) outlive the test and would keep every
/// descriptor the test process has open, such as the read end of another test's pipe: a server
/// whose log reader the other test closed would then block on a pipe nobody reads. Marking them
/// close-on-exec first keeps the daemons' hands clean.
enum InheritedDescriptors {
    static func closeOnExec() {
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
            guard let fd = Int32(entry), fd > 2 else { continue }
            Syscall.setCloseOnExec(fd)
        }
    }
}
