// BoneworkWorld: instances of skeletons stored as columns, and the systems that pose them.
//
// Data
//   CompiledSkeleton.swift   a SkeletonData flattened once into raw tables (`RigTables`): setup
//                            values, constraint bone lists, attachment geometry, every animation's
//                            timelines in shared pools, per skin an update program and a dense
//                            (slot, attachment name) -> attachment table.
//   UpdateProgram.swift      the per-skin order of bone updates and constraint solves.
//   Batch.swift              every instance of one SkeletonData; each per-instance quantity is a
//                            column (`ColumnTable`), addressed through `ColumnLayout`.
//   BatchColumns.swift       raw pointers to a batch's columns for one system run, and
//                            `InstanceRows` (where one instance's rows start).
//   World.swift, Entity.swift  batches per SkeletonData and generational entity handles.
//   SetupPose.swift          setup pose of one instance, and the slot attachment rule.
//
// Systems, run in this order by `Scheduler` each frame (each a plain function over a range of
// a batch's instances):
//   1 AnimationStateSystem   advances track times.
//   2 AnimationApplySystem   applies tracks' timelines to the local pose (TimelineApply*.swift:
//                            a function per timeline family; TimelineKeys.swift: key search,
//                            curves and blend rules), fires events, restores unkeyed attachments.
//   3 PoseSystem             runs the update program: BoneTransform (world transform for every
//                            inherit mode), IKSolver, TransformConstraintSolver. Path and physics
//                            steps are placeholders until their systems exist.
//   4 SlotSystem             resolves the image each slot draws (sequence frames).
//   5 VertexSystem           world vertices of regions and meshes (weights, deform).
//
// Tools: InstancePose.swift (a copy of one pose for inspection), PoseTrace.swift (replays the
// reference's pose-trace procedure), Trig.swift (sine/cosine pairs bit-equal to libm rounded).
