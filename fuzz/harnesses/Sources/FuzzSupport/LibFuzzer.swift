import Foundation

/// Runs libFuzzer's driver on `test` with the process's arguments, and exits with its status.
///
/// Each harness's `@main` calls this: SwiftPM links an executable with its module's entry point
/// as `main`, so libFuzzer's own `main` cannot be the one.
public func runLibFuzzer(_ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
    var argc = CommandLine.argc
    var argv = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, test))
}

@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The input as bytes (libFuzzer passes a null pointer for the empty input).
public func input(_ start: UnsafePointer<UInt8>?, _ count: Int) -> [UInt8] {
    guard let start, count > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: start, count: count))
}

/// What differs between values written and the values read back, field by field, for a
/// failure message a person can act on.
public func difference<Value: Equatable>(_ written: [Value], _ read: [Value]) -> String {
    guard read.count == written.count else { return "\(read.count) values, not \(written.count)" }
    for (before, after) in zip(written, read) where before != after {
        return zip(Mirror(reflecting: before).children, Mirror(reflecting: after).children)
            .filter { String(reflecting: $0.value) != String(reflecting: $1.value) }
            .map { "\($0.label ?? "?"): \(String(reflecting: $0.value)) became \(String(reflecting: $1.value))" }
            .joined(separator: "\n")
    }
    return "the same"
}
