/// An element index outside the instance's skeleton.
public enum InstanceAccessError: Error, Equatable, CustomStringConvertible {
    /// A bone index outside the skeleton's bones.
    case boneOutOfRange(Int)
    /// A slot index outside the skeleton's slots.
    case slotOutOfRange(Int)
    /// An attachment index outside the data's attachments.
    case attachmentOutOfRange(Int32)
    /// A constraint index outside the skeleton's constraints of that kind ("ik", "transform",
    /// "path", "physics").
    case constraintOutOfRange(kind: String, Int)

    /// The error in one line, naming what was out of range.
    public var description: String {
        switch self {
        case .boneOutOfRange(let i): return "bone index \(i) out of range"
        case .slotOutOfRange(let i): return "slot index \(i) out of range"
        case .attachmentOutOfRange(let i): return "attachment index \(i) out of range"
        case .constraintOutOfRange(let kind, let i): return "\(kind) constraint index \(i) out of range"
        }
    }
}
