import Foundation
import XCTest
@testable import ContactsApp

/// `BatchPipe.runConsumingElsewhere`: this thread produces, a thread of its own consumes.
final class BatchPipeConsumingElsewhereTests: XCTestCase {
    struct Failure: Error, Equatable { var name: String }

    func test_everyBatchIsConsumedInOrder_andTheConsumersValueReturned() throws {
        // When
        let total = try BatchPipe.runConsumingElsewhere(consume: { (next: () throws -> [Int]?) -> [Int] in
            var seen: [Int] = []
            while let batch = try next() { seen += batch }
            return seen
        }, produce: { send in
            for start in stride(from: 0, to: 100, by: 10) { try send(Array(start..<start + 10)) }
        })

        // Then
        XCTAssertEqual(total, Array(0..<100))
    }

    func test_theProducerFailing_reachesTheConsumer_andIsRethrownAsItWas() {
        // Given
        let consumed = Locked<[Int]>([])

        // When
        XCTAssertThrowsError(try BatchPipe.runConsumingElsewhere(consume: { (next: () throws -> Int?) -> Void in
            do {
                while let batch = try next() { consumed.mutate { $0.append(batch) } }
            } catch {
                throw Failure(name: "wrapped by the consumer: \(error)")
            }
        }, produce: { send in
            try send(1)
            try send(2)
            throw Failure(name: "server gone")
        })) { error in
            // Then
            XCTAssertEqual(error as? Failure, Failure(name: "server gone"))
        }
        XCTAssertEqual(consumed.value, [1, 2])
    }

    func test_theConsumerFailing_stopsTheProducer_andItsErrorIsRethrown() {
        // Given
        let sent = Locked(0)

        // When
        XCTAssertThrowsError(try BatchPipe.runConsumingElsewhere(capacity: 1, consume: { (next: () throws -> Int?) -> Void in
            _ = try next()
            throw Failure(name: "disk full")
        }, produce: { send in
            for batch in 0..<1_000 {
                try send(batch)
                sent.mutate { $0 += 1 }
            }
        })) { error in
            // Then
            XCTAssertEqual(error as? Failure, Failure(name: "disk full"))
        }
        XCTAssertLessThan(sent.value, 1_000)
    }

    /// A value both threads touch.
    final class Locked<Value>: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: Value
        init(_ value: Value) { stored = value }
        var value: Value { lock.lock(); defer { lock.unlock() }; return stored }
        func mutate(_ change: (inout Value) -> Void) { lock.lock(); change(&stored); lock.unlock() }
    }
}
