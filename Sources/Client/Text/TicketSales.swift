/// Ticket sales as a person types them, for the command line's `--sales` and the app's form alike:
/// a whole, non-negative number of dollars that fits the server's 64-bit integers. A leading `$`
/// and thousands separators are accepted, so what `MoviePresenter.dollars` shows can be typed back.
enum TicketSales {
    /// Why the text was refused, in words that name the field (`name`).
    struct Problem: Error, Equatable {
        let message: String
    }

    static func parse(_ text: String, name: String) -> Result<UInt64, Problem> {
        var rest = Substring(text.trimmingCharacters(in: .whitespaces))
        let negative = rest.hasPrefix("-")
        if negative { rest = rest.dropFirst() }
        if rest.hasPrefix("$") { rest = rest.dropFirst().drop(while: { $0 == " " }) }
        let groups = rest.split(separator: ",", omittingEmptySubsequences: false)
        let wellGrouped = groups.count == 1 || (1...3).contains(groups[0].count) && groups.dropFirst().allSatisfy { $0.count == 3 }
        let digits = groups.joined()
        guard !digits.isEmpty, wellGrouped, digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return .failure(Problem(message: "\(name) must be a whole number of dollars such as 1234567 or $1,234,567 (got '\(text)')"))
        }
        if negative { return .failure(Problem(message: "\(name) cannot be negative (got \(text))")) }
        guard let value = UInt64(digits), value <= UInt64(Int64.max) else {
            return .failure(
                Problem(message: "\(name) can be at most \(Int64.max) dollars (got \(text.trimmingCharacters(in: .whitespaces)))"))
        }
        return .success(value)
    }
}
