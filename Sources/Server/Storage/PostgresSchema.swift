import PostgreSQL

/// The PostgreSQL schema: the same tables and rules as SQLite's (Migrations/), written in
/// PostgreSQL's terms. Its steps are `Schema.steps`, the one list of versions for both engines,
/// so one schema version means the same rows in both (a step that only changes how an engine
/// stores them has its own SQL in each, or none). Versions are applied in order by whichever
/// instance starts first, under an advisory lock, so two instances starting together apply
/// each once; a newer database is refused.
enum PostgresSchema {
    /// (version, summary, SQL; nil for a step with nothing to do here), oldest first. PostgreSQL
    /// starts at SQLite's version 4: its first schema was SQLite's schema at that version.
    static var versions: [(version: Int64, summary: String, sql: String?)] {
        Schema.steps.compactMap { step in
            switch step.postgres {
            case .predates: nil
            case .sql(let sql, let summary): (step.version, summary ?? step.sqlite.summary, sql)
            case .nothing(let summary): (step.version, summary ?? step.sqlite.summary, nil)
            }
        }
    }

    /// Brings the database to `Schema.currentVersion` (tests stop at an older `target`, to make
    /// a database as an older server left it); refuses a database newer than this binary.
    static func migrate(_ connection: PostgresConnection, upTo target: Int64 = Schema.currentVersion) throws {
        let latest = Schema.currentVersion
        try connection.transaction {
            _ = try connection.query("SELECT pg_advisory_xact_lock(\(raw: String(PostgresEngine.migrationLock))) AS locked") { _ in () }
            try connection.executeScript(
                """
                CREATE TABLE IF NOT EXISTS schema_versions (
                    version bigint PRIMARY KEY, summary text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())
                """)
            try renumberFirstVersions(connection)
            let current =
                try connection.queryFirst("SELECT coalesce(max(version), 0) AS version FROM schema_versions") {
                    $0.int64("version")
                } ?? 0
            guard current <= latest else {
                throw StoreError(
                    .corrupt,
                    "the database is at schema version \(current), newer than this server's "
                        + "\(latest): upgrade snapshare-server")
            }
            for step in versions where step.version > current && step.version <= target {
                try connection.transaction {
                    if let sql = step.sql { try connection.executeScript(sql) }
                    try connection.execute("INSERT INTO schema_versions (version, summary) VALUES (\(step.version), \(step.summary))")
                }
            }
        }
    }

    /// Databases made before the engines shared one numbering recorded 1 to 4 for what are
    /// versions 4 to 7: their rows move up by three (through negative numbers, so no two rows
    /// ever hold one version on the way).
    private static func renumberFirstVersions(_ connection: PostgresConnection) throws {
        guard try connection.queryFirst("SELECT count(*) AS n FROM schema_versions WHERE version = 1", { $0.int64("n") }) == 1 else {
            return
        }
        try connection.execute("UPDATE schema_versions SET version = -(version + 3)")
        try connection.execute("UPDATE schema_versions SET version = -version")
    }

    /// Feeds, roster and suspensions per class, as SQLite's version 17.
    static let version17 = """
        ALTER TABLE feeds ADD COLUMN class_id bigint REFERENCES classes(id) ON DELETE CASCADE;
        UPDATE feeds SET class_id = (SELECT min(id) FROM classes);
        ALTER TABLE feeds ALTER COLUMN class_id SET NOT NULL;
        DROP INDEX feeds_by_name;
        CREATE UNIQUE INDEX feeds_by_name ON feeds (class_id, ascii_lower(name));

        ALTER TABLE roster ADD COLUMN class_id bigint REFERENCES classes(id) ON DELETE CASCADE;
        UPDATE roster SET class_id = (SELECT min(id) FROM classes);
        ALTER TABLE roster ALTER COLUMN class_id SET NOT NULL;
        DROP INDEX roster_by_name;
        CREATE UNIQUE INDEX roster_by_name ON roster (class_id, ascii_lower(name));
        DROP INDEX roster_by_claimant;
        CREATE UNIQUE INDEX roster_by_claimant ON roster (class_id, claimed_by) WHERE claimed_by IS NOT NULL;
        CREATE INDEX roster_claims ON roster (claimed_by) WHERE claimed_by IS NOT NULL;

        ALTER TABLE suspensions ADD COLUMN class_id bigint REFERENCES classes(id) ON DELETE CASCADE;
        UPDATE suspensions SET class_id = (SELECT min(id) FROM classes);
        ALTER TABLE suspensions ALTER COLUMN class_id SET NOT NULL;
        ALTER TABLE suspensions DROP CONSTRAINT suspensions_pkey;
        ALTER TABLE suspensions ADD PRIMARY KEY (class_id, user_id);
        CREATE INDEX suspensions_by_user ON suspensions (user_id);

        CREATE TRIGGER access_epoch_membership_changed AFTER INSERT OR DELETE OR UPDATE OF role ON memberships
            FOR EACH ROW EXECUTE FUNCTION bump_access_epoch();

        ALTER TABLE audit_log ADD COLUMN class_id bigint;
        CREATE INDEX audit_log_by_class ON audit_log (class_id, at);
        """

    /// Classes and memberships, as SQLite's version 16.
    static let version16 = """
        CREATE TABLE classes (
            id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            handle text NOT NULL CHECK (length(handle) BETWEEN 2 AND 32 AND handle ~ '^[a-z0-9][a-z0-9-]*$'),
            name text NOT NULL CHECK (length(name) BETWEEN 1 AND 400),
            code text CHECK (length(code) BETWEEN 4 AND 64),
            registration text CHECK (registration IN ('open', 'roster', 'closed')),
            moderation text CHECK (moderation IN ('off', 'queue')),
            snap_ttl_ms bigint CHECK (snap_ttl_ms > 0),
            posts_per_hour bigint CHECK (posts_per_hour >= 0),
            stored_bytes bigint CHECK (stored_bytes >= 0),
            created_at bigint NOT NULL,
            ended_at bigint NOT NULL DEFAULT 0
        );
        CREATE UNIQUE INDEX classes_by_handle ON classes (handle);
        CREATE UNIQUE INDEX classes_by_code ON classes (code);
        CREATE TABLE memberships (
            class_id bigint NOT NULL REFERENCES classes(id) ON DELETE CASCADE,
            user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            role text NOT NULL CHECK (role IN ('owner', 'instructor', 'ta', 'student')),
            joined_at bigint NOT NULL,
            PRIMARY KEY (class_id, user_id)
        );
        CREATE INDEX memberships_by_user ON memberships (user_id, joined_at, class_id);
        INSERT INTO classes (handle, name, created_at)
            VALUES ('class', 'Class', (extract(epoch FROM clock_timestamp()) * 1000)::bigint);
        INSERT INTO memberships (class_id, user_id, role, joined_at)
            SELECT c.id, u.id, CASE WHEN u.is_admin THEN 'owner' ELSE 'student' END, u.created_at
            FROM users u, classes c WHERE c.handle = 'class';
        """

    /// Roster claims, sign-ins and rejections, as SQLite's version 15.
    static let version15 = """
        ALTER TABLE roster ADD COLUMN claimed_by bigint REFERENCES users(id) ON DELETE CASCADE;
        UPDATE roster r SET claimed_by = u.id FROM users u WHERE ascii_lower(u.name) = ascii_lower(r.name);
        CREATE UNIQUE INDEX roster_by_claimant ON roster (claimed_by) WHERE claimed_by IS NOT NULL;
        ALTER TABLE users ADD COLUMN last_sign_in_at bigint NOT NULL DEFAULT 0;
        ALTER TABLE users ADD COLUMN one_time_hash text NOT NULL DEFAULT '';
        UPDATE users u SET last_sign_in_at = coalesce((SELECT max(s.created_at) FROM sessions s WHERE s.user_id = u.id), 0);
        CREATE TABLE rejected_snaps (
            id bigint PRIMARY KEY,
            feed_id bigint NOT NULL REFERENCES feeds(id) ON DELETE CASCADE,
            poster_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            posted_at bigint NOT NULL,
            expires_at bigint NOT NULL,
            byte_count bigint NOT NULL CHECK (byte_count >= 0),
            width bigint NOT NULL CHECK (width >= 0),
            height bigint NOT NULL CHECK (height >= 0),
            format smallint NOT NULL CHECK (format IN (1, 2)),
            reason text NOT NULL,
            rejected_at bigint NOT NULL
        );
        CREATE INDEX rejected_snaps_by_poster ON rejected_snaps (poster_id, posted_at);
        CREATE INDEX rejected_snaps_by_expiry ON rejected_snaps (expires_at);
        """

    /// The approval queue, as SQLite's version 14.
    static let version14 = """
        ALTER TABLE snaps ADD COLUMN awaiting_approval boolean NOT NULL DEFAULT false;
        CREATE INDEX snaps_awaiting_approval ON snaps (posted_at) WHERE awaiting_approval;
        """

    /// The roster and the account controls, as SQLite's version 13.
    static let version13 = """
        ALTER TABLE users ADD COLUMN disabled boolean NOT NULL DEFAULT false;
        ALTER TABLE users ADD COLUMN must_change_password boolean NOT NULL DEFAULT false;
        CREATE TABLE roster (
            name text NOT NULL,
            display_name text NOT NULL,
            role text NOT NULL CHECK (role IN ('student', 'admin')),
            added_at bigint NOT NULL
        );
        CREATE UNIQUE INDEX roster_by_name ON roster (ascii_lower(name));
        DROP TRIGGER access_epoch_user_changed ON users;
        CREATE TRIGGER access_epoch_user_changed AFTER UPDATE OF is_admin, password_hash, name, disabled ON users
            FOR EACH ROW EXECUTE FUNCTION bump_access_epoch();
        """

    /// Reports and suspensions (`ModerationStore`), as SQLite's version 12.
    static let version12 = """
        CREATE TABLE reports (
            snap_id bigint NOT NULL REFERENCES snaps(id) ON DELETE CASCADE,
            reporter_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            reason text NOT NULL,
            reported_at bigint NOT NULL,
            PRIMARY KEY (snap_id, reporter_id)
        );
        CREATE INDEX reports_by_time ON reports (reported_at);
        CREATE TABLE suspensions (
            user_id bigint PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
            until bigint NOT NULL,
            reason text NOT NULL,
            suspended_by text NOT NULL,
            suspended_at bigint NOT NULL
        );
        """

    /// The audit log (`AuditStore`), as SQLite's version 11.
    static let version11 = """
        CREATE TABLE audit_log (
            id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            at bigint NOT NULL,
            actor text NOT NULL,
            action text NOT NULL,
            target text NOT NULL,
            result text NOT NULL
        );
        CREATE INDEX audit_log_by_time ON audit_log (at);
        """

    /// A device's proof that it logged in before (`DeviceStore`), as SQLite's version 9.
    static let version9 = """
        CREATE TABLE device_tokens (
            token_hash bytea PRIMARY KEY,
            user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            created_at bigint NOT NULL,
            last_used_at bigint NOT NULL
        );
        CREATE INDEX device_tokens_by_user ON device_tokens (user_id);
        CREATE INDEX device_tokens_by_use ON device_tokens (last_used_at);
        """

    /// Of several instances exactly one downloads a pin's album (`PinStore.claimAlbumLease`).
    static let version5 = """
        ALTER TABLE albums ADD COLUMN lease_owner text NOT NULL DEFAULT '';
        ALTER TABLE albums ADD COLUMN lease_until bigint NOT NULL DEFAULT 0;
        """

    /// Images are PNG or JPEG, compressed already: PostgreSQL's own compression of large values
    /// (pglz) only spends CPU on every write and read of them (measured with
    /// scripts/cluster-bench.sh: most of PostgreSQL's CPU per 100 KB post). EXTERNAL keeps
    /// them out of line, uncompressed.
    static let version6 = """
        ALTER TABLE snap_images ALTER COLUMN bytes SET STORAGE EXTERNAL;
        ALTER TABLE photo_images ALTER COLUMN bytes SET STORAGE EXTERNAL;
        ALTER TABLE photo_thumbnails ALTER COLUMN bytes SET STORAGE EXTERNAL;
        """

    /// The login and class-code throttles count failures across instances (`ThrottleStore`).
    static let version7 = """
        CREATE TABLE throttle_budgets (
            kind text NOT NULL,
            scope bigint NOT NULL CHECK (scope IN (0, 1, 2)),
            name text NOT NULL,
            address text NOT NULL,
            failures text NOT NULL,
            pending text NOT NULL,
            next_slot bigint NOT NULL,
            last_used bigint NOT NULL,
            PRIMARY KEY (kind, scope, name, address)
        );
        CREATE INDEX throttle_budgets_by_use ON throttle_budgets (last_used);
        """

    /// Names compare ignoring ASCII case only, as SQLite's NOCASE does: users and feeds.
    static let version4 = """
        CREATE FUNCTION ascii_lower(t text) RETURNS text IMMUTABLE STRICT PARALLEL SAFE LANGUAGE sql
            AS $$ SELECT translate(t, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz') $$;

        CREATE TABLE users (
            id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            name text NOT NULL CHECK (length(name) > 0),
            password_hash text NOT NULL,
            is_admin boolean NOT NULL DEFAULT false,
            created_at bigint NOT NULL
        );
        CREATE UNIQUE INDEX users_by_name ON users (ascii_lower(name));

        CREATE TABLE sessions (
            token_hash bytea PRIMARY KEY,
            user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            created_at bigint NOT NULL,
            expires_at bigint NOT NULL,
            last_used_at bigint NOT NULL
        );
        CREATE INDEX sessions_by_user ON sessions (user_id);
        CREATE INDEX sessions_by_expiry ON sessions (expires_at);

        CREATE TABLE feeds (
            id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            name text NOT NULL CHECK (length(name) > 0),
            created_at bigint NOT NULL
        );
        CREATE UNIQUE INDEX feeds_by_name ON feeds (ascii_lower(name));

        CREATE TABLE snaps (
            id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            feed_id bigint NOT NULL REFERENCES feeds(id) ON DELETE CASCADE,
            poster_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            posted_at bigint NOT NULL,
            expires_at bigint NOT NULL,
            byte_count bigint NOT NULL CHECK (byte_count >= 0),
            width bigint NOT NULL CHECK (width >= 0),
            height bigint NOT NULL CHECK (height >= 0),
            format smallint NOT NULL CHECK (format IN (1, 2)),
            sha256 bytea NOT NULL,
            image_erased boolean NOT NULL DEFAULT false
        );
        CREATE INDEX snaps_by_feed ON snaps (feed_id, posted_at DESC, id DESC);
        CREATE INDEX snaps_by_time ON snaps (posted_at DESC, id DESC);
        CREATE INDEX snaps_by_poster ON snaps (poster_id);
        CREATE INDEX snaps_awaiting_purge ON snaps (expires_at) WHERE NOT image_erased;

        CREATE TABLE snap_images (
            snap_id bigint PRIMARY KEY REFERENCES snaps(id) ON DELETE CASCADE,
            bytes bytea NOT NULL
        );

        -- The view-once claim: the primary key decides the one winner.
        CREATE TABLE views (
            snap_id bigint NOT NULL REFERENCES snaps(id) ON DELETE CASCADE,
            viewer_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            claimed_at bigint NOT NULL,
            PRIMARY KEY (snap_id, viewer_id)
        );
        CREATE INDEX views_by_viewer ON views (viewer_id, snap_id);

        CREATE TABLE pins (
            id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            latitude double precision NOT NULL CHECK (latitude BETWEEN -90.0 AND 90.0),
            longitude double precision NOT NULL CHECK (longitude BETWEEN -180.0 AND 180.0),
            created_at bigint NOT NULL
        );
        CREATE INDEX pins_by_user ON pins (user_id, id);

        CREATE TABLE albums (
            pin_id bigint PRIMARY KEY REFERENCES pins(id) ON DELETE CASCADE,
            state smallint NOT NULL CHECK (state IN (0, 1, 2, 3)),
            error text NOT NULL DEFAULT '',
            provider text NOT NULL,
            searched boolean NOT NULL DEFAULT false,
            page bigint NOT NULL CHECK (page >= 1),
            pages bigint NOT NULL DEFAULT 0 CHECK (pages >= 0),
            per_page bigint NOT NULL CHECK (per_page >= 1),
            total bigint NOT NULL DEFAULT 0 CHECK (total >= 0),
            generation bigint NOT NULL DEFAULT 0,
            updated_at bigint NOT NULL
        );
        CREATE INDEX albums_downloading ON albums (pin_id) WHERE state = 0;

        CREATE TABLE photos (
            id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            pin_id bigint NOT NULL REFERENCES pins(id) ON DELETE CASCADE,
            position bigint NOT NULL CHECK (position >= 0),
            state smallint NOT NULL DEFAULT 0 CHECK (state IN (0, 1, 2)),
            provider_photo_id text NOT NULL,
            reference text NOT NULL,
            title text NOT NULL,
            tags text NOT NULL,
            place text NOT NULL,
            latitude double precision NOT NULL,
            longitude double precision NOT NULL,
            width bigint NOT NULL DEFAULT 0 CHECK (width >= 0),
            height bigint NOT NULL DEFAULT 0 CHECK (height >= 0),
            byte_count bigint NOT NULL DEFAULT 0 CHECK (byte_count >= 0),
            error text NOT NULL DEFAULT '',
            UNIQUE (pin_id, position),
            UNIQUE (pin_id, provider_photo_id)
        );
        CREATE INDEX photos_by_state ON photos (pin_id, state);

        CREATE TABLE photo_images (
            photo_id bigint PRIMARY KEY REFERENCES photos(id) ON DELETE CASCADE,
            sha256 bytea NOT NULL CHECK (length(sha256) = 32),
            bytes bytea NOT NULL
        );
        CREATE TABLE photo_thumbnails (
            photo_id bigint PRIMARY KEY REFERENCES photos(id) ON DELETE CASCADE,
            sha256 bytea NOT NULL CHECK (length(sha256) = 32),
            bytes bytea NOT NULL
        );

        CREATE TABLE map_states (
            user_id bigint PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
            center_latitude double precision NOT NULL CHECK (center_latitude BETWEEN -90.0 AND 90.0),
            center_longitude double precision NOT NULL CHECK (center_longitude BETWEEN -180.0 AND 180.0),
            zoom double precision NOT NULL CHECK (zoom BETWEEN 1.0 AND 64.0),
            updated_at bigint NOT NULL
        );

        CREATE TABLE movies (
            id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            title text NOT NULL CHECK (length(title) BETWEEN 1 AND 256),
            title_key text NOT NULL CHECK (length(title_key) > 0),
            genre text NOT NULL CHECK (length(genre) BETWEEN 1 AND 128),
            sales bigint NOT NULL CHECK (sales >= 0),
            created_at bigint NOT NULL,
            updated_at bigint NOT NULL,
            UNIQUE (user_id, title_key)
        );

        -- Moves whenever a session ends or a user's password or admin right changes, so every
        -- instance's connections notice (SessionStore.accessEpoch).
        CREATE TABLE access_epoch (
            id integer PRIMARY KEY CHECK (id = 1),
            value bigint NOT NULL
        );
        INSERT INTO access_epoch (id, value) VALUES (1, 0);
        CREATE FUNCTION bump_access_epoch() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN UPDATE access_epoch SET value = value + 1 WHERE id = 1; RETURN NULL; END $$;
        CREATE TRIGGER access_epoch_session_deleted AFTER DELETE ON sessions
            FOR EACH ROW EXECUTE FUNCTION bump_access_epoch();
        CREATE TRIGGER access_epoch_user_changed AFTER UPDATE OF is_admin, password_hash ON users
            FOR EACH ROW EXECUTE FUNCTION bump_access_epoch();

        INSERT INTO feeds (name, created_at)
        SELECT name, (extract(epoch FROM clock_timestamp()) * 1000)::bigint
        FROM (VALUES ('Memes'), ('Dog Spots'), ('Random')) AS defaults (name);
        """
}
