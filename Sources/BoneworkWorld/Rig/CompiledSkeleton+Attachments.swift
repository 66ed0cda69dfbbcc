import BoneworkFormat

/// Attachment geometry in skeleton-wide pools, the lane copies of weighted vertices, and each
/// slot's deform and world-vertex capacities (`CompiledSkeleton.compileAttachments`).
struct CompiledAttachments {
    var attachmentKind: [UInt8]
    var attachmentVertexStart: [Int32]
    var attachmentVertexFloats: [Int32]
    var attachmentBoneStart: [Int32]
    var attachmentBoneCount: [Int32]
    var attachmentWorldLength: [Int32]
    var attachmentDrawnFloats: [Int32]
    var attachmentTimeline: [Int32]
    var attachmentFirstFrame: [Int32]
    var attachmentFrameCount: [Int32]
    var attachmentSequenceSetup: [Int32]
    var attachmentSequenceCount: [Int32]
    var attachmentDraw: [Int32]
    var vertexPool: [Float]
    var bonePool: [Int32]
    var skinPool: [SIMD4<Float>]
    var attachmentSkinStart: [Int32]
    var laneBones: [Int32]
    var laneBonePool: [Int32]
    var laneSkinPool: [SIMD4<Float>]
    var frameOffsets: [Float]
    /// Per slot (and one past the last): where its deform buffer starts.
    var slotDeformOffset: [Int32]
    /// Per slot (and one past the last): where its world vertices start.
    var slotVertexOffset: [Int32]
    var deformTotal: Int
    var vertexTotal: Int
    var maxAttachmentFloats: Int
}

extension CompiledSkeleton {
    /// Flattens every attachment's geometry into pools and sizes each slot's buffers (deform
    /// buffers from what deform timelines key, `deformNeed`; world vertices from the largest
    /// attachment any skin puts in the slot).
    static func compileAttachments(_ data: SkeletonData, deformNeed: [Int]) -> CompiledAttachments {
        let boneCount = data.bones.count
        let slotCount = data.slots.count
        var attachmentKind: [UInt8] = []
        var attachmentVertexStart: [Int32] = []
        var attachmentVertexFloats: [Int32] = []
        var attachmentBoneStart: [Int32] = []
        var attachmentBoneCount: [Int32] = []
        var attachmentWorldLength: [Int32] = []
        var attachmentDrawnFloats: [Int32] = []
        var attachmentTimeline: [Int32] = []
        var attachmentFirstFrame: [Int32] = []
        var attachmentFrameCount: [Int32] = []
        var attachmentSequenceSetup: [Int32] = []
        var attachmentSequenceCount: [Int32] = []
        var attachmentDraw: [Int32] = []
        var vertexPool: [Float] = []
        var bonePool: [Int32] = []
        var skinPool: [SIMD4<Float>] = []
        var attachmentSkinStart: [Int32] = []
        var laneBoneUsed = [Bool](repeating: false, count: boneCount)
        var laneSkinPool: [SIMD4<Float>] = []
        for a in data.attachments {
            attachmentSkinStart.append(Int32(skinPool.count))
            if !a.bones.isEmpty {
                var f = 0
                while f + 2 < a.vertices.count {
                    let x = a.vertices[f]
                    let y = a.vertices[f + 1]
                    skinPool.append(SIMD4(x, x, y, y))
                    skinPool.append(SIMD4(repeating: a.vertices[f + 2]))
                    laneSkinPool.append(SIMD4(repeating: x))
                    laneSkinPool.append(SIMD4(repeating: y))
                    laneSkinPool.append(SIMD4(repeating: a.vertices[f + 2]))
                    f += 3
                }
                var i = 0
                while i < a.bones.count {
                    let n = max(0, Int(a.bones[i]))
                    for k in 0..<n where i + 1 + k < a.bones.count {
                        let bone = Int(a.bones[i + 1 + k])
                        if bone >= 0 && bone < boneCount { laneBoneUsed[bone] = true }
                    }
                    i += 1 + n
                }
            }
            attachmentKind.append(a.kind.rawValue)
            attachmentVertexStart.append(Int32(vertexPool.count))
            attachmentVertexFloats.append(Int32(a.vertices.count))
            vertexPool.append(contentsOf: a.vertices)
            attachmentBoneStart.append(Int32(bonePool.count))
            attachmentBoneCount.append(Int32(a.bones.count))
            bonePool.append(contentsOf: a.bones)
            attachmentWorldLength.append(a.worldVerticesLength)
            switch a.kind {
            case .mesh: attachmentDrawnFloats.append(max(0, a.worldVerticesLength))
            case .region: attachmentDrawnFloats.append(a.frameCount > 0 ? -8 : 0)
            default: attachmentDrawnFloats.append(0)
            }
            attachmentTimeline.append(a.timelineAttachment)
            attachmentFirstFrame.append(a.firstFrame)
            attachmentFrameCount.append(a.frameCount)
            attachmentSequenceSetup.append(a.sequence?.setupIndex ?? 0)
            attachmentSequenceCount.append(max(0, a.sequence?.count ?? 0))
            attachmentDraw.append(AttachmentDraw.code(a))
        }
        var laneBones: [Int32] = []
        var laneRecord = [Int32](repeating: 0, count: boneCount)
        for bone in 0..<boneCount where laneBoneUsed[bone] {
            laneRecord[bone] = Int32(laneBones.count * 96)
            laneBones.append(Int32(bone))
        }
        var laneBonePool = bonePool
        for a in 0..<data.attachments.count where attachmentBoneCount[a] > 0 {
            var i = Int(attachmentBoneStart[a])
            let end = i + Int(attachmentBoneCount[a])
            while i < end {
                let n = max(0, Int(laneBonePool[i]))
                for k in (i + 1)..<min(end, i + 1 + n) {
                    let bone = Int(laneBonePool[k])
                    laneBonePool[k] = bone >= 0 && bone < boneCount ? laneRecord[bone] : 0
                }
                i += 1 + n
            }
        }
        var frameOffsets: [Float] = []
        frameOffsets.reserveCapacity(data.attachmentFrames.count * 8)
        for frame in data.attachmentFrames {
            for k in 0..<8 { frameOffsets.append(frame.offsets[k]) }
        }
        var vertexNeed = [Int](repeating: 0, count: slotCount)
        for skin in data.skins {
            for entry in skin.entries {
                let a = data.attachments[Int(entry.attachment)]
                let s = Int(entry.slot)
                switch a.kind {
                case .region:
                    vertexNeed[s] = max(vertexNeed[s], 8)
                case .mesh:
                    vertexNeed[s] = max(vertexNeed[s], Int(a.worldVerticesLength))
                case .boundingBox, .path, .clipping, .point:
                    break
                }
            }
        }
        var slotDeformOffset: [Int32] = []
        var slotVertexOffset: [Int32] = []
        var deformTotal = 0
        var vertexTotal = 0
        for s in 0..<slotCount {
            slotDeformOffset.append(Int32(deformTotal))
            deformTotal += deformNeed[s]
            slotVertexOffset.append(Int32(vertexTotal))
            vertexTotal += vertexNeed[s]
        }
        let maxAttachmentFloats = Int(attachmentWorldLength.max() ?? 0)
        // One extra entry so a slot's capacity is offset[s + 1] - offset[s].
        slotDeformOffset.append(Int32(deformTotal))
        slotVertexOffset.append(Int32(vertexTotal))
        return CompiledAttachments(
            attachmentKind: attachmentKind, attachmentVertexStart: attachmentVertexStart,
            attachmentVertexFloats: attachmentVertexFloats, attachmentBoneStart: attachmentBoneStart,
            attachmentBoneCount: attachmentBoneCount, attachmentWorldLength: attachmentWorldLength,
            attachmentDrawnFloats: attachmentDrawnFloats, attachmentTimeline: attachmentTimeline,
            attachmentFirstFrame: attachmentFirstFrame, attachmentFrameCount: attachmentFrameCount,
            attachmentSequenceSetup: attachmentSequenceSetup, attachmentSequenceCount: attachmentSequenceCount,
            attachmentDraw: attachmentDraw, vertexPool: vertexPool, bonePool: bonePool, skinPool: skinPool,
            attachmentSkinStart: attachmentSkinStart, laneBones: laneBones, laneBonePool: laneBonePool,
            laneSkinPool: laneSkinPool, frameOffsets: frameOffsets, slotDeformOffset: slotDeformOffset,
            slotVertexOffset: slotVertexOffset, deformTotal: deformTotal, vertexTotal: vertexTotal,
            maxAttachmentFloats: maxAttachmentFloats)
    }
}
