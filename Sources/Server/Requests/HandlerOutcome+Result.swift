import Wire

extension HandlerOutcome {
    /// `ok`, or the code of the Error this outcome sends, read from its encoded frame (an Error
    /// payload starts with its u16 code).
    var result: RequestResult {
        guard frame.count >= FrameHeader.size + 2 else { return .ok }
        let header = FrameHeader(bytes: frame, at: 0)
        guard header.type == MessageType.error.rawValue else { return .ok }
        let code = UInt16(frame[FrameHeader.size]) << 8 | UInt16(frame[FrameHeader.size + 1])
        return .error(ErrorCode(rawValue: code))
    }

    /// The reply this outcome sends, decoded, when it is a `M` (nil for an Error or another
    /// type). For what only the reply says, such as an export page's total for its audit entry.
    func reply<M: WireMessage>(_: M.Type, version: UInt16) -> M? {
        guard frame.count >= FrameHeader.size else { return nil }
        let header = FrameHeader(bytes: frame, at: 0)
        guard header.type == M.type.rawValue else { return nil }
        return try? Frame(type: header.type, requestID: header.requestID, payload: Array(frame[FrameHeader.size...])).decode(
            version: version)
    }
}
