/// What the metrics listener answers: `GET /metrics` (the Prometheus page) and `GET /health`
/// (200 `ok`, or 503 with why); 404 for other paths, 405 for other methods.
struct MonitoringEndpoints: Sendable {
    let metrics: ServerMetrics
    let storage: StorageExecutor
    let albums: Albums
    let health: HealthProbe
    /// Whether the server is serving its clients now (started, not stopping).
    let listening: @Sendable () -> Bool

    func respond(to head: HTTPRequestHead) -> HTTPResponse {
        guard head.path == "/metrics" || head.path == "/health" else {
            return .text(404, "Not Found", "no such page; try /metrics or /health")
        }
        guard head.method == "GET" else { return .text(405, "Method Not Allowed", "only GET", headers: [("Allow", "GET")]) }
        if head.path == "/health" {
            guard let problem = health.problem(listening: listening()) else { return .text(200, "OK", "ok") }
            return .text(503, "Service Unavailable", problem)
        }
        return HTTPResponse(
            status: 200, reason: "OK", contentType: PrometheusText.contentType,
            body: metrics.exposition(storage: storage, albums: albums))
    }
}
