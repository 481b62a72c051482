import Shared

/// The `snapshare` command tree: every command, its arguments, options and help.
enum CommandTree {
    static let exitCodes: [ExitCodeSpec] = [
        ExitCodeSpec(0, "success"),
        ExitCodeSpec(1, "other failure (server error, damaged reply, local file problem)"),
        ExitCodeSpec(2, "usage error (bad command line)"),
        ExitCodeSpec(3, "cannot connect, or TLS/certificate failure"),
        ExitCodeSpec(4, "not logged in, wrong password, or not allowed"),
        ExitCodeSpec(5, "not found (feed, snap, user)"),
        ExitCodeSpec(6, "already viewed (your one view of this snap is used)"),
        ExitCodeSpec(7, "expired (the snap is past its lifetime)"),
        ExitCodeSpec(8, "rejected input (bad image, name taken, invalid value)"),
    ]

    static let json = FlagSpec("--json", help: "print JSON for scripts instead of text")
    static let passwordStdin = FlagSpec("--password-stdin", help: "read the password from the first line of standard input")

    static let root = CommandSpec(
        "snapshare",
        summary: "Share snaps with your class: post a picture, open each snap once.",
        discussion: """
            State (server, CA, session, trusted fingerprints) lives in $SNAPSHARE_HOME, else
            $XDG_CONFIG_HOME/snapshare, else ~/.config/snapshare.
            """,
        options: [
            OptionSpec("--server", valueName: "HOST:PORT", help: "the Snapshare server (default localhost:7443, or the saved one)",
                       environmentVariable: "SNAPSHARE_SERVER"),
            OptionSpec("--ca", valueName: "FILE", help: "CA certificate to verify the server with (else the fingerprint is pinned on first use)",
                       environmentVariable: "SNAPSHARE_CA"),
        ],
        subcommands: [
            CommandSpec("register", summary: "Create an account and log in",
                        arguments: [ArgumentSpec("USER", help: "3-32 letters, digits, '_', '.', '-'")],
                        options: [OptionSpec("--class-code", valueName: "CODE", help: "the code your instructor gave the class")],
                        flags: [passwordStdin, json], exitCodes: exitCodes),
            CommandSpec("login", summary: "Log in (the session is saved for later commands)",
                        arguments: [ArgumentSpec("USER", help: "your user name")],
                        flags: [passwordStdin, json], exitCodes: exitCodes),
            CommandSpec("logout", summary: "End your session on the server and forget it here", exitCodes: exitCodes),
            CommandSpec("whoami", summary: "Show who you are logged in as", flags: [json], exitCodes: exitCodes),
            CommandSpec("feeds", summary: "List the feeds with snap and unread counts", flags: [json], exitCodes: exitCodes),
            CommandSpec("samples", summary: "List the ten bundled sample images, or draw one",
                        discussion: "`snapshare samples` lists them; `snapshare samples show N` draws sample N.",
                        arguments: [ArgumentSpec("show", help: "the word `show`", isRequired: false),
                                    ArgumentSpec("N", help: "sample number 1-10", isRequired: false)],
                        flags: [json], exitCodes: exitCodes),
            CommandSpec("post", summary: "Post a picture to exactly one feed",
                        options: [OptionSpec("--feed", valueName: "NAME", help: "the feed to post to (required)"),
                                  OptionSpec("--sample", valueName: "N", help: "post bundled sample N (see `snapshare samples`)"),
                                  OptionSpec("--file", valueName: "PATH", help: "post a PNG or JPEG file")],
                        flags: [json], exitCodes: exitCodes),
            CommandSpec("feed", summary: "List the snaps of one feed, or of every feed",
                        discussion: "Each row: snap id, poster, how long ago, and unread / read / sent (your own).",
                        arguments: [ArgumentSpec("NAME", help: "a feed name (default: every feed)", isRequired: false)],
                        options: [OptionSpec("--interval", valueName: "SECONDS", help: "with --watch, seconds between polls (default 2)")],
                        flags: [FlagSpec("--watch", help: "keep polling and redraw when something changes (Ctrl-C to stop)"), json],
                        exitCodes: exitCodes),
            CommandSpec("view", summary: "Open a snap full screen; this uses your one view of it",
                        discussion: """
                            On a terminal the image fills the alternate screen; any key closes it. Otherwise the
                            drawing is written to standard output, followed by one line:
                              viewed snap ID WxH BYTES sha256:HEX
                            """,
                        arguments: [ArgumentSpec("SNAP_ID", help: "the snap's id from `snapshare feed`")],
                        flags: [json], exitCodes: exitCodes),
            CommandSpec("admin", summary: "Instructor commands (admins only)", subcommands: [
                CommandSpec("create-feed", summary: "Create a feed", arguments: [ArgumentSpec("NAME", help: "the new feed's name")], exitCodes: exitCodes),
                CommandSpec("delete-feed", summary: "Delete a feed and all its snaps", arguments: [ArgumentSpec("NAME", help: "the feed")], exitCodes: exitCodes),
                CommandSpec("reset-feed", summary: "Delete every snap of one feed", arguments: [ArgumentSpec("NAME", help: "the feed")], flags: [json], exitCodes: exitCodes),
                CommandSpec("reset-feeds", summary: "Delete every snap of every feed (needs --all)",
                            flags: [FlagSpec("--all", help: "confirm: every feed"), json], exitCodes: exitCodes),
                CommandSpec("delete-snap", summary: "Delete one snap", arguments: [ArgumentSpec("ID", help: "the snap id")], exitCodes: exitCodes),
                CommandSpec("restore-view", summary: "Give one user one more view of a snap",
                            arguments: [ArgumentSpec("SNAP_ID", help: "the snap id"), ArgumentSpec("USER", help: "the user")], exitCodes: exitCodes),
                CommandSpec("users", summary: "List the accounts", flags: [json], exitCodes: exitCodes),
                CommandSpec("stats", summary: "Show server counters", flags: [json], exitCodes: exitCodes),
            ]),
        ],
        exitCodes: exitCodes)
}
