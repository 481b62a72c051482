import Shared

extension RequestHandler {
    /// Routes pin, album, photo and map requests; nil for any other type.
    func routePins(_ frame: Frame, _ context: RequestContext) async throws -> HandlerOutcome? {
        nil
    }
}
