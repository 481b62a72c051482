import Foundation
import Testing
@testable import Client

@Suite("App backend")
struct AppBackendTests {
    @Test("work on this machine runs while the server is unreachable and a request waits for it, and its result comes back on the app's side")
    func localWorkNeverWaitsForTheNetwork() throws {
        // A server that never answers: the network worker keeps reconnecting, its request waiting.
        let backend = AppBackend(connect: { () throws(ClientError) -> SnapshareSession in
            throw ClientError(.connection, "unreachable")
        }, wake: {})
        defer { backend.stop() }
        var requestRan = false
        var local: Result<Int, ClientError>?
        backend.perform(retry: true, { _ throws(ClientError) in 1 }, then: { _ in requestRan = true })
        backend.performLocal({ () throws(ClientError) in 6 * 7 }, then: { local = $0 })
        // Completions run where the app takes them; the deadline only keeps a broken backend from hanging the run.
        let deadline = Date().addingTimeInterval(30)
        while (local == nil || backend.link == .connected) && Date() < deadline {
            for completion in backend.takeCompletions() { completion() }
            Thread.sleep(forTimeInterval: 0.01)
        }
        #expect(try local?.get() == 42)
        #expect(backend.link != .connected, "the backend says it is reconnecting")
        #expect(!requestRan, "the request still waits for the server")
    }
}
