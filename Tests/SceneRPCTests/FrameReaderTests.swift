import JSONBytes
import XCTest

@testable import SceneRPC

final class FrameReaderTests: XCTestCase {
    private var sut: FrameReader!

    override func setUp() {
        super.setUp()
        sut = FrameReader(limits: FrameLimits(maxHeaderBytes: 64, maxBodyBytes: 32))
    }

    private func pushEachByte(_ bytes: [UInt8]) -> [FrameEvent] {
        bytes.flatMap { sut.push([$0]) }
    }

    private func message(_ text: String) -> FrameEvent { .message(Array(text.utf8)) }

    // MARK: Content-Length

    func test_push_contentLengthByteAtATime_yieldsTheMessageOnItsLastByte() {
        // Given
        let bytes = RPCSeeds.contentLengthFrame("{\"a\":\"é\"}")
        // When
        let events = pushEachByte(bytes)
        // Then
        XCTAssertEqual(events, [message("{\"a\":\"é\"}")])
        XCTAssertEqual(sut.framing, .contentLength)
    }

    func test_push_frameSplitAtEveryPoint_yieldsItOnce() {
        let bytes = RPCSeeds.contentLengthFrame("[1,2]")
        for split in 1..<bytes.count {
            // Given
            var reader = FrameReader()
            // When
            let events = reader.push(bytes[..<split]) + reader.push(bytes[split...])
            // Then
            XCTAssertEqual(events, [message("[1,2]")], "split at \(split)")
        }
    }

    func test_push_mergedFrames_yieldsEachInOrder() {
        // When
        let events = sut.push(
            RPCSeeds.contentLengthFrame("1") + RPCSeeds.contentLengthFrame("22") + RPCSeeds.contentLengthFrame("333"))
        // Then
        XCTAssertEqual(events, [message("1"), message("22"), message("333")])
    }

    func test_push_headersAnyCaseWithContentTypeAndLFOnly_areAccepted() {
        // Given
        let bytes = Array("content-TYPE: application/vscode-jsonrpc; charset=utf-8\nCONTENT-LENGTH:  2 \n\n{}".utf8)
        sut = FrameReader()
        // When
        let events = pushEachByte(bytes)
        // Then
        XCTAssertEqual(events, [message("{}")])
    }

    func test_push_headerBlockOverTheLimit_losesFraming() {
        // When
        let events = sut.push(Array("Content-Length: 2\r\nX-Padding: \(String(repeating: "x", count: 80))".utf8))
        // Then
        XCTAssertEqual(events, [.framingLost("header block longer than 64 bytes")])
        XCTAssertTrue(sut.isLost)
        XCTAssertEqual(sut.push(RPCSeeds.contentLengthFrame("{}")), [])
    }

    func test_push_overflowingLength_losesFraming() {
        // When
        let events = sut.push(Array("Content-Length: 99999999999999999999999\r\n\r\n{}".utf8))
        // Then
        XCTAssertEqual(events.count, 1)
        guard case .framingLost(let reason) = events.first else { return XCTFail("\(events)") }
        XCTAssertTrue(reason.contains("99999999999999999999999"), reason)
    }

    func test_push_badHeaders_loseFraming() {
        let cases = [
            "Content-Length: -1\r\n\r\n", "Content-Length: 0x10\r\n\r\n", "Content-Type: a\r\n\r\n{}",
            "Content-Length 2\r\n\r\n{}", "Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}",
        ]
        for text in cases {
            // Given
            var reader = FrameReader()
            // When
            let events = reader.push(Array(text.utf8))
            // Then
            guard case .framingLost? = events.first else { XCTFail("\(text): \(events)"); continue }
        }
    }

    func test_push_bodyOverTheLimit_isSkippedAndTheStreamGoesOn() {
        // Given
        let big = String(repeating: "x", count: 40)
        // When
        let events = pushEachByte(RPCSeeds.contentLengthFrame(big) + RPCSeeds.contentLengthFrame("{}"))
        // Then
        XCTAssertEqual(events, [.oversized(size: 40, limit: 32), message("{}")])
    }

    func test_finish_insideABody_reportsLostFraming() {
        // Given
        _ = sut.push(Array("Content-Length: 10\r\n\r\n{}".utf8))
        // When
        let events = sut.finish()
        // Then
        XCTAssertEqual(events, [.framingLost("input ended inside a message")])
    }

    func test_finish_afterWholeFramesAndTrailingNewline_isClean() {
        // Given
        _ = sut.push(RPCSeeds.contentLengthFrame("{}") + Array("\r\n".utf8))
        // Then
        XCTAssertEqual(sut.finish(), [])
    }

    // MARK: newline-delimited

    func test_push_linesByteAtATime_withCRLFAndBlankLines() {
        // Given
        let bytes = Array("{\"a\":1}\r\n\n  \r\n[2]\n".utf8)
        // When
        let events = pushEachByte(bytes)
        // Then
        XCTAssertEqual(events, [message("{\"a\":1}"), message("[2]")])
        XCTAssertEqual(sut.framing, .newlineDelimited)
    }

    func test_finish_lastLineWithoutNewline_isAMessage() {
        // Given
        let pushed = sut.push(Array("{}\n[]".utf8))
        // When
        let finished = sut.finish()
        // Then
        XCTAssertEqual(pushed, [message("{}")])
        XCTAssertEqual(finished, [message("[]")])
    }

    func test_push_lineOverTheLimit_isSkippedUpToItsNewline() {
        // Given
        let long = "[" + String(repeating: "1,", count: 30) + "1]"
        // When
        let events = pushEachByte(Array("\(long)\n{}\n".utf8))
        // Then
        XCTAssertEqual(events, [.oversized(size: 33, limit: 32), message("{}")])
    }

    func test_push_wordsInsteadOfHeaders_areTreatedAsLines() {
        // When
        let events = sut.push(Array("hello\n{}\n".utf8))
        // Then: a stray word becomes a parse error later, not a lost stream
        XCTAssertEqual(events, [message("hello"), message("{}")])
    }

    func test_finish_partialHeaderPrefix_isALine() {
        // Given
        _ = sut.push(Array("Cont".utf8))
        // Then
        XCTAssertEqual(sut.finish(), [message("Cont")])
    }

    // MARK: BOM

    func test_push_byteOrderMarkByteAtATime_isSkippedInBothFramings() {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        for (bytes, expected) in [
            (bom + RPCSeeds.contentLengthFrame("{}"), Framing.contentLength),
            (bom + Array("{}\n".utf8), .newlineDelimited),
        ] {
            // Given
            sut = FrameReader()
            // When
            let events = pushEachByte(bytes)
            // Then
            XCTAssertEqual(events, [message("{}")])
            XCTAssertEqual(sut.framing, expected)
        }
    }

    func test_push_invalidUTF8_isPassedOnForTheProtocolToRefuse() {
        // When
        let events = sut.push([0x7B, 0xFF, 0x7D, 0x0A])
        // Then
        XCTAssertEqual(events, [.message([0x7B, 0xFF, 0x7D])])
    }
}

final class FrameWriterTests: XCTestCase {
    func test_frame_contentLength_countsBytes() {
        // Given
        let sut = FrameWriter(framing: .contentLength)
        // When
        let frame = sut.frame(Array("\"é\"".utf8))
        // Then
        XCTAssertEqual(String(decoding: frame, as: UTF8.self), "Content-Length: 4\r\n\r\n\"é\"")
    }

    func test_frame_newlineDelimited_endsWithOneNewline() {
        // Given
        let sut = FrameWriter(framing: .newlineDelimited)
        // When
        let frame = sut.frame(JSONValue.string("a\nb").serialized())
        // Then: the newline inside the string is escaped, so the frame is one line
        XCTAssertEqual(String(decoding: frame, as: UTF8.self), "\"a\\nb\"\n")
    }
}
