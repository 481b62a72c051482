import CommandLineParsing
import Foundation
import Posix
import Release
import Wire

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// `snapshare-server`: run the server, or do offline maintenance on its data folder.
public enum ServerCommandLine {
    /// The defaults the options' help shows: the configuration's own, so help cannot drift from them.
    private static let defaults = ServerConfiguration()
    /// A default duration as people write it: whole days as days (`7d`, not `1w`).
    private static func span(_ milliseconds: Int64) -> String {
        let day: Int64 = 86_400_000
        return milliseconds > 0 && milliseconds % day == 0 ? "\(milliseconds / day)d" : TimeSpan(milliseconds: milliseconds).description
    }

    static let dataOption = OptionSpec("--data", valueName: "DIR", help: "data folder", defaultValue: defaults.dataDirectory)
    static let databaseOption = OptionSpec(
        "--database", valueName: "URI",
        help: "share a PostgreSQL database with other instances (postgresql://USER@HOST[:PORT]/DB) instead of SQLite in --data",
        environmentVariable: "SNAPSHARE_DATABASE", isSecret: true)
    static let configOption = OptionSpec(
        "--config", valueName: "FILE",
        help: "read settings from FILE: one 'name = value' per line, names as these options without their dashes; options given here win")
    /// The global options every offline command uses: where the class's data is.
    static let storeOptions = [configOption.name, dataOption.name, databaseOption.name]
    /// What a reload (SIGHUP) applies while the server runs; any other option changed waits for a restart.
    static let reloadableOptions: Set<String> = [
        "--tls-cert", "--tls-key", "--certs", "--cert-host", "--log-level", "--class-code", "--snap-ttl", "--drain-timeout",
        "--registration", "--moderation",
    ]

    static let root = CommandSpec(
        "snapshare-server",
        summary: "Run the Snapshare class server.",
        discussion: """
            With no certificate given, the first start creates a dev CA and a server certificate in the
            certs folder (ca.pem and server.pem are public; the keys are mode 0600, the CA key is kept in
            certs/private). Give students ca.pem, or have them compare the printed fingerprint.

            Every option can be set in a config file (--config FILE) as 'name = value', e.g.
            'snap-ttl = 3d'. SIGHUP (systemctl reload) re-reads the file and the certificate and key,
            the log level, class code and snap lifetime; the others wait for a restart. SIGTERM
            lets requests in flight finish (--drain-timeout), then exits 0.
            """,
        options: [
            configOption,
            OptionSpec("--listen", valueName: "HOST:PORT", help: "address to listen on", defaultValue: "\(defaults.host):\(defaults.port)"),
            dataOption,
            databaseOption,
            OptionSpec("--certs", valueName: "DIR", help: "certificate folder", defaultValue: defaults.certificatesDirectory),
            OptionSpec("--tls-cert", valueName: "FILE", help: "use this certificate chain instead of generated ones"),
            OptionSpec("--tls-key", valueName: "FILE", help: "the private key for --tls-cert"),
            OptionSpec("--cert-host", valueName: "NAME", help: "extra name or IP for the generated certificate", isRepeatable: true),
            OptionSpec(
                "--class-code", valueName: "CODE",
                help: "registration requires this code (put it in the config file or the variable: the command line shows in ps)",
                environmentVariable: "SNAPSHARE_CLASS_CODE", isSecret: true),
            OptionSpec(
                "--snap-ttl", valueName: "DURATION", help: "how long snaps live, e.g. 7d, 12h, 30m",
                defaultValue: span(defaults.snapTTLMilliseconds)),
            OptionSpec(
                "--moderation", valueName: "MODE", help: "off, or queue: students' new snaps wait for an admin's approval",
                defaultValue: defaults.moderation.rawValue),
            OptionSpec(
                "--registration", valueName: "MODE",
                help: "who may register: open (anyone with the class code), roster (only names on the roster) or closed",
                defaultValue: defaults.registration.rawValue),
            OptionSpec("--max-image-bytes", valueName: "N", help: "largest image accepted", defaultValue: "\(defaults.maxImageBytes)"),
            OptionSpec(
                "--max-image-dimension", valueName: "N", help: "largest width or height in pixels",
                defaultValue: "\(defaults.maxImageDimension)"),
            OptionSpec(
                "--max-image-pixels", valueName: "N", help: "largest width x height (4096x4096)", defaultValue: "\(defaults.maxImagePixels)"
            ),
            OptionSpec(
                "--max-connections", valueName: "N", help: "connections served at once; above it the server stops accepting",
                defaultValue: "\(defaults.maxConnections)"),
            OptionSpec(
                "--max-connections-per-address", valueName: "N",
                help: "connections from one IP address (a class behind one NAT shares one)",
                defaultValue: "\(defaults.maxConnectionsPerAddress)"),
            OptionSpec(
                "--max-anonymous-per-address", valueName: "N", help: "connections from one IP address that have not logged in",
                defaultValue: "\(defaults.maxAnonymousConnectionsPerAddress)"),
            OptionSpec(
                "--max-connections-per-user", valueName: "N", help: "logged-in connections of one user; more close the oldest",
                defaultValue: "\(defaults.maxConnectionsPerUser)"),
            OptionSpec(
                "--login-timeout", valueName: "DURATION", help: "time to log in after Hello, whatever else is sent",
                defaultValue: span(defaults.loginTimeoutMilliseconds)),
            OptionSpec(
                "--max-in-flight", valueName: "N", help: "requests in flight per connection",
                defaultValue: "\(defaults.maxRequestsInFlight)"),
            OptionSpec(
                "--protocol-versions", valueName: "MIN-MAX",
                help: "protocol versions to serve, within those this build speaks; "
                    + "\(ProtocolConstants.versions.lowerBound + 1)-\(ProtocolConstants.versions.upperBound) stops serving "
                    + "version \(ProtocolConstants.versions.lowerBound) once no student's client needs it",
                defaultValue: "\(defaults.protocolVersions.lowerBound)-\(defaults.protocolVersions.upperBound)"),
            OptionSpec(
                "--max-connection-buffer", valueName: "BYTES", help: "requests and replies one connection may hold (12 MiB)",
                defaultValue: "\(defaults.connectionBufferBytes)"),
            OptionSpec(
                "--max-frame-before-login", valueName: "N", help: "largest frame before login, bytes",
                defaultValue: "\(defaults.maxFrameBytesBeforeLogin)"),
            OptionSpec(
                "--handshake-timeout", valueName: "DURATION", help: "time to finish TLS and Hello",
                defaultValue: span(defaults.handshakeTimeoutMilliseconds)),
            OptionSpec(
                "--idle-timeout", valueName: "DURATION", help: "close connections idle this long",
                defaultValue: span(defaults.idleTimeoutMilliseconds)),
            OptionSpec(
                "--frame-timeout", valueName: "DURATION", help: "time to finish a frame once started",
                defaultValue: span(defaults.frameTimeoutMilliseconds)),
            OptionSpec(
                "--quota-posts-per-hour", valueName: "N", help: "snaps one student may post in any hour; admins are exempt",
                defaultValue: "\(defaults.postsPerHourQuota)"),
            OptionSpec(
                "--quota-bytes", valueName: "BYTES", help: "bytes of pictures one student may have stored at once (200 MiB)",
                defaultValue: "\(defaults.storedBytesQuota)"),
            OptionSpec(
                "--backup-dir", valueName: "DIR",
                help: "take a backup every --backup-every into DIR (files named by their time; restore with 'restore')"),
            OptionSpec(
                "--backup-every", valueName: "DURATION", help: "with --backup-dir, the time between backups",
                defaultValue: span(defaults.backupIntervalMilliseconds)),
            OptionSpec(
                "--backup-keep", valueName: "N", help: "with --backup-dir, how many backups to keep; older ones are removed",
                defaultValue: "\(defaults.backupKeep)"),
            OptionSpec(
                "--drain-timeout", valueName: "DURATION", help: "at SIGTERM, how long requests in flight may take to finish",
                defaultValue: span(defaults.drainTimeoutMilliseconds)),
            OptionSpec("--log-level", valueName: "LEVEL", help: "debug, info, warning or error", defaultValue: defaults.logLevel.name),
            OptionSpec(
                "--log-format", valueName: "FORMAT", help: "text, or json: one JSON object per line with time, level and message",
                defaultValue: defaults.logFormat.rawValue),
            OptionSpec(
                "--metrics", valueName: "HOST:PORT",
                help:
                    "serve GET /metrics (Prometheus) and GET /health over plain HTTP here, for 127.0.0.1 or an internal network; "
                    + "off unless given"
            ),
            OptionSpec(
                "--photos", valueName: "SOURCE", help: "album photos from builtin (offline), flickr, or dir:PATH (a folder with index.csv)",
                defaultValue: "\(defaults.photoSource)"),
            OptionSpec(
                "--flickr-key", valueName: "KEY", help: "Flickr API key, required with --photos flickr (never logged)",
                environmentVariable: "SNAPSHARE_FLICKR_KEY", isSecret: true),
            OptionSpec(
                "--flickr-endpoint", valueName: "URL", help: "Flickr REST endpoint",
                defaultValue: PhotoSource.defaultFlickrEndpoint.absoluteString),
            OptionSpec(
                "--photo-radius", valueName: "KM", help: "search photos within this distance of a pin, 0.1 to 32",
                defaultValue: String(format: "%g", defaults.photoSearchRadiusKilometres)),
        ],
        subcommands: [
            CommandSpec(
                "admin", summary: "Manage accounts offline (works while the server runs or is stopped)",
                subcommands: [
                    CommandSpec(
                        "add", summary: "Create a site admin (the server's operator), or make an existing user one",
                        arguments: [ArgumentSpec("USER", help: "the user name")],
                        flags: [
                            FlagSpec("--password-stdin", help: "read the password from standard input (required for a new user)"),
                            FlagSpec(
                                "--site", help: "a site admin, who makes classes and names their owners (what add makes, said outright)"),
                        ]),
                    CommandSpec(
                        "create-class", summary: "Make a class and name its owner; prints its class code",
                        discussion: """
                            A class has its own class code, feeds, roster and moderation; its owner (the instructor
                            who has it) runs it and names co-instructors and TAs. Without --code a code is made.
                            """,
                        arguments: [ArgumentSpec("HANDLE", help: "the class's short name, e.g. cs193p-f26: a-z, 0-9 and '-'")],
                        options: [
                            OptionSpec("--name", valueName: "NAME", help: "the class's name, e.g. 'CS193P Fall 2026'"),
                            OptionSpec("--owner", valueName: "USER", help: "the account that has the class"),
                            OptionSpec("--code", valueName: "CODE", help: "the class code students join with (4 to 64 characters)"),
                        ]),
                    CommandSpec(
                        "classes", summary: "List the classes: owners, staff and students, class code, and whether the term ended",
                        flags: [FlagSpec("--json", help: "a JSON array instead of a table")]),
                    CommandSpec(
                        "set-role", summary: "Put an account in a class with a role, or change its role there",
                        discussion: """
                            Roles: owner (everything in the class, deleting it and naming owners too), instructor
                            (everything but those), ta (reports, the approval queue, suspensions up to 7 days,
                            deleting snaps, the roster and the class's users) and student. The last owner cannot
                            step down: name another owner first.
                            """,
                        arguments: [
                            ArgumentSpec("USER", help: "the user name"), ArgumentSpec("ROLE", help: "owner, instructor, ta or student"),
                        ],
                        options: [classOption]),
                    CommandSpec(
                        "remove", summary: "Take away a user's admin right (the account stays)",
                        arguments: [ArgumentSpec("USER", help: "the user name")]),
                    CommandSpec(
                        "reset-password", summary: "Set a user's password without making them an admin; ends their sessions",
                        arguments: [ArgumentSpec("USER", help: "the user name")],
                        flags: [FlagSpec("--password-stdin", help: "read the new password from standard input (required)")]),
                    CommandSpec(
                        "audit", summary: "Show the audit log: every admin action, when, who, what, the target and the result",
                        options: [
                            OptionSpec("--since", valueName: "DURATION", help: "only the last DURATION, e.g. 7d (default: everything)"),
                            OptionSpec(
                                "--class", valueName: "HANDLE", help: "only what the class's staff did in it (default: every entry)"),
                        ],
                        flags: [FlagSpec("--json", help: "a JSON array instead of a table")]),
                    CommandSpec(
                        "import-roster", summary: "Create the class's accounts from a CSV roster, with one-time passwords",
                        discussion: """
                            The CSV has a header row naming username and, optionally, display_name and role
                            (student or admin). Every good row goes on the roster; each name without an account gets
                            one with a one-time password, written to --passwords (mode 0600) for you to hand out; its
                            owner must choose their own at first login. Bad rows are reported with their line and
                            skipped. With --registration roster, only the roster's names may register.
                            """,
                        arguments: [ArgumentSpec("FILE", help: "the roster, a .csv file")],
                        options: [
                            OptionSpec(
                                "--passwords", valueName: "FILE", help: "the new CSV file of one-time passwords (never written over)"),
                            classOption,
                        ]),
                    CommandSpec(
                        "roster", summary: "Show the roster: each name, who claimed it, and who has not registered or signed in yet",
                        discussion: """
                            A roster name belongs to the account that claimed it (by registering it, or made by
                            import-roster): a rename carries it along, so nobody else can register the old name,
                            and delete-user takes it off the roster. 'roster remove NAME' takes a name off.
                            """,
                        options: [classOption],
                        flags: [FlagSpec("--json", help: "a JSON array instead of a table")],
                        subcommands: [
                            CommandSpec(
                                "remove", summary: "Take a name off the roster (an account that claimed it keeps its account)",
                                arguments: [ArgumentSpec("NAME", help: "the roster name")])
                        ],
                        runsWithoutSubcommand: true),
                    CommandSpec(
                        "delete-user", summary: "Delete an account with its snaps, views, pins, albums, movies and sessions (asks first)",
                        arguments: [ArgumentSpec("USER", help: "the user name")], flags: [yesFlag]),
                    CommandSpec(
                        "purge", summary: "Delete every snap posted more than a time ago, with its picture and views (asks first)",
                        options: [OptionSpec("--older-than", valueName: "DURATION", help: "the age, e.g. 30d or 2w"), classOption],
                        flags: [yesFlag]),
                ], globalOptions: storeOptions),
            CommandSpec(
                "export", summary: "Write every feed's snaps into a new folder: pictures, snaps.json and an index.html gallery",
                discussion: """
                    One folder per feed with each kept picture as ID.jpg or ID.png; snaps.json lists every snap
                    with its poster, times and who opened it when; index.html shows it all in a browser (no
                    scripts; it works from the file system). No view is spent. Works while the server runs.
                    Snaps awaiting approval are left out unless --include-pending (then marked so); reported
                    snaps are marked with their open reports.
                    """,
                options: [OptionSpec("--to", valueName: "DIR", help: "the new (or empty) folder, in a folder that exists"), classOption],
                flags: [FlagSpec("--include-pending", help: "also snaps awaiting approval (marked as such)")],
                globalOptions: storeOptions),
            CommandSpec(
                "end-term", summary: "Archive the class to a backup, then remove every snap, view and session (and students' accounts)",
                discussion: """
                    Writes --archive first (a backup: restore it with 'restore' to look back), then removes every
                    snap with its picture and views, every session and device token, and every account but the
                    admins' with their pins, albums and movies, unless --keep-accounts, and the roster (so last
                    term's names no longer register), unless --keep-roster. Feeds, admins and the audit log stay,
                    so the next term starts on the same server. Asks first.
                    """,
                options: [OptionSpec("--archive", valueName: "FILE", help: "the backup written first (never over a file)")],
                flags: [
                    FlagSpec("--keep-accounts", help: "keep the students' accounts (and their pins and movies)"),
                    FlagSpec(
                        "--keep-roster", help: "keep the roster for the next term (without --keep-accounts, its names may register again)"),
                    yesFlag,
                ],
                globalOptions: storeOptions),
            CommandSpec(
                "backup", summary: "Copy the class's data into a new backup file (SQLite, mode 0600) while the server runs",
                discussion: """
                    Reads --data's database (or --database's) in one snapshot: what was committed before the
                    backup started is in it. The file appears under its name only once complete and checked.
                    Restore it with: snapshare-server restore --from FILE --data DIR (or --database URI).
                    """,
                options: [OptionSpec("--to", valueName: "FILE", help: "the new backup file (never written over), in a folder that exists")],
                globalOptions: storeOptions),
            CommandSpec(
                "restore", summary: "Put a backup into an empty data folder (--data) or PostgreSQL database (--database)",
                discussion: """
                    Checks the backup's integrity, refuses a target that holds anything, copies everything, and
                    moves every id counter past what the lost server may have handed out after the backup, so
                    no id names two different snaps. Views and posts after the backup are lost. --data is a new
                    or empty folder (or one whose database is empty); it gets its database only once the restore
                    is complete, and a folder holding other files is refused as it is.
                    """,
                options: [OptionSpec("--from", valueName: "FILE", help: "the backup file")],
                globalOptions: storeOptions),
            CommandSpec(
                "compact",
                summary: "Give the space of deleted and expired pictures back to the file system; prints the size before and after",
                discussion: """
                    Works while the server runs: on SQLite it rewrites the file through the WAL; on PostgreSQL
                    (--database) it rewrites the picture tables, each locked for the seconds that takes.
                    """,
                globalOptions: storeOptions),
            CommandSpec(
                "migrate", summary: "Copy everything from a SQLite data folder into a new, empty PostgreSQL database",
                options: [
                    OptionSpec("--from", valueName: "DIR", help: "the data folder", defaultValue: defaults.dataDirectory),
                    OptionSpec("--to", valueName: "URI", help: "the PostgreSQL database (postgresql://USER@HOST[:PORT]/DB)"),
                ],
                globalOptions: []),
            CommandSpec(
                "reset-feeds", summary: "Delete snaps offline: one feed (--feed NAME) or all (--all)",
                options: [OptionSpec("--feed", valueName: "NAME", help: "the feed to reset"), classOption],
                flags: [FlagSpec("--all", help: "reset every feed")],
                globalOptions: storeOptions),
        ],
        runsWithoutSubcommand: true)

    static let yesFlag = FlagSpec("--yes", help: "do not ask for confirmation (required without a terminal)")

    /// Parses and runs; returns the process exit code.
    public static func run(arguments: [String], environment: [String: String]) -> Int32 {
        Signals.ignore(SIGPIPE)
        // Whatever the server or its admin commands create is for the server's user alone.
        FileSystem.setCreationMask(0o077)
        do {
            switch try CommandLineParser(root: root).parse(arguments, environment: environment) {
            case .help(let text):
                print(text)
                return 0
            case .version:
                print(Release.versionLine(program: "snapshare-server"))
                return 0
            case .run(let given):
                let parsed = try withConfigFile(given)
                guard let command = maintenance[parsed.path] else {
                    return try ServerProcess(arguments: arguments, environment: environment).serve(parsed)
                }
                return try command.run(parsed)
            }
        } catch let error as UsageError {
            FileHandle.standardError.write(Data("snapshare-server: \(error.description)\n".utf8))
            return 2
        } catch let declined as Confirmation.Declined {
            FileHandle.standardError.write(Data("snapshare-server: \(declined)\n".utf8))
            return 2
        } catch let error as StoreError {
            FileHandle.standardError.write(Data("snapshare-server: \(error.message)\n".utf8))
            return 1
        } catch {
            FileHandle.standardError.write(Data("snapshare-server: \(error)\n".utf8))
            return 1
        }
    }

    /// The command line and the environment, then `--config`'s settings for what they left out.
    /// The file is read again at each reload.
    static func parse(_ arguments: [String], environment: [String: String]) throws -> ParsedCommand {
        guard case .run(let given) = try CommandLineParser(root: root).parse(arguments, environment: environment) else {
            throw ConfigurationError("the command line asks for help or the version, not a server")
        }
        return try withConfigFile(given)
    }

    private static func withConfigFile(_ given: ParsedCommand) throws -> ParsedCommand {
        guard let path = given.string("--config") else { return given }
        let file: ConfigFile
        do { file = try ConfigFile(path: path) } catch { throw given.usageError(error.message) }
        let parsed = try given.filling(from: file, options: root.options, excluding: [configOption.name])
        let secrets = root.options.filter { $0.isSecret && parsed.origin(of: $0.name)?.hasPrefix(path + ":") == true }
        if file.isReadableByOthers, !secrets.isEmpty {
            let names = secrets.map { String($0.name.dropFirst(2)) }.joined(separator: ", ")
            warn("warning: \(path) holds \(names) and other users of this machine can read it; run: chmod 600 \(path)")
        }
        return parsed
    }

    static func warn(_ line: String) {
        FileHandle.standardError.write(Data("snapshare-server: \(line)\n".utf8))
    }

    /// `backup`: the store named by --data or --database, read-only, into a new file.
    static func backup(_ parsed: ParsedCommand, _ action: OfflineAction) throws -> Int32 {
        guard let path = parsed.string("--to") else { throw parsed.usageError("--to names the new backup file") }
        action.target = "to \(path)"
        let config = action.store
        let written = try Backup.write(from: Backup.source(for: config), to: path)
        print("Backed up \(config.databaseDescription) to \(written.path) (mode 0600, \(written.bytes) bytes); rows:")
        printCounts(written.rows)
        return 0
    }

    /// `restore`: a backup into the empty store named by --data or --database; its entry goes
    /// into the restored database with the copy. A restore that fails takes away the database it
    /// made (one refused by a database that holds data is recorded in that one).
    static func restore(_ parsed: ParsedCommand, _ action: OfflineAction) throws -> Int32 {
        guard let path = parsed.string("--from") else { throw parsed.usageError("--from names the backup file") }
        action.target = "from \(path)"
        let config = action.store
        let rows: [(table: String, rows: Int)]
        if let database = config.database {
            rows = try Backup.restore(from: path, to: { try SQLStore.postgres(conninfo: database) }, audit: action.entry)
        } else {
            rows = try Backup.restore(from: path, intoDataFolder: config.dataDirectory, audit: action.entry)
        }
        action.recorded()
        print("Restored \(path) into \(config.databaseDescription); rows:")
        printCounts(rows)
        print(
            """
            Every id continues past the backup's by at least a million, so none handed out after the backup is reused.
            Lost: whatever was posted, opened or changed after the backup was taken (a view spent since can be spent again).
            """)
        return 0
    }

    /// `compact`: the store named by --data or --database, its free space given back.
    static func compact(_ parsed: ParsedCommand, _ action: OfflineAction) throws -> Int32 {
        let config = action.store
        action.target = config.databaseDescription
        let (before, after) = try Compaction.run(Backup.source(for: config, readOnly: false))
        func megabytes(_ bytes: Int64) -> String { String(format: "%.1f MB", Double(bytes) / 1_000_000) }
        print(
            "Compacted \(config.databaseDescription): \(megabytes(before)) before, \(megabytes(after)) after "
                + "(\(megabytes(max(0, before - after))) given back)")
        return 0
    }

    /// `admin audit`: the audit log of the store named by --data or --database.
    static func audit(_ parsed: ParsedCommand) throws -> Int32 {
        let since = try parsed.timeSpan("--since").map { WallClock.system.now() - $0.milliseconds } ?? 0
        let entries = try AuditReport.entries(storeConfiguration(parsed), since: since, parsed)
        print(parsed.flag("--json") ? AuditReport.json(entries) : AuditReport.table(entries), terminator: "")
        return 0
    }

    /// Where --data and --database say the class's data is.
    static func storeConfiguration(_ parsed: ParsedCommand) -> ServerConfiguration {
        .store(dataDirectory: parsed.string("--data") ?? ServerConfiguration().dataDirectory, database: parsed.string("--database"))
    }

    static func printCounts(_ rows: [(table: String, rows: Int)]) {
        for (table, count) in rows { print("  \(table.padding(toLength: 18, withPad: " ", startingAt: 0)) \(count)") }
    }

    /// `migrate`: copies, prints each table's count (checked equal on both sides), exits 0. Its
    /// entry goes into the new database with the copy; a refusal into the folder it copies from.
    static func migrate(_ parsed: ParsedCommand, _ action: OfflineAction) throws -> Int32 {
        let from = parsed.string("--from") ?? ServerConfiguration().dataDirectory
        action.store = .store(dataDirectory: from, database: nil)
        action.target = "from \(from)"
        guard let target = parsed.string("--to") else { throw parsed.usageError("--to names the PostgreSQL database to copy into") }
        let counts = try DatabaseMigration.run(from: from, to: target, audit: action.entry) {
            FileHandle.standardError.write(Data("migrate: \($0)\n".utf8))
        }
        action.recorded()
        var config = ServerConfiguration()
        config.database = target
        print("Copied \(from) into \(config.databaseDescription); rows, the same on both sides:")
        printCounts(counts)
        print("Start the servers with --database and that URI (or SNAPSHARE_DATABASE).")
        return 0
    }

    /// Builds the configuration from the parsed options.
    static func configuration(_ parsed: ParsedCommand) throws -> ServerConfiguration {
        var config = ServerConfiguration()
        if let listen = try parsed.hostPort("--listen", defaultPort: 7443) {
            config.host = listen.host
            config.port = Int(listen.port)
        }
        if let data = parsed.string("--data") { config.dataDirectory = data }
        config.database = parsed.string("--database")
        if let certs = parsed.string("--certs") { config.certificatesDirectory = certs }
        config.tlsCertificateFile = parsed.string("--tls-cert")
        config.tlsKeyFile = parsed.string("--tls-key")
        if (config.tlsCertificateFile == nil) != (config.tlsKeyFile == nil) {
            throw parsed.valueError(parsed.string("--tls-cert") == nil ? "--tls-key" : "--tls-cert", "--tls-cert and --tls-key go together")
        }
        config.certificateHosts = parsed.strings("--cert-host")
        if let code = parsed.string("--class-code") { config.classCode = code }
        if let mode = parsed.string("--registration") {
            guard let registration = RegistrationMode(rawValue: mode) else {
                throw parsed.valueError("--registration", "--registration is open, roster or closed")
            }
            config.registration = registration
        }
        if let mode = parsed.string("--moderation") {
            guard let moderation = ModerationMode(rawValue: mode) else {
                throw parsed.valueError("--moderation", "--moderation is off or queue")
            }
            config.moderation = moderation
        }
        if let ttl = try parsed.timeSpan("--snap-ttl") {
            guard ttl.milliseconds >= 1000 else { throw parsed.valueError("--snap-ttl", "--snap-ttl must be at least 1s") }
            config.snapTTLMilliseconds = ttl.milliseconds
        }
        func positive(_ name: String, _ range: ClosedRange<Int>) throws -> Int? {
            guard let value = try parsed.int(name) else { return nil }
            guard range.contains(value) else {
                throw parsed.valueError(name, "\(name) must be within \(range.lowerBound)...\(range.upperBound)")
            }
            return value
        }
        if let v = try positive("--max-image-bytes", 1024...(256 << 20)) { config.maxImageBytes = v }
        if let v = try positive("--max-image-dimension", 16...65535) { config.maxImageDimension = v }
        if let v = try positive("--max-image-pixels", 256...1_000_000_000) { config.maxImagePixels = v }
        if let v = try positive("--max-connections", 1...1_000_000) { config.maxConnections = v }
        if let v = try positive("--max-connections-per-address", 1...1_000_000) { config.maxConnectionsPerAddress = v }
        if let v = try positive("--max-anonymous-per-address", 1...1_000_000) { config.maxAnonymousConnectionsPerAddress = v }
        if let v = try positive("--max-connections-per-user", 1...100_000) { config.maxConnectionsPerUser = v }
        if let t = try parsed.timeSpan("--login-timeout") { config.loginTimeoutMilliseconds = max(1000, t.milliseconds) }
        if let v = try positive("--max-in-flight", 1...4096) { config.maxRequestsInFlight = v }
        if let text = parsed.string("--protocol-versions") {
            guard let versions = ServerConfiguration.protocolVersions(parsing: text) else {
                throw parsed.valueError(
                    "--protocol-versions",
                    "--protocol-versions is MIN-MAX or one version, within "
                        + "\(ProtocolConstants.versions.lowerBound)-\(ProtocolConstants.versions.upperBound) (what this build speaks)")
            }
            config.protocolVersions = versions
        }
        if let v = try positive("--max-connection-buffer", (1 << 20)...(1 << 30)) { config.connectionBufferBytes = v }
        if let v = try positive("--max-frame-before-login", 1024...(1 << 20)) { config.maxFrameBytesBeforeLogin = v }
        if let t = try parsed.timeSpan("--handshake-timeout") { config.handshakeTimeoutMilliseconds = max(100, t.milliseconds) }
        if let t = try parsed.timeSpan("--idle-timeout") { config.idleTimeoutMilliseconds = max(1000, t.milliseconds) }
        if let t = try parsed.timeSpan("--frame-timeout") { config.frameTimeoutMilliseconds = max(100, t.milliseconds) }
        if let t = try parsed.timeSpan("--drain-timeout") { config.drainTimeoutMilliseconds = t.milliseconds }
        if let v = try positive("--quota-posts-per-hour", 1...1_000_000) { config.postsPerHourQuota = v }
        if let v = try positive("--quota-bytes", 1024...(1 << 50)) { config.storedBytesQuota = Int64(v) }
        config.backupDirectory = parsed.string("--backup-dir")
        if let every = try parsed.timeSpan("--backup-every") {
            guard every.milliseconds >= 1000 else { throw parsed.valueError("--backup-every", "--backup-every must be at least 1s") }
            config.backupIntervalMilliseconds = every.milliseconds
        }
        if let keep = try positive("--backup-keep", 1...100_000) { config.backupKeep = keep }
        if config.backupDirectory == nil, let given = ["--backup-every", "--backup-keep"].first(where: { parsed.string($0) != nil }) {
            throw parsed.valueError(given, "\(given) needs --backup-dir (where the backups go)")
        }
        if let level = parsed.string("--log-level") {
            guard let parsedLevel = LogLevel(name: level) else {
                throw parsed.valueError("--log-level", "--log-level is debug, info, warning or error")
            }
            config.logLevel = parsedLevel
        }
        try monitoring(parsed, into: &config)
        do {
            config.photoSource = try PhotoSource.parse(
                parsed.string("--photos") ?? "builtin", flickrKey: parsed.string("--flickr-key"),
                flickrEndpoint: parsed.string("--flickr-endpoint"))
        } catch {
            throw parsed.valueError(parsed.origin(of: "--photos") == nil ? "--flickr-key" : "--photos", error.message)
        }
        if let text = parsed.string("--photo-radius") {
            guard let radius = Double(text), radius.isFinite, (0.1...32).contains(radius) else {
                throw parsed.valueError("--photo-radius", "--photo-radius must be a number of kilometres from 0.1 to 32 (Flickr's limit)")
            }
            config.photoSearchRadiusKilometres = radius
        }
        return config
    }

    /// `--log-format` and `--metrics`.
    private static func monitoring(_ parsed: ParsedCommand, into config: inout ServerConfiguration) throws {
        if let name = parsed.string("--log-format") {
            guard let format = LogFormat(name: name) else { throw parsed.valueError("--log-format", "--log-format is text or json") }
            config.logFormat = format
        }
        if let address = try parsed.hostPort("--metrics", defaultPort: 9464) { config.metricsAddress = address }
    }
}
