import Foundation

/// Files a person names for one contact (`photo save FILE`, `photo FILE`): read whole, within a
/// limit, and written new (never over an existing file, which may be someone's other photo).
public protocol ContactFilesLogic {
    func read(_ path: String, limit: Int) throws -> Data
    func write(_ data: Data, to path: String) throws
}

public struct ContactFilesWorker: ContactFilesLogic {
    public init() {}

    public func read(_ path: String, limit: Int) throws -> Data {
        let expanded = HomePath.expanding(path)
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: expanded) else {
            throw ContactsFailure.badInput("cannot read \(path): no such file")
        }
        guard attributes[.type] as? FileAttributeType == .typeRegular else {
            throw ContactsFailure.badInput("cannot read \(path): not a regular file")
        }
        let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        guard size <= limit else {
            throw ContactsFailure.badInput("\(path) is \(size / 1024) KB; a photo may be at most \(limit / 1024) KB")
        }
        guard let data = FileManager.default.contents(atPath: expanded) else {
            throw ContactsFailure.badInput("cannot read \(path)")
        }
        return data
    }

    public func write(_ data: Data, to path: String) throws {
        let expanded = HomePath.expanding(path)
        // O_EXCL: an existing file is refused, not replaced.
        let fd = open(expanded, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            let reason = errno == EEXIST ? "it already exists" : String(cString: strerror(errno))
            throw ContactsFailure.badInput("cannot write \(path): \(reason)")
        }
        defer { close(fd) }
        let written = data.withUnsafeBytes { buffer -> Int in
            var offset = 0
            while offset < buffer.count {
                let n = Foundation.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n <= 0 { return -1 }
                offset += n
            }
            return offset
        }
        guard written == data.count else {
            let reason = String(cString: strerror(errno))
            unlink(expanded)
            throw ContactsFailure.badInput("cannot write \(path): \(reason)")
        }
    }
}
