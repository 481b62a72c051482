/// A count with its noun, singular or plural as the count asks: "1 photo", "3 photos".
enum Plural {
    /// `count` and `noun`, with `plural` (the noun and an "s" by default) for any count but one.
    static func count(_ count: Int, _ noun: String, plural: String? = nil) -> String {
        "\(count) " + (count == 1 ? noun : plural ?? noun + "s")
    }
}
