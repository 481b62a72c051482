/// Human-readable byte counts.
enum ByteCount {
    static func describe(_ bytes: Int) -> String {
        if bytes < 1024 { return "\(bytes) B" }
        if bytes < 1024 * 1024 { return String(format1: Double(bytes) / 1024, unit: "KB") }
        return String(format1: Double(bytes) / (1024 * 1024), unit: "MB")
    }
}

extension String {
    init(format1 value: Double, unit: String) {
        let tenths = Int((value * 10).rounded())
        self = "\(tenths / 10).\(tenths % 10) \(unit)"
    }
}
