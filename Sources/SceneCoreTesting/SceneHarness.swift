import Foundation
import SceneCore
import XCTest

/// Drives a session in tests and makes the test account for every output.
///
/// Send one input, then `receive` each ViewModel displayed and `receiveRoute` each route taken,
/// in order. Anything left unasserted fails the next `send` and `finish()`, so a scene cannot
/// display or navigate more than its test expects.
public final class SceneHarness {
    public let session: Session
    private var pendingViewModels: [any ViewModel] = []
    private var pendingRoutes: [Route] = []
    private var lastInput = ""
    /// Where failures are reported: XCTFail, or a capturing closure when testing the harness itself.
    private let fail: (String, StaticString, UInt) -> Void

    /// - Parameter fail: reports a failure with its message, file and line; XCTFail unless replaced.
    public init(
        session: Session,
        fail: @escaping (String, StaticString, UInt) -> Void = { XCTFail($0, file: $1, line: $2) }
    ) {
        self.session = session
        self.fail = fail
    }

    /// Sends a command line, as the line session and the REPL do.
    public func send(_ line: String, file: StaticString = #filePath, line number: UInt = #line) {
        checkNothingPending(file: file, line: number)
        record(session.handle(line: line), input: line)
    }

    /// Sends a checked action, as the JSON-RPC front does.
    public func send(
        _ call: ActionCall, inScene sceneID: String? = nil,
        file: StaticString = #filePath, line number: UInt = #line
    ) {
        checkNothingPending(file: file, line: number)
        record(session.run(call, inScene: sceneID), input: call.name)
    }

    /// Asserts the next displayed ViewModel equals `expected`.
    public func receive<V: ViewModel & Equatable>(_ expected: V, file: StaticString = #filePath, line: UInt = #line) {
        guard !pendingViewModels.isEmpty else {
            return fail("'\(lastInput)' displayed nothing more; expected \(describe(expected))", file, line)
        }
        let actual = pendingViewModels.removeFirst()
        guard let typed = actual as? V else {
            return fail("'\(lastInput)' displayed \(describe(actual)); expected \(describe(expected))", file, line)
        }
        if typed != expected {
            fail(
                "'\(lastInput)' displayed a different \(V.kind):\n  actual:   \(describe(typed))\n  expected: \(describe(expected))",
                file, line)
        }
    }

    /// Asserts the next displayed ViewModel is of type `V` and returns it for closer checks.
    @discardableResult
    public func receive<V: ViewModel>(_ type: V.Type, file: StaticString = #filePath, line: UInt = #line) -> V? {
        guard !pendingViewModels.isEmpty else {
            fail("'\(lastInput)' displayed nothing more; expected a \(V.kind)", file, line)
            return nil
        }
        let actual = pendingViewModels.removeFirst()
        guard let typed = actual as? V else {
            fail("'\(lastInput)' displayed \(describe(actual)); expected a \(V.kind)", file, line)
            return nil
        }
        return typed
    }

    /// Asserts the next route taken.
    public func receiveRoute(_ expected: Route, file: StaticString = #filePath, line: UInt = #line) {
        guard !pendingRoutes.isEmpty else {
            return fail("'\(lastInput)' took no more routes; expected \(expected)", file, line)
        }
        let actual = pendingRoutes.removeFirst()
        if actual != expected {
            fail("'\(lastInput)' took another route:\n  actual:   \(actual)\n  expected: \(expected)", file, line)
        }
    }

    /// The ids of the stack, root first.
    public var stackIDs: [String] { session.stack.scenes.map(\.descriptor.id) }

    /// Fails if any output of the last input was not asserted.
    public func finish(file: StaticString = #filePath, line: UInt = #line) {
        checkNothingPending(file: file, line: line)
    }

    private func record(_ outcome: Outcome, input: String) {
        pendingViewModels = outcome.displayed
        pendingRoutes = outcome.routes
        lastInput = input
    }

    private func checkNothingPending(file: StaticString, line: UInt) {
        for viewModel in pendingViewModels {
            fail("'\(lastInput)' displayed \(describe(viewModel)), which the test did not assert", file, line)
        }
        for route in pendingRoutes {
            fail("'\(lastInput)' took the route \(route), which the test did not assert", file, line)
        }
        pendingViewModels = []
        pendingRoutes = []
    }

    private func describe(_ viewModel: any ViewModel) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = (try? encoder.encode(viewModel)).flatMap { String(data: $0, encoding: .utf8) } ?? "?"
        return "\(type(of: viewModel).kind) \(json)"
    }
}
