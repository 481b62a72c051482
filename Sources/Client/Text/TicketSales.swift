/// Ticket sales as a person types them, for the command line's `--sales` and the app's form alike:
/// a whole, non-negative number of dollars that fits the server's 64-bit integers. A leading `$`
/// and thousands separators are accepted, so what `MoviePresenter.dollars` shows can be typed back.
enum TicketSales {
    /// Why the text was refused, in words that name the field (`name`).
    struct Problem: Error, Equatable {
        let message: String
    }

    static func parse(_ text: String, name: String) -> Result<UInt64, Problem> {
        var digits = Substring(text.trimmingCharacters(in: .whitespaces))
        if digits.hasPrefix("-"), digits.count > 1, digits.dropFirst().allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ",") }) {
            return .failure(Problem(message: "\(name) cannot be negative (got \(text))"))
        }
        if digits.hasPrefix("$") { digits = digits.dropFirst() }
        let groups = digits.split(separator: ",", omittingEmptySubsequences: false)
        let wellGrouped = groups.count == 1 || (1...3).contains(groups[0].count) && groups.dropFirst().allSatisfy { $0.count == 3 }
        let plain = groups.joined()
        guard !plain.isEmpty, wellGrouped, plain.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return .failure(Problem(message: "\(name) takes a whole number of dollars such as 1234567 or $1,234,567 (got '\(text)')"))
        }
        guard let value = UInt64(plain), value <= UInt64(Int64.max) else {
            return .failure(Problem(message: "\(name) is at most \(Int64.max) dollars (got \(text.trimmingCharacters(in: .whitespaces)))"))
        }
        return .success(value)
    }
}
