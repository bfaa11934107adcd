import Foundation
import JSONBytes
import SceneCore
import XCTest

@testable import SceneRPC

/// The loop over real descriptors: the whole input is written to a pipe and closed first, so the
/// test needs no threads or timing.
final class RPCServerFileDescriptorTests: XCTestCase {
    private func pipePair() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw POSIXError(.EIO) }
        return (fds[0], fds[1])
    }

    func test_run_answersEveryFrameAndEndsAtEOF() throws {
        // Given
        let fixture = RPCFixture()
        let input = try pipePair(), output = try pipePair()
        let bytes =
            RPCSeeds.contentLengthFrame(RPCSeeds.initialize)
            + RPCSeeds.contentLengthFrame(RPCSeeds.request(1, "session/stack"))
        XCTAssertTrue(RPCServer.writeWhole(bytes, to: input.write))
        close(input.write)
        // When
        let status = fixture.sut.run(input: input.read, output: output.write)
        close(input.read); close(output.write)
        // Then
        var written: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while case let count = read(output.read, &chunk, chunk.count), count > 0 { written += chunk[0..<count] }
        close(output.read)
        XCTAssertEqual(status, 0)
        let text = String(decoding: written, as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("Content-Length: "), text)
        var reader = FrameReader()
        let ids = reader.push(written).compactMap { event -> JSONValue? in
            guard case .message(let body) = event else { return nil }
            return try? JSONValue.parse(body)["id"]
        }
        XCTAssertEqual(ids, [0, 1])
    }

    func test_run_withTheWholeInputThere_neverRunsBeforeWaiting() throws {
        // Given: a script's input, to its end, before the server starts
        let fixture = RPCFixture()
        let input = try pipePair(), output = try pipePair()
        XCTAssertTrue(RPCServer.writeWhole(RPCSeeds.line(RPCSeeds.initialize), to: input.write))
        close(input.write)
        var waited = 0, asked = 0
        let folder = NSTemporaryDirectory() + "rpc-watch-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let watch = try XCTUnwrap(
            ChangeWatch(file: folder + "/book.sqlite", armed: false) {
                asked += 1
                return []
            })
        // When
        let status = fixture.sut.run(
            input: input.read, output: output.write, watch: watch, beforeWaiting: { waited += 1 })
        close(input.read); close(output.write); close(output.read)
        // Then: answered and ended without ever waiting, nor arming the watch
        XCTAssertEqual(status, 0)
        XCTAssertEqual(waited, 0)
        XCTAssertEqual(watch.descriptor, -1)
        XCTAssertEqual(asked, 0)
    }

    func test_run_aboutToWaitForInput_runsBeforeWaitingOnce_afterTheAnswersDue() throws {
        // Given: a client that sends initialize and keeps its input open
        let fixture = RPCFixture()
        let input = try pipePair(), output = try pipePair()
        XCTAssertTrue(RPCServer.writeWhole(RPCSeeds.line(RPCSeeds.initialize), to: input.write))
        var waited = 0, asked = 0
        var answeredFirst = false
        let folder = NSTemporaryDirectory() + "rpc-watch-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let watch = try XCTUnwrap(
            ChangeWatch(file: folder + "/book.sqlite", armed: false) {
                asked += 1
                return []
            })
        // When: the server is about to wait, the hook sees the answer out, then sends one more
        // request and ends the input (so the loop ends without a second thread)
        let status = fixture.sut.run(
            input: input.read, output: output.write, watch: watch,
            beforeWaiting: {
                waited += 1
                var ready = pollfd(fd: output.read, events: Int16(POLLIN), revents: 0)
                answeredFirst = poll(&ready, 1, 0) == 1
                XCTAssertTrue(
                    RPCServer.writeWhole(RPCSeeds.line(RPCSeeds.request(1, "session/stack")), to: input.write))
                close(input.write)
            })
        close(input.read); close(output.write)
        var written: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while case let count = read(output.read, &chunk, chunk.count), count > 0 { written += chunk[0..<count] }
        close(output.read)
        // Then: run once, after initialize was answered; both requests answered
        XCTAssertEqual(status, 0)
        XCTAssertEqual(waited, 1)
        XCTAssertTrue(answeredFirst)
        // And the watch was armed then, the app asked once what changed before
        XCTAssertGreaterThanOrEqual(watch.descriptor, 0)
        XCTAssertEqual(asked, 1)
        let ids = written.split(separator: 0x0A).compactMap { try? JSONValue.parse(Array($0))["id"] }
        XCTAssertEqual(ids, [0, 1])
    }

    // MARK: - Output buffering: answers wait only while complete frames wait in the input

    private func temporaryFile() throws -> (fd: Int32, path: String) {
        let path = NSTemporaryDirectory() + "rpc-out-\(UUID().uuidString)"
        let fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        return (fd, path)
    }

    private func messages(in path: String) -> [JSONValue] {
        var reader = FrameReader()
        let bytes = FileManager.default.contents(atPath: path).map { Array($0) } ?? []
        return reader.push(bytes).compactMap { event in
            guard case .message(let body) = event else { return nil }
            return try? JSONValue.parse(body)
        }
    }

    func test_run_answersARequestWhileTheInputStaysOpen() throws {
        // Given: a client that sends one request and then waits, its input still open
        let fixture = RPCFixture()
        let input = try pipePair(), output = try pipePair()
        let finished = DispatchSemaphore(value: 0)
        let server = fixture.sut
        Thread.detachNewThread {
            _ = server.run(input: input.read, output: output.write)
            finished.signal()
        }
        // When: one whole request, and the start of the next one in the same write
        XCTAssertTrue(
            RPCServer.writeWhole(
                RPCSeeds.line(RPCSeeds.request(1, "session/stack")) + Array(#"{"jsonrpc":"2.0","#.utf8),
                to: input.write))
        // Then: the answer comes although no more input arrives (a deadlock guard, not a timing check)
        var pollfd = pollfd(fd: output.read, events: Int16(POLLIN), revents: 0)
        XCTAssertEqual(poll(&pollfd, 1, 60_000), 1, "no answer while the input stays open")
        var chunk = [UInt8](repeating: 0, count: 4096)
        let count = read(output.read, &chunk, chunk.count)
        let answer = try JSONValue.parse(Array(chunk[0..<max(0, count - 1)]))
        XCTAssertEqual(answer["id"], 1)
        XCTAssertEqual(chunk[max(0, count - 1)], 0x0A)
        // And the next request too, once its end arrives
        XCTAssertTrue(RPCServer.writeWhole(Array(#""id":2,"method":"session/stack"}"#.utf8) + [0x0A], to: input.write))
        XCTAssertEqual(poll(&pollfd, 1, 60_000), 1, "no answer while the input stays open")
        let second = read(output.read, &chunk, chunk.count)
        XCTAssertEqual(try JSONValue.parse(Array(chunk[0..<max(0, second - 1)]))["id"], 2)
        close(input.write)
        finished.wait()
        close(input.read); close(output.write); close(output.read)
    }

    func test_receiveIntoABuffer_writesNothingUntilFlushed_thenTheSameBytesAsFrameByFrame() throws {
        // Given: several frames in one read, and the same read answered frame by frame
        let bytes =
            RPCSeeds.contentLengthFrame(RPCSeeds.initialize)
            + RPCSeeds.contentLengthFrame(RPCSeeds.request(1, "session/stack"))
            + RPCSeeds.contentLengthFrame(RPCSeeds.request(2, "list/fail"))
            + RPCSeeds.contentLengthFrame("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"nope\"}")
            + RPCSeeds.contentLengthFrame("[1,{\"jsonrpc\":\"2.0\",\"id\":\"é\",\"method\":\"session/stack\"}]")
            + RPCSeeds.contentLengthFrame(RPCSeeds.request(4, "list/touch"))
        let expected = RPCFixture().sut.receive(bytes).flatMap { $0 }
        let file = try temporaryFile()
        defer { close(file.fd); unlink(file.path) }
        let buffer = FrameBuffer(descriptor: file.fd)
        let sut = RPCFixture().sut
        // When
        sut.receive(bytes, into: buffer)
        // Then
        XCTAssertEqual(buffer.bytes, expected)
        XCTAssertEqual(lseek(file.fd, 0, SEEK_END), 0)
        // When
        buffer.flush()
        // Then
        XCTAssertTrue(buffer.bytes.isEmpty)
        XCTAssertEqual(FileManager.default.contents(atPath: file.path).map { Array($0) }, expected)
        XCTAssertEqual(messages(in: file.path).compactMap { $0["id"] }, [0, 1, 2, 3, 4])
    }

    func test_buffer_overItsHighWaterMark_writesWithoutWaitingForTheFlush() throws {
        // Given
        let file = try temporaryFile()
        defer { close(file.fd); unlink(file.path) }
        let sut = FrameBuffer(descriptor: file.fd)
        let frame = [UInt8](repeating: UInt8(ascii: "x"), count: 1000)
        // When
        var appended = 0
        while appended < FrameBuffer.highWater { sut.append { $0 += frame }; appended += frame.count }
        // Then: all of it written, in order, none held back
        XCTAssertTrue(sut.bytes.isEmpty)
        XCTAssertEqual(lseek(file.fd, 0, SEEK_END), off_t(appended))
    }

    func test_buffer_whenTheClientIsGone_failsAndDropsTheRest() throws {
        // Given
        let output = try pipePair()
        close(output.read)
        signal(SIGPIPE, SIG_IGN)
        let sut = FrameBuffer(descriptor: output.write)
        // When
        sut.append { $0 += [1, 2, 3] }
        sut.flush()
        sut.append { $0 += [4] }
        sut.flush()
        // Then
        XCTAssertTrue(sut.failed)
        XCTAssertTrue(sut.bytes.isEmpty)
        close(output.write)
    }

    func test_progressThroughABuffer_isWrittenWhileTheRequestIsStillRunning() throws {
        // Given: a probe that counts the frames in the file at each report
        let fixture = ProgressFixture()
        let file = try temporaryFile()
        defer { close(file.fd); unlink(file.path) }
        var seenDuringWork: [Int] = []
        fixture.scene.duringWork = { seenDuringWork.append(self.messages(in: file.path).count) }
        let buffer = FrameBuffer(descriptor: file.fd)
        // When
        fixture.sut.receive(
            RPCSeeds.line(RPCSeeds.request(1, "jobs/import", #"{"count":2,"workDoneToken":3}"#)),
            into: buffer)
        buffer.flush()
        // Then: begin + change + report by the first probe, two more by the second, all in the end
        XCTAssertEqual(seenDuringWork, [3, 5])
        XCTAssertEqual(messages(in: file.path).last?["id"], 1)
    }

    func test_longWorkWithoutAToken_stillLetsEarlierAnswersOut() throws {
        // Given: a quick request and a long one arrive in one read; the long one asks for no progress
        let fixture = ProgressFixture()
        let file = try temporaryFile()
        defer { close(file.fd); unlink(file.path) }
        var idsSeenDuringWork: [[JSONValue]] = []
        fixture.scene.duringWork = { idsSeenDuringWork.append(self.messages(in: file.path).compactMap { $0["id"] }) }
        let buffer = FrameBuffer(descriptor: file.fd)
        // When
        fixture.sut.receive(
            RPCSeeds.line(RPCSeeds.request(1, "session/stack"))
                + RPCSeeds.line(RPCSeeds.request(2, "jobs/import", #"{"count":2}"#)),
            into: buffer)
        buffer.flush()
        // Then: the quick answer was on the wire while the long work ran, and no progress was sent
        XCTAssertEqual(idsSeenDuringWork, [[1], [1]])
        let all = messages(in: file.path)
        XCTAssertEqual(all.compactMap { $0["id"] }, [1, 2])
        XCTAssertFalse(all.contains { $0["method"] == "$/progress" })
    }
}
