extension Batch {
    /// Places the instance at `row` in the world (the skeleton's x, y and scale), e.g. an agent
    /// of a crowd simulation; world transforms follow at the next frame.
    public func place(row: Int, x: Float, y: Float, scaleX: Float, scaleY: Float) {
        guard row >= 0, row < count else { return }
        let cols = columns()
        cols.skeletonX[row] = x
        cols.skeletonY[row] = y
        cols.skeletonScaleX[row] = scaleX
        cols.skeletonScaleY[row] = scaleY
    }

    /// Raw views of the placement columns for writing every row of a frame at once (valid until
    /// the batch grows).
    public func placementColumns() -> (
        x: UnsafeMutablePointer<Float>, y: UnsafeMutablePointer<Float>, scaleX: UnsafeMutablePointer<Float>,
        scaleY: UnsafeMutablePointer<Float>, entity: UnsafeMutablePointer<Entity>
    ) {
        let cols = columns()
        return (cols.skeletonX, cols.skeletonY, cols.skeletonScaleX, cols.skeletonScaleY, cols.entity)
    }
}

extension World {
    /// Places an instance in the world (see `Batch.place`).
    public func place(_ entity: Entity, x: Float, y: Float, scaleX: Float = 1, scaleY: Float = 1) throws {
        let (batch, row) = try locate(entity)
        batch.place(row: row, x: x, y: y, scaleX: scaleX, scaleY: scaleY)
    }
}
