import XCTest

@testable import ContactsApp

final class DAVTimeLimitsTests: XCTestCase {
    func test_configured_withoutVariables_isTheGenerousDefaults() {
        XCTAssertEqual(
            DAVTimeLimits.configured([:]),
            DAVTimeLimits(
                request: 120, sync: 1800, lowSpeedBytes: 1024,
                lowSpeedTime: 30, truncatedRounds: 300))
    }

    func test_configured_eachVariableSetsItsLimit() {
        // Given
        let environment = [
            "CONTACTSBOOK_REQUEST_TIMEOUT": "2.5", "CONTACTSBOOK_SYNC_TIMEOUT": "60",
            "CONTACTSBOOK_LOW_SPEED_LIMIT": "10", "CONTACTSBOOK_LOW_SPEED_TIME": "5",
        ]

        // When
        let sut = DAVTimeLimits.configured(environment)

        // Then
        XCTAssertEqual(sut, DAVTimeLimits(request: 2.5, sync: 60, lowSpeedBytes: 10, lowSpeedTime: 5))
    }

    func test_configured_aValueThatIsNoPositiveNumber_keepsTheDefault() {
        for bad in ["0", "-3", "soon", "", "inf", "nan"] {
            let sut = DAVTimeLimits.configured([
                "CONTACTSBOOK_REQUEST_TIMEOUT": bad, "CONTACTSBOOK_SYNC_TIMEOUT": bad,
                "CONTACTSBOOK_LOW_SPEED_LIMIT": bad, "CONTACTSBOOK_LOW_SPEED_TIME": bad,
            ])
            XCTAssertEqual(sut, DAVTimeLimits(), bad)
        }
    }
}
