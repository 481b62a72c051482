#if canImport(Glibc)
import Glibc
#endif
import CLinux

/// Every system call goes through here: EINTR is retried, EAGAIN becomes `.wouldBlock`, and
/// EBADF/EFAULT stop the process because they mean our own bookkeeping is wrong (the swift-nio
/// `System.swift` discipline). errno is read in C, right after the call, so nothing in between
/// can clobber it.
public enum Syscall {
    @inline(never)
    public static func call<T: FixedWidthInteger & Sendable>(
        _ name: String, blocking: Bool = false, _ body: () -> T
    ) throws(SystemError) -> IOResult<T> {
        while true {
            let result = body()
            if result != -1 { return .processed(result) }
            let err = snapshare_errno()
            switch err {
            case EINTR: continue
            case EAGAIN where !blocking: return .wouldBlock
            case EBADF, EFAULT: preconditionFailure("\(name) failed with \(err): a descriptor bug")
            default: throw SystemError(name, errno: err)
            }
        }
    }

    /// A call that must not report EAGAIN (blocking descriptors, setup calls).
    @inline(never)
    public static func checked<T: FixedWidthInteger & Sendable>(_ name: String, _ body: () -> T) throws(SystemError) -> T {
        switch try call(name, blocking: true, body) {
        case .processed(let value): return value
        case .wouldBlock: throw SystemError(name, errno: EAGAIN)
        }
    }

    /// close(2); EINTR is not retried (the descriptor is gone either way on Linux).
    public static func close(_ fd: Int32) {
        _ = Glibc.close(fd)
    }
}
