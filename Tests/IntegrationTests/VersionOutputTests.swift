import Foundation
import TestSupport
import Testing
import Wire

/// `--version` of the three programs: the release, the protocol versions spoken, the commit.
@Suite struct VersionOutputTests {
    @Test(arguments: ["snapshare", "snapshare-server", "snapshare-bench"])
    func versionLine(program: String) throws {
        let result = try Subprocess.run(program, ["--version"])
        #expect(result.status == 0, "\(result.stderr)")
        let line = result.stdout.trimmingCharacters(in: .newlines)
        let versions = ProtocolConstants.versions
        let shape = try Regex(
            "^\(program) [0-9]+\\.[0-9]+\\.[0-9]+ \\(protocol \(versions.lowerBound)-\(versions.upperBound), [0-9a-f]{7,}(-dirty)?\\)$")
        #expect(line.wholeMatch(of: shape) != nil, "\(line)")
    }
}
