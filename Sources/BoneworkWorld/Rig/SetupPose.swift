import BoneworkFormat

/// Resetting one instance to the setup pose, and the slot attachment rule every system shares.
enum SetupPose {
    /// The state a freshly created instance has before anything is applied: local pose and
    /// constraints from setup, world transforms the identity (bones a skin leaves inactive keep
    /// it), changeable slot colours white / dark black, no attachments, setup draw order.
    static func initialize(_ cols: BatchColumns, _ rig: RigTables, _ r: InstanceRows) {
        for k in 0..<rig.boneCount {
            let i = r.bone(k)
            cols.a[i] = 1
            cols.b[i] = 0
            cols.c[i] = 0
            cols.d[i] = 1
            cols.worldX[i] = 0
            cols.worldY[i] = 0
        }
        for s in 0..<rig.slotCount {
            let i = r.slot(s)
            cols.attachment[i] = -1
            cols.attachmentState[i] = 0
        }
        for k in 0..<cols.shape.colorSlots {
            let i = r.color(k)
            cols.colorR[i] = 1
            cols.colorG[i] = 1
            cols.colorB[i] = 1
            cols.colorA[i] = 1
        }
        for k in 0..<rig.darkSlots {
            let i = r.dark(k)
            cols.darkR[i] = 0
            cols.darkG[i] = 0
            cols.darkB[i] = 0
        }
        for k in 0..<rig.sequenceSlots { cols.sequenceIndex[r.sequence(k)] = 0 }
        for k in 0..<rig.deformSlots { cols.deformLength[r.deformSlot(k)] = 0 }
        for p in 0..<rig.physicsCount {
            for f in PhysicsField.ux..<PhysicsField.count {
                cols.physics[f &* cols.physicsFieldStride &+ r.physics(p)] = 0
            }
            cols.physicsReset[r.physics(p)] = 1
        }
        cols.time[r.instance] = 0
        cols.skeletonX[r.instance] = 0
        cols.skeletonY[r.instance] = 0
        cols.skeletonScaleX[r.instance] = 1
        cols.skeletonScaleY[r.instance] = 1
        cols.skeletonR[r.instance] = 1
        cols.skeletonG[r.instance] = 1
        cols.skeletonB[r.instance] = 1
        cols.skeletonA[r.instance] = 1
        cols.plan[r.instance] = 0
        setBones(cols, rig, r)
        setSlots(cols, rig, r)
    }

    /// Local pose, inherit modes and constraint values from setup.
    static func setBones(_ cols: BatchColumns, _ rig: RigTables, _ r: InstanceRows) {
        for k in 0..<rig.boneCount {
            let i = r.bone(k)
            let s = rig.boneSetup + k &* 7
            cols.x[i] = s[0]
            cols.y[i] = s[1]
            cols.rotation[i] = s[2]
            cols.scaleX[i] = s[3]
            cols.scaleY[i] = s[4]
            cols.shearX[i] = s[5]
            cols.shearY[i] = s[6]
            let h = cols.inheritRow(rig, r, bone: k)
            if h >= 0 { cols.inherit[h] = rig.boneInherit[k] }
        }
        for k in 0..<rig.ikCount {
            let i = r.ik(k)
            cols.ikMix[i] = rig.ikMix[k]
            cols.ikSoftness[i] = rig.ikSoftness[k]
            cols.ikBend[i] = rig.ikBend[k]
            cols.ikCompress[i] = rig.ikCompress[k] != 0 ? 1 : 0
            cols.ikStretch[i] = rig.ikStretch[k] != 0 ? 1 : 0
        }
        for k in 0..<rig.transformCount {
            let i = r.transform(k)
            let m = rig.transformMix + k &* 6
            cols.transformMixRotate[i] = m[0]
            cols.transformMixX[i] = m[1]
            cols.transformMixY[i] = m[2]
            cols.transformMixScaleX[i] = m[3]
            cols.transformMixScaleY[i] = m[4]
            cols.transformMixShearY[i] = m[5]
        }
        for k in 0..<rig.pathCount {
            let i = r.path(k)
            let p = rig.pathSetup + k &* 5
            cols.pathPosition[i] = p[0]
            cols.pathSpacing[i] = p[1]
            cols.pathMixRotate[i] = p[2]
            cols.pathMixX[i] = p[3]
            cols.pathMixY[i] = p[4]
        }
        for k in 0..<rig.physicsCount {
            let i = r.physics(k)
            for f in 0...PhysicsField.mix {
                cols.physics[f &* cols.physicsFieldStride &+ i] = rig.physicsSetup[k &* 7 &+ f]
            }
        }
    }

    /// Setup draw order, colours and attachments (looked up through the instance's plan).
    static func setSlots(_ cols: BatchColumns, _ rig: RigTables, _ r: InstanceRows) {
        let plan = Int(cols.plan[r.instance])
        let apply = ApplyColumns(cols)
        cols.drawOrderIsSetup[r.instance] = 1
        for s in 0..<rig.slotCount {
            cols.drawOrder[r.drawOrder &+ s] = Int32(s)
            let ci = cols.colorRow(rig, r, slot: s)
            if ci >= 0 {
                let color = rig.slotColor + s &* 4
                cols.colorR[ci] = color[0]
                cols.colorG[ci] = color[1]
                cols.colorB[ci] = color[2]
                cols.colorA[ci] = color[3]
            }
            let di = cols.darkRow(rig, r, slot: s)
            if di >= 0 && rig.slotHasDark[s] != 0 {
                let dark = rig.slotDark + s &* 3
                cols.darkR[di] = dark[0]
                cols.darkG[di] = dark[1]
                cols.darkB[di] = dark[2]
            }
            let key = rig.slotSetupKey[s]
            if key >= 0 {
                // A named setup attachment is always set afresh (deform and sequence reset).
                cols.attachment[r.slot(s)] = -1
                setAttachment(apply, rig, r, slot: s, rig.planAttachment[plan &* rig.keyCount &+ Int(key)])
            } else {
                setAttachment(apply, rig, r, slot: s, -1)
            }
        }
    }

    /// Shows `attachment` (-1 = none) in a slot. Changing it resets the sequence frame, and the
    /// deform buffer unless both are vertex attachments deformed by the same timelines.
    @inline(__always)
    static func setAttachment(
        _ cols: ApplyColumns, _ rig: RigTables, _ r: InstanceRows, slot s: Int, _ attachment: Int32
    ) {
        let i = r.slot(s)
        let old = cols.attachment[i]
        if old == attachment { return }
        if attachment < 0 || old < 0 || !isVertexAttachment(rig.attachmentKind(Int(attachment)))
            || !isVertexAttachment(rig.attachmentKind(Int(old)))
            || rig.attachmentTimeline[Int(attachment)] != rig.attachmentTimeline[Int(old)]
        {
            let d = cols.deformRow(rig, r, slot: s)
            if d >= 0 { cols.deformLength[d] = 0 }
        }
        cols.attachment[i] = attachment
        let q = cols.sequenceRow(rig, r, slot: s)
        if q >= 0 { cols.sequenceIndex[q] = -1 }
    }

    @inline(__always)
    static func isVertexAttachment(_ kind: AttachmentKind) -> Bool {
        switch kind {
        case .mesh, .boundingBox, .path, .clipping: return true
        case .region, .point: return false
        }
    }
}
