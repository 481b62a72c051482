import SQL

/// Each user's saved map view, one row per user.
extension SQLStore: MapStateStore {
    package func mapState(userID: Int64) throws -> MapStateRecord? {
        try translatingErrors("reading map state") {
            try sql.queryFirst("SELECT center_latitude, center_longitude, zoom FROM map_states WHERE user_id = \(userID)") {
                MapStateRecord(
                    centerLatitude: $0.double("center_latitude"), centerLongitude: $0.double("center_longitude"),
                    zoom: $0.double("zoom"))
            }
        }
    }

    package func saveMapState(_ state: MapStateRecord, userID: Int64, at: Int64) throws {
        try translatingErrors("saving map state") {
            try sql.execute(
                """
                INSERT INTO map_states (user_id, center_latitude, center_longitude, zoom, updated_at)
                VALUES (\(userID), \(state.centerLatitude), \(state.centerLongitude), \(state.zoom), \(at))
                ON CONFLICT (user_id) DO UPDATE SET center_latitude = excluded.center_latitude,
                    center_longitude = excluded.center_longitude, zoom = excluded.zoom, updated_at = excluded.updated_at
                """)
        }
    }
}
