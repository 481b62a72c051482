/// A configuration that cannot work, with the reason.
package struct ConfigurationError: Error, CustomStringConvertible, Sendable {
    package var description: String
    package init(_ description: String) { self.description = description }
}
