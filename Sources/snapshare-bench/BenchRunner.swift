import TLS

/// One bench run from start to report: check the scenario, prepare data, run the load, check
/// the view-once promise, and gather the numbers.
enum BenchRunner {
    static func run(_ options: BenchOptions, log: @escaping (String) -> Void) throws -> BenchReport {
        var report = BenchReport(options: options)
        let context: TLSContext
        do {
            context = try TLSContext.client(trustRootsFile: options.caFile)
        } catch {
            throw BenchError("cannot use CA file \(options.caFile ?? "-"): \(error)")
        }
        let fixture: BenchFixture
        do {
            fixture = try BenchFixture.prepare(options, context: context, log: log)
        } catch let reason as PhotoAlbums.Unavailable {
            report.unavailable = reason.description
            return report
        }
        report.storedSnaps = fixture.storedSnaps
        report.listFeedSnaps = fixture.listFeedSnaps
        report.imageBytes = fixture.imageBytes

        let server = options.serverPIDs.isEmpty ? nil : ServerProbe(pids: options.serverPIDs)
        if let server, server.sample() == nil { throw BenchError("no process \(server.pids) to measure (--pid)") }
        let database = options.databasePIDs.isEmpty ? nil : ServerProbe(pids: options.databasePIDs)
        if let database, database.sample() == nil { throw BenchError("no process \(database.pids) to measure (--database-pid)") }
        let loop = try LoadLoop()
        let load = LoadRun(options: options, fixture: fixture, context: context, loop: loop, server: server, database: database, log: log)
        log("running \(options.scenario.rawValue)")
        try load.execute()

        report.seconds = load.measuredSeconds
        report.statistics = load.statistics
        report.serverAtStart = load.serverAtStart
        report.serverAtEnd = load.serverAtEnd
        report.databaseAtStart = load.databaseAtStart
        report.databaseAtEnd = load.databaseAtEnd
        report.clientCPUMicroseconds = load.clientCPUAtEnd - load.clientCPUAtStart
        report.idleMarks = load.idleMarks
        if options.scenario == .view && load.opened.count < options.users * fixture.viewSnapIDs.count
            && report.operations < (options.operations ?? Int.max) && report.seconds < options.duration * 0.99
        {
            report.notes.append("ran out of fresh snaps to open; raise --view-snaps")
        }
        if options.scenario == .view {
            log("checking that no snap opens twice")
            let check = try ViewOnceCheck.run(
                options: options, context: context, fixture: fixture,
                openedPairs: load.openedPairs)
            report.statistics.doubleViewChecks += check.checks
            report.statistics.doubleViews += check.doubleViews
            for (name, count) in check.errors { report.statistics.errors[name, default: 0] += count }
        }
        return report
    }
}
