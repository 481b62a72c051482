import COpenSSL

/// OpenSSL's thread-local error queue, read as values.
///
/// `SSL_get_error` looks at this queue, so it must be empty before every SSL call (`clear()`), and every
/// failure must empty it afterwards (`drain()`), or a stale entry turns the next harmless WANT_READ into an error.
enum OpenSSLErrorQueue {
    /// One queued error: the packed code and its text ("error:0A000086:SSL routines::certificate verify failed").
    struct Entry {
        let code: UInt
        let text: String

        /// The library that raised the error, e.g. ERR_LIB_SSL.
        var library: Int32 { ERR_GET_LIB(code) }
        /// The reason within that library, e.g. SSL_R_CERTIFICATE_VERIFY_FAILED.
        var reason: Int32 { ERR_GET_REASON(code) }
    }

    /// Empties the queue, discarding its entries.
    static func clear() {
        ERR_clear_error()
    }

    /// Empties the queue and returns its entries, oldest first.
    static func drain() -> [Entry] {
        var entries: [Entry] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { return entries }
            var text = [CChar](repeating: 0, count: 256)
            let description = text.withUnsafeMutableBufferPointer { buffer in
                ERR_error_string_n(code, buffer.baseAddress, buffer.count)
                return String(cString: buffer.baseAddress!)
            }
            entries.append(Entry(code: code, text: description))
        }
    }
}
