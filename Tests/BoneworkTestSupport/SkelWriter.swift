/// Writes small binary skeletons (`.skel`, Spine 4.2 layout) for tests that need a value no
/// export holds at a known byte: the sections in the format's order, each a closure that may
/// record the offset of a value (`mark`) before writing it. Every count is written by the
/// caller, so a test spells out exactly the bytes the reader sees.
public struct SkelWriter {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8] = []
    /// Offsets recorded with `mark(_:)`, by name.
    public private(set) var marks: [String: Int] = [:]

    /// An empty file.
    public init() {}

    /// Records the current offset under `name`.
    public mutating func mark(_ name: String) { marks[name] = bytes.count }

    /// One byte.
    public mutating func byte(_ value: UInt8) { bytes.append(value) }

    /// A big-endian 32-bit word.
    public mutating func word(_ value: UInt32) {
        bytes += [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// A float as its big-endian bits.
    public mutating func float(_ value: Float) { word(value.bitPattern) }

    /// Floats, one after the other.
    public mutating func floats(_ values: [Float]) { for v in values { float(v) } }

    /// A variable-length integer (7 bits per byte, low first) of a non-negative value.
    public mutating func varint(_ value: Int) {
        var v = UInt32(truncatingIfNeeded: value)
        while v >= 0x80 {
            bytes.append(UInt8(v & 0x7F) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    /// A string: its byte length plus one, then its UTF-8 (nil: the length 0).
    public mutating func string(_ value: String?) {
        guard let value else {
            varint(0)
            return
        }
        let utf8 = Array(value.utf8)
        varint(utf8.count + 1)
        bytes += utf8
    }

    /// The header of a 4.2 export without nonessential data, then the string table.
    public mutating func header(strings: [String] = []) {
        word(0x1234)
        word(0x5678)
        string("4.2.43")
        floats([0, 0, 100, 100, 100])  // x, y, width, height, reference scale
        byte(0)  // no nonessential data
        varint(strings.count)
        for s in strings { string(s) }
    }

    /// The bones section: `count` bones, each the child of the one before, at the setup identity
    /// with the given length (`lengths[i]`, default 10).
    public mutating func bones(_ count: Int, lengths: [Float] = []) {
        varint(count)
        for i in 0..<count {
            string("b\(i)")
            if i > 0 { varint(i - 1) }
            floats([0, 0, 0, 1, 1, 0, 0, i < lengths.count ? lengths[i] : 10])
            varint(0)  // inherit: normal
            byte(0)  // not skin-required
        }
    }

    /// The slots section: one slot per entry, on bone `bone`, showing the string-table entry
    /// `attachment` (1-based; 0: none).
    public mutating func slots(_ slots: [(bone: Int, attachment: Int)]) {
        varint(slots.count)
        for (i, s) in slots.enumerated() {
            string("s\(i)")
            varint(s.bone)
            word(0xFFFF_FFFF)  // colour
            word(0xFFFF_FFFF)  // no dark colour
            varint(s.attachment)
            varint(0)  // blend: normal
        }
    }

    /// No IK, transform or path constraints.
    public mutating func noIKTransformOrPathConstraints() {
        varint(0)
        varint(0)
        varint(0)
    }

    /// One physics constraint on bone 0, simulating x, stepping at 60 Hz; `massInverse` stored
    /// when given. Marks `damping` and `massInverse`.
    public mutating func physics(damping: Float = 1, massInverse: Float? = nil) {
        varint(1)
        string("p")
        varint(0)  // order
        varint(0)  // bone
        byte(2 | (massInverse != nil ? 128 : 0))  // x is simulated; mass inverse present
        float(1)  // x
        byte(60)  // fps
        floats([1, 100])  // inertia, strength
        mark("damping")
        float(damping)
        if let massInverse {
            mark("massInverse")
            float(massInverse)
        }
        floats([0, 0])  // wind, gravity
        byte(0)  // no global flags, mix 1
    }

    /// No physics constraints.
    public mutating func noPhysics() { varint(0) }

    /// The skins: a default skin holding `attachments` (written by the closure, which gets the
    /// writer positioned after the slot index and attachment count) for slot 0, no other skin.
    public mutating func defaultSkin(attachmentCount: Int, _ attachments: (inout SkelWriter) -> Void) {
        varint(1)  // one slot in the default skin
        varint(0)  // slot 0
        varint(attachmentCount)
        attachments(&self)
        varint(0)  // no other skins
    }

    /// A skeleton up to its events: one bone, one slot (showing nothing in the setup pose), no
    /// constraints, and a default skin holding one attachment in that slot, named `name` (the
    /// string table's only entry): its name index is written here, the rest by `attachment`.
    public static func oneAttachment(named name: String, _ attachment: (inout SkelWriter) -> Void) -> SkelWriter {
        var w = SkelWriter()
        w.header(strings: [name])
        w.bones(1)
        w.slots([(bone: 0, attachment: 0)])
        w.noIKTransformOrPathConstraints()
        w.noPhysics()
        w.defaultSkin(attachmentCount: 1) { s in
            s.varint(1)  // name: string 1
            attachment(&s)
        }
        return w
    }

    /// No skins at all.
    public mutating func noSkins() {
        varint(0)
        varint(0)
    }

    /// No events.
    public mutating func noEvents() { varint(0) }

    /// The animations section with one animation, `body` writing its timelines from the slot
    /// timelines on (`emptyTimelines` writes the sections it leaves out).
    public mutating func animation(_ body: (inout SkelWriter) -> Void) {
        varint(1)
        string("a")
        varint(0)  // timeline count hint
        body(&self)
    }

    /// No animations.
    public mutating func noAnimations() { varint(0) }

    /// `count` empty timeline sections (each a zero count), in the format's order: slot, bone,
    /// IK, transform, path, physics, attachment, draw order, event.
    public mutating func emptyTimelines(_ count: Int) { for _ in 0..<count { varint(0) } }
}
