import Wire

/// libFuzzer entry point for the frame decoder and every message decoder.
///
/// Build and run with `scripts/fuzz.sh` (SwiftPM's `--sanitize=fuzzer` with `--product`).
/// Properties checked for any input, fed in chunks of 1-17 bytes:
/// - decoding never traps and never buffers more than the frame limit plus one header;
/// - every frame that decodes re-encodes to exactly the bytes it was read from;
/// - a payload that decodes as its message type re-encodes to the same payload.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFrames(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    FrameFuzzing.check(bytes)
    return 0
}
