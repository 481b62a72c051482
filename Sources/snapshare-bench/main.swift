import BuildStamp
import Foundation
import Posix
import Release

Release.stamp(commit: BuildStamp.commit)

// snapshare-bench: parse, run one scenario, print the report. Logic lives in BenchRunner.
Signals.ignore(SIGPIPE)
let environment = ProcessInfo.processInfo.environment
let options: BenchOptions
do {
    guard let parsed = try BenchOptions.parse(Array(CommandLine.arguments.dropFirst()), environment: environment) else { exit(0) }
    options = parsed
} catch {
    FileHandle.standardError.write(Data("snapshare-bench: \(error.description)\n".utf8))
    exit(2)
}
if options.summarizeFolder != nil || options.photoFolder != nil {
    do {
        if let folder = options.summarizeFolder { print(try BenchSummary(folder: folder).markdown) }
        if let folder = options.photoFolder { try PhotoAlbums.writeFolder(folder, bytes: options.imageBytes) }
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("snapshare-bench: \(error)\n".utf8))
        exit(1)
    }
}
if options.sixel {
    do {
        let report = try SixelRun.run(output: options.sixelOutput) { line in
            if !options.json { FileHandle.standardError.write(Data("snapshare-bench: \(line)\n".utf8)) }
        }
        print(options.json ? report.json : report.text)
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("snapshare-bench: \(error)\n".utf8))
        exit(1)
    }
}
let progress: @Sendable (String) -> Void = { line in
    if !options.json { FileHandle.standardError.write(Data("snapshare-bench: \(line)\n".utf8)) }
}
if let other = options.watchDelayServer {
    do {
        let report = try WatchDelay.run(options, other: other, log: progress)
        print(report.json)
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("snapshare-bench: \(error)\n".utf8))
        exit(1)
    }
}
if options.soak {
    do {
        let report = try SoakReport.run(options, log: progress)
        print(options.json ? report.json : report.markdown)
        exit(report.passed ? 0 : 3)
    } catch {
        FileHandle.standardError.write(Data("snapshare-bench: \(error)\n".utf8))
        exit(1)
    }
}
if let attack = options.attack {
    do {
        let report = try AttackRun.run(attack, options: options, log: progress)
        print(options.json ? report.json : report.text)
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("snapshare-bench: \(error)\n".utf8))
        exit(1)
    }
}
do {
    let report = try BenchRunner.run(options) { line in
        if !options.json { FileHandle.standardError.write(Data("snapshare-bench: \(line)\n".utf8)) }
    }
    print(options.json ? report.json : report.text)
    exit(report.statistics.doubleViews > 0 ? 3 : 0)
} catch {
    FileHandle.standardError.write(Data("snapshare-bench: \(error)\n".utf8))
    exit(1)
}
