import CLinux

#if canImport(Glibc)
    import Glibc
#endif

/// TCP socket setup for the server (listening, non-blocking) and the client (blocking with
/// timeouts), and Unix datagram sockets (systemd's notification socket).
public enum Socket {
    /// Resolves `host` (name or literal) to socket addresses for TCP.
    public static func resolve(host: String, port: Int, passive: Bool) throws(SystemError) -> [(family: Int32, address: [UInt8])] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        if passive { hints.ai_flags = AI_PASSIVE }
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, String(port), &hints, &list)
        guard rc == 0, let first = list else {
            throw SystemError(
                "getaddrinfo(\(host))", errno: EINVAL,
                detail: "cannot resolve host \(host): \(String(cString: gai_strerror(rc)))")
        }
        defer { freeaddrinfo(list) }
        var results: [(Int32, [UInt8])] = []
        var node: UnsafeMutablePointer<addrinfo>? = first
        while let current = node {
            let info = current.pointee
            if let addr = info.ai_addr {
                let bytes = UnsafeRawBufferPointer(start: addr, count: Int(info.ai_addrlen))
                results.append((info.ai_family, Array(bytes)))
            }
            node = info.ai_next
        }
        return results
    }

    /// A non-blocking listening socket bound to host:port (port 0 picks a free one).
    public static func listen(host: String, port: Int, backlog: Int32 = 1024) throws(SystemError) -> Int32 {
        let addresses = try resolve(host: host, port: port, passive: true)
        var lastError = SystemError("bind(\(host):\(port))", errno: EADDRNOTAVAIL)
        for (family, address) in addresses {
            let fd = try Syscall.checked("socket") {
                socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            }
            var one: Int32 = 1
            _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
            let bound = address.withUnsafeBytes { raw in
                Glibc.bind(fd, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count))
            }
            if bound != 0 {
                lastError = SystemError("bind(\(host):\(port))", errno: snapshare_errno())
                Syscall.close(fd)
                continue
            }
            if Glibc.listen(fd, backlog) != 0 {
                lastError = SystemError("listen", errno: snapshare_errno())
                Syscall.close(fd)
                continue
            }
            return fd
        }
        throw lastError
    }

    /// The local port a socket is bound to.
    public static func localPort(_ fd: Int32) -> Int {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let rc = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard rc == 0 else { return 0 }
        let family = storage.ss_family
        return withUnsafePointer(to: &storage) { pointer -> Int in
            if family == sa_family_t(AF_INET6) {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
        }
    }

    /// Accepts one connection as a non-blocking, close-on-exec descriptor.
    public static func accept(_ listener: Int32) throws(SystemError) -> IOResult<Int32> {
        try Syscall.call("accept4") {
            snapshare_accept4(listener, nil, nil, Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue))
        }
    }

    /// The IP address of a connected socket's peer as text (`203.0.113.7`, `2001:db8::1`; an
    /// IPv4 peer on an IPv6 socket is shown as IPv4), or nil when it cannot be read.
    public static func peerAddress(_ fd: Int32) -> String? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let rc = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &length) }
        }
        guard rc == 0 else { return nil }
        return withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { addressText($0) } }
    }

    /// The IP addresses of this machine's network interfaces that are up (loopback included),
    /// as text: what a server listening on every address (`0.0.0.0`, `::`) can be reached by.
    public static func interfaceAddresses() -> [String] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return [] }
        defer { freeifaddrs(list) }
        var addresses: [String] = []
        var entry = list
        while let current = entry {
            defer { entry = current.pointee.ifa_next }
            guard current.pointee.ifa_flags & UInt32(IFF_UP) != 0, let address = current.pointee.ifa_addr,
                let text = addressText(address), !text.hasPrefix("fe80:"), !addresses.contains(text)
            else { continue }
            addresses.append(text)
        }
        return addresses
    }

    /// An IPv4 or IPv6 socket address as text (an IPv4 address mapped into IPv6 shown as IPv4);
    /// nil for other families.
    private static func addressText(_ address: UnsafePointer<sockaddr>) -> String? {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let converted: UnsafePointer<CChar>?
        switch Int32(address.pointee.sa_family) {
        case AF_INET6:
            converted = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                var bytes = address.pointee.sin6_addr
                return inet_ntop(AF_INET6, &bytes, &text, socklen_t(text.count))
            }
        case AF_INET:
            converted = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                var bytes = address.pointee.sin_addr
                return inet_ntop(AF_INET, &bytes, &text, socklen_t(text.count))
            }
        default:
            return nil
        }
        guard converted != nil else { return nil }
        let address = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return address.hasPrefix("::ffff:") && address.contains(".") ? String(address.dropFirst(7)) : address
    }

    /// Disables Nagle so small replies leave at once.
    public static func setNoDelay(_ fd: Int32) {
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    /// A blocking TCP connection to host:port, giving up after `timeout` seconds per address.
    /// `source`, when given, is the local address to connect from (a test standing in for a
    /// second machine binds 127.0.0.2).
    public static func connect(host: String, port: Int, timeout: Double, source: String? = nil) throws(SystemError) -> Int32 {
        let addresses = try resolve(host: host, port: port, passive: false)
        var lastError = SystemError("connect(\(host):\(port))", errno: ECONNREFUSED)
        for (family, address) in addresses {
            let fd = try Syscall.checked("socket") {
                socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            }
            if let source {
                guard let local = try resolve(host: source, port: 0, passive: false).first(where: { $0.family == family }) else {
                    Syscall.close(fd)
                    throw SystemError("bind(\(source))", errno: EADDRNOTAVAIL)
                }
                let bound = local.address.withUnsafeBytes { raw in
                    Glibc.bind(fd, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count))
                }
                guard bound == 0 else {
                    let error = SystemError("bind(\(source))", errno: snapshare_errno())
                    Syscall.close(fd)
                    throw error
                }
            }
            let rc = address.withUnsafeBytes { raw in
                Glibc.connect(fd, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count))
            }
            var err: Int32 = rc == 0 ? 0 : snapshare_errno()
            if err == EINPROGRESS {
                if (try? Syscall.waitUntilWritable(fd, timeoutMilliseconds: Int32(timeout * 1000))) == true {
                    var soError: Int32 = 0
                    var length = socklen_t(MemoryLayout<Int32>.size)
                    getsockopt(fd, SOL_SOCKET, SO_ERROR, &soError, &length)
                    err = soError
                } else {
                    err = ETIMEDOUT
                }
            }
            if err != 0 {
                lastError = SystemError("connect(\(host):\(port))", errno: err)
                Syscall.close(fd)
                continue
            }
            // Back to blocking mode for the client's simple read/write loop.
            let flags = fcntl(fd, F_GETFL)
            _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK)
            setNoDelay(fd)
            return fd
        }
        throw lastError
    }

    /// A new Unix datagram socket (close-on-exec).
    public static func datagram() throws(SystemError) -> Int32 {
        try Syscall.checked("socket") { socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }
    }

    /// The address of the Unix socket named by `path`'s bytes (a leading NUL: an abstract name)
    /// and its length; nil when it is too long for one.
    public static func unixAddress(_ path: [UInt8]) -> (sockaddr_un, socklen_t)? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        guard !path.isEmpty, path.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path) }
        // An abstract name's length counts its bytes exactly; a path's includes the NUL.
        let length = socklen_t(MemoryLayout.offset(of: \sockaddr_un.sun_path)! + path.count + (path[0] == 0 ? 0 : 1))
        return (address, length)
    }

    /// A Unix datagram socket bound to `path`, which must not exist (a service manager's end of
    /// `$NOTIFY_SOCKET`, in tests); `Syscall.read` takes one datagram.
    public static func boundDatagram(at path: String) throws(SystemError) -> Int32 {
        guard let (address, length) = unixAddress(Array(path.utf8)) else { throw SystemError("bind", errno: ENAMETOOLONG) }
        let fd = try datagram()
        do {
            _ = try withUnsafePointer(to: address) { pointer in
                Result { () throws(SystemError) in
                    try Syscall.checked("bind") { pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
                }
            }.get()
        } catch {
            Syscall.close(fd)
            throw error
        }
        return fd
    }

    /// This machine's name (gethostname(2)), or nil when it has none.
    public static func hostName() -> String? {
        var name = [CChar](repeating: 0, count: 256)
        guard gethostname(&name, name.count - 1) == 0 else { return nil }
        let text = name.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return text.isEmpty ? nil : text
    }

    /// Sets receive and send timeouts on a blocking socket.
    public static func setTimeouts(_ fd: Int32, seconds: Double) {
        var tv = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - Double(Int(seconds))) * 1_000_000))
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Makes a descriptor non-blocking: reads and writes that would wait report `.wouldBlock`.
    public static func setNonBlocking(_ fd: Int32) throws(SystemError) {
        try setBlocking(fd, false)
    }

    /// Makes a descriptor blocking (`blocking`) or not.
    public static func setBlocking(_ fd: Int32, _ blocking: Bool) throws(SystemError) {
        let flags = try Syscall.checked("fcntl(F_GETFL)") { fcntl(fd, F_GETFL) }
        _ = try Syscall.checked("fcntl(F_SETFL)") { fcntl(fd, F_SETFL, blocking ? flags & ~O_NONBLOCK : flags | O_NONBLOCK) }
    }

    /// Half-closes a connected socket (shutdown SHUT_WR): the peer reads end of file after the
    /// last byte sent, and this side can still read what the peer sends. A peer that has already
    /// gone is not an error worth reporting, so failures are ignored.
    public static func halfClose(_ fd: Int32) {
        _ = try? Syscall.call("shutdown") { Glibc.shutdown(fd, Int32(SHUT_WR)) }
    }
}
