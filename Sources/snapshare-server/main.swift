import BuildStamp
import Foundation
import Release
import Server

Release.stamp(commit: BuildStamp.commit)

exit(ServerCommandLine.run(arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))
