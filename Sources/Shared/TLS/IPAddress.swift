import Glibc

/// Recognises IPv4 and IPv6 address literals, which certificates and TLS treat differently from host names.
public enum IPAddress {
    /// True when `text` is a dotted IPv4 address or an IPv6 address (without brackets or zone id).
    public static func isLiteral(_ text: String) -> Bool {
        isIPv4(text) || isIPv6(text)
    }

    /// True when `text` parses as an IPv4 address, e.g. "127.0.0.1".
    static func isIPv4(_ text: String) -> Bool {
        var address = in_addr()
        return inet_pton(AF_INET, text, &address) == 1
    }

    /// True when `text` parses as an IPv6 address, e.g. "::1".
    static func isIPv6(_ text: String) -> Bool {
        var address = in6_addr()
        return inet_pton(AF_INET6, text, &address) == 1
    }
}
