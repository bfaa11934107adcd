import Foundation
@testable import SceneRPC
import XCTest

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
        let bytes = RPCSeeds.contentLengthFrame(RPCSeeds.initialize) + RPCSeeds.contentLengthFrame(RPCSeeds.request(1, "session/stack"))
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
}
