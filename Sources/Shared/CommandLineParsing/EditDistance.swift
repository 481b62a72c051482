/// Levenshtein distance, used to suggest the command, option or name a user probably meant.
public enum EditDistance {
    /// The number of single-character insertions, deletions, substitutions and swaps of two
    /// neighbours turning `a` into `b` (a swapped pair, `Memse` for `Memes`, is one typo).
    static func between(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }

    /// The candidate the user most likely meant by `input`, or nil when none is close.
    ///
    /// Close means a few typos (about one per three characters typed) or an unambiguous prefix,
    /// so `fed` suggests `feed` and `del` suggests `delete`, but `x` suggests nothing.
    public static func suggestion(for input: String, among candidates: [String]) -> String? {
        let limit = max(1, input.count / 3)
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = between(input, candidate)
            if distance <= limit, distance < (best?.distance ?? .max) {
                best = (candidate, distance)
            }
        }
        if let best { return best.name }
        let prefixed = candidates.filter { $0.hasPrefix(input) && input.count >= 2 }
        return prefixed.count == 1 ? prefixed[0] : nil
    }

    /// `suggestion(for:among:)` comparing without case; returns the candidate as spelled.
    public static func suggestion(ignoringCaseFor input: String, among candidates: [String]) -> String? {
        let lowered = candidates.map { $0.lowercased() }
        guard let match = suggestion(for: input.lowercased(), among: lowered), let index = lowered.firstIndex(of: match) else { return nil }
        return candidates[index]
    }
}
