import XCTest

@testable import ContactsApp

/// Which plans `PagePlanner` picks for a page, from the numbers alone (no database).
final class PagePlannerTests: XCTestCase {
    private func numbers(
        searching: Bool = true, total: Int, offset: Int = 0, limit: Int = 20,
        run: Bool = false, book: Int? = 1_000_000, cluster: Int? = nil
    ) -> PageNumbers {
        PageNumbers(
            searching: searching, total: total, offset: offset, limit: limit, anchorBucket: 1_000,
            matchesAreRun: run, book: book, cluster: cluster)
    }

    func test_plans_wholeBook_nearPageByOffset_deepPageAnchoredThenOffset() {
        // Given: no search; pages up to 2B in, and past it
        let near = numbers(searching: false, total: 1_000_000, offset: 2_000, book: nil)
        let deep = numbers(searching: false, total: 1_000_000, offset: 2_001, book: nil)
        // When / Then
        XCTAssertEqual(PagePlanner.plans(near), [.offset])
        XCTAssertEqual(PagePlanner.plans(deep), [.anchored, .offset])
        XCTAssertFalse(deep.needsLayout, "a page of the whole book needs no largest id nor cluster")
    }

    func test_plans_matchesThatAreARun_readTheRunOnly() {
        // Given: matches known to be one run of the sort index, even past the last match
        let sut = numbers(total: 27_000, offset: 30_000, run: true, book: nil)
        // When / Then
        XCTAssertEqual(PagePlanner.plans(sut), [.run])
        XCTAssertFalse(sut.needsLayout)
    }

    func test_plans_aPageAfterTheLastMatch_isEmpty() {
        // Given
        let sut = numbers(total: 40, offset: 40, book: nil)
        // When / Then
        XCTAssertEqual(PagePlanner.plans(sut), [.empty])
        XCTAssertFalse(sut.needsLayout)
    }

    func test_plans_rareMatches_areSorted() {
        // Given: 100 matches in 1M contacts: an even walk would read 200k entries
        let sut = numbers(total: 100)
        // When / Then
        XCTAssertTrue(sut.needsLayout)
        XCTAssertEqual(PagePlanner.plans(sut), [.sort])
    }

    func test_plans_denseMatches_areWalkedThenSorted() {
        // Given: one contact in 10 matches: 20 expected within 201 entries; the budget is at least `total`
        let sut = numbers(total: 100_000)
        // When / Then
        XCTAssertEqual(PagePlanner.plans(sut), [.walk(budget: 100_000), .sort])
    }

    func test_plans_aCluster_walksFirstOnlyWhenTheWalkReadsLessThanTheOutliers() {
        // Given: 49k matches, 15k of them in the cluster (34k outliers); page 1 lies within
        // about 400 entries, page 1,000 within about 400k
        let near = numbers(total: 49_000, cluster: 15_000)
        let deep = numbers(total: 49_000, offset: 19_980, cluster: 15_000)
        // When / Then
        XCTAssertEqual(PagePlanner.plans(near), [.walk(budget: 49_000), .cluster, .sort])
        XCTAssertEqual(PagePlanner.plans(deep), [.cluster, .sort])
    }

    func test_plans_aClusterOfRareMatches_neverWalks() {
        // Given: 300 matches, 200 in the cluster
        let sut = numbers(total: 300, cluster: 200)
        // When / Then
        XCTAssertEqual(PagePlanner.plans(sut), [.cluster, .sort])
    }

    func test_walkBudget_onlyForMatchesDenseEnoughToFillThePageEarly() {
        // Rare matches: looking them up and sorting is cheaper than any walk
        XCTAssertNil(PagePlanner.walkBudget(wanted: 20, total: 100, book: 1_000_000))
        // One contact in 10 matches: 20 of them expected within 201 entries; at most `total`
        XCTAssertEqual(PagePlanner.walkBudget(wanted: 20, total: 100_000, book: 1_000_000), 100_000)
        // One in 200: 20 expected within 4,001 entries; 3 times that, plus 10
        XCTAssertEqual(PagePlanner.walkBudget(wanted: 20, total: 5_000, book: 1_000_000), 12_013)
        XCTAssertNil(PagePlanner.walkBudget(wanted: 20, total: 0, book: 10))
        XCTAssertNil(PagePlanner.walkBudget(wanted: Int.max, total: 10, book: 2), "no overflow")
    }
}
