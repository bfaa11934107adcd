import Foundation

/// Runs a producer of batches on a thread of its own while the calling thread consumes them,
/// in order, with at most `capacity` batches waiting: an import reads and parses the next
/// cards while SQLite saves the previous ones (measured: the two halves of an import take
/// about the same time, and the machines this runs on have at least two cores).
///
/// The consumer stays on the calling thread, so progress reports, the store's transaction
/// and everything else the caller touches stay where they were. If the consumer fails, the
/// producer is stopped (its next hand-off throws) and waited for before the error is rethrown;
/// if the producer fails, its error is rethrown here after the batches before it were consumed.
enum BatchPipe {
    struct Stopped: Error {}

    static func run<Batch>(
        capacity: Int = 2,
        produce: @escaping (_ send: (Batch) throws -> Void) throws -> Void,
        consume: (Batch) throws -> Void
    ) throws {
        let state = State<Batch>(capacity: max(1, capacity))
        let thread = Thread {
            do {
                try produce { batch in try state.put(batch) }
                state.finish(nil)
            } catch {
                state.finish(error)
            }
        }
        thread.stackSize = 8 << 20
        thread.start()
        do {
            while let batch = try state.take() {
                try consume(batch)
                state.spend(batch)
            }
            // What the producer had no further hand-off to free is freed here, before returning.
            state.freeSpent()
        } catch {
            state.stop()
            state.waitUntilFinished()
            throw error
        }
    }

    /// The other way round: the calling thread produces and a thread of its own consumes, for a
    /// consumer that holds something the whole time (a sync's write transaction) while the
    /// calling thread, the only one that may report progress or ask whether to stop, produces.
    /// Returns what the consumer returned. If the consumer fails, the producer's next hand-off
    /// throws and the consumer's error is rethrown; if the producer fails, the consumer's next
    /// `next()` throws that error, and once the consumer has stopped it is rethrown here.
    /// `send` may be handed to another thread of the producer's (a sync decides on one), as long
    /// as that thread is done before `produce` returns.
    static func runConsumingElsewhere<Batch, Value>(
        capacity: Int = 2,
        consume: @escaping (_ next: () throws -> Batch?) throws -> Value,
        produce: (_ send: @escaping (Batch) throws -> Void) throws -> Void
    ) throws -> Value {
        let state = State<Batch>(capacity: max(1, capacity))
        let outcome = Outcome<Value>()
        let thread = Thread {
            let result = Result { try consume { try state.take() } }
            // Whatever the consumer left (nothing, after its last batch) is not waited for.
            state.stop()
            outcome.set(result)
        }
        thread.stackSize = 8 << 20
        thread.start()
        var failure: Error?
        do {
            try produce { batch in try state.put(batch) }
            state.finish(nil)
        } catch {
            failure = error
            state.finish(error)
        }
        let result = outcome.wait()
        // The producer's own error as it was (the consumer may have wrapped it in its own), unless
        // it only stopped because the consumer had failed.
        if case .failure = result, let failure, !(failure is Stopped) { throw failure }
        return try result.get()
    }

    /// The consumer thread's result, waited for by the calling thread.
    private final class Outcome<Value>: @unchecked Sendable {
        private let condition = NSCondition()
        private var result: Result<Value, Error>?

        func set(_ value: Result<Value, Error>) {
            condition.lock()
            result = value
            condition.broadcast()
            condition.unlock()
        }

        func wait() -> Result<Value, Error> {
            condition.lock()
            defer { condition.unlock() }
            while true {
                if let result { return result }
                condition.wait()
            }
        }
    }

    private final class State<Batch>: @unchecked Sendable {
        private let condition = NSCondition()
        private var queue: [Batch] = []
        private let capacity: Int
        private var finished = false
        private var failure: Error?
        private var stopped = false

        init(capacity: Int) { self.capacity = capacity }

        /// Batches the consumer is done with, freed by the producer (`put`): the consumer is the
        /// import's busier thread (SQLite), and freeing a batch's contacts and prepared rows was
        /// about 6 % of it (bench/FINDINGS.md, issue 32). At most `capacity` + 1 wait here.
        private var spent: [Batch] = []

        /// Producer: waits for room; throws `Stopped` once the consumer has given up.
        func put(_ batch: Batch) throws {
            var freed: [Batch] = []
            defer { freed.removeAll() } // after the lock is given back, on this thread
            condition.lock()
            defer { condition.unlock() }
            while queue.count >= capacity && !stopped { condition.wait() }
            if stopped { throw Stopped() }
            queue.append(batch)
            swap(&freed, &spent)
            condition.broadcast()
        }

        /// Consumer: hands a consumed batch back, to be freed on the producer's thread.
        func spend(_ batch: Batch) {
            condition.lock()
            if !finished { spent.append(batch) }
            condition.unlock()
        }

        /// Consumer, at the end: frees the batches still waiting for the producer.
        func freeSpent() {
            var freed: [Batch] = []
            condition.lock()
            swap(&freed, &spent)
            condition.unlock()
            freed.removeAll()
        }

        func finish(_ error: Error?) {
            condition.lock()
            finished = true
            failure = error
            condition.broadcast()
            condition.unlock()
        }

        /// Consumer: the next batch, nil at the end, or the producer's error.
        func take() throws -> Batch? {
            condition.lock()
            defer { condition.unlock() }
            while queue.isEmpty && !finished { condition.wait() }
            if !queue.isEmpty {
                condition.broadcast()
                return queue.removeFirst()
            }
            if let failure { throw failure }
            return nil
        }

        func stop() {
            condition.lock()
            stopped = true
            queue.removeAll()
            spent.removeAll()
            condition.broadcast()
            condition.unlock()
        }

        func waitUntilFinished() {
            condition.lock()
            while !finished { condition.wait() }
            condition.unlock()
        }
    }
}
