import BoneworkFormat

/// System 3: constraints and world transforms. Each instance runs its skin's update program
/// (`UpdateProgram`): the local pose is copied to the applied pose, then bones are transformed
/// and constraints solved in program order.
enum PoseSystem {
    /// Poses `range` with the caller's scratch (a frame's worker passes its chunk's).
    static func update(
        _ cols: PoseColumns, _ rig: RigTables, range: Range<Int>, physics: Physics = .update, scratch: PoseScratch
    ) {
        let path = rig.pathCount > 0 ? scratch.path : nil
        // In chunked layouts, groups of 8 (chunk sizes a multiple of 8) or 4 neighbouring
        // instances of one plan are posed in SIMD lanes (`PoseLanes`); the rest one by one.
        let lanes = cols.layout.chunkSize % PoseLanes.width == 0
        let eight = cols.layout.chunkSize % 8 == 0
        var instance = range.lowerBound
        while instance < range.upperBound {
            let r = cols.rows(instance)
            let c = scratch.columns(cols, r)
            if eight && instance % 8 == 0 && instance &+ 8 <= range.upperBound
                && samePlan(cols, rig, first: instance) && samePlan(cols, rig, first: instance &+ 4)
                && samePlan(cols, rig, cols.plan[instance], cols.plan[instance &+ 4])
            {
                PoseLanes.pose8(c, rig, first: instance, physics: physics, pathScratch: path)
                instance &+= 8
            } else if lanes && instance % PoseLanes.width == 0 && instance &+ PoseLanes.width <= range.upperBound
                && samePlan(cols, rig, first: instance)
            {
                PoseLanes.pose(c, rig, first: instance, physics: physics, pathScratch: path)
                instance &+= PoseLanes.width
            } else {
                pose(c, rig, r, physics: physics, pathScratch: path)
                instance &+= 1
            }
        }
    }

    /// Poses the rows of `range` marked in `due` (one byte per row from `range.lowerBound`;
    /// `UpdateRateColumns.fillDue`): each run of consecutive marked rows as `update` poses a
    /// range, so that a block whose rows are all marked is posed exactly as without update rates.
    static func update(
        _ cols: PoseColumns, _ rig: RigTables, range: Range<Int>, scratch: PoseScratch, due: UnsafePointer<UInt8>
    ) {
        var start = range.lowerBound
        while start < range.upperBound {
            while start < range.upperBound && due[start &- range.lowerBound] == 0 { start &+= 1 }
            var end = start
            while end < range.upperBound && due[end &- range.lowerBound] != 0 { end &+= 1 }
            if end > start { update(cols, rig, range: start..<end, scratch: scratch) }
            start = end
        }
    }

    /// Whether the 4 instances from `first` run the same update steps (skins with identical
    /// programs share them, see `CompiledSkeleton`).
    @inline(__always)
    private static func samePlan(_ cols: PoseColumns, _ rig: RigTables, first: Int) -> Bool {
        let p = cols.plan[first]
        return samePlan(cols, rig, p, cols.plan[first &+ 1]) && samePlan(cols, rig, p, cols.plan[first &+ 2])
            && samePlan(cols, rig, p, cols.plan[first &+ 3])
    }

    /// Whether plans `p` and `q` run the same update steps.
    @inline(__always)
    private static func samePlan(_ cols: PoseColumns, _ rig: RigTables, _ p: Int32, _ q: Int32) -> Bool {
        p == q
            || (rig.planOpStart[Int(p)] == rig.planOpStart[Int(q)]
                && rig.planOpCount[Int(p)] == rig.planOpCount[Int(q)])
    }

    /// Poses `range` with scratch of its own (outside frames: allocates).
    static func update(_ cols: PoseColumns, _ rig: RigTables, range: Range<Int>, physics: Physics = .update) {
        let scratch = PoseScratch()
        scratch.reserve(rig, stride: cols.layout.stride)
        update(cols, rig, range: range, physics: physics, scratch: scratch)
    }

    /// One instance's world transforms, outside frames, with the caller's scratch (a batch keeps
    /// one for this, `Batch.updateWorldTransforms(row:physics:)`: no allocation).
    static func updateWorldTransforms(
        _ cols: PoseColumns, _ rig: RigTables, _ r: InstanceRows, physics: Physics = .update, scratch: PoseScratch
    ) {
        update(cols, rig, range: r.instance..<(r.instance + 1), physics: physics, scratch: scratch)
    }

    /// The reference's Skeleton::updateWorldTransform for one instance; `cols`' applied pose
    /// points at scratch (`PoseScratch.columns`).
    @inline(__always)
    static func pose(
        _ cols: PoseColumns, _ rig: RigTables, _ r: InstanceRows, physics: Physics,
        pathScratch: UnsafeMutablePointer<Float>?
    ) {
        let boneCount = rig.boneCount
        if r.stride == 1 {
            let n = boneCount
            (cols.appliedX + r.bone).update(from: cols.x + r.bone, count: n)
            (cols.appliedY + r.bone).update(from: cols.y + r.bone, count: n)
            (cols.appliedRotation + r.bone).update(from: cols.rotation + r.bone, count: n)
            (cols.appliedScaleX + r.bone).update(from: cols.scaleX + r.bone, count: n)
            (cols.appliedScaleY + r.bone).update(from: cols.scaleY + r.bone, count: n)
            (cols.appliedShearX + r.bone).update(from: cols.shearX + r.bone, count: n)
            (cols.appliedShearY + r.bone).update(from: cols.shearY + r.bone, count: n)
        } else {
            for k in 0..<boneCount {
                let i = r.bone(k)
                cols.appliedX[i] = cols.x[i]
                cols.appliedY[i] = cols.y[i]
                cols.appliedRotation[i] = cols.rotation[i]
                cols.appliedScaleX[i] = cols.scaleX[i]
                cols.appliedScaleY[i] = cols.scaleY[i]
                cols.appliedShearX[i] = cols.shearX[i]
                cols.appliedShearY[i] = cols.shearY[i]
            }
        }
        let plan = Int(cols.plan[r.instance])
        let ops = rig.ops + Int(rig.planOpStart[plan])
        let count = Int(rig.planOpCount[plan])
        for o in 0..<count {
            step(ops[o], cols, rig, r, physics: physics, pathScratch: pathScratch)
        }
    }

    /// One step of an update program for the instance at rows `r`.
    @inline(__always)
    static func step(
        _ op: UpdateOp, _ cols: PoseColumns, _ rig: RigTables, _ r: InstanceRows, physics: Physics,
        pathScratch: UnsafeMutablePointer<Float>?
    ) {
        let index = Int(op.index)
        switch op.kind {
        case .childBone:
            BoneTransform.updateChild(cols, rig, r, bone: index, parent: Int(op.parent))
        case .bone:
            BoneTransform.updateFromApplied(cols, rig, r, bone: index)
        case .ik:
            IKSolver.solve(cols, rig, r, constraint: index)
        case .transform:
            TransformConstraintSolver.solve(cols, rig, r, constraint: index, recomputesApplied: op.recomputesApplied)
        case .path:
            PathConstraintSolver.solve(
                cols, rig, r, constraint: index, scratch: pathScratch, recomputesApplied: op.recomputesApplied)
        case .physics:
            PhysicsConstraintSolver.update(
                cols, rig, r, constraint: index, physics: physics, recomputesApplied: op.recomputesApplied)
        }
    }
}

/// Scratch of the pose system for one thread: the applied pose of the instance being posed
/// (7 fields of `boneCount * stride` floats: an instance's applied pose is only needed while its
/// world transforms are computed, so batches store none) and the path solver's floats.
/// Grows on the calling thread, outside frames' parallel work.
final class PoseScratch: @unchecked Sendable {
    /// Where the applied pose of `PoseColumns` points outside the pose system (never written).
    nonisolated(unsafe) static let unset = UnsafeMutablePointer<Float>.allocate(capacity: 1)

    private(set) var applied: UnsafeMutablePointer<Float>
    private var fieldFloats = 0
    private(set) var path: UnsafeMutablePointer<Float>
    private var pathFloats = 0
    /// One byte per row of a block: whether its pose is computed this frame (`UpdateRateColumns`).
    private(set) var due: UnsafeMutablePointer<UInt8>
    private var dueRows = 0

    init() {
        applied = .allocate(capacity: 1)
        path = .allocate(capacity: 1)
        due = .allocate(capacity: 1)
    }

    deinit {
        applied.deallocate()
        path.deallocate()
        due.deallocate()
    }

    /// Makes room for the due marks of a block of `rows` rows.
    func reserveDue(_ rows: Int) {
        guard rows > dueRows else { return }
        due.deallocate()
        due = .allocate(capacity: rows)
        dueRows = rows
    }

    /// Makes room for instances of `rig` in a layout of the given stride.
    func reserve(_ rig: RigTables, stride: Int) {
        let need = max(1, rig.boneCount * max(1, stride))
        if need > fieldFloats {
            applied.deallocate()
            applied = .allocate(capacity: need * 7)
            applied.initialize(repeating: 0, count: need * 7)
            fieldFloats = need
        }
        // One solve's scratch per lane of `PoseLanes` (which prepares four chains, then places them).
        let pathNeed = max(1, rig.paths.scratchFloats * PoseLanes.width)
        if pathNeed > pathFloats {
            path.deallocate()
            path = .allocate(capacity: pathNeed)
            pathFloats = pathNeed
        }
    }

    /// `cols` with the applied pose addressed into this scratch for the instance at rows `r`:
    /// `appliedX[r.bone(k)]` is scratch field 0, element `lane + k * stride`.
    @inline(__always)
    ///
    /// # Safety
    /// The applied pose of the result is valid for the instance at `r` (and the lanes of its layout
    /// chunk) until the next call, which readdresses the same scratch; `reserve` must have been
    /// called for the batch's rig and stride.
    func columns(_ cols: PoseColumns, _ r: InstanceRows) -> PoseColumns {
        var c = cols
        // The instance's first element index minus its lane in a layout chunk.
        let offset = r.bone &- (r.stride == 1 ? 0 : r.instance % r.stride)
        @inline(__always) func field(_ f: Int) -> UnsafeMutablePointer<Float> {
            let p = applied + f &* fieldFloats
            let address = UInt(bitPattern: p) &- UInt(bitPattern: offset &* MemoryLayout<Float>.stride)
            return UnsafeMutablePointer(bitPattern: address) ?? p
        }
        c.appliedX = field(0)
        c.appliedY = field(1)
        c.appliedRotation = field(2)
        c.appliedScaleX = field(3)
        c.appliedScaleY = field(4)
        c.appliedShearX = field(5)
        c.appliedShearY = field(6)
        return c
    }
}
