/// A role in a class, ordered from the least it may do to the most.
package enum ClassRole: String, Sendable, CaseIterable, Comparable {
    case student, ta, instructor, owner

    private var rank: Int {
        switch self {
        case .student: 0
        case .ta: 1
        case .instructor: 2
        case .owner: 3
        }
    }

    package static func < (a: Self, b: Self) -> Bool { a.rank < b.rank }

    /// The role as a sentence says it: `a student`, `a ta`, `an instructor`, `an owner`.
    var withArticle: String { (self == .instructor || self == .owner ? "an " : "a ") + rawValue }
}
