import BoneworkFormat

/// A copy of one instance's pose in data order, for inspection, traces and tests (allocates;
/// not for per-frame use).
///
/// Why not a `PoseView`: a view reads the live columns and is only valid until the batch grows
/// or its rows move; this is a `Sendable`, `Equatable` value that outlives both, so poses from
/// different frames, thread counts or layouts can be kept and compared.
public struct InstancePose: Equatable, Sendable {
    /// Per bone: [a, b, c, d, worldX, worldY].
    public var bones: [[Float]]
    /// Per bone: the local pose [x, y, rotation, scaleX, scaleY, shearX, shearY].
    public var local: [[Float]]
    /// Per slot: the attachment's name, nil when none.
    public var attachments: [String?]
    /// Per slot: [r, g, b, a].
    public var colors: [[Float]]
    /// Per slot: [r, g, b] of the dark colour.
    public var darkColors: [[Float]]
    /// Slot indices in draw order.
    public var drawOrder: [Int]
    /// Per slot: world vertices of a region (8 floats: BR, BL, UL, UR) or mesh attachment, else nil.
    public var vertices: [[Float]?]
    /// Bones the instance's skin leaves inactive.
    public var inactiveBones: [Int]
}

extension Batch {
    /// A copy of row `row`'s pose (world vertices computed from its current world transforms).
    public func pose(row: Int) -> InstancePose {
        let cols = columns()
        let r = cols.rows(row)
        let t = rig.tables
        let data = self.data
        var pose = InstancePose(
            bones: [], local: [], attachments: [], colors: [], darkColors: [], drawOrder: [], vertices: [],
            inactiveBones: [])
        let plan = cols.plan[row]
        for k in 0..<t.boneCount {
            let i = r.bone(k)
            pose.bones.append([cols.a[i], cols.b[i], cols.c[i], cols.d[i], cols.worldX[i], cols.worldY[i]])
            pose.local.append([
                cols.x[i], cols.y[i], cols.rotation[i], cols.scaleX[i], cols.scaleY[i], cols.shearX[i], cols.shearY[i],
            ])
            if !rig.isBoneActive(plan: plan, bone: k) { pose.inactiveBones.append(k) }
        }
        for s in 0..<t.slotCount {
            let i = r.slot(s)
            let attachment = Int(cols.attachment[i])
            pose.attachments.append(attachment >= 0 ? data.attachments[attachment].name : nil)
            let color = cols.slotColor(t, r, slot: s)
            pose.colors.append([color.0, color.1, color.2, color.3])
            let dark = cols.slotDark(t, r, slot: s)
            pose.darkColors.append([dark.0, dark.1, dark.2])
            pose.drawOrder.append(Int(cols.drawOrder[r.drawOrder + s]))
            var vertices: [Float]? = nil
            if attachment >= 0 {
                let capacity = Int(t.slotVertexOffset[s + 1] - t.slotVertexOffset[s])
                var buffer = [Float](repeating: 0, count: max(1, capacity))
                let frame = SlotSystem.imageFrame(SlotColumns(cols), t, r, slot: s, attachment: attachment)
                let written = buffer.withUnsafeMutableBufferPointer {
                    VertexSystem.computeSlot(
                        VertexColumns(cols), t, r, slot: s, attachment: attachment, frame: frame, into: $0.baseAddress!,
                        capacity: capacity)
                }
                if written > 0 { vertices = Array(buffer.prefix(written)) }
            }
            pose.vertices.append(vertices)
        }
        return pose
    }
}
