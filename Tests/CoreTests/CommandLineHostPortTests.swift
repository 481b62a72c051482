import Testing

@testable import CommandLineParsing

@Suite struct CommandLineHostPortTests {
    @Test(arguments: [
        ("localhost:7443", "localhost", UInt16(7443)),
        ("localhost:0", "localhost", 0),
        ("10.0.0.2:65535", "10.0.0.2", 65535),
        ("example.org", "example.org", 9000),
        ("[::1]:7443", "::1", 7443),
        ("[::1]", "::1", 9000),
        ("::1", "::1", 9000),
        ("[fe80::1%eth0]:1", "fe80::1%eth0", 1),
    ])
    func addressesParse(text: String, host: String, port: UInt16) throws {
        #expect(try HostPort(parsing: text, defaultPort: 9000) == HostPort(host: host, port: port))
    }

    @Test(arguments: [
        ("", "invalid address '': missing host"),
        (":7443", "invalid address ':7443': missing host"),
        ("[]:1", "invalid address '[]:1': missing host"),
        ("host:", "invalid address 'host:': the port must be a number from 0 to 65535"),
        ("host:65536", "invalid address 'host:65536': the port must be from 0 to 65535"),
        ("host:-1", "invalid address 'host:-1': the port must be a number from 0 to 65535"),
        ("host:+1", "invalid address 'host:+1': the port must be a number from 0 to 65535"),
        ("host:http", "invalid address 'host:http': the port must be a number from 0 to 65535"),
        ("[::1", "invalid address '[::1': missing ']'"),
        ("[::1]7443", "invalid address '[::1]7443': expected ':' after ']'"),
        ("my host:1", "invalid address 'my host:1': the host contains a space, bracket or slash"),
        ("a]:1", "invalid address 'a]:1': the host contains a space, bracket or slash"),
    ])
    func malformedAddressesAreRefused(text: String, message: String) {
        #expect(throws: ValueParseError(message)) { try HostPort(parsing: text, defaultPort: 1) }
    }

    @Test func descriptionBracketsIPv6AndRoundTrips() throws {
        #expect(HostPort(host: "::1", port: 7443).description == "[::1]:7443")
        #expect(HostPort(host: "localhost", port: 0).description == "localhost:0")
        for text in ["[::1]:7443", "h:1", "1.2.3.4:80"] {
            #expect(try HostPort(parsing: text, defaultPort: 5).description == text)
        }
    }
}
