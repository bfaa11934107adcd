import SceneCore

/// A sync's transport that stops it between two requests once the client that asked for the
/// sync has asked to stop (`ProgressReporter.isCancelled`: JSON-RPC's `$/cancelRequest`, MCP's
/// `notifications/cancelled`).
///
/// Every step of a sync is a request, and the sync keeps nothing half-done when one fails: the
/// pull is one transaction, committed after its last download, and each push is recorded as
/// soon as the server took it, so the next sync goes on from there. Checking here rather than in
/// the sync's own steps keeps the sync unaware of who may cancel it. Inside a slow request, the
/// transport itself looks (`DAVTransports.standard(isCancelled:)`).
final class CancellableTransport: DAVTransport {
    private let transport: DAVTransport
    private let progress: ProgressReporter

    init(_ transport: DAVTransport, progress: ProgressReporter) {
        self.transport = transport; self.progress = progress
    }

    func send(_ request: DAVRequest) throws -> DAVResponse {
        if progress.isCancelled { throw DAVError.cancelled }
        return try transport.send(request)
    }

    func send(_ request: DAVRequest, receiving receiver: DAVBodyReceiver) throws -> DAVResponse {
        if progress.isCancelled { throw DAVError.cancelled }
        return try transport.send(request, receiving: receiver)
    }
}
