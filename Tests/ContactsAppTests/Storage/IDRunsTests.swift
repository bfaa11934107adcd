import XCTest

@testable import ContactsApp

/// An import's ids kept as runs: memory grows with the gaps between them, not with their number.
final class IDRunsTests: XCTestCase {
    func test_append_consecutiveIDs_stayOneRun() {
        // Given
        var sut = IDRuns()
        // When a million consecutive ids are added
        for id in Int64(7)..<1_000_007 { sut.append(id) }
        // Then
        XCTAssertEqual(sut.runs, [7...1_000_006])
        XCTAssertEqual(sut.count, 1_000_000)
        XCTAssertEqual(sut.first, 7)
        XCTAssertEqual(sut.last, 1_000_006)
    }

    func test_append_withGapsAndRepeats_startsARunAtEach_andReadsBackInOrder() {
        // Given / When
        let sut = IDRuns([3, 4, 5, 9, 10, 4, Int64.max, 1])
        // Then
        XCTAssertEqual(sut.runs, [3...5, 9...10, 4...4, Int64.max...Int64.max, 1...1])
        XCTAssertEqual(Array(sut), [3, 4, 5, 9, 10, 4, Int64.max, 1])
        XCTAssertEqual(sut.count, 8)
    }

    func test_empty_hasNoIDs() {
        // Given / When
        let sut = IDRuns()
        // Then
        XCTAssertTrue(sut.isEmpty)
        XCTAssertEqual(Array(sut), [])
        XCTAssertNil(sut.first)
        XCTAssertNil(sut.last)
        XCTAssertEqual(ImportedIDs(added: []), ImportedIDs())
    }
}
