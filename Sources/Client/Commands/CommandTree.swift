import CommandLineParsing
import Wire

/// The `snapshare` command tree: every command once, with its arguments, options, help and
/// what runs it. The parser reads `root`; `CLI` runs what `command` says.
enum CommandTree {
    static let exitCodes: [ExitCodeSpec] = [
        ExitCodeSpec(0, "success"),
        ExitCodeSpec(1, "other failure (server error, damaged reply, local file problem)"),
        ExitCodeSpec(2, "usage error (bad command line)"),
        ExitCodeSpec(3, "cannot connect, or TLS/certificate failure"),
        ExitCodeSpec(
            4, "not logged in, wrong password, or not allowed (also: a one-time password still to replace with `snapshare passwd`)"),
        ExitCodeSpec(5, "not found (feed, snap, user, pin, photo, movie, vacation)"),
        ExitCodeSpec(6, "already viewed (your one view of this snap is used)"),
        ExitCodeSpec(7, "expired (the snap is past its lifetime)"),
        ExitCodeSpec(8, "rejected input (bad image, name taken, value out of range, your own snap, album still downloading)"),
        ExitCodeSpec(
            9,
            "this snapshare and the server speak no protocol version in common, "
                + "or the server is too old for the command (the message says which to upgrade)"
        ),
        ExitCodeSpec(
            10,
            "the camera could not be used (FFmpeg missing, no camera, busy or not permitted, no picture in time, terminal too small); "
                + "nothing was posted"
        ),
        ExitCodeSpec(11, "cancelled with Esc in the camera's preview; nothing was posted"),
        ExitCodeSpec(130, "interrupted with Ctrl-C while waiting"),
    ]

    static let json = FlagSpec("--json", help: "print JSON for scripts instead of text")
    /// How pictures are drawn on a terminal, for the app and every command that draws one.
    static let pictures = OptionSpec(
        "--pictures", valueName: "HOW",
        help: "halfblock, kitty, iterm, sixel or auto (the default: the best the terminal shows it has)",
        environmentVariable: "SNAPSHARE_PICTURES")
    /// The camera `post --camera`, `camera` and the app's Camera tile read.
    static let cameraDevice = OptionSpec(
        "--camera-device", valueName: "DEV",
        help:
            "the camera: /dev/videoN or N on Linux (default /dev/video0), an index or name on macOS (default 0), "
            + "or lavfi:SPEC for an FFmpeg test source",
        environmentVariable: "SNAPSHARE_CAMERA")
    static let vacationOption = OptionSpec("--vacation", valueName: "NAME", help: "the vacation (default: My Vacation)")
    static let passwordStdin = FlagSpec("--password-stdin", help: "read the password from the first line of standard input")
    static let yes = FlagSpec("--yes", help: "do not ask for confirmation (required without a terminal)")
    static let server = OptionSpec(
        "--server", valueName: "HOST:PORT", help: "the Snapshare server (default localhost:7443, or the saved one)",
        environmentVariable: "SNAPSHARE_SERVER")
    static let ca = OptionSpec(
        "--ca", valueName: "FILE",
        help: "CA certificate to verify the server with (else the system's roots, or a fingerprint pinned on first use)",
        environmentVariable: "SNAPSHARE_CA")
    static let classOption = OptionSpec(
        "--class", valueName: "CLASS",
        help: "the class to act in (default: the one `snapshare use` chose, else the one you joined first)",
        environmentVariable: "SNAPSHARE_CLASS")
    /// The global options of a command that never reaches a server: none (`--server` and `--ca` do nothing for it).
    static let onThisComputer: [String] = []

    /// The parser's view of the tree.
    static var root: CommandSpec { command.tree }

    static let command = Command(
        "snapshare",
        summary: "Share snaps with your class: post a picture, open each snap once.",
        discussion: """
            State (server, CA, session, trusted fingerprints) lives in $SNAPSHARE_HOME, else
            $XDG_CONFIG_HOME/snapshare, else ~/.config/snapshare.
            """,
        options: [server, ca, classOption],
        subcommands: [
            Command(
                "app", summary: "Open the full-screen app: post, feeds, map, vacations, movies (the default on a terminal)",
                discussion: """
                    Plain `snapshare` on a terminal opens it too. It asks you to log in or register when
                    no session is saved, and uses the same saved state as every other command. Inside,
                    ? lists the keys of the screen you are on; q quits. Pictures shown full screen use
                    the terminal's graphics protocol when the terminal shows it has one: it is asked at
                    the start, before anything can be opened (kitty's graphics query; sixel in its
                    device attributes; iTerm2's inline images for iTerm2 and WezTerm), else half blocks.
                    Inside tmux or screen pictures are half blocks. A protocol asked for with --pictures
                    that the terminal does not show falls back to half blocks, and the status line says so.
                    """,
                options: [pictures, cameraDevice],
                exitCodes: exitCodes, run: AppCommand.run),
            Command(
                "register", summary: "Create an account and log in",
                arguments: [ArgumentSpec("USER", help: "3-32 letters, digits, '_', '.', '-'")],
                options: [OptionSpec("--class-code", valueName: "CODE", help: "the code your instructor gave the class")],
                flags: [passwordStdin, json], exitCodes: exitCodes, run: AccountCommands.register),
            Command(
                "login", summary: "Log in (the session is saved for later commands)",
                arguments: [ArgumentSpec("USER", help: "your user name")],
                flags: [passwordStdin, json], exitCodes: exitCodes, run: AccountCommands.login),
            Command(
                "logout", summary: "End your session on the server and forget it here", exitCodes: exitCodes, run: AccountCommands.logout),
            Command(
                "passwd", summary: "Change your password (your other sessions are logged out)",
                discussion:
                    "Asks for your current password and the new one twice; with --password-stdin reads the current password "
                    + "from the first line and the new one from the second.",
                flags: [FlagSpec("--password-stdin", help: "read the current password, then the new one, from standard input")],
                exitCodes: exitCodes, run: AccountCommands.changePassword),
            Command(
                "trust", summary: "Trust a server's new certificate after checking its fingerprint with the instructor",
                discussion: """
                    When a server this machine pinned shows a certificate from another authority, every
                    command refuses it (exit 3) and names the fingerprint it presented. Ask the instructor
                    for the fingerprint snapshare-server printed at its start ("clients without --ca pin
                    it"); only if they match, run `snapshare trust SERVER FINGERPRINT`. The server must
                    present exactly that fingerprint now, or nothing is trusted. A certificate renewed by
                    the same authority needs none of this, and one the system trusts is never pinned.
                    """,
                arguments: [
                    ArgumentSpec("SERVER", help: "HOST:PORT, as in the refusal"),
                    ArgumentSpec("FINGERPRINT", help: "SHA-256, 64 hex digits (colons allowed)"),
                ],
                flags: [json], exitCodes: exitCodes, globalOptions: onThisComputer, run: TrustCommand.run),
            Command("whoami", summary: "Show who you are logged in as", flags: [json], exitCodes: exitCodes, run: AccountCommands.whoAmI),
            Command(
                "classes", summary: "List your classes: your role in each, what is unread, and the one you act in",
                flags: [json], exitCodes: exitCodes, run: ClassCommands.classes),
            Command(
                "use", summary: "Act in another of your classes from now on (every command, on this server)",
                arguments: [ArgumentSpec("CLASS", help: "the class's handle, as snapshare classes lists it")],
                flags: [json], exitCodes: exitCodes, run: ClassCommands.use),
            Command(
                "join", summary: "Join a class with the code your instructor gave you, and act in it from now on",
                arguments: [ArgumentSpec("CODE", help: "the class code")],
                flags: [json], exitCodes: exitCodes, run: ClassCommands.join),
            Command(
                "feeds", summary: "List the feeds with snap and unread counts", flags: [json], exitCodes: exitCodes, run: FeedCommands.feeds
            ),
            Command(
                "samples", summary: "List the ten bundled sample images, or draw one",
                discussion: "`snapshare samples` lists them; `snapshare samples show N` draws sample N.",
                arguments: [
                    ArgumentSpec("show", help: "the word `show`", isRequired: false),
                    ArgumentSpec("N", help: "sample number 1-10", isRequired: false),
                ],
                options: [pictures], flags: [json], exitCodes: exitCodes, globalOptions: onThisComputer, run: SampleCommands.run),
            Command(
                "post", summary: "Post a picture to exactly one feed",
                discussion: """
                    Give exactly one of --sample, --file or --camera. With --camera on a terminal the
                    camera's live preview fills the screen, drawn as snaps are (--pictures): Space takes
                    the picture, r retakes, Enter posts it (taking one first if none is taken), Esc
                    cancels and posts nothing. Without a terminal (a script) --camera takes one picture
                    after a one-second warm-up and posts it. The camera needs FFmpeg (`apt install
                    ffmpeg`); a picture larger than the server allows is shrunk, like a file.
                    """,
                options: [
                    OptionSpec("--feed", valueName: "NAME", help: "the feed to post to (required)"),
                    OptionSpec("--sample", valueName: "N", help: "post bundled sample N (see `snapshare samples`)"),
                    OptionSpec("--file", valueName: "PATH", help: "post a PNG or JPEG file"),
                    cameraDevice, pictures,
                ],
                flags: [FlagSpec("--camera", help: "take the picture with the camera (see below)"), json],
                exitCodes: exitCodes, run: FeedCommands.post),
            Command(
                "camera", summary: "List the cameras `post --camera` can use",
                discussion: """
                    Each row is what --camera-device takes, and the camera's name. Without a camera,
                    --camera-device lavfi:testsrc2=size=640x480:rate=15 reads FFmpeg's test picture.
                    """,
                flags: [FlagSpec("--list", help: "list the cameras (the default)"), json],
                exitCodes: exitCodes, globalOptions: onThisComputer, run: CameraCommands.list),
            Command(
                "feed", summary: "List the snaps of one feed, or of every feed",
                discussion: "Each row: snap id, poster, how long ago, and unread / read / sent (your own).",
                arguments: [ArgumentSpec("NAME", help: "a feed name (default: every feed)", isRequired: false)],
                options: [OptionSpec("--interval", valueName: "SECONDS", help: "with --watch, seconds between polls (default 2)")],
                flags: [FlagSpec("--watch", help: "keep polling and redraw when something changes (Ctrl-C to stop)"), json],
                exitCodes: exitCodes, run: FeedCommands.feed),
            Command(
                "view", summary: "Open a snap full screen; this uses your one view of it",
                discussion: """
                    On a terminal the image fills the alternate screen; any key closes it. Otherwise the
                    drawing is written to standard output, followed by one line:
                      viewed snap ID WxH BYTES sha256:HEX
                    """,
                arguments: [ArgumentSpec("SNAP_ID", help: "the snap's id from `snapshare feed`")],
                options: [pictures], flags: [json], exitCodes: exitCodes, run: ViewCommand.run),
            Command(
                "report", summary: "Report a snap to the admins, with what is wrong (they alone see who reported it)",
                arguments: [ArgumentSpec("SNAP_ID", help: "the snap's id from `snapshare feed`")],
                options: [OptionSpec("--reason", valueName: "TEXT", help: "what is wrong with it (up to 200 characters)")],
                flags: [json], exitCodes: exitCodes, run: ModerationCommands.report),
            Command(
                "unsend", summary: "Take back a snap you posted: it leaves every feed and its picture is erased (asks first)",
                arguments: [ArgumentSpec("SNAP_ID", help: "your snap's id")],
                flags: [yes, json], exitCodes: exitCodes, run: ModerationCommands.unsend),
            Command(
                "snap", summary: "Show a snap you posted and who opened it, with when (posters and admins)",
                arguments: [ArgumentSpec("SNAP_ID", help: "the snap's id from `snapshare feed`")],
                flags: [json], exitCodes: exitCodes, run: SnapCommand.run),
            // Pins, albums, photos, Random Pin and the map (issue 3).
            Command(
                "pin", summary: "Drop a pin (its photo album downloads on the server) or remove one",
                subcommands: [
                    Command(
                        "add", summary: "Drop a pin; its album starts downloading at once",
                        discussion: """
                            Decimal degrees, south and west negative: `snapshare pin add -33.87 151.21` (Sydney).
                            Latitude -90 to 90, longitude -180 to 180.
                            """,
                        arguments: [ArgumentSpec("LAT", help: "latitude, -90 to 90"), ArgumentSpec("LON", help: "longitude, -180 to 180")],
                        flags: [json], exitCodes: exitCodes, run: PinCommands.add),
                    Command(
                        "rm", summary: "Remove a pin with its album and photos",
                        arguments: [ArgumentSpec("ID", help: "the pin's id from `snapshare pins`")], flags: [json], exitCodes: exitCodes,
                        run: PinCommands.remove),
                ]),
            Command(
                "pins", summary: "List your pins with their album state and progress", flags: [json], exitCodes: exitCodes,
                run: PinCommands.list),
            Command(
                "album", summary: "Show a pin's photo album, or take a New Collection",
                discussion: """
                    `snapshare album PIN_ID` shows the album: downloading (one placeholder per expected
                    photo), ready, empty ("No Images") or failed (the photo source's error; exit 1).
                    `snapshare album new PIN_ID` empties the album and fetches a different set; it is
                    refused while the album is still downloading (exit 8).
                    """,
                arguments: [
                    ArgumentSpec("new", help: "the word `new`: take a New Collection", isRequired: false),
                    ArgumentSpec("PIN_ID", help: "the pin's id from `snapshare pins`", isRequired: false),
                ],
                flags: [FlagSpec("--wait", help: "poll until the download ends, with a progress bar on a terminal"), json],
                exitCodes: exitCodes, run: AlbumCommands.run),
            Command(
                "photo", summary: "Draw or remove one photo of an album",
                subcommands: [
                    Command(
                        "show", summary: "Draw a photo in the terminal",
                        discussion: """
                            On a terminal the photo fills the alternate screen; any key closes it. Otherwise the
                            drawing is written to standard output, followed by one line:
                              photo ID WxH BYTES sha256:HEX
                            """,
                        arguments: [ArgumentSpec("PHOTO_ID", help: "the photo's id from `snapshare album PIN_ID`")],
                        options: [pictures],
                        flags: [FlagSpec("--thumbnail", help: "fetch the small thumbnail instead of the full photo"), json],
                        exitCodes: exitCodes, run: PhotoCommands.show),
                    Command(
                        "rm", summary: "Remove a photo from its album (the rest keep their order)",
                        arguments: [ArgumentSpec("PHOTO_ID", help: "the photo's id")], flags: [json], exitCodes: exitCodes,
                        run: PhotoCommands.remove),
                ]),
            Command(
                "random", summary: "Show one of your pins at random, where it is, and one of its photos",
                flags: [json], exitCodes: exitCodes, run: RandomCommand.run),
            Command(
                "map", summary: "Draw the world with your pins at your saved centre and zoom",
                discussion: """
                    The view is saved on the server, so every client starts where you left it. Given
                    --center or --zoom, the map is drawn there and the view is saved. Zoom 1 fits the
                    whole world across the terminal; each step up doubles the detail (up to 64).
                    """,
                options: [
                    OptionSpec("--center", valueName: "LAT,LON", help: "centre the map here, e.g. 42.28,-83.74 (saved)"),
                    OptionSpec("--zoom", valueName: "Z", help: "1 (whole world) to 64 (saved)"),
                ],
                flags: [json], exitCodes: exitCodes, run: MapCommand.run),
            // Virtual Vacations (kept by the client, one SQLite file each) and favorite movies (issue 5).
            Command(
                "vacation", summary: "List, make, remove Virtual Vacations, or draw a visited photo",
                discussion: """
                    Each vacation is its own file in the state folder (vacations/NAME.vacation). With
                    none, the list shows the default "My Vacation", created the first time you use it.
                    Names: at most 64 characters, no / or \\, no leading dot, no control characters;
                    case does not matter ("Paris" and "paris" are one vacation).
                    """,
                subcommands: [
                    Command(
                        "list", summary: "List the vacations with their photo, place and tag counts",
                        discussion: "A damaged or foreign file in the folder is reported on standard error and skipped.",
                        flags: [json], exitCodes: exitCodes, globalOptions: onThisComputer, run: VacationCommands.list),
                    Command(
                        "new", summary: "Make a new, empty vacation (a taken name is refused)",
                        arguments: [ArgumentSpec("NAME", help: "the vacation's name")], flags: [json], exitCodes: exitCodes,
                        globalOptions: onThisComputer, run: VacationCommands.create),
                    Command(
                        "rm", summary: "Remove a vacation and everything visited into it (asks first)",
                        arguments: [ArgumentSpec("NAME", help: "the vacation's name")], flags: [yes], exitCodes: exitCodes,
                        globalOptions: onThisComputer, run: VacationCommands.remove),
                    Command(
                        "show", summary: "Draw a visited photo from the vacation's file (no server needed)",
                        discussion: """
                            On a terminal the photo fills the alternate screen; any key closes it. Otherwise the
                            drawing is written to standard output, followed by one line naming the photo.
                            """,
                        arguments: [ArgumentSpec("PHOTO_ID", help: "the photo's id (see `snapshare itinerary PLACE`)")],
                        options: [vacationOption, pictures],
                        flags: [FlagSpec("--thumbnail", help: "draw the small thumbnail kept with the photo"), json],
                        exitCodes: exitCodes, run: VacationCommands.show),
                ], globalOptions: [server.name]),
            Command(
                "visit", summary: "Copy a photo of one of your albums into a vacation",
                discussion: """
                    Copies the title, place, tags, coordinates, the image and its thumbnail, so the
                    vacation can be browsed with the server unreachable. Visiting twice changes nothing.
                    """,
                arguments: [ArgumentSpec("PHOTO_ID", help: "the photo's id from `snapshare album PIN_ID`")],
                options: [vacationOption], flags: [json], exitCodes: exitCodes, run: VacationCommands.visit),
            Command(
                "unvisit", summary: "Remove a photo from a vacation (places and tags left empty go too)",
                arguments: [ArgumentSpec("PHOTO_ID", help: "the photo's id")],
                options: [vacationOption], flags: [json], exitCodes: exitCodes, globalOptions: [server.name],
                run: VacationCommands.unvisit),
            Command(
                "itinerary", summary: "A vacation's places, first visited first, or the photos of one place",
                discussion: """
                    A place is identified by its name alone. Photos are sorted by title, ignoring case
                    ("Unknown" when a photo has none). JSON rows: place, first_visited_at, photos.
                    """,
                arguments: [ArgumentSpec("PLACE", help: "a place's name: list its photos", isRequired: false)],
                options: [vacationOption], flags: [json], exitCodes: exitCodes, globalOptions: onThisComputer,
                run: VacationCommands.itinerary),
            Command(
                "tags", summary: "A vacation's tags, most often seen first, or the photos with one tag",
                discussion: """
                    Each tag is shown with its first letter capitalized and the number of photos that
                    carry it; ties are ordered by name. Machine tags (containing ":") are left out.
                    JSON rows: tag (lower case, as stored), count.
                    """,
                arguments: [ArgumentSpec("TAG", help: "a tag: list the photos that carry it", isRequired: false)],
                options: [
                    vacationOption,
                    OptionSpec("--search", valueName: "TEXT", help: "only tags containing TEXT, ignoring case"),
                ],
                flags: [json], exitCodes: exitCodes, globalOptions: onThisComputer, run: VacationCommands.tags),
            Command(
                "movies", summary: "Your favorite movies, kept on the server",
                subcommands: [
                    Command(
                        "add", summary: "Add a movie (titles are unique, ignoring case)",
                        options: [
                            OptionSpec("--title", valueName: "TITLE", help: "the title, 1-200 characters (required)"),
                            OptionSpec("--genre", valueName: "GENRE", help: "the genre, 1-60 characters (required)"),
                            OptionSpec(
                                "--sales", valueName: "DOLLARS", help: "ticket sales in whole dollars, 1234567 or $1,234,567 (required)"),
                        ],
                        flags: [json], exitCodes: exitCodes, run: MovieCommands.add),
                    Command(
                        "delete", summary: "Delete a movie",
                        arguments: [ArgumentSpec("TITLE", help: "the movie's title, in any case")], exitCodes: exitCodes,
                        run: MovieCommands.delete),
                    Command(
                        "search", summary: "Find movies whose title contains TEXT (any case); an exact title comes first",
                        arguments: [ArgumentSpec("TEXT", help: "part of a title, in any case")], flags: [json], exitCodes: exitCodes,
                        run: MovieCommands.search),
                    Command(
                        "edit", summary: "Change a movie's title, genre or ticket sales",
                        arguments: [ArgumentSpec("TITLE", help: "the movie's title, in any case")],
                        options: [
                            OptionSpec("--title", valueName: "NEW", help: "the new title"),
                            OptionSpec("--genre", valueName: "GENRE", help: "the new genre"),
                            OptionSpec(
                                "--sales", valueName: "DOLLARS", help: "the new ticket sales in whole dollars, 1234567 or $1,234,567"),
                        ],
                        flags: [json], exitCodes: exitCodes, run: MovieCommands.edit),
                    Command("list", summary: "List your movies by title", flags: [json], exitCodes: exitCodes, run: MovieCommands.list),
                    Command(
                        "browse", summary: "Show one movie at a time: n next, p previous, q quit",
                        discussion: """
                            Starts at the first movie (in `movies list` order). Next on the last prints
                            "No more records"; previous on the first prints "Showing the first Record".
                            On a terminal each key acts at once; otherwise every character of standard input
                            is a key (white space ignored), so `printf 'nnpq' | snapshare movies browse` works.
                            """,
                        exitCodes: exitCodes, run: MovieCommands.browse),
                ]),
            Command(
                "admin", summary: "Instructor commands (admins only)",
                subcommands: [
                    Command(
                        "create-feed", summary: "Create a feed", arguments: [ArgumentSpec("NAME", help: "the new feed's name")],
                        exitCodes: exitCodes, run: AdminCommands.createFeed),
                    Command(
                        "delete-feed", summary: "Delete a feed and all its snaps (asks first)",
                        arguments: [ArgumentSpec("NAME", help: "the feed")], flags: [yes], exitCodes: exitCodes,
                        run: AdminCommands.deleteFeed),
                    Command(
                        "reset-feed", summary: "Delete every snap of one feed (asks first)",
                        arguments: [ArgumentSpec("NAME", help: "the feed")], flags: [yes, json], exitCodes: exitCodes,
                        run: AdminCommands.resetFeed),
                    Command(
                        "reset-feeds", summary: "Delete every snap of every feed (needs --all; asks first)",
                        flags: [FlagSpec("--all", help: "every feed"), yes, json], exitCodes: exitCodes, run: AdminCommands.resetFeeds),
                    Command(
                        "delete-snap", summary: "Delete one snap", arguments: [ArgumentSpec("ID", help: "the snap id")],
                        exitCodes: exitCodes, run: AdminCommands.deleteSnap),
                    Command(
                        "restore-view", summary: "Give one user one more view of a snap",
                        arguments: [ArgumentSpec("SNAP_ID", help: "the snap id"), ArgumentSpec("USER", help: "the user")],
                        exitCodes: exitCodes, run: AdminCommands.restoreView),
                    Command(
                        "users",
                        summary: "List the accounts: display names, roles, and who is disabled, suspended or on a one-time password",
                        flags: [json], exitCodes: exitCodes, run: AdminCommands.users),
                    Command(
                        "roster", summary: "Show the roster: each name, who claimed it, and who has not registered or signed in yet",
                        discussion: """
                            A roster name belongs to the account that claimed it (by registering it, or made by the
                            server's import-roster): a rename carries it along, so nobody else can register the old
                            name, and delete-user takes it off the roster. 'roster remove NAME' takes a name off.
                            """,
                        flags: [json],
                        subcommands: [
                            Command(
                                "remove", summary: "Take a name off the roster (an account that claimed it keeps its account)",
                                arguments: [ArgumentSpec("NAME", help: "the roster name")], exitCodes: exitCodes,
                                run: AdminCommands.removeFromRoster)
                        ],
                        exitCodes: exitCodes, run: AdminCommands.roster),
                    Command("stats", summary: "Show server counters", flags: [json], exitCodes: exitCodes, run: AdminCommands.stats),
                    Command(
                        "members", summary: "List the class's members with their roles: owners, instructors and TAs first",
                        flags: [json], exitCodes: exitCodes, run: ClassCommands.members),
                    Command(
                        "set-role", summary: "Give someone a role in the class (adding them to it): owner, instructor, ta or student",
                        discussion: """
                            An instructor gives roles up to instructor to those below them; naming an owner, or
                            changing an owner's role, takes an owner. The class keeps at least one owner.
                            """,
                        arguments: [
                            ArgumentSpec("USER", help: "the user"), ArgumentSpec("ROLE", help: "owner, instructor, ta or student"),
                        ],
                        exitCodes: exitCodes, run: ClassCommands.setRole),
                    Command(
                        "remove-member", summary: "Take someone out of the class (their account stays)",
                        arguments: [ArgumentSpec("USER", help: "the user")], exitCodes: exitCodes, run: ClassCommands.removeMember),
                    Command(
                        "audit", summary: "Show the audit log: every admin action, when, who, what, the target and the result",
                        options: [
                            OptionSpec("--since", valueName: "DURATION", help: "only the last DURATION, e.g. 7d (default: everything)")
                        ],
                        flags: [json], exitCodes: exitCodes, run: AdminCommands.audit),
                    Command(
                        "reports",
                        summary:
                            "Snaps awaiting approval, then the open reports, oldest first: snap, feed, poster, who reported it and why",
                        flags: [json], exitCodes: exitCodes, run: ModerationCommands.reports),
                    Command(
                        "approve", summary: "Approve a snap awaiting approval (--moderation queue): everyone sees it from now on",
                        arguments: [ArgumentSpec("SNAP_ID", help: "the snap")], exitCodes: exitCodes, run: ModerationCommands.approve),
                    Command(
                        "reject", summary: "Reject a snap awaiting approval: its picture is deleted, and its poster sees it was rejected",
                        discussion: """
                            The poster sees the snap as rejected in their feed listing and the app, with your reason,
                            until they dismiss it (snapshare unsend ID) or it would have expired. Nobody else ever saw it.
                            """,
                        arguments: [ArgumentSpec("SNAP_ID", help: "the snap")],
                        options: [OptionSpec("--reason", valueName: "TEXT", help: "why, for the poster (up to 200 characters)")],
                        exitCodes: exitCodes, run: ModerationCommands.reject),
                    Command(
                        "resolve",
                        summary: "Close a snap's reports: --dismiss (it stays) or --delete (it goes), optionally suspending its poster",
                        arguments: [ArgumentSpec("SNAP_ID", help: "the reported snap")],
                        options: [
                            OptionSpec("--suspend-poster", valueName: "DURATION", help: "also suspend the poster that long, e.g. 7d")
                        ],
                        flags: [
                            FlagSpec("--dismiss", help: "the snap stays; the reports go"),
                            FlagSpec("--delete", help: "the snap goes, with its picture"),
                        ],
                        exitCodes: exitCodes, run: ModerationCommands.resolve),
                    Command(
                        "suspend",
                        summary: "Stop a student posting, dropping pins and reporting for a time (they can still log in and open snaps)",
                        arguments: [ArgumentSpec("USER", help: "the student")],
                        options: [
                            OptionSpec("--for", valueName: "DURATION", help: "how long, e.g. 7d"),
                            OptionSpec("--reason", valueName: "TEXT", help: "why (the student sees it)"),
                        ],
                        exitCodes: exitCodes, run: ModerationCommands.suspend),
                    Command(
                        "unsuspend", summary: "End a student's suspension now", arguments: [ArgumentSpec("USER", help: "the student")],
                        exitCodes: exitCodes, run: ModerationCommands.unsuspend),
                    Command(
                        "disable", summary: "End a user's sessions and refuse their logins (the name stays taken)",
                        arguments: [ArgumentSpec("USER", help: "the user")], exitCodes: exitCodes, run: ModerationCommands.disable),
                    Command(
                        "enable", summary: "Let a disabled user log in again", arguments: [ArgumentSpec("USER", help: "the user")],
                        exitCodes: exitCodes, run: ModerationCommands.enable),
                    Command(
                        "rename", summary: "Give a user a new name (their sessions carry on; the rules for names apply)",
                        arguments: [ArgumentSpec("OLD", help: "the current name"), ArgumentSpec("NEW", help: "the new name")],
                        exitCodes: exitCodes, run: ModerationCommands.rename),
                    Command(
                        "delete-user", summary: "Delete an account with its snaps, views, pins, albums, movies and sessions (asks first)",
                        arguments: [ArgumentSpec("USER", help: "the user")], flags: [yes], exitCodes: exitCodes,
                        run: ModerationCommands.deleteUser),
                    Command(
                        "purge", summary: "Delete every snap posted more than a time ago, with its picture and views (asks first)",
                        options: [
                            OptionSpec("--older-than", valueName: "DURATION", help: "the age, e.g. 30d or 2w (by the server's clock)")
                        ],
                        flags: [yes, json], exitCodes: exitCodes, run: ClassDataCommands.purge),
                    Command(
                        "export", summary: "Write every feed's snaps into a new folder: pictures, snaps.json and an index.html gallery",
                        discussion: """
                            One folder per feed with each kept picture as ID.jpg or ID.png; snaps.json lists every snap
                            with its poster, times and who opened it when; index.html shows it all in a browser. No
                            view is spent. The folder must be new or empty; everything in it is for your user alone.
                            """,
                        options: [OptionSpec("--to", valueName: "DIR", help: "the new folder")],
                        flags: [
                            FlagSpec("--include-pending", help: "also snaps awaiting approval (marked as such; left out otherwise)"), json,
                        ],
                        exitCodes: exitCodes, run: ClassDataCommands.export),
                    Command(
                        "view", summary: "Look at any snap's picture without spending a view or appearing among its viewers",
                        arguments: [ArgumentSpec("SNAP_ID", help: "the snap id")], options: [pictures], exitCodes: exitCodes,
                        run: ClassDataCommands.view),
                    Command(
                        "unlock",
                        summary: "Lift the login throttle of a user name, or of an address (after too many wrong passwords or class codes)",
                        arguments: [ArgumentSpec("USER", help: "the user name (or give --address)", isRequired: false)],
                        options: [
                            OptionSpec(
                                "--address", valueName: "ADDR",
                                help: "lift the throttle of this IP address instead (a class behind one address)")
                        ],
                        flags: [json], exitCodes: exitCodes, run: AdminCommands.unlock),
                    Command(
                        "promote", summary: "Make a user an admin", arguments: [ArgumentSpec("USER", help: "the user")],
                        exitCodes: exitCodes, run: { (context) throws(ClientError) in try AdminCommands.setAdmin(context, true) }),
                    Command(
                        "demote", summary: "Take away a user's admin right (at once, on all their connections)",
                        arguments: [ArgumentSpec("USER", help: "the user")], exitCodes: exitCodes,
                        run: { (context) throws(ClientError) in try AdminCommands.setAdmin(context, false) }),
                    Command(
                        "reset-password", summary: "Set a user's password (does not make them an admin; ends their sessions)",
                        arguments: [ArgumentSpec("USER", help: "the user")],
                        flags: [FlagSpec("--password-stdin", help: "read the new password from the first line of standard input")],
                        exitCodes: exitCodes, run: AdminCommands.resetPassword),
                ]),
        ],
        exitCodes: exitCodes)
}
