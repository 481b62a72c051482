import Foundation
import Testing

@testable import Client

@Suite("App backend")
struct AppBackendTests {
    @Test("work on this machine runs while the network worker is stuck connecting, and its result comes back on the app's side")
    func localWorkNeverWaitsForTheNetwork() throws {
        // A server that does not answer: the network worker hangs in its connect, its request waiting.
        let connecting = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        // The backend wakes the app's thread whenever a completion waits for it.
        let woken = DispatchSemaphore(value: 0)
        let backend = AppBackend(
            connect: { () throws(ClientError) -> SnapshareSession in
                connecting.signal()
                release.wait()
                throw ClientError(.connection, "unreachable")
            }, wake: { woken.signal() })
        defer {
            backend.stop()
            release.signal()
        }
        var requestRan = false
        var local: Result<Int, ClientError>?
        backend.perform(retry: true, { _ throws(ClientError) in 1 }, then: { _ in requestRan = true })
        #expect(connecting.wait(timeout: .now() + 30) == .success, "the network worker is connecting")
        backend.performLocal({ () throws(ClientError) in 6 * 7 }, then: { local = $0 })
        // Completions run where the app takes them, when woken; the deadline only keeps a broken
        // backend from hanging the run.
        let deadline = DispatchTime.now() + 30
        while local == nil && woken.wait(timeout: deadline) == .success {
            for completion in backend.takeCompletions() { completion() }
        }
        #expect(try local?.get() == 42)
        #expect(!requestRan, "the request still waits for the server")
    }
}
