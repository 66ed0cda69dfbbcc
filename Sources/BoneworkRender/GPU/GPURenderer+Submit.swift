import BoneworkWorld
import CGL

// `submit` and its GL side: uploading a frame's clipped corners and commands, the draw calls and
// their timer queries.
extension GPURenderer {
    /// Closes `frame` and draws it into the bound framebuffer (GL thread); every packing call must
    /// have returned. A frame that is not the open one draws nothing.
    @discardableResult
    public func submit(_ frame: GPUFrame, viewport: WorldViewport) -> RenderFrameStats {
        let wallStart = RenderClock.wall()
        let cpuStart = RenderClock.threadCPU()
        var stats = RenderFrameStats()
        guard let pending, pending.id == frame.id else {
            lastFrame = stats
            return stats
        }
        context.makeCurrent()
        tally.frame.store(0, ordering: .sequentiallyConsistent)
        stats.instances = pending.count
        stats.packNanoseconds = tally.cpu.load(ordering: .acquiring)
        stats.packChunks = tally.chunks.load(ordering: .acquiring)
        stats.fillNanoseconds = wallStart &- pending.wallStart
        var closed = true
        driver { for table in streamed where !table.unmap() { closed = false } }
        // Commands in chunk order, dynamic ones pointed at their chunk's corners.
        var commandCount = 0
        for c in 0..<frame.chunkCount { commandCount += chunks[c].work.commands.count }
        staging.removeAll(keepingCapacity: true)
        staging.append(contentsOf: repeatElement(0, count: commandCount * 4))
        stagingStates.removeAll(keepingCapacity: true)
        stagingStates.append(contentsOf: repeatElement(0, count: commandCount))
        var dynamicCorners = 0
        ensureIota(pending.count)
        let clippedBase = UInt32(truncatingIfNeeded: iotaCount)
        staging.withUnsafeMutableBufferPointer { words in
            stagingStates.withUnsafeMutableBufferPointer { states in
                var k = 0
                for c in 0..<frame.chunkCount {
                    let work = chunks[c].work
                    let dynamicBase = UInt32(truncatingIfNeeded: staticCorners + dynamicCorners)
                    work.commands.withUnsafeBufferPointer { commands in
                        for command in commands {
                            words[k &* 4] = command.count
                            words[k &* 4 &+ 1] = max(1, command.parts)
                            words[k &* 4 &+ 2] = command.dynamic ? dynamicBase &+ command.first : command.first
                            // The iota's second half carries the clipped flag.
                            words[k &* 4 &+ 3] =
                                command.parts > 0 ? clippedBase &+ command.character : command.character
                            states[k] = command.state
                            k &+= 1
                        }
                    }
                    dynamicCorners += work.dynamic.count / 8
                }
            }
        }
        if dynamicCorners > 0 { driver { uploadDynamic(frame: frame, corners: dynamicCorners) } }
        stats.uploadBytes = pending.bytes + staging.count * 4 + dynamicCorners * 32
        stats.uploadNanoseconds = RenderClock.wall() &- wallStart
        driver { readTimer(pending.region) }
        if closed && commandCount > 0 && viewport.width != 0 && viewport.height != 0 {
            driverCalls?(1)
            defer { driverCalls?(0) }
            let timed = !timerPending[pending.region] && frameNumber % UInt64(gpuTimerInterval) == 0
            if timed { glBeginQuery(GL.e(GL_TIME_ELAPSED), timerQueries[pending.region]) }
            encode(commandCount: commandCount, region: pending.region, viewport: viewport, stats: &stats)
            if timed {
                glEndQuery(GL.e(GL_TIME_ELAPSED))
                timerPending[pending.region] = true
            }
        }
        stats.gpuNanoseconds = lastGPUNanoseconds
        stats.commands = commandCount
        driver {
            if let old = fences[pending.region] { glDeleteSync(old) }
            fences[pending.region] = glFenceSync(GL.e(GL_SYNC_GPU_COMMANDS_COMPLETE), 0)
            if pending.columnBytes > 0 && !columnScratch.inPlace.isEmpty { columnMemory?.frameRead() }
        }
        self.pending = nil
        stats.wallNanoseconds = RenderClock.wall() &- pending.wallStart
        stats.submitNanoseconds = pending.beginCPU &+ (RenderClock.threadCPU() &- cpuStart)
        stats.cpuNanoseconds = stats.submitNanoseconds &+ stats.packNanoseconds
        lastFrame = stats
        return stats
    }

    /// Reads the region's timer query if it has finished (never waits); the region's fence has
    /// passed by the time its next frame is submitted, so its result is normally there.
    func readTimer(_ region: Int) {
        guard timerPending[region] else { return }
        var available: GLint = 0
        glGetQueryObjectiv(timerQueries[region], GL.e(GL_QUERY_RESULT_AVAILABLE), &available)
        guard available != 0 else { return }
        var nanoseconds: GLuint64 = 0
        glGetQueryObjectui64v(timerQueries[region], GL.e(GL_QUERY_RESULT), &nanoseconds)
        lastGPUNanoseconds = UInt64(nanoseconds)
        timerPending[region] = false
    }

    func uploadDynamic(frame: GPUFrame, corners: Int) {
        let bytes = corners * 32
        glBindBuffer(GL.e(GL_TEXTURE_BUFFER), dynamicBuffer)
        // A fresh store each frame (orphaning): the GPU may still read the last one.
        glBufferData(GL.e(GL_TEXTURE_BUFFER), GLsizeiptr(bytes), nil, GL.e(GL_STREAM_DRAW))
        var offset = 0
        for c in 0..<frame.chunkCount {
            let words = chunks[c].dynamic
            guard !words.isEmpty else { continue }
            words.withUnsafeBytes {
                glBufferSubData(GL.e(GL_TEXTURE_BUFFER), GLintptr(offset), GLsizeiptr($0.count), $0.baseAddress)
            }
            offset += words.count * 4
        }
        glBindTexture(GL.e(GL_TEXTURE_BUFFER), dynamicTexture)
        glTexBuffer(GL.e(GL_TEXTURE_BUFFER), GL.e(GL_RGBA32UI), dynamicBuffer)
        glBindTexture(GL.e(GL_TEXTURE_BUFFER), 0)
        glBindBuffer(GL.e(GL_TEXTURE_BUFFER), 0)
        dynamicBytes = bytes
    }

    /// Grows the per-instance attribute that numbers the characters (baseInstance reads it): its
    /// first half holds 0, 1, 2 ..., its second half the same with `GPUFrame.clippedFlag` set, for
    /// commands drawn once per part of a GPU clip.
    func ensureIota(_ count: Int) {
        guard count > iotaCount else { return }
        let capacity = max(count, iotaCount * 2, 1024)
        let values = (0..<(capacity * 2)).map {
            Int32(truncatingIfNeeded: $0 < capacity ? $0 : ($0 - capacity) | Int(GPUFrame.clippedFlag))
        }
        glBindBuffer(GL.e(GL_ARRAY_BUFFER), iotaBuffer)
        values.withUnsafeBytes {
            glBufferData(GL.e(GL_ARRAY_BUFFER), GLsizeiptr($0.count), $0.baseAddress, GL.e(GL_STATIC_DRAW))
        }
        glBindBuffer(GL.e(GL_ARRAY_BUFFER), 0)
        iotaCount = capacity
    }

    func encode(commandCount: Int, region: Int, viewport: WorldViewport, stats: inout RenderFrameStats) {
        glDisable(GL.e(GL_DEPTH_TEST))
        glDisable(GL.e(GL_CULL_FACE))
        glDisable(GL.e(GL_SCISSOR_TEST))
        glEnable(GL.e(GL_BLEND))
        glBlendEquation(GL.e(GL_FUNC_ADD))
        glBlendFuncSeparate(
            GL.e(GL_ONE), GL.e(GL_ONE_MINUS_SRC1_COLOR), GL.e(GL_ONE), GL.e(GL_ONE_MINUS_SRC1_ALPHA))
        glUseProgram(program.name)
        func u(_ name: String) -> GLint { uniforms[name] ?? -1 }
        glUniform2f(u("uOrigin"), viewport.x, viewport.y)
        glUniform2f(u("uScale"), 2 / viewport.width, 2 / viewport.height)
        glUniform1i(u("uStaticCorners"), GLint(truncatingIfNeeded: staticCorners))
        glUniform1i(u("uCharacterBase"), GLint(truncatingIfNeeded: characters.texelBase(region: region)))
        glUniform1i(u("uBoneBase"), GLint(truncatingIfNeeded: bones.texelBase(region: region)))
        glUniform1i(u("uSlotBase"), GLint(truncatingIfNeeded: slots.texelBase(region: region)))
        glUniform1i(u("uDeformBase"), GLint(truncatingIfNeeded: deform.texelBase(region: region)))
        glUniform2f(u("uArraySize"), Float(arraySize.width), Float(arraySize.height))
        layerInfo.withUnsafeBufferPointer {
            if !$0.isEmpty { glUniform4fv(u("uLayers"), GLsizei($0.count / 4), $0.baseAddress) }
        }
        glActiveTexture(GL.e(GL_TEXTURE0))
        glBindTexture(GL.e(GL_TEXTURE_2D_ARRAY), pageArray)
        // Units 1 ... in `textureUnits` order after the page array (no array per frame).
        func bind(_ unit: Int, _ texture: GLuint) {
            glActiveTexture(GL.e(GL_TEXTURE0) + GLenum(unit))
            glBindTexture(GL.e(GL_TEXTURE_BUFFER), texture)
        }
        bind(1, staticTextures[0])
        bind(2, staticTextures[1])
        bind(3, staticTextures[2])
        bind(4, dynamicTexture)
        bind(5, characters.texture)
        bind(6, bones.texture)
        bind(7, slots.texture)
        bind(8, deform.texture)
        bind(9, staticTextures[3])
        let views = columns.textures(region: region)
        bind(10, views.floats)
        bind(11, views.words)
        bind(12, views.quads)
        bind(13, staticTextures[4])
        for source in 0..<inPlaceSources {
            let used = (pending?.columnBytes ?? 0) > 0 && source < columnScratch.inPlace.count
            bind(Self.textureUnits.count + 2 * source, used ? columnScratch.inPlace[source].floats : 0)
            bind(Self.textureUnits.count + 2 * source + 1, used ? columnScratch.inPlace[source].words : 0)
        }
        for plane in 0..<GPUSkeletonGeometry.maxClipEdges { glEnable(GL.e(GL_CLIP_DISTANCE0) + GLenum(plane)) }
        glActiveTexture(GL.e(GL_TEXTURE0))
        glBindVertexArray(vertexArray)
        let before = RenderClock.threadCPU()
        func setState(_ state: UInt8) {
            if state == 0 {
                glBlendFuncSeparate(
                    GL.e(GL_ONE), GL.e(GL_ONE_MINUS_SRC1_COLOR), GL.e(GL_ONE), GL.e(GL_ONE_MINUS_SRC1_ALPHA))
            } else {
                let f = BatchRenderer.blendFactors(.multiply, premultiplied: false)
                glBlendFuncSeparate(GL.e(f.0), GL.e(f.1), GL.e(f.2), GL.e(f.3))
            }
        }
        switch submission {
        case .multiDrawIndirect:
            glBindBuffer(GL.e(GL_DRAW_INDIRECT_BUFFER), indirectBuffer)
            staging.withUnsafeBytes {
                // New storage only when it grows (fresh storage every frame page-faults in the driver).
                if $0.count > indirectBytes {
                    indirectBytes = $0.count + $0.count / 2
                    glBufferData(GL.e(GL_DRAW_INDIRECT_BUFFER), GLsizeiptr(indirectBytes), nil, GL.e(GL_STREAM_DRAW))
                }
                glBufferSubData(GL.e(GL_DRAW_INDIRECT_BUFFER), 0, GLsizeiptr($0.count), $0.baseAddress)
            }
            // One call per run of commands sharing a blend state: one in all unless straight-alpha
            // multiply slots are drawn.
            stagingStates.withUnsafeBufferPointer { states in
                var start = 0
                while start < commandCount {
                    let state = states[start]
                    var end = start + 1
                    while end < commandCount && states[end] == state { end += 1 }
                    if state != 0 || start != 0 { setState(state) }
                    glMultiDrawArraysIndirect(
                        GL.e(GL_TRIANGLES), UnsafeRawPointer(bitPattern: start * 16), GLsizei(end - start), 0)
                    stats.drawCalls += 1
                    start = end
                }
            }
            glBindBuffer(GL.e(GL_DRAW_INDIRECT_BUFFER), 0)
        case .drawPerCommand:
            glDisableVertexAttribArray(0)
            var state: UInt8 = 0
            for c in 0..<commandCount {
                let k = c * 4
                if stagingStates[c] != state {
                    state = stagingStates[c]
                    setState(state)
                }
                // The second half of the iota: the character with the clipped flag.
                let base = Int(staging[k + 3])
                let value = base < iotaCount ? Int32(base) : Int32(base - iotaCount) | GPUFrame.clippedFlag
                glVertexAttribI4i(0, value, 0, 0, 0)
                glDrawArraysInstanced(
                    GL.e(GL_TRIANGLES), GLint(bitPattern: staging[k + 2]), GLsizei(staging[k]), GLsizei(staging[k + 1]))
            }
            glEnableVertexAttribArray(0)
            stats.drawCalls = commandCount
        }
        stats.drawCallNanoseconds = RenderClock.threadCPU() &- before
        glBindVertexArray(0)
        for unit in 1..<(Self.textureUnits.count + 2 * inPlaceSources) { bind(unit, 0) }
        for plane in 0..<GPUSkeletonGeometry.maxClipEdges { glDisable(GL.e(GL_CLIP_DISTANCE0) + GLenum(plane)) }
        glActiveTexture(GL.e(GL_TEXTURE0))
        glBindTexture(GL.e(GL_TEXTURE_2D_ARRAY), 0)
        commandsLastFrame = commandCount
    }
}
