import CLinux

#if canImport(Glibc)
    import Glibc
#endif

/// Whose descriptor a call uses, which decides what a bad descriptor means.
public enum DescriptorOrigin: Sendable {
    /// Opened and closed by this process: EBADF means our bookkeeping is wrong.
    case ours
    /// Handed to the process (standard input, output, error): the operator may have closed it,
    /// so EBADF is an ordinary error.
    case inherited
}

/// Every system call goes through here: EINTR is retried, EAGAIN becomes `.wouldBlock`, and
/// EBADF/EFAULT on our own descriptors stop the process because they mean our own bookkeeping
/// is wrong (the swift-nio `System.swift` discipline). errno is read in C, right after the
/// call, so nothing in between can clobber it.
public enum Syscall {
    @inline(never)
    public static func call<T: FixedWidthInteger & Sendable>(
        _ name: String, blocking: Bool = false, origin: DescriptorOrigin = .ours, _ body: () -> T
    ) throws(SystemError) -> IOResult<T> {
        while true {
            let result = body()
            if result != -1 { return .processed(result) }
            let err = snapshare_errno()
            switch err {
            case EINTR: continue
            case EAGAIN where !blocking: return .wouldBlock
            case EBADF where origin == .inherited: throw SystemError(name, errno: err)
            case EBADF, EFAULT: preconditionFailure("\(name) failed with \(err): a descriptor bug")
            default: throw SystemError(name, errno: err)
            }
        }
    }

    /// A call that must not report EAGAIN (blocking descriptors, setup calls).
    @inline(never)
    public static func checked<T: FixedWidthInteger & Sendable>(
        _ name: String, origin: DescriptorOrigin = .ours, _ body: () -> T
    ) throws(SystemError) -> T {
        switch try call(name, blocking: true, origin: origin, body) {
        case .processed(let value): return value
        case .wouldBlock: throw SystemError(name, errno: EAGAIN)
        }
    }

    /// read(2) into `buffer`: `.processed(0)` is end of file, `.wouldBlock` an empty non-blocking descriptor.
    public static func read(
        _ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, origin: DescriptorOrigin = .ours
    ) throws(SystemError) -> IOResult<Int> {
        try call("read", origin: origin) { Glibc.read(fd, buffer.baseAddress, buffer.count) }
    }

    /// read(2) into the whole of `bytes`.
    public static func read(
        _ fd: Int32, into bytes: inout [UInt8], origin: DescriptorOrigin = .ours
    ) throws(SystemError) -> IOResult<Int> {
        // withUnsafe…Bytes rethrows untyped errors, so the typed one crosses it inside a Result.
        try bytes.withUnsafeMutableBytes { buffer in
            Result { () throws(SystemError) in try read(fd, into: buffer, origin: origin) }
        }.get()
    }

    /// write(2) of as much of `bytes` as the descriptor takes now.
    public static func write(
        _ fd: Int32, _ bytes: UnsafeRawBufferPointer, origin: DescriptorOrigin = .ours
    ) throws(SystemError) -> IOResult<Int> {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return .processed(0) }
        return try call("write", origin: origin) { Glibc.write(fd, base, bytes.count) }
    }

    /// write(2) of as much of `bytes[offset...]` as the descriptor takes now.
    public static func write(
        _ fd: Int32, _ bytes: [UInt8], from offset: Int, origin: DescriptorOrigin = .ours
    ) throws(SystemError) -> IOResult<Int> {
        try bytes.withUnsafeBytes { buffer in
            Result { () throws(SystemError) in
                try write(fd, UnsafeRawBufferPointer(rebasing: buffer[offset...]), origin: origin)
            }
        }.get()
    }

    /// Writes all of `bytes` to a blocking descriptor, however many write(2) calls that takes.
    public static func writeAll(
        _ fd: Int32, _ bytes: UnsafeRawBufferPointer, origin: DescriptorOrigin = .ours
    ) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            switch try write(fd, UnsafeRawBufferPointer(rebasing: bytes[offset...]), origin: origin) {
            case .processed(0): throw SystemError("write", errno: EIO)
            case .processed(let count): offset += count
            case .wouldBlock: throw SystemError("write", errno: EAGAIN)
            }
        }
    }

    /// send(2) of as much of `bytes[offset...]` as the socket takes now, with MSG_NOSIGNAL: a peer
    /// that went away is an EPIPE error, never a SIGPIPE that ends the process (a library cannot
    /// count on its host ignoring the signal).
    public static func send(_ fd: Int32, _ bytes: [UInt8], from offset: Int) throws(SystemError) -> IOResult<Int> {
        guard offset < bytes.count else { return .processed(0) }
        return try bytes.withUnsafeBytes { buffer in
            Result { () throws(SystemError) in
                try call("send", origin: .ours) { Glibc.send(fd, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL)) }
            }
        }.get()
    }

    /// Sends all of `bytes` on a blocking socket (see `send`).
    public static func sendAll(_ fd: Int32, _ bytes: [UInt8]) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            switch try send(fd, bytes, from: offset) {
            case .processed(0): throw SystemError("send", errno: EIO)
            case .processed(let count): offset += count
            case .wouldBlock: throw SystemError("send", errno: EAGAIN)
            }
        }
    }

    /// Writes all of `bytes` to a blocking descriptor.
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8], origin: DescriptorOrigin = .ours) throws(SystemError) {
        try bytes.withUnsafeBytes { buffer in
            Result { () throws(SystemError) in try writeAll(fd, buffer, origin: origin) }
        }.get()
    }

    /// poll(2) over `descriptors` for up to `timeoutMilliseconds` (-1: no limit); returns how many
    /// are ready, 0 when the time passed. EINTR is retried with the whole timeout again: a signal
    /// that interrupts it is a byte on its `SignalPipe` by then, which the retried poll sees at once.
    public static func poll(_ descriptors: inout [pollfd], timeoutMilliseconds: Int32) throws(SystemError) -> Int {
        let count = nfds_t(descriptors.count)
        return Int(
            try descriptors.withUnsafeMutableBufferPointer { buffer in
                Result { () throws(SystemError) in try checked("poll") { Glibc.poll(buffer.baseAddress, count, timeoutMilliseconds) } }
            }.get())
    }

    /// Waits up to `timeoutMilliseconds` (-1: no limit) until `fd` can be read (or has hung up);
    /// false when the time passed first.
    public static func waitUntilReadable(_ fd: Int32, timeoutMilliseconds: Int32) throws(SystemError) -> Bool {
        var descriptors = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
        return try poll(&descriptors, timeoutMilliseconds: timeoutMilliseconds) > 0
    }

    /// Waits up to `timeoutMilliseconds` (-1: no limit) until `fd` can be written (or a connect
    /// in progress has finished); false when the time passed first.
    public static func waitUntilWritable(_ fd: Int32, timeoutMilliseconds: Int32) throws(SystemError) -> Bool {
        var descriptors = [pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)]
        return try poll(&descriptors, timeoutMilliseconds: timeoutMilliseconds) > 0
    }

    /// Marks `fd` close-on-exec, so a program started from here does not inherit it; false when
    /// it is not open.
    @discardableResult
    public static func setCloseOnExec(_ fd: Int32) -> Bool {
        guard let flags = try? checked("fcntl(F_GETFD)", origin: .inherited, { fcntl(fd, F_GETFD) }) else { return false }
        if flags & FD_CLOEXEC != 0 { return true }
        return (try? checked("fcntl(F_SETFD)", origin: .inherited) { fcntl(fd, F_SETFD, flags | FD_CLOEXEC) }) != nil
    }

    /// close(2); EINTR is not retried (the descriptor is gone either way on Linux).
    public static func close(_ fd: Int32) {
        _ = Glibc.close(fd)
    }
}
