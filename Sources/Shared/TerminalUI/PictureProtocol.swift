/// How a picture reaches the screen: half blocks (two pixels per cell, everywhere), or the real
/// pixels through a terminal's graphics protocol.
public enum PictureProtocol: String, Sendable, CaseIterable {
    case halfblock, kitty, iterm, sixel

    /// How pictures are drawn on a terminal that answered `facts`: the protocol asked for
    /// (`requested`), or the best one the terminal really shows when nil (kitty, then sixel, then
    /// iTerm2's, then half blocks). A protocol counts only when the terminal says so — kitty's
    /// graphics query answered OK, sixel in the DA1 reply, iTerm2 or WezTerm by name — so that
    /// a snap, which opens once, is never spent on a picture that does not appear. Asked for and
    /// not there, it is half blocks with `notice` saying why.
    ///
    /// Inside tmux or screen the choice is half blocks: the terminal outside is not the one
    /// answering, and the multiplexer does not track pictures it passes on.
    public static func choose(_ requested: PictureProtocol?, environment: [String: String], facts: TerminalFacts) -> PictureChoice {
        let multiplexed = TerminalSession.insideMultiplexer(environment)
        func shown(_ pictures: PictureProtocol) -> Bool {
            switch pictures {
            case .halfblock: true
            case .kitty: facts.kittyGraphics
            case .sixel: facts.sixel && !multiplexed
            case .iterm:
                !multiplexed
                    && (environment["TERM_PROGRAM"] == "iTerm.app" || environment["LC_TERMINAL"] == "iTerm2"
                        || environment["TERM_PROGRAM"] == "WezTerm"
                        || ["iTerm2", "WezTerm"].contains { facts.version?.hasPrefix($0) == true })
            }
        }
        guard let requested else {
            return PictureChoice(pictures: [.kitty, .sixel, .iterm].first { !multiplexed && shown($0) } ?? .halfblock, notice: nil)
        }
        if shown(requested) { return PictureChoice(pictures: requested, notice: nil) }
        let why =
            switch requested {
            case .kitty: facts.answered ? "this terminal did not answer the kitty graphics query" : "this terminal answered no questions"
            case .sixel:
                multiplexed
                    ? "tmux and screen do not pass sixels on"
                    : facts.answered ? "this terminal does not list sixel graphics" : "this terminal answered no questions"
            case .iterm, .halfblock: "this terminal is not iTerm2 or WezTerm"
            }
        return PictureChoice(pictures: .halfblock, notice: "--pictures \(requested.rawValue): \(why), so pictures are drawn in half blocks")
    }
}

/// The protocol pictures are drawn with, and why it is not the one asked for (nil when it is).
public struct PictureChoice: Sendable, Equatable {
    public let pictures: PictureProtocol
    public let notice: String?

    public init(pictures: PictureProtocol, notice: String?) {
        self.pictures = pictures
        self.notice = notice
    }
}
