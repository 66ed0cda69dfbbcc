import BoneworkFormat
import BoneworkWorld

/// The engine's own instances draw straight from their batch's columns: `FrameBuilder` and
/// `InstancedGeometry` are generic over `PosedSkeleton`, so with a `PoseView` every per-slot read
/// is a direct, inlined column load (no copy, no name lookup, no existential call).
extension PoseView: PosedSkeleton {
    /// Every slot is in the draw order.
    @inline(__always) public var drawOrderCount: Int { slotCount }
    /// The instance's skeleton colour column.
    @inline(__always) public var skeletonColor: Color { instanceColor }

    /// The slot's colour column.
    @inline(__always)
    public func slotColor(_ slot: Int) -> Color {
        let c = color(slot: slot)
        return Color(c.r, c.g, c.b, c.a)
    }

    /// The slot's dark colour column (alpha 1).
    @inline(__always)
    public func slotDarkColor(_ slot: Int) -> Color {
        let c = darkColor(slot: slot)
        return Color(c.r, c.g, c.b, 1)
    }

    /// The bone's world transform columns.
    @inline(__always)
    public func boneWorld(_ bone: Int) -> BoneWorldTransform {
        let t = boneTransform(bone)
        return BoneWorldTransform(a: t.a, b: t.b, c: t.c, d: t.d, worldX: t.worldX, worldY: t.worldY)
    }

    /// World positions of a mesh or clipping attachment, from the bones and the slot's deform.
    ///
    /// # Safety
    /// `output` must hold the attachment's `worldVerticesLength` floats.
    @inline(__always)
    public func computeWorldVertices(slot: Int, attachment: Int, into output: UnsafeMutableBufferPointer<Float>) {
        guard slot >= 0 && slot < slotCount else { return }
        computeVertexAttachment(slot: slot, attachment: attachment, into: output)
    }
}

/// The engine's instances hand the GPU path their deform offsets straight from the batch's columns.
extension PoseView: DeformedPose {
    /// Copies the slots' columns in one call (`copySlotStates`): true.
    @inline(__always)
    public func readSlots(_ count: Int, into states: UnsafeMutablePointer<SlotDrawState>) -> Bool {
        copySlotStates(count, into: states)
        return true
    }
}
