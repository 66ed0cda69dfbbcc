import BoneworkFormat
import Foundation

// The solver's first half (spacing, positions along the curve) is here; placing the bones is in
// PathConstraintSolver+Place.swift (and for four instances at once in Lanes/PathLanes.swift); its
// tables and scratch layout are in PathTables.swift.

/// Path constraints: place and rotate a chain of bones along the path attachment shown in the
/// target slot. Spacing (length, fixed, percent, proportional), position (fixed, percent) and
/// rotation (tangent, chain, chain scale) follow the reference, as do closed and
/// constant-speed paths; float operations follow it one by one.
enum PathConstraintSolver {
    static let epsilon: Float = 0.00001
    private static let none = -1
    private static let before = -2
    private static let after = -3

    /// Runs `body` with scratch memory for path solves of `rig`: the calling thread's own buffer
    /// (`PathScratchBuffer`), so concurrent runs over different chunks never share it and a
    /// steady frame allocates nothing.
    @inline(__always)
    static func withScratch<R>(_ rig: RigTables, _ body: (UnsafeMutablePointer<Float>?) throws -> R) rethrows -> R {
        if rig.pathCount == 0 { return try body(nil) }
        return try body(PathScratchBuffer.floats(rig.paths.scratchFloats))
    }

    /// Solves path constraint `k` of one instance with `scratch` (`rig.paths.scratchFloats`
    /// floats; nil: temporary memory for this one solve).
    @inline(__always)
    static func solve(
        _ cols: PoseColumns, _ rig: RigTables, _ r: InstanceRows, constraint k: Int,
        scratch: UnsafeMutablePointer<Float>?, recomputesApplied: Bool = true
    ) {
        if let scratch {
            solve(cols, rig, r, constraint: k, scratch: scratch, recomputesApplied: recomputesApplied)
        } else {
            withScratch(rig) {
                solve(cols, rig, r, constraint: k, scratch: $0!, recomputesApplied: recomputesApplied)
            }
        }
    }

    /// Solves path constraint `k` of one instance. `scratch` holds `rig.paths.scratchFloats` floats.
    /// The bones' applied poses are recomputed when `recomputesApplied`
    /// (`UpdateOp.recomputesApplied`).
    static func solve(
        _ cols: PoseColumns, _ rig: RigTables, _ r: InstanceRows, constraint k: Int,
        scratch: UnsafeMutablePointer<Float>, recomputesApplied: Bool = true
    ) {
        guard let chain = prepare(cols, rig, r, constraint: k, scratch: scratch) else { return }
        place(chain, cols, rig, r, constraint: k, recomputesApplied: recomputesApplied)
    }

    /// The first half of a solve: the spaces, the bones' lengths and the positions along the path
    /// for path constraint `k` of one instance, in `scratch` (`rig.paths.scratchFloats` floats).
    /// Nil when the constraint leaves the pose as it is (no usable path shown, every mix 0, no
    /// bones).
    static func prepare(
        _ cols: PoseColumns, _ rig: RigTables, _ r: InstanceRows, constraint k: Int,
        scratch: UnsafeMutablePointer<Float>
    ) -> PathChain? {
        let tables = rig.paths
        let slot = Int(tables.target[k])
        let attachment = Int(cols.attachment[r.slot(slot)])
        guard attachment >= 0, rig.attachmentKindRaw[attachment] == AttachmentKind.path.rawValue,
            tables.pathFlags[attachment] & PathTables.usable != 0
        else { return nil }
        let ci = r.path(k)
        let mixRotate = cols.pathMixRotate[ci]
        let mixX = cols.pathMixX[ci]
        let mixY = cols.pathMixY[ci]
        if mixRotate == 0 && mixX == 0 && mixY == 0 { return nil }
        let boneCount = Int(tables.boneCount[k])
        guard boneCount > 0 else { return nil }
        let bones = tables.bones + Int(tables.boneStart[k])
        let rotateMode = tables.modes[k &* 3 &+ 2]
        let spacingMode = tables.modes[k &* 3 &+ 1]
        let tangents = rotateMode == RotateMode.tangent.rawValue
        let scale = rotateMode == RotateMode.chainScale.rawValue
        let spacesCount = tangents ? boneCount : boneCount &+ 1
        let s = PathScratch(scratch, tables)
        let spaces = s.spaces
        let lengths = s.lengths
        let spacing = cols.pathSpacing[ci]
        spaces[0] = 0
        // Tangent chains read one position past the last space; it is always zero.
        s.positions[spacesCount &* 3] = 0
        s.positions[spacesCount &* 3 &+ 1] = 0

        switch spacingMode {
        case SpacingMode.percent.rawValue:
            if scale {
                for i in 0..<(spacesCount &- 1) {
                    let b = Int(bones[i])
                    let bi = r.bone(b)
                    let setupLength = rig.boneLength[b]
                    let x = setupLength * cols.a[bi]
                    let y = setupLength * cols.c[bi]
                    lengths[i] = (x * x + y * y).squareRoot()
                }
            }
            for i in 1..<max(1, spacesCount) { spaces[i] = spacing }
        default:
            // Proportional, length and fixed spacing share the walk over the bones; they differ
            // in what a bone of non-zero length contributes to its space.
            let proportional = spacingMode == SpacingMode.proportional.rawValue
            let lengthSpacing = spacingMode == SpacingMode.length.rawValue
            var sum: Float = 0
            var i = 0
            let n = spacesCount &- 1
            while i < n {
                let b = Int(bones[i])
                let bi = r.bone(b)
                let setupLength = rig.boneLength[b]
                if setupLength < epsilon {
                    if scale { lengths[i] = 0 }
                    i &+= 1
                    spaces[i] = spacing
                } else {
                    let x = setupLength * cols.a[bi]
                    let y = setupLength * cols.c[bi]
                    let length = (x * x + y * y).squareRoot()
                    if scale { lengths[i] = length }
                    i &+= 1
                    if proportional {
                        spaces[i] = length
                        sum += length
                    } else {
                        spaces[i] = (lengthSpacing ? setupLength + spacing : spacing) * length / setupLength
                    }
                }
            }
            if proportional && sum > 0 {
                sum = Float(spacesCount) / sum * spacing
                for j in 1..<max(1, spacesCount) { spaces[j] *= sum }
            }
        }

        let positions = computeWorldPositions(
            cols, rig, r, constraint: k, slot: slot, attachment: attachment, spacesCount: spacesCount,
            tangents: tangents, scratch: s)
        var offsetRotation = tables.offsetRotation[k]
        let tip: Bool
        if offsetRotation == 0 {
            tip = rotateMode == RotateMode.chain.rawValue
        } else {
            tip = false
            let p = r.bone(Int(rig.slotBone[slot]))
            offsetRotation *=
                cols.a[p] * cols.d[p] - cols.b[p] * cols.c[p] > 0 ? SpineMath.degRad : -SpineMath.degRad
        }
        return PathChain(
            mixRotate: mixRotate, mixX: mixX, mixY: mixY, offsetRotation: offsetRotation, tip: tip,
            tangents: tangents, scale: scale, spaces: spaces, lengths: lengths, positions: positions)
    }

    /// Positions (x, y, rotation) along the path for each space, into `scratch.positions`.
    private static func computeWorldPositions(
        _ cols: PoseColumns, _ rig: RigTables, _ r: InstanceRows, constraint k: Int, slot: Int, attachment: Int,
        spacesCount: Int, tangents: Bool, scratch s: PathScratch
    ) -> UnsafeMutablePointer<Float> {
        let tables = rig.paths
        let out = s.positions
        let world = s.world
        let spaces = s.spaces
        var position = cols.pathPosition[r.path(k)]
        let flags = tables.pathFlags[attachment]
        let closed = flags & PathTables.closed != 0
        let positionPercent = tables.modes[k &* 3] == PositionMode.percent.rawValue
        let spacingMode = tables.modes[k &* 3 &+ 1]
        var verticesLength = Int(rig.attachmentWorldLength[attachment])
        var curveCount = verticesLength / 6
        var prevCurve = none
        let vertices = AttachmentWorldVertices(AttachmentColumns(cols), rig, r, slot: slot, attachment: attachment)

        if flags & PathTables.constantSpeed == 0 {
            let lengths = tables.lengthPool + Int(tables.lengthStart[attachment])
            curveCount &-= closed ? 1 : 2
            let pathLength = lengths[curveCount]
            if positionPercent { position *= pathLength }
            let multiplier: Float
            switch spacingMode {
            case SpacingMode.percent.rawValue: multiplier = pathLength
            case SpacingMode.proportional.rawValue: multiplier = pathLength / Float(spacesCount)
            default: multiplier = 1
            }
            var curve = 0
            var o = 0
            for i in 0..<spacesCount {
                defer { o &+= 3 }
                let space = spaces[i] * multiplier
                position += space
                var p = position
                if closed {
                    p = fmodf(p, pathLength)
                    if p < 0 { p += pathLength }
                    curve = 0
                } else if p < 0 {
                    if prevCurve != before {
                        prevCurve = before
                        vertices.compute(start: 2, count: 4, into: world, offset: 0)
                    }
                    addBeforePosition(p, world, 0, out, o)
                    continue
                } else if p > pathLength {
                    if prevCurve != after {
                        prevCurve = after
                        vertices.compute(start: verticesLength &- 6, count: 4, into: world, offset: 0)
                    }
                    addAfterPosition(p - pathLength, world, 0, out, o)
                    continue
                }
                // The curve holding p (the last one when rounding leaves p past every length).
                while true {
                    let length = lengths[curve]
                    if p > length && curve < curveCount {
                        curve &+= 1
                        continue
                    }
                    if curve == 0 {
                        p /= length
                    } else {
                        let prev = lengths[curve &- 1]
                        p = (p - prev) / (length - prev)
                    }
                    break
                }
                if curve != prevCurve {
                    prevCurve = curve
                    if closed && curve == curveCount {
                        vertices.compute(start: verticesLength &- 4, count: 4, into: world, offset: 0)
                        vertices.compute(start: 0, count: 4, into: world, offset: 4)
                    } else {
                        vertices.compute(start: curve &* 6 &+ 2, count: 8, into: world, offset: 0)
                    }
                }
                addCurvePosition(
                    p, world[0], world[1], world[2], world[3], world[4], world[5], world[6], world[7], out, o,
                    tangents || (i > 0 && space < epsilon))
            }
            return out
        }

        // Constant speed: measure every curve in world space first.
        if closed {
            verticesLength &+= 2
            vertices.compute(start: 2, count: verticesLength &- 4, into: world, offset: 0)
            vertices.compute(start: 0, count: 2, into: world, offset: verticesLength &- 4)
            world[verticesLength &- 2] = world[0]
            world[verticesLength &- 1] = world[1]
        } else {
            curveCount &-= 1
            verticesLength &-= 4
            vertices.compute(start: 2, count: verticesLength, into: world, offset: 0)
        }
        let curves = s.curves
        var pathLength: Float = 0
        var x1 = world[0]
        var y1 = world[1]
        var cx1: Float = 0
        var cy1: Float = 0
        var cx2: Float = 0
        var cy2: Float = 0
        var x2: Float = 0
        var y2: Float = 0
        var tmpx: Float
        var tmpy: Float
        var dddfx: Float
        var dddfy: Float
        var ddfx: Float
        var ddfy: Float
        var dfx: Float
        var dfy: Float
        var w = 2
        for i in 0..<max(0, curveCount) {
            cx1 = world[w]
            cy1 = world[w &+ 1]
            cx2 = world[w &+ 2]
            cy2 = world[w &+ 3]
            x2 = world[w &+ 4]
            y2 = world[w &+ 5]
            tmpx = (x1 - cx1 * 2 + cx2) * 0.1875
            tmpy = (y1 - cy1 * 2 + cy2) * 0.1875
            dddfx = ((cx1 - cx2) * 3 - x1 + x2) * 0.09375
            dddfy = ((cy1 - cy2) * 3 - y1 + y2) * 0.09375
            ddfx = tmpx * 2 + dddfx
            ddfy = tmpy * 2 + dddfy
            dfx = (cx1 - x1) * 0.75 + tmpx + dddfx * 0.16666667
            dfy = (cy1 - y1) * 0.75 + tmpy + dddfy * 0.16666667
            pathLength += (dfx * dfx + dfy * dfy).squareRoot()
            dfx += ddfx
            dfy += ddfy
            ddfx += dddfx
            ddfy += dddfy
            pathLength += (dfx * dfx + dfy * dfy).squareRoot()
            dfx += ddfx
            dfy += ddfy
            pathLength += (dfx * dfx + dfy * dfy).squareRoot()
            dfx += ddfx + dddfx
            dfy += ddfy + dddfy
            pathLength += (dfx * dfx + dfy * dfy).squareRoot()
            curves[i] = pathLength
            x1 = x2
            y1 = y2
            w &+= 6
        }
        if positionPercent { position *= pathLength }
        let multiplier: Float
        switch spacingMode {
        case SpacingMode.percent.rawValue: multiplier = pathLength
        case SpacingMode.proportional.rawValue: multiplier = pathLength / Float(spacesCount)
        default: multiplier = 1
        }
        let segments = s.segments
        var curveLength: Float = 0
        var curve = 0
        var segment = 0
        var o = 0
        for i in 0..<spacesCount {
            defer { o &+= 3 }
            let space = spaces[i] * multiplier
            position += space
            var p = position
            if closed {
                p = fmodf(p, pathLength)
                if p < 0 { p += pathLength }
                curve = 0
            } else if p < 0 {
                addBeforePosition(p, world, 0, out, o)
                continue
            } else if p > pathLength {
                addAfterPosition(p - pathLength, world, verticesLength &- 4, out, o)
                continue
            }
            while true {
                let length = curves[curve]
                if p > length && curve < curveCount &- 1 {
                    curve &+= 1
                    continue
                }
                if curve == 0 {
                    p /= length
                } else {
                    let prev = curves[curve &- 1]
                    p = (p - prev) / (length - prev)
                }
                break
            }
            if curve != prevCurve {
                prevCurve = curve
                var ii = curve &* 6
                x1 = world[ii]
                y1 = world[ii &+ 1]
                cx1 = world[ii &+ 2]
                cy1 = world[ii &+ 3]
                cx2 = world[ii &+ 4]
                cy2 = world[ii &+ 5]
                x2 = world[ii &+ 6]
                y2 = world[ii &+ 7]
                tmpx = (x1 - cx1 * 2 + cx2) * 0.03
                tmpy = (y1 - cy1 * 2 + cy2) * 0.03
                dddfx = ((cx1 - cx2) * 3 - x1 + x2) * 0.006
                dddfy = ((cy1 - cy2) * 3 - y1 + y2) * 0.006
                ddfx = tmpx * 2 + dddfx
                ddfy = tmpy * 2 + dddfy
                dfx = (cx1 - x1) * 0.3 + tmpx + dddfx * 0.16666667
                dfy = (cy1 - y1) * 0.3 + tmpy + dddfy * 0.16666667
                curveLength = (dfx * dfx + dfy * dfy).squareRoot()
                segments[0] = curveLength
                ii = 1
                while ii < 8 {
                    dfx += ddfx
                    dfy += ddfy
                    ddfx += dddfx
                    ddfy += dddfy
                    curveLength += (dfx * dfx + dfy * dfy).squareRoot()
                    segments[ii] = curveLength
                    ii &+= 1
                }
                dfx += ddfx
                dfy += ddfy
                curveLength += (dfx * dfx + dfy * dfy).squareRoot()
                segments[8] = curveLength
                dfx += ddfx + dddfx
                dfy += ddfy + dddfy
                curveLength += (dfx * dfx + dfy * dfy).squareRoot()
                segments[9] = curveLength
                segment = 0
            }
            p *= curveLength
            while true {
                let length = segments[segment]
                if p > length && segment < 9 {
                    segment &+= 1
                    continue
                }
                if segment == 0 {
                    p /= length
                } else {
                    let prev = segments[segment &- 1]
                    p = Float(segment) + (p - prev) / (length - prev)
                }
                break
            }
            addCurvePosition(
                p * 0.1, x1, y1, cx1, cy1, cx2, cy2, x2, y2, out, o, tangents || (i > 0 && space < epsilon))
        }
        return out
    }

    @inline(__always)
    private static func addBeforePosition(
        _ p: Float, _ temp: UnsafeMutablePointer<Float>, _ i: Int, _ out: UnsafeMutablePointer<Float>, _ o: Int
    ) {
        let x1 = temp[i]
        let y1 = temp[i &+ 1]
        let dx = temp[i &+ 2] - x1
        let dy = temp[i &+ 3] - y1
        let r = ArcTangent.atan2(dy, dx)
        let (sine, cosine) = Trig.sinCos(r)
        out[o] = x1 + p * cosine
        out[o &+ 1] = y1 + p * sine
        out[o &+ 2] = r
    }

    @inline(__always)
    private static func addAfterPosition(
        _ p: Float, _ temp: UnsafeMutablePointer<Float>, _ i: Int, _ out: UnsafeMutablePointer<Float>, _ o: Int
    ) {
        let x1 = temp[i &+ 2]
        let y1 = temp[i &+ 3]
        let dx = x1 - temp[i]
        let dy = y1 - temp[i &+ 1]
        let r = ArcTangent.atan2(dy, dx)
        let (sine, cosine) = Trig.sinCos(r)
        out[o] = x1 + p * cosine
        out[o &+ 1] = y1 + p * sine
        out[o &+ 2] = r
    }

    @inline(__always)
    private static func addCurvePosition(
        _ p: Float, _ x1: Float, _ y1: Float, _ cx1: Float, _ cy1: Float, _ cx2: Float, _ cy2: Float, _ x2: Float,
        _ y2: Float, _ out: UnsafeMutablePointer<Float>, _ o: Int, _ tangents: Bool
    ) {
        if p < epsilon || p.isNaN {
            out[o] = x1
            out[o &+ 1] = y1
            out[o &+ 2] = ArcTangent.atan2(cy1 - y1, cx1 - x1)
            return
        }
        let tt = p * p
        let ttt = tt * p
        let u = 1 - p
        let uu = u * u
        let uuu = uu * u
        let ut = u * p
        let ut3 = ut * 3
        let uut3 = u * ut3
        let utt3 = ut3 * p
        let x = x1 * uuu + cx1 * uut3 + cx2 * utt3 + x2 * ttt
        let y = y1 * uuu + cy1 * uut3 + cy2 * utt3 + y2 * ttt
        out[o] = x
        out[o &+ 1] = y
        if tangents {
            if Double(p) < 0.001 {
                out[o &+ 2] = ArcTangent.atan2(cy1 - y1, cx1 - x1)
            } else {
                out[o &+ 2] = ArcTangent.atan2(
                    y - (y1 * uu + cy1 * ut * 2 + cy2 * tt), x - (x1 * uu + cx1 * ut * 2 + cx2 * tt))
            }
        }
    }
}
