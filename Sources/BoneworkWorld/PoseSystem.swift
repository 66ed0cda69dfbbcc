import BoneworkFormat

/// System 3: constraints and world transforms. Each instance runs its skin's update program
/// (`UpdateProgram`): the local pose is copied to the applied pose, then bones are transformed
/// and constraints solved in program order.
enum PoseSystem {
    static func update(_ cols: BatchColumns, _ rig: RigTables, range: Range<Int>, physics: Physics = .update) {
        PathConstraintSolver.withScratch(rig) { scratch in
            for instance in range {
                updateWorldTransforms(cols, rig, cols.rows(instance), physics: physics, scratch: scratch)
            }
        }
    }

    /// The reference's Skeleton::updateWorldTransform for one instance.
    @inline(__always)
    static func updateWorldTransforms(
        _ cols: BatchColumns, _ rig: RigTables, _ r: InstanceRows, physics: Physics = .update,
        scratch: UnsafeMutablePointer<Float>? = nil
    ) {
        let boneCount = rig.boneCount
        if r.stride == 1 {
            let n = boneCount
            (cols.ax + r.bone).update(from: cols.x + r.bone, count: n)
            (cols.ay + r.bone).update(from: cols.y + r.bone, count: n)
            (cols.arotation + r.bone).update(from: cols.rotation + r.bone, count: n)
            (cols.ascaleX + r.bone).update(from: cols.scaleX + r.bone, count: n)
            (cols.ascaleY + r.bone).update(from: cols.scaleY + r.bone, count: n)
            (cols.ashearX + r.bone).update(from: cols.shearX + r.bone, count: n)
            (cols.ashearY + r.bone).update(from: cols.shearY + r.bone, count: n)
        } else {
            for k in 0..<boneCount {
                let i = r.bone(k)
                cols.ax[i] = cols.x[i]
                cols.ay[i] = cols.y[i]
                cols.arotation[i] = cols.rotation[i]
                cols.ascaleX[i] = cols.scaleX[i]
                cols.ascaleY[i] = cols.scaleY[i]
                cols.ashearX[i] = cols.shearX[i]
                cols.ashearY[i] = cols.shearY[i]
            }
        }
        let plan = Int(cols.plan[r.instance])
        let ops = rig.ops + Int(rig.planOpStart[plan])
        let count = Int(rig.planOpCount[plan])
        for o in 0..<count {
            let op = ops[o]
            let index = Int(op.index)
            switch op.kind {
            case .bone:
                BoneTransform.updateFromApplied(cols, rig, r, bone: index)
            case .ik:
                IKSolver.solve(cols, rig, r, constraint: index)
            case .transform:
                TransformConstraintSolver.solve(cols, rig, r, constraint: index)
            case .path:
                PathConstraintSolver.solve(cols, rig, r, constraint: index, scratch: scratch)
            case .physics:
                PhysicsConstraintSolver.update(cols, rig, r, constraint: index, physics: physics)
            }
        }
    }
}
