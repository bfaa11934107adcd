import Foundation
import XCTest

/// Runs the built `contactsbook` executable over pipes, as a script or an editor would.
struct ContactsBookProcess {
    struct Result {
        let stdout: String
        let stderr: String
        let status: Int32
    }

    /// The executable next to the test bundle (`.build/debug`), or `CONTACTSBOOK_BIN`.
    static var executable: URL {
        if let path = ProcessInfo.processInfo.environment["CONTACTSBOOK_BIN"] { return URL(fileURLWithPath: path) }
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = testBinary.deletingLastPathComponent()
        // On Linux the test runner is `.build/debug/<Package>PackageTests.xctest`.
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("contactsbook").path),
            directory.path != "/"
        {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("contactsbook")
    }

    let process = Process()
    let input = Pipe()
    let output = Pipe()
    let errors = Pipe()

    /// A process with a clean environment: its own XDG directories, no colours from the host;
    /// `environment` adds to it (`CONTACTSBOOK_COUNTRY`, `TZ`).
    init(_ arguments: [String], home: URL, environment: [String: String] = [:]) {
        process.executableURL = Self.executable
        process.arguments = arguments
        process.environment = [
            "HOME": home.path, "XDG_DATA_HOME": home.appendingPathComponent("data").path,
            "XDG_STATE_HOME": home.appendingPathComponent("state").path, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
        ].merging(Self.sanitizerOptions) { own, _ in own }.merging(environment) { $1 }
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
    }

    /// The sanitizers' settings of the test run (`scripts/sanitize`), so a sanitized executable
    /// runs under them too (its deliberate leaks suppressed).
    static let sanitizerOptions = ProcessInfo.processInfo.environment.filter { key, _ in
        ["ASAN_OPTIONS", "LSAN_OPTIONS", "TSAN_OPTIONS", "SWIFT_BACKTRACE"].contains(key)
    }

    /// Runs to the end with `stdin` as the whole input.
    static func run(_ arguments: [String], stdin: String, home: URL, environment: [String: String] = [:]) throws
        -> Result
    {
        let sut = ContactsBookProcess(arguments, home: home, environment: environment)
        try sut.process.run()
        sut.input.fileHandleForWriting.write(Data(stdin.utf8))
        try sut.input.fileHandleForWriting.close()
        return sut.finish()
    }

    /// Writes more input without closing stdin.
    func send(_ text: String) { input.fileHandleForWriting.write(Data(text.utf8)) }

    /// Reads stdout until it contains `marker` (blocking reads; no timing involved).
    func readOutput(until marker: String) -> String {
        var text = ""
        while !text.contains(marker) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        return text
    }

    /// Closes stdin and collects the rest of both streams and the exit status.
    func finish() -> Result {
        try? input.fileHandleForWriting.close()
        // Read stderr on another thread so neither pipe can fill up and block the child.
        let stderrData = ReadInBackground(errors.fileHandleForReading)
        let stdoutData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            stdout: String(decoding: stdoutData, as: UTF8.self),
            stderr: String(decoding: stderrData.wait(), as: UTF8.self), status: process.terminationStatus)
    }
}

/// A fresh HOME for one test, removed afterwards.
func makeTemporaryHome() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("contactsbook-e2e-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Reads a pipe to its end on another thread.
final class ReadInBackground: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}
