import BoneworkFormat

/// System 5: world vertices of every slot's region or mesh attachment (skinning with weights,
/// deform offsets applied) into the instance's vertex block, at `RigTables.slotVertexOffset`.
/// Regions write 8 floats in the order BR, BL, UL, UR; meshes `worldVerticesLength` floats.
enum VertexSystem {
    static func update(_ cols: BatchColumns, _ rig: RigTables, range: Range<Int>) {
        for instance in range {
            let r = cols.rows(instance)
            for s in 0..<rig.slotCount {
                computeSlot(cols, rig, r, slot: s)
            }
        }
    }

    @inline(__always)
    static func computeSlot(_ cols: BatchColumns, _ rig: RigTables, _ r: InstanceRows, slot s: Int) {
        let si = r.slot(s)
        let attachment = Int(cols.attachment[si])
        guard attachment >= 0 else { return }
        let out = cols.vertices + (r.vertices &+ Int(rig.slotVertexOffset[s]))
        let capacity = Int(rig.slotVertexOffset[s &+ 1] &- rig.slotVertexOffset[s])
        let bone = r.bone(Int(rig.slotBone[s]))
        switch rig.attachmentKind(attachment) {
        case .region:
            guard capacity >= 8, rig.attFrameCount[attachment] > 0 else { return }
            let frame = SlotSystem.imageFrame(cols, rig, slotRow: si)
            guard frame >= 0 else { return }
            let o = rig.frameOffsets + Int(frame) &* 8
            let a = cols.a[bone]
            let b = cols.b[bone]
            let c = cols.c[bone]
            let d = cols.d[bone]
            let x = cols.worldX[bone]
            let y = cols.worldY[bone]
            // Corner offsets are stored BL, UL, UR, BR; output starts at BR.
            out[0] = o[6] * a + o[7] * b + x
            out[1] = o[6] * c + o[7] * d + y
            out[2] = o[0] * a + o[1] * b + x
            out[3] = o[0] * c + o[1] * d + y
            out[4] = o[2] * a + o[3] * b + x
            out[5] = o[2] * c + o[3] * d + y
            out[6] = o[4] * a + o[5] * b + x
            out[7] = o[4] * c + o[5] * d + y
        case .mesh:
            let length = Int(rig.attWorldLength[attachment])
            guard length <= capacity else { return }
            let deformLength = Int(cols.deformLength[si])
            let deform = cols.deform + (r.deform &+ Int(rig.slotDeformOffset[s]))
            let boneCount = Int(rig.attBoneCount[attachment])
            if boneCount == 0 {
                let vertices =
                    deformLength > 0 ? UnsafePointer(deform) : rig.vertexPool + Int(rig.attVertexStart[attachment])
                let a = cols.a[bone]
                let b = cols.b[bone]
                let c = cols.c[bone]
                let d = cols.d[bone]
                let x = cols.worldX[bone]
                let y = cols.worldY[bone]
                var v = 0
                while v < length {
                    let vx = vertices[v]
                    let vy = vertices[v &+ 1]
                    out[v] = vx * a + vy * b + x
                    out[v &+ 1] = vx * c + vy * d + y
                    v &+= 2
                }
                return
            }
            let bones = rig.bonePool + Int(rig.attBoneStart[attachment])
            let vertices = rig.vertexPool + Int(rig.attVertexStart[attachment])
            var v = 0  // cursor in bones
            var f = 0  // cursor in vertices (3 per influence)
            var w = 0  // output cursor
            if deformLength == 0 {
                while w < length {
                    var wx: Float = 0
                    var wy: Float = 0
                    let n = Int(bones[v])
                    v &+= 1
                    let end = v &+ n
                    while v < end {
                        let bi = r.bone(Int(bones[v]))
                        let vx = vertices[f]
                        let vy = vertices[f &+ 1]
                        let weight = vertices[f &+ 2]
                        wx += (vx * cols.a[bi] + vy * cols.b[bi] + cols.worldX[bi]) * weight
                        wy += (vx * cols.c[bi] + vy * cols.d[bi] + cols.worldY[bi]) * weight
                        v &+= 1
                        f &+= 3
                    }
                    out[w] = wx
                    out[w &+ 1] = wy
                    w &+= 2
                }
            } else {
                var o = 0  // cursor in deform offsets (2 per influence)
                while w < length {
                    var wx: Float = 0
                    var wy: Float = 0
                    let n = Int(bones[v])
                    v &+= 1
                    let end = v &+ n
                    while v < end {
                        let bi = r.bone(Int(bones[v]))
                        let vx = vertices[f] + deform[o]
                        let vy = vertices[f &+ 1] + deform[o &+ 1]
                        let weight = vertices[f &+ 2]
                        wx += (vx * cols.a[bi] + vy * cols.b[bi] + cols.worldX[bi]) * weight
                        wy += (vx * cols.c[bi] + vy * cols.d[bi] + cols.worldY[bi]) * weight
                        v &+= 1
                        f &+= 3
                        o &+= 2
                    }
                    out[w] = wx
                    out[w &+ 1] = wy
                    w &+= 2
                }
            }
        default:
            return
        }
    }
}
