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
}
