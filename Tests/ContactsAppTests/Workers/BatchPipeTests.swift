import Foundation
import XCTest

@testable import ContactsApp

/// `BatchPipe.runConsumingElsewhere`: this thread produces, a thread of its own consumes.
final class BatchPipeConsumingElsewhereTests: XCTestCase {
    struct Failure: Error, Equatable { var name: String }

    func test_everyBatchIsConsumedInOrder_andTheConsumersValueReturned() throws {
        // When
        let total = try BatchPipe.runConsumingElsewhere(
            consume: { (next: () throws -> [Int]?) -> [Int] in
                var seen: [Int] = []
                while let batch = try next() { seen += batch }
                return seen
            },
            produce: { send in
                for start in stride(from: 0, to: 100, by: 10) { try send(Array(start..<start + 10)) }
            })

        // Then
        XCTAssertEqual(total, Array(0..<100))
    }

    func test_theProducerFailing_reachesTheConsumer_andIsRethrownAsItWas() {
        // Given
        let consumed = Locked<[Int]>([])

        // When
        XCTAssertThrowsError(
            try BatchPipe.runConsumingElsewhere(
                consume: { (next: () throws -> Int?) -> Void in
                    do {
                        while let batch = try next() { consumed.mutate { $0.append(batch) } }
                    } catch {
                        throw Failure(name: "wrapped by the consumer: \(error)")
                    }
                },
                produce: { send in
                    try send(1)
                    try send(2)
                    throw Failure(name: "server gone")
                })
        ) { error in
            // Then
            XCTAssertEqual(error as? Failure, Failure(name: "server gone"))
        }
        XCTAssertEqual(consumed.value, [1, 2])
    }

    func test_theConsumerFailing_stopsTheProducer_andItsErrorIsRethrown() {
        // Given
        let sent = Locked(0)

        // When
        XCTAssertThrowsError(
            try BatchPipe.runConsumingElsewhere(
                capacity: 1,
                consume: { (next: () throws -> Int?) -> Void in
                    _ = try next()
                    throw Failure(name: "disk full")
                },
                produce: { send in
                    for batch in 0..<1_000 {
                        try send(batch)
                        sent.mutate { $0 += 1 }
                    }
                })
        ) { error in
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

/// `BatchPipe.run`: a thread of its own produces, this thread consumes.
final class BatchPipeRunTests: XCTestCase {
    /// A batch that tells which thread freed it.
    final class Batch: @unchecked Sendable {
        let number: Int
        let freed: BatchPipeConsumingElsewhereTests.Locked<[(number: Int, onProducer: Bool)]>
        let producer: BatchPipeConsumingElsewhereTests.Locked<Thread?>
        init(
            _ number: Int, freed: BatchPipeConsumingElsewhereTests.Locked<[(number: Int, onProducer: Bool)]>,
            producer: BatchPipeConsumingElsewhereTests.Locked<Thread?>
        ) {
            self.number = number; self.freed = freed; self.producer = producer
        }
        deinit {
            let onProducer = producer.value.map { $0 == Thread.current } ?? false
            freed.mutate { $0.append((number, onProducer)) }
        }
    }

    func test_everyBatchIsConsumedInOrder_andFreedByTheProducerOnceConsumed() throws {
        // Given
        let freed = BatchPipeConsumingElsewhereTests.Locked<[(number: Int, onProducer: Bool)]>([])
        let producer = BatchPipeConsumingElsewhereTests.Locked<Thread?>(nil)
        var consumed: [Int] = []

        // When
        try BatchPipe.run(
            capacity: 2,
            produce: { send in
                producer.mutate { $0 = Thread.current }
                for number in 1...20 { try send(Batch(number, freed: freed, producer: producer)) }
            }, consume: { (batch: Batch) in consumed.append(batch.number) })

        // Then: all consumed in order and all freed; every batch consumed while the producer still
        // had at least capacity + 2 batches to send was freed on its thread (the saving thread of
        // an import frees none of those)
        XCTAssertEqual(consumed, Array(1...20))
        XCTAssertEqual(freed.value.map(\.number).sorted(), Array(1...20))
        XCTAssertEqual(freed.value.filter { $0.number <= 16 }.filter { !$0.onProducer }.map(\.number), [])
    }
}
