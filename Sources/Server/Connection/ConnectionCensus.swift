/// Who holds how many connections: per source address (all of them, and those not logged in)
/// and per user, so one address or one account cannot take the server from everyone else.
/// Loop thread only; a value, so tests can drive it.
struct ConnectionCensus {
    /// Why a new connection was turned away at accept.
    enum Refusal: Equatable {
        /// The address already has its cap of connections that have not logged in.
        case anonymous
        /// The address already has its cap of connections.
        case total
    }

    private struct AddressLoad {
        var total = 0
        var anonymous = 0
    }

    private var addresses: [String: AddressLoad] = [:]
    /// Each user's connection ids, oldest login first.
    private var users: [Int64: [UInt64]] = [:]
    /// Connections that have not logged in, and the order they became so (ids that logged in or
    /// closed meanwhile are skipped when met).
    private var anonymous: Set<UInt64> = []
    private var anonymousOrder: [UInt64] = []
    private var anonymousHead = 0
    /// Refusals since the last report, per address.
    private var refusals: [String: (count: Int, reason: Refusal)] = [:]
    private var lastReport: Int64 = 0

    var anonymousCount: Int { anonymous.count }

    /// Whether a connection from `address` must be refused before its handshake.
    func refusal(address: String, configuration: ServerConfiguration) -> Refusal? {
        guard let load = addresses[address] else { return nil }
        if load.anonymous >= configuration.maxAnonymousConnectionsPerAddress { return .anonymous }
        if load.total >= configuration.maxConnectionsPerAddress { return .total }
        return nil
    }

    mutating func opened(id: UInt64, address: String) {
        addresses[address, default: AddressLoad()].total += 1
        addresses[address, default: AddressLoad()].anonymous += 1
        becameAnonymous(id)
    }

    mutating func closed(id: UInt64, address: String, userID: Int64?) {
        if var load = addresses[address] {
            load.total -= 1
            if userID == nil { load.anonymous -= 1 }
            addresses[address] = load.total > 0 ? load : nil
        }
        if let userID { forget(id: id, userID: userID) } else { anonymous.remove(id) }
    }

    /// A connection logged in (`to` set), out (`to` nil), or in as someone else.
    mutating func moved(id: UInt64, address: String, from: Int64?, to: Int64?) {
        if let from {
            forget(id: id, userID: from)
        } else {
            anonymous.remove(id)
            addresses[address]?.anonymous -= 1
        }
        if let to {
            users[to, default: []].append(id)
        } else {
            addresses[address]?.anonymous += 1
            becameAnonymous(id)
        }
    }

    /// The user's connection ids, oldest login first.
    func connections(ofUser userID: Int64) -> [UInt64] { users[userID] ?? [] }

    mutating func forget(id: UInt64, userID: Int64) {
        users[userID]?.removeAll { $0 == id }
        if users[userID]?.isEmpty == true { users[userID] = nil }
    }

    /// The oldest connection that has not logged in, taken off the shedding order.
    mutating func oldestAnonymous() -> UInt64? {
        while anonymousHead < anonymousOrder.count {
            let id = anonymousOrder[anonymousHead]
            anonymousHead += 1
            if anonymous.contains(id) { return id }
        }
        return nil
    }

    private mutating func becameAnonymous(_ id: UInt64) {
        anonymous.insert(id)
        if anonymousHead > 1024 && anonymousHead * 2 > anonymousOrder.count {
            anonymousOrder.removeFirst(anonymousHead)
            anonymousHead = 0
        }
        anonymousOrder.append(id)
    }

    mutating func noteRefused(address: String, reason: Refusal) {
        refusals[address, default: (0, reason)].count += 1
        refusals[address]?.reason = reason
    }

    /// Log lines for the refusals of the last ten seconds (one per address), then forgets them:
    /// a flood is reported, not logged connection by connection.
    mutating func refusalReport(now: Int64) -> [String] {
        guard !refusals.isEmpty, now - lastReport >= 10_000 else { return [] }
        lastReport = now
        defer { refusals = [:] }
        return refusals.sorted { $0.key < $1.key }.map { address, entry in
            let why =
                switch entry.reason {
                case .anonymous: "its cap of connections that have not logged in (--max-anonymous-per-address)"
                case .total: "its cap of connections (--max-connections-per-address)"
                }
            return "refused \(entry.count) connections from \(address): the address has \(why)"
        }
    }
}
