import Foundation

extension JSONDecoder {
    /// A decoder for the programs' `--json` output and snaps.json, whose keys are snake_case
    /// (`display_name`), into properties named in Swift's way (`displayName`).
    package static var snakeCase: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }
}
