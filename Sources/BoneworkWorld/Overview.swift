// BoneworkWorld: instances of skeletons stored as columns, and the systems that pose them.
//
// Data
//   CompiledSkeleton.swift   a SkeletonData flattened once into raw tables (`RigTables`): setup
//                            values, constraint bone lists, attachment geometry, every animation's
//                            timelines in shared pools, per skin an update program and a dense
//                            (slot, attachment name) -> attachment table, and which slot fields
//                            and inherit modes timelines change.
//   UpdateProgram.swift      the per-skin order of bone updates and constraint solves.
//   Batch.swift              every instance of one SkeletonData; each per-instance quantity is a
//                            column (`ColumnTable`), addressed through `ColumnLayout`. Only what
//                            can differ from setup is stored (SlotFields.swift): colours, dark
//                            colours, sequence frames, deform lengths and inherit modes have rows
//                            for the slots / bones timelines (or application code) change.
//   BatchColumns.swift       raw pointers to a batch's columns for one system run, and
//                            `InstanceRows` (where one instance's rows start).
//   World.swift, Entity.swift  batches per SkeletonData and generational entity handles.
//   SetupPose.swift          setup pose of one instance, and the slot attachment rule.
//   AnimationState/          tracks, entries, mixing and events per row (`AnimationStateStore`).
//
// Systems, run by `Scheduler` each frame over chunks of a batch's rows, on 1 ... cores threads
// (`DispatchQueue.concurrentPerform`), all systems on a block of rows before the next block:
//   1 animation state        `StateKernel.update`: track times, queued entries, mixes, ends.
//   2 timeline apply         `StateKernel.apply`: timelines to the local pose (TimelineApply*.swift:
//                            a function per timeline family; TimelineKeys.swift: key search,
//                            curves and blend rules), events, unkeyed attachments restored.
//                            Rows playing one animation plainly get their bone and constraint
//                            timelines applied timeline by timeline over the rows sharing the
//                            animation (StateKernelGroups.swift).
//   3 PoseSystem             the skeleton clock, then the update program: BoneTransform (world
//                            transform for every inherit mode), IKSolver, TransformConstraintSolver,
//                            PathConstraintSolver, PhysicsConstraintSolver; the applied pose lives
//                            in per-thread scratch (`PoseScratch`).
//   4 SlotSystem             the draw list: visible slots in draw order with their images (8
//                            rows in setup draw order skip the slots empty in all of them at once).
//   5 VertexSystem           world vertices of the listed regions and meshes (weights, deform) into
//                            per-chunk scratch (`VertexScratch`), handed to `Scheduler.vertexHandler`.
//   Events are delivered on the calling thread in row order after the state systems.
//
// Profiler/                  the per-frame profiler (`FrameProfiler`: ring buffer, summaries,
//                            CSV, trace-event JSON, PNG chart) and the crowd benchmark workload.
// Tools: InstancePose.swift (a copy of one pose for inspection), PoseView.swift (read views for
// drawing), PoseTrace.swift (replays the reference's pose-trace procedure), Trig.swift
// (sine/cosine pairs bit-equal to libm rounded).
