import TerminalUI
import Testing

@testable import Client

@Suite("Key tables")
struct KeyTableTests {
    /// What the actions did.
    struct Target {
        var done: [String] = []
    }

    static let table = KeyTable<Target>([
        .init(
            "walk",
            cases: [
                .init([.key(.left), .character("h")]) { $0.done.append("west") },
                .init([.key(.right), .character("l")]) { $0.done.append("east") },
            ]),
        .init([.key(.escape)], "back, when there is somewhere to go back to", event: { _, _ in false }),
        .init([.key(.escape), .character("q")], "leave") { $0.done.append("leave") },
        .init([.wheelUp, .wheelDown, .click, .character("z"), .key(.enter)], "zoom") { $0.done.append("zoom") },
    ])

    static func run(_ event: InputEvent, typing: Bool = false) -> [String]? {
        var target = Target()
        return table.handle(event, on: &target, typing: typing) ? target.done : nil
    }

    @Test("an event runs the action of the first entry whose keys it sets off, and no other")
    func dispatch() {
        #expect(Self.run(.key(.left)) == ["west"])
        #expect(Self.run(.key(.character("l"))) == ["east"])
        #expect(Self.run(.mouse(MouseEvent(action: .wheelDown, column: 3, row: 4))) == ["zoom"])
        #expect(Self.run(.key(.character("x"))) == nil, "no entry names x")
        #expect(Self.run(.mouse(MouseEvent(action: .release(.left), column: 3, row: 4))) == nil, "letting go is no click")
    }

    @Test("an entry that declines the event lets it go on to the next entry that names its key")
    func declining() {
        #expect(Self.run(.key(.escape)) == ["leave"])
    }

    @Test("a character alone sets nothing off while a field takes the typing; keys still do")
    func typing() {
        #expect(Self.run(.key(.character("q")), typing: true) == nil)
        #expect(Self.run(.key(.escape), typing: true) == ["leave"])
        #expect(Self.run(.key(.character("h"), .control)) == nil, "a character with a modifier is not the character alone")
    }

    @Test("the help has one line per entry, naming each of its keys once: named keys, then characters, then the mouse")
    func help() {
        let help = Self.table.help
        #expect(help.map(\.keys) == ["← → h l", "Esc", "Esc q", "Enter z wheel click"])
        #expect(help.map(\.meaning) == ["walk", "back, when there is somewhere to go back to", "leave", "zoom"])
    }

    @Test("every key an entry answers to is named on its help line")
    func everyKeyIsNamed() {
        for binding in Self.table.bindings {
            let named = binding.keys.split(separator: " ").map(String.init)
            for trigger in binding.cases.flatMap(\.triggers) {
                #expect(named.contains(trigger.name), "\(trigger) on the line of \(binding.help)")
            }
        }
    }

    /// A screen that shows a part, or none.
    final class Outer {
        var inner: Inner?
        init(_ inner: Inner?) { self.inner = inner }
    }

    final class Inner {
        var presses = 0
        static let keys = KeyTable<Inner>([.init([.character("p")], "press") { $0.presses += 1 }])
    }

    @Test("an entry lifted into a screen acts on the part it shows, and takes nothing while it shows none")
    func lifting() {
        let lifted = KeyTable<Outer>(Inner.keys.lifted { $0.inner })
        var outer = Outer(Inner())
        #expect(lifted.handle(.key(.character("p")), on: &outer))
        #expect(outer.inner?.presses == 1)
        #expect(lifted.help.map(\.keys) == ["p"])
        var empty = Outer(nil)
        #expect(!lifted.handle(.key(.character("p")), on: &empty))
    }

    /// A box that `x` answers and any other key closes.
    static let box = KeyTable<Target>([
        .init([.character("x")], "marks it") { $0.done.append("x") },
        .init([.anyKey], "closes it") { $0.done.append("close") },
    ])

    @Test(
        """
        any key takes every key, a paste and a press of any button, not the mouse moving, \
        letting go or its wheel; after other entries the help says any other key
        """
    )
    func anyKey() {
        func run(_ event: InputEvent) -> [String]? {
            var target = Target()
            return Self.box.handle(event, on: &target) ? target.done : nil
        }
        #expect(run(.key(.character("x"))) == ["x"])
        for event: InputEvent in [
            .key(.character("q")), .key(.escape), .key(.function(3)), .key(.character("x"), .control), .paste("a"),
            .unknown([0x1B, 0x5B, 0x39]), .mouse(MouseEvent(action: .press(.right), column: 1, row: 1)),
        ] {
            #expect(run(event) == ["close"], "\(event)")
        }
        for action: MouseEvent.Action in [.move, .release(.left), .drag(.left), .wheelUp, .wheelDown] {
            #expect(run(.mouse(MouseEvent(action: action, column: 1, row: 1))) == nil, "\(action)")
        }
        #expect(Self.box.help.map(\.keys) == ["x", "any other key"])
        #expect(Self.box.summary == "x marks it · any other key closes it")
        #expect(KeyTable<Target>([.init([.anyKey], "closes it") { _ in }]).summary == "any key closes it")
    }
}
