/// What an add-on reads of a batch's tracks in one pass over its rows (the trigger system's
/// ownership check): the entry a track of a row currently plays, that entry's generation and
/// animation. Fetched once per pass with `AnimationStateStore.trackCursor`.
///
/// # Safety
/// Holds raw pointers into the store's columns: valid until rows, tracks or entries grow (a
/// spawn, or an animation change that allocates an entry). Read it only on the calling thread,
/// between frames, for rows `0 ..< batch.count`.
package struct TrackCursor {
    let kernel: StateKernel

    /// The pool slot of the entry `track` of `row` plays, -1 when the track is empty or unused.
    @inline(__always)
    package func currentEntry(row: Int, track: Int) -> Int32 {
        track < Int(kernel.trackCount[row]) ? kernel.tracks[row &* kernel.trackWidth &+ track] : -1
    }

    /// The generation of the live entry in pool slot `entry` (as `TrackEntry.generation`).
    @inline(__always)
    package func generation(ofEntry entry: Int32) -> UInt32 { kernel.e.state[Int(entry)].generation }

    /// The animation index the entry in pool slot `entry` plays, -1 for an empty animation.
    @inline(__always)
    package func animation(ofEntry entry: Int32) -> Int32 { kernel.e.state[Int(entry)].animation }
}

extension AnimationStateStore {
    /// A read view of the tracks for one pass (see `TrackCursor`'s safety conditions).
    package var trackCursor: TrackCursor { TrackCursor(kernel: kernel) }
}

extension TrackEntry {
    /// The entry's slot in its store's pool (what `TrackCursor.currentEntry` returns).
    package var poolSlot: Int32 { slot }
    /// The generation the slot had when this handle was made.
    package var poolGeneration: UInt32 { generation }
}

extension Batch {
    /// The entity of each row (valid until the batch grows; see `Batch.columns()`).
    package var entityColumn: UnsafeMutablePointer<Entity> { columns().entity }
}
