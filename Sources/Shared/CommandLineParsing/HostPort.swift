/// A server address typed on a command line: `host:port`, `[::1]:7443`, or a bare host that
/// takes the caller's default port.
///
/// An IPv6 literal with a port needs brackets. Unbracketed text with more than one colon
/// (`::1`) is read as an IPv6 host without a port, never as a host and port.
public struct HostPort: Sendable, Hashable, CustomStringConvertible {
    /// The host without brackets: `localhost`, `10.0.0.2`, `::1`.
    public var host: String
    public var port: UInt16

    /// An address from parts already known to be valid.
    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// Parses `host[:port]` or `[ipv6][:port]`; a missing port is `defaultPort`.
    public init(parsing text: String, defaultPort: UInt16) throws(ValueParseError) {
        func failure(_ why: String) -> ValueParseError {
            ValueParseError("invalid address '\(text)': \(why)")
        }
        var portText: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { throw failure("missing ']'") }
            host = String(text[text.index(after: text.startIndex)..<close])
            let after = text[text.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw failure("expected ':' after ']'") }
                portText = after.dropFirst()
            }
        } else if text.filter({ $0 == ":" }).count == 1, let colon = text.firstIndex(of: ":") {
            host = String(text[..<colon])
            portText = text[text.index(after: colon)...]
        } else {
            host = text
        }
        guard !host.isEmpty else { throw failure("missing host") }
        guard !host.contains(where: { $0.isWhitespace || $0 == "[" || $0 == "]" || $0 == "/" }) else {
            throw failure("the host contains a space, bracket or slash")
        }
        if let portText {
            // UInt16("+1") would accept a sign, so digits are checked first.
            guard !portText.isEmpty, portText.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                throw failure("the port must be a number from 0 to 65535")
            }
            guard let value = UInt16(portText) else { throw failure("the port must be from 0 to 65535") }
            port = value
        } else {
            port = defaultPort
        }
    }

    /// `host:port`, with brackets around an IPv6 host; parsing it gives back the same value.
    public var description: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
