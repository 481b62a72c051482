import Testing

@testable import Server

/// What every engine's `MapStateStore` does.
@Suite("Map state store contract")
struct MapStateStoreContract {
    @Test("the map view is per user, absent until saved, and replaced by the next save", arguments: StoreEngine.all)
    func mapStateIsPerUser(engine: StoreEngine) throws {
        try engine.withStore { store in
            let fixture = try StoreFixture(store: store)
            #expect(try store.mapState(userID: fixture.alice.id) == nil)
            try store.saveMapState(MapStateRecord(centerLatitude: 10, centerLongitude: 20, zoom: 3), userID: fixture.alice.id, at: 1)
            try store.saveMapState(MapStateRecord(centerLatitude: -5, centerLongitude: 7.5, zoom: 12), userID: fixture.alice.id, at: 2)
            #expect(try store.mapState(userID: fixture.alice.id) == MapStateRecord(centerLatitude: -5, centerLongitude: 7.5, zoom: 12))
            #expect(try store.mapState(userID: fixture.bob.id) == nil)
        }
    }

    @Test("a center outside the globe or a zoom outside 1...64 is refused and the saved view stays", arguments: StoreEngine.all)
    func valuesOutOfRangeAreRefused(engine: StoreEngine) throws {
        try engine.withStore { store in
            let fixture = try StoreFixture(store: store)
            let saved = MapStateRecord(centerLatitude: 1, centerLongitude: 2, zoom: 64)
            try store.saveMapState(saved, userID: fixture.alice.id, at: 1)
            for wrong in [
                MapStateRecord(centerLatitude: 0, centerLongitude: 0, zoom: 0.5),
                MapStateRecord(centerLatitude: 0, centerLongitude: 0, zoom: 64.5),
                MapStateRecord(centerLatitude: 91, centerLongitude: 0, zoom: 2),
                MapStateRecord(centerLatitude: 0, centerLongitude: 180.5, zoom: 2),
            ] {
                #expect(storeErrorKind { try store.saveMapState(wrong, userID: fixture.alice.id, at: 2) } != nil, "\(wrong)")
            }
            #expect(try store.mapState(userID: fixture.alice.id) == saved)
        }
    }
}
