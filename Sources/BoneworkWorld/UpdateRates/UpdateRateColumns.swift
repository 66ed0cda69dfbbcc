/// The columns of the update-rate step that follows the pose system in a batch with update
/// rates (`UpdateRate`): which rows compute their pose this frame (`fillDue`), and after the
/// pose system, for each row, either recording its computed world transforms in the history
/// (`record`) or drawing one from the history (`extrapolate`).
///
/// History is kept without the placement (the skeleton's x, y and scale): a drawn pose is placed
/// where the instance is now, so a moving or turning character never trails its own pose.
///
/// Rows the application does not draw (`hidden`, `World.setVisible`) do not draw from their
/// history: they record their computed poses as usual and hold the last one in between, so that
/// a crowd's characters off screen cost no per-bone work on the frames they are not posed, and
/// draw from their history as soon as they are drawn again.
///
/// # Safety
/// The pointers are the batch's (see `BatchColumns`): valid until the batch grows, addressed
/// through `shape.rows(_:)` for instances below the batch's count, and only bound to storage
/// with room for the rows when `shape.updateRates` is true. A chunk writes only its own rows.
struct UpdateRateColumns {
    var shape: BatchShape
    var updateRate: UnsafePointer<UInt8>
    var posesKept: UnsafeMutablePointer<UInt8>
    var hidden: UnsafePointer<UInt8>
    var sinceUpdate: UnsafeMutablePointer<Float>
    var updateInterval: UnsafeMutablePointer<Float>
    var lastA: UnsafeMutablePointer<Float>
    var lastB: UnsafeMutablePointer<Float>
    var lastC: UnsafeMutablePointer<Float>
    var lastD: UnsafeMutablePointer<Float>
    var lastX: UnsafeMutablePointer<Float>
    var lastY: UnsafeMutablePointer<Float>
    var previousA: UnsafeMutablePointer<Float>
    var previousB: UnsafeMutablePointer<Float>
    var previousC: UnsafeMutablePointer<Float>
    var previousD: UnsafeMutablePointer<Float>
    var previousX: UnsafeMutablePointer<Float>
    var previousY: UnsafeMutablePointer<Float>
    // World transforms: read after a computed pose, written on the other frames.
    var a: UnsafeMutablePointer<Float>
    var b: UnsafeMutablePointer<Float>
    var c: UnsafeMutablePointer<Float>
    var d: UnsafeMutablePointer<Float>
    var worldX: UnsafeMutablePointer<Float>
    var worldY: UnsafeMutablePointer<Float>
    var skeletonX: UnsafePointer<Float>
    var skeletonY: UnsafePointer<Float>
    var skeletonScaleX: UnsafePointer<Float>
    var skeletonScaleY: UnsafePointer<Float>

    init(_ cols: BatchColumns) {
        shape = cols.shape
        updateRate = UnsafePointer(cols.updateRate)
        posesKept = cols.posesKept
        hidden = UnsafePointer(cols.hidden)
        sinceUpdate = cols.sinceUpdate
        updateInterval = cols.updateInterval
        lastA = cols.lastA
        lastB = cols.lastB
        lastC = cols.lastC
        lastD = cols.lastD
        lastX = cols.lastX
        lastY = cols.lastY
        previousA = cols.previousA
        previousB = cols.previousB
        previousC = cols.previousC
        previousD = cols.previousD
        previousX = cols.previousX
        previousY = cols.previousY
        a = cols.a
        b = cols.b
        c = cols.c
        d = cols.d
        worldX = cols.worldX
        worldY = cols.worldY
        skeletonX = UnsafePointer(cols.skeletonX)
        skeletonY = UnsafePointer(cols.skeletonY)
        skeletonScaleX = UnsafePointer(cols.skeletonScaleX)
        skeletonScaleY = UnsafePointer(cols.skeletonScaleY)
    }

    /// Marks in `due` (one byte per row from `rows.lowerBound`) the rows whose pose frame
    /// `frame` computes: rows whose rate comes round, rows with no computed pose kept, and drawn
    /// rows with one. The rows of one layout chunk share their phase (frame + chunk index), so
    /// that chunks at one rate compute together and the pose system keeps its SIMD lanes; the
    /// chunks' phases are spread over the frames, so that each frame computes about as many.
    @inline(__always)
    func fillDue(_ rows: Range<Int>, frame: Int, into due: UnsafeMutablePointer<UInt8>) {
        let chunkSize = shape.layout.chunkSize
        for row in rows {
            let mask = (1 &<< Int(min(updateRate[row], UInt8(UpdateRate.count &- 1)))) &- 1
            let comesRound = (frame &+ row / chunkSize) & mask == 0
            let kept = posesKept[row]
            due[row &- rows.lowerBound] = comesRound || kept == 0 || (kept == 1 && hidden[row] == 0) ? 1 : 0
        }
    }

    /// After the pose system: rows marked in `due` record their world transforms (and the time
    /// since their last computed pose), the others draw a pose from the history with `blend`.
    /// Every row's clock since its last computed pose advances by `delta` first. Hidden rows
    /// record but do not draw: their world transforms keep the last pose computed.
    ///
    /// A whole layout chunk of 8 rows with the same mark (the usual case: they share their
    /// phase) is done bone by bone across its 8 lanes, which are contiguous. Row by row, each
    /// bone's 18 floats sit in cache lines shared with the chunk's other rows: 100,000 default
    /// characters all drawn from history cost 56 ms of CPU per frame that way, 21 ms lane-wise
    /// (still bound by memory: 1.4 KB read and written per 20-bone character). Rows at full
    /// rate keep no history at all.
    @inline(__always)
    func finish(_ rows: Range<Int>, due: UnsafePointer<UInt8>, delta: Float, blend: UpdateRateBlend) {
        let lanes = shape.layout.chunkSize == 8
        var row = rows.lowerBound
        while row < rows.upperBound {
            let k = row &- rows.lowerBound
            if lanes && row & 7 == 0 && row &+ 8 <= rows.upperBound {
                let first = due[k]
                var same = true
                for l in 1..<8 where (due[k &+ l] != 0) != (first != 0) { same = false }
                let hiddenLanes = anyOf8(hidden + row)
                if same && first == 0 && hiddenLanes == Self.allLanes {
                    // Hidden and not posed: they hold their pose, nothing per bone.
                    for l in 0..<8 { sinceUpdate[row &+ l] += delta }
                    row &+= 8
                    continue
                }
                if same && (first != 0 || hiddenLanes == 0) {
                    for l in 0..<8 { sinceUpdate[row &+ l] += delta }
                    if first != 0 {
                        if anyOf8(updateRate + row) == 0 {
                            // At full rate the history is not needed: kept empty, so that a slower
                            // rate later computes two poses before it draws from them.
                            for l in 0..<8 {
                                posesKept[row &+ l] = 0
                                sinceUpdate[row &+ l] = 0
                            }
                        } else {
                            record8(row)
                        }
                    } else {
                        extrapolate8(row, blend: blend)
                    }
                    row &+= 8
                    continue
                }
            }
            sinceUpdate[row] += delta
            if due[k] != 0 {
                if updateRate[row] == 0 {
                    posesKept[row] = 0
                    sinceUpdate[row] = 0
                } else {
                    record(row)
                }
            } else if hidden[row] == 0 {
                extrapolate(row, blend: blend)
            }
            row &+= 1
        }
    }

    /// `anyOf8` of eight bytes of 1.
    static let allLanes: UInt64 = 0x0101_0101_0101_0101

    /// The 8 bytes from `p` as one word (0: all zero).
    @inline(__always)
    private func anyOf8(_ p: UnsafePointer<UInt8>) -> UInt64 {
        UnsafeRawPointer(p).loadUnaligned(as: UInt64.self)
    }

    /// `extrapolate` for the 8 rows of the layout chunk starting at `first` (a multiple of 8 in
    /// a layout of chunks of 8), one bone's 8 lanes at a time.
    @inline(__always)
    func extrapolate8(_ first: Int, blend: UpdateRateBlend) {
        var t = SIMD8<Float>()
        var sx = SIMD8<Float>()
        var sy = SIMD8<Float>()
        var x0 = SIMD8<Float>()
        var y0 = SIMD8<Float>()
        for l in 0..<8 {
            let row = first &+ l
            t[l] = factor(row, blend: blend)
            sx[l] = skeletonScaleX[row]
            sy[l] = skeletonScaleY[row]
            x0[l] = skeletonX[row]
            y0[l] = skeletonY[row]
        }
        let base = shape.rows(first).bone
        @inline(__always) func lane(_ p: UnsafeMutablePointer<Float>, _ i: Int) -> SIMD8<Float> {
            UnsafeRawPointer(p + i).loadUnaligned(as: SIMD8<Float>.self)
        }
        @inline(__always) func store(_ v: SIMD8<Float>, _ p: UnsafeMutablePointer<Float>, _ i: Int) {
            UnsafeMutableRawPointer(p + i).storeBytes(of: v, as: SIMD8<Float>.self)
        }
        @inline(__always) func step(
            _ last: UnsafeMutablePointer<Float>, _ previous: UnsafeMutablePointer<Float>, _ i: Int
        )
            -> SIMD8<Float>
        {
            let l = lane(last, i)
            return l + (l - lane(previous, i)) * t
        }
        for k in 0..<shape.boneCount {
            let i = base &+ k &* 8
            store(sx * step(lastA, previousA, i), a, i)
            store(sx * step(lastB, previousB, i), b, i)
            store(sy * step(lastC, previousC, i), c, i)
            store(sy * step(lastD, previousD, i), d, i)
            store(sx * step(lastX, previousX, i) + x0, worldX, i)
            store(sy * step(lastY, previousY, i) + y0, worldY, i)
        }
    }

    /// `record` for the 8 rows of the layout chunk starting at `first`, one bone's 8 lanes at a time.
    @inline(__always)
    func record8(_ first: Int) {
        var ix = SIMD8<Float>()
        var iy = SIMD8<Float>()
        var x0 = SIMD8<Float>()
        var y0 = SIMD8<Float>()
        for l in 0..<8 {
            let row = first &+ l
            updateInterval[row] = sinceUpdate[row]
            sinceUpdate[row] = 0
            posesKept[row] = min(posesKept[row] &+ 1, 2)
            let inverse = inverseScale(row)
            ix[l] = inverse.x
            iy[l] = inverse.y
            x0[l] = skeletonX[row]
            y0[l] = skeletonY[row]
        }
        let base = shape.rows(first).bone
        @inline(__always) func move(_ from: UnsafeMutablePointer<Float>, to: UnsafeMutablePointer<Float>, _ i: Int) {
            (to + i).update(from: from + i, count: 8)
        }
        @inline(__always) func set(_ p: UnsafeMutablePointer<Float>, _ i: Int, _ v: SIMD8<Float>) {
            UnsafeMutableRawPointer(p + i).storeBytes(of: v, as: SIMD8<Float>.self)
        }
        @inline(__always) func world(_ p: UnsafeMutablePointer<Float>, _ i: Int) -> SIMD8<Float> {
            UnsafeRawPointer(p + i).loadUnaligned(as: SIMD8<Float>.self)
        }
        for k in 0..<shape.boneCount {
            let i = base &+ k &* 8
            move(lastA, to: previousA, i)
            move(lastB, to: previousB, i)
            move(lastC, to: previousC, i)
            move(lastD, to: previousD, i)
            move(lastX, to: previousX, i)
            move(lastY, to: previousY, i)
            set(lastA, i, world(a, i) * ix)
            set(lastB, i, world(b, i) * ix)
            set(lastC, i, world(c, i) * iy)
            set(lastD, i, world(d, i) * iy)
            set(lastX, i, (world(worldX, i) - x0) * ix)
            set(lastY, i, (world(worldY, i) - y0) * iy)
        }
    }

    /// How far past the last computed pose a row draws: the time since it over the time between
    /// the last two (-1 ... 1; 0 when nothing is known), one less for `.interpolate`.
    @inline(__always)
    func factor(_ row: Int, blend: UpdateRateBlend) -> Float {
        let interval = updateInterval[row]
        var t: Float = interval > 0 ? min(1, max(-1, sinceUpdate[row] / interval)) : 0
        if !t.isFinite { t = 0 }
        return blend == .interpolate ? t - 1 : t
    }

    /// The placement's scale as factors that take it out (0 for a zero scale, whose poses are
    /// all at the placement's point).
    @inline(__always)
    private func inverseScale(_ row: Int) -> (x: Float, y: Float) {
        let sx = skeletonScaleX[row]
        let sy = skeletonScaleY[row]
        return (sx != 0 ? 1 / sx : 0, sy != 0 ? 1 / sy : 0)
    }

    /// Shifts the row's history: the last computed pose becomes the previous one, and the world
    /// transforms just computed, without the placement, the last.
    @inline(__always)
    func record(_ row: Int) {
        updateInterval[row] = sinceUpdate[row]
        sinceUpdate[row] = 0
        posesKept[row] = min(posesKept[row] &+ 1, 2)
        let r = shape.rows(row)
        let (ix, iy) = inverseScale(row)
        let x0 = skeletonX[row]
        let y0 = skeletonY[row]
        for k in 0..<shape.boneCount {
            let i = r.bone(k)
            previousA[i] = lastA[i]
            previousB[i] = lastB[i]
            previousC[i] = lastC[i]
            previousD[i] = lastD[i]
            previousX[i] = lastX[i]
            previousY[i] = lastY[i]
            lastA[i] = a[i] * ix
            lastB[i] = b[i] * ix
            lastC[i] = c[i] * iy
            lastD[i] = d[i] * iy
            lastX[i] = (worldX[i] - x0) * ix
            lastY[i] = (worldY[i] - y0) * iy
        }
    }

    /// Writes the row's world transforms from its history: the last pose moved on by the
    /// last two poses' difference times `t` (the time since the last computed pose over the
    /// time between the last two, -1 ... 1; one less for `.interpolate`), placed where the
    /// instance is now.
    @inline(__always)
    func extrapolate(_ row: Int, blend: UpdateRateBlend) {
        let t = factor(row, blend: blend)
        let r = shape.rows(row)
        let sx = skeletonScaleX[row]
        let sy = skeletonScaleY[row]
        let x0 = skeletonX[row]
        let y0 = skeletonY[row]
        for k in 0..<shape.boneCount {
            let i = r.bone(k)
            a[i] = sx * (lastA[i] + (lastA[i] - previousA[i]) * t)
            b[i] = sx * (lastB[i] + (lastB[i] - previousB[i]) * t)
            c[i] = sy * (lastC[i] + (lastC[i] - previousC[i]) * t)
            d[i] = sy * (lastD[i] + (lastD[i] - previousD[i]) * t)
            worldX[i] = sx * (lastX[i] + (lastX[i] - previousX[i]) * t) + x0
            worldY[i] = sy * (lastY[i] + (lastY[i] - previousY[i]) * t) + y0
        }
    }
}
