import BuildStamp
import Client
import Foundation
import Release

Release.stamp(commit: BuildStamp.commit)

exit(CLI.run(arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))
