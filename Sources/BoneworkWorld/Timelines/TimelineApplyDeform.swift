import BoneworkFormat

/// Deform timelines: per-vertex offsets (weighted meshes) or positions (unweighted) of the
/// slot's vertex attachment, written into the slot's deform buffer.
extension TimelineApply {
    static func applyDeform(
        _ t: CompiledTimeline, _ rig: RigTables, _ cols: ApplyColumns, _ ctx: InstanceContext, time: Float,
        alpha alphaIn: Float, blend blendIn: MixBlend
    ) {
        let slot = Int(t.target)
        guard ctx.slotActive(rig, slot) else { return }
        let si = ctx.r.slot(slot)
        let attachment = Int(cols.attachment[si])
        guard attachment >= 0, SetupPose.isVertexAttachment(rig.attachmentKind(attachment)),
            rig.attachmentTimeline[attachment] == t.attachment
        else { return }
        // Every slot a deform timeline targets has a deform row and buffer.
        let di = cols.deformRow(rig, ctx.r, slot: slot)
        guard di >= 0 else { return }
        let vertexCount = Int(t.valueStride)
        let offset = Int(rig.slotDeformOffset[slot])
        guard vertexCount <= Int(rig.slotDeformOffset[slot &+ 1]) &- offset else { return }
        let deform = cols.deform + (ctx.r.deform &+ offset)
        var blend = blendIn
        var alpha = alphaIn
        if cols.deformLength[di] == 0 { blend = .setup }
        let weighted = rig.attachmentBoneCount[attachment] != 0
        let setup = rig.vertexPool + Int(rig.attachmentVertexStart[attachment])
        // Unweighted setup vertices must cover the keys; a mismatch means inconsistent data.
        if !weighted && Int(rig.attachmentVertexFloats[attachment]) < vertexCount { return }
        let keys = TimelineKeys(t, rig)

        /// Grows the buffer to `vertexCount` floats, zeroing the new ones (shrinking keeps values).
        @inline(__always) func resize() {
            let old = Int(cols.deformLength[di])
            if old < vertexCount { (deform + old).update(repeating: 0, count: vertexCount &- old) }
            cols.deformLength[di] = Int32(vertexCount)
        }

        if time < keys.firstTime {
            switch blend {
            case .setup:
                cols.deformLength[di] = 0
            case .first:
                if alpha == 1 {
                    cols.deformLength[di] = 0
                    return
                }
                resize()
                if !weighted {
                    for v in 0..<vertexCount { deform[v] += (setup[v] - deform[v]) * alpha }
                } else {
                    alpha = 1 - alpha
                    for v in 0..<vertexCount { deform[v] *= alpha }
                }
            default:
                break
            }
            return
        }
        resize()
        let values = rig.framePool + Int(t.values)
        let frameCount = Int(t.frameCount)
        if time >= keys.frames[frameCount &- 1] {
            let last = values + (frameCount &- 1) &* vertexCount
            if alpha == 1 {
                if blend == .add {
                    if !weighted {
                        for v in 0..<vertexCount { deform[v] += last[v] - setup[v] }
                    } else {
                        for v in 0..<vertexCount { deform[v] += last[v] }
                    }
                } else {
                    deform.update(from: last, count: vertexCount)
                }
            } else {
                switch blend {
                case .setup:
                    if !weighted {
                        for v in 0..<vertexCount {
                            let s = setup[v]
                            deform[v] = s + (last[v] - s) * alpha
                        }
                    } else {
                        for v in 0..<vertexCount { deform[v] = last[v] * alpha }
                    }
                case .first, .replace:
                    for v in 0..<vertexCount { deform[v] += (last[v] - deform[v]) * alpha }
                case .add:
                    if !weighted {
                        for v in 0..<vertexCount { deform[v] += (last[v] - setup[v]) * alpha }
                    } else {
                        for v in 0..<vertexCount { deform[v] += last[v] * alpha }
                    }
                }
            }
            return
        }
        let frame = keys.search(time)
        let percent = deformPercent(keys, time, frame)
        let prev = values + frame &* vertexCount
        let next = prev + vertexCount
        if alpha == 1 {
            if blend == .add {
                if !weighted {
                    for v in 0..<vertexCount {
                        let p = prev[v]
                        deform[v] += p + (next[v] - p) * percent - setup[v]
                    }
                } else {
                    for v in 0..<vertexCount {
                        let p = prev[v]
                        deform[v] += p + (next[v] - p) * percent
                    }
                }
            } else {
                for v in 0..<vertexCount {
                    let p = prev[v]
                    deform[v] = p + (next[v] - p) * percent
                }
            }
        } else {
            switch blend {
            case .setup:
                if !weighted {
                    for v in 0..<vertexCount {
                        let p = prev[v]
                        let s = setup[v]
                        deform[v] = s + (p + (next[v] - p) * percent - s) * alpha
                    }
                } else {
                    for v in 0..<vertexCount {
                        let p = prev[v]
                        deform[v] = (p + (next[v] - p) * percent) * alpha
                    }
                }
            case .first, .replace:
                for v in 0..<vertexCount {
                    let p = prev[v]
                    deform[v] += (p + (next[v] - p) * percent - deform[v]) * alpha
                }
            case .add:
                if !weighted {
                    for v in 0..<vertexCount {
                        let p = prev[v]
                        deform[v] += (p + (next[v] - p) * percent - setup[v]) * alpha
                    }
                } else {
                    for v in 0..<vertexCount {
                        let p = prev[v]
                        deform[v] += (p + (next[v] - p) * percent) * alpha
                    }
                }
            }
        }
    }

    /// How far between key `frame` and the next `time` is, after the key's curve (deform keys
    /// carry one curve for all their vertices).
    @inline(__always)
    static func deformPercent(_ keys: TimelineKeys, _ time: Float, _ frame: Int) -> Float {
        let curve = keys.curveType(frame)
        switch curve {
        case TimelineKeys.CurveKind.linear:
            let x = keys.frames[frame]
            return (time - x) / (keys.frames[frame &+ 1] - x)
        case TimelineKeys.CurveKind.stepped:
            return 0
        default:
            break
        }
        var i = curve &- TimelineKeys.CurveKind.bezier
        guard i >= 0, i &+ CurveType.bezierSize <= keys.curvesCount else { return 0 }
        let curves = keys.curves
        if curves[i] > time {
            let x = keys.frames[frame]
            return curves[i &+ 1] * (time - x) / (curves[i] - x)
        }
        let n = i &+ CurveType.bezierSize
        i &+= 2
        while i < n {
            if curves[i] >= time {
                let x = curves[i &- 2]
                let y = curves[i &- 1]
                return y + (time - x) / (curves[i] - x) * (curves[i &+ 1] - y)
            }
            i &+= 2
        }
        let x = curves[n &- 2]
        let y = curves[n &- 1]
        return y + (1 - y) * (time - x) / (keys.frames[frame &+ 1] - x)
    }
}
