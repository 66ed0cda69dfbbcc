import Foundation

/// What the application-facing API refuses, and why. Thrown, never trapped on.
public enum BoneworkError: Error, Equatable, CustomStringConvertible {
    /// A drawable (or something holding it) was used after `dispose()`.
    case disposed(String)
    /// An HTTP request answered with a status other than 200.
    case httpStatus(url: String, status: Int)
    /// An HTTP response ended before the length its header announced (-1: lengths not known).
    case truncated(url: String, expected: Int, received: Int)
    /// The request failed before a response arrived (connection refused, reset, timeout).
    case network(url: String, message: String)
    /// A bundle has no resource of that name.
    case resourceNotFound(String)
    /// No bone has this name.
    case unknownBone(String)
    /// No slot has this name.
    case unknownSlot(String)
    /// No skin has this name.
    case unknownSkin(String)
    /// No animation has this name.
    case unknownAnimation(String)
    /// The view or controller has no drawable yet (loading has not finished or failed).
    case notLoaded
    /// A size, scale or other argument out of its range.
    case invalidArgument(String)

    /// The error in one line, naming what was refused.
    public var description: String {
        switch self {
        case .disposed(let what): return "\(what) was used after dispose()"
        case .httpStatus(let url, let status): return "HTTP \(status) for \(url)"
        case .truncated(let url, let expected, let received):
            if expected < 0 {
                return "truncated response for \(url): the connection closed before the announced length"
            }
            return "truncated response for \(url): \(received) of \(expected) bytes"
        case .network(let url, let message): return "request for \(url) failed: \(message)"
        case .resourceNotFound(let name): return "no resource named '\(name)' in the bundle"
        case .unknownBone(let name): return "no bone named '\(name)'"
        case .unknownSlot(let name): return "no slot named '\(name)'"
        case .unknownSkin(let name): return "no skin named '\(name)'"
        case .unknownAnimation(let name): return "no animation named '\(name)'"
        case .notLoaded: return "the skeleton is not loaded yet"
        case .invalidArgument(let message): return "invalid argument: \(message)"
        }
    }
}
