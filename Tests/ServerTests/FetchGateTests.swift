import Synchronization
import Testing

@testable import Server

/// Waits (yielding) until `condition` holds; the bound only turns a hang into a failure.
private func eventually(_ condition: () -> Bool) async {
    var rounds = 0
    while !condition() && rounds < 1_000_000 {
        await Task.yield()
        rounds += 1
    }
    #expect(condition())
}

@Suite("Fetch gate and permits")
struct FetchGateTests {
    @Test("an open gate lets every fetch through at once")
    func openGateLetsThrough() async throws {
        let gate = FetchGate()
        try await gate.pass()
        try await gate.pass()
        #expect(gate.heldCount == 0)
    }

    @Test("a paused gate holds fetches and lets exactly as many through as allowed")
    func pausedGateCountsAllowances() async throws {
        let gate = FetchGate()
        gate.pause()
        let passed = Tally()
        let tasks = (0..<3).map { _ in
            Task {
                try await gate.pass()
                passed.add()
            }
        }
        await eventually { gate.heldCount == 3 }
        gate.allow(1)
        await eventually { passed.value == 1 }
        #expect(gate.heldCount == 2)
        gate.allow(5)
        await eventually { passed.value == 3 }
        // The unused allowance lets later fetches through while still paused.
        try await gate.pass()
        for task in tasks { try await task.value }
    }

    @Test("a held fetch that is cancelled stops waiting and leaves the gate")
    func cancelledFetchLeaves() async {
        let gate = FetchGate()
        gate.pause()
        let task = Task { try await gate.pass() }
        await eventually { gate.heldCount == 1 }
        task.cancel()
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(gate.heldCount == 0)
    }

    @Test("opening the gate releases everyone held")
    func openingReleasesAll() async throws {
        let gate = FetchGate()
        gate.pause()
        let tasks = (0..<4).map { _ in Task { try await gate.pass() } }
        await eventually { gate.heldCount == 4 }
        gate.open()
        for task in tasks { try await task.value }
    }

    @Test("permits admit at most their limit and hand a returned permit to the longest waiter")
    func permitsBoundConcurrency() async throws {
        let permits = FetchPermits(limit: 2)
        try await permits.acquire()
        try await permits.acquire()
        let admitted = Tally()
        let waiter = Task {
            try await permits.acquire()
            admitted.add()
        }
        let cancelled = Task { try await permits.acquire() }
        cancelled.cancel()
        let outcome = await cancelled.result
        #expect(throws: CancellationError.self) { try outcome.get() }
        #expect(admitted.value == 0)
        permits.release()
        try await waiter.value
        #expect(admitted.value == 1)
    }
}
