import Foundation

/// Prints how far a long initial spawn has come to stderr, at most twice a second and only once
/// it has run for a second (short spawns print nothing).
final class SpawnProgress {
    let total: Int
    private let start = DispatchTime.now().uptimeNanoseconds
    private var last: UInt64 = 0
    private var printed = false

    init(total: Int) { self.total = total }

    func report(_ done: Int) {
        let now = DispatchTime.now().uptimeNanoseconds
        guard now - start > 1_000_000_000, now - last > 500_000_000 else { return }
        last = now
        printed = true
        FileHandle.standardError.write(Data("\rspawning: \(done)/\(total) characters".utf8))
    }

    deinit {
        if printed { FileHandle.standardError.write(Data("\rspawning: \(total)/\(total) characters\n".utf8)) }
    }
}
