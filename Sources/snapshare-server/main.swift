import Foundation
import Server

exit(ServerCommandLine.run(arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))
