import Shared

extension RequestHandler {
    /// Routes favorite-movie requests; nil for any other type.
    func routeMovies(_ frame: Frame, _ context: RequestContext) async throws -> HandlerOutcome? {
        nil
    }
}
