import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// HTTP GETs for remote photo sources, through URLSession (FoundationNetworking on Linux), with
/// a timeout and a cap on the body size checked while it arrives: a body larger than the cap is
/// cut off as soon as it passes it (or at once, when Content-Length already says so), never
/// buffered whole. No cookies, no cache, no stored credentials.
final class HTTPFetcher: Sendable {
    /// A finished response.
    struct Response: Sendable {
        var status: Int
        var body: [UInt8]
    }

    /// Why there is no response.
    enum Failure: Error, Sendable, Equatable {
        /// Nothing arrived for the timeout, or the whole transfer took far too long.
        case timedOut
        /// The body is larger than the cap.
        case tooLarge
        /// The connection failed; the text says how, without the URL.
        case network(String)
    }

    private let session: URLSession
    private let delegate: Delegate
    let timeoutSeconds: Double

    /// A fetcher whose requests give up after `timeoutSeconds` without data, and after four
    /// times that in total.
    init(timeoutSeconds: Double) {
        self.timeoutSeconds = timeoutSeconds
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeoutSeconds
        configuration.timeoutIntervalForResource = timeoutSeconds * 4
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.urlCredentialStorage = nil
        configuration.httpAdditionalHeaders = ["User-Agent": "snapshare-server"]
        delegate = Delegate()
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        // The session keeps its delegate alive until invalidated, which `deinit` does.
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
    }

    deinit { session.invalidateAndCancel() }

    /// GETs `url`, keeping at most `maxBytes` of body.
    func get(_ url: URL, maxBytes: Int) async throws(Failure) -> Response {
        var request = URLRequest(url: url)
        request.httpMethod = "GET"
        request.timeoutInterval = timeoutSeconds
        let task = session.dataTask(with: request)
        let result: Result<Response, Failure> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                delegate.register(task, maxBytes: maxBytes, continuation: continuation)
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
        return try result.get()
    }

    /// Collects each task's bytes and finishes its continuation; URLSession calls it on the
    /// session's serial queue, the async side registers tasks from anywhere, hence the lock.
    private final class Delegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        private struct Transfer {
            var maxBytes: Int
            var body: [UInt8] = []
            var status = 0
            var overflowed = false
            var continuation: CheckedContinuation<Result<Response, Failure>, Never>
        }

        private let lock = NSLock()
        private var transfers: [Int: Transfer] = [:]

        func register(_ task: URLSessionTask, maxBytes: Int, continuation: CheckedContinuation<Result<Response, Failure>, Never>) {
            lock.withLock { transfers[task.taskIdentifier] = Transfer(maxBytes: maxBytes, continuation: continuation) }
        }

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
        ) {
            let tooLarge: Bool = lock.withLock {
                guard var transfer = transfers[dataTask.taskIdentifier] else { return false }
                transfer.status = (response as? HTTPURLResponse)?.statusCode ?? 0
                let declared = response.expectedContentLength
                if declared > Int64(transfer.maxBytes) { transfer.overflowed = true }
                transfers[dataTask.taskIdentifier] = transfer
                return transfer.overflowed
            }
            completionHandler(tooLarge ? .cancel : .allow)
        }

        /// Follows redirects except from https to anything else: the query may hold an API key.
        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
        ) {
            let downgrade = task.originalRequest?.url?.scheme?.lowercased() == "https" && request.url?.scheme?.lowercased() != "https"
            // nil keeps the redirect response itself, which then fails as a non-2xx status.
            completionHandler(downgrade ? nil : request)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            let tooLarge: Bool = lock.withLock {
                guard var transfer = transfers[dataTask.taskIdentifier], !transfer.overflowed else { return false }
                if transfer.body.count + data.count > transfer.maxBytes {
                    transfer.overflowed = true
                    transfer.body = []
                } else {
                    transfer.body.append(contentsOf: data)
                }
                transfers[dataTask.taskIdentifier] = transfer
                return transfer.overflowed
            }
            if tooLarge { dataTask.cancel() }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            guard let transfer = lock.withLock({ transfers.removeValue(forKey: task.taskIdentifier) }) else { return }
            if transfer.overflowed {
                transfer.continuation.resume(returning: .failure(.tooLarge))
            } else if let error {
                transfer.continuation.resume(returning: .failure(Self.failure(error)))
            } else {
                transfer.continuation.resume(returning: .success(Response(status: transfer.status, body: transfer.body)))
            }
        }

        /// A URLSession error in words, without the URL (which holds the API key).
        private static func failure(_ error: any Error) -> Failure {
            guard let urlError = error as? URLError else { return .network("the connection failed") }
            switch urlError.code {
            case .timedOut: return .timedOut
            case .cannotFindHost, .dnsLookupFailed: return .network("the host name could not be resolved")
            case .cannotConnectToHost: return .network("the connection was refused")
            case .notConnectedToInternet: return .network("this machine is not connected to the internet")
            case .networkConnectionLost: return .network("the connection was lost in the middle of the answer")
            case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
                .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
                return .network("the TLS connection failed (certificate or handshake)")
            case .cancelled: return .network("the request was cancelled")
            case .httpTooManyRedirects, .redirectToNonExistentLocation: return .network("too many or broken redirects")
            case .badServerResponse, .cannotParseResponse: return .network("the answer was not valid HTTP")
            default: return .network("network error \(urlError.code.rawValue)")
            }
        }
    }
}
