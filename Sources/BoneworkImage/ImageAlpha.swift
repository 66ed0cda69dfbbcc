extension Image {
    /// Multiplies each pixel's red, green and blue by its alpha (`c * a / 255`, rounded to
    /// nearest), turning straight alpha into premultiplied alpha.
    public mutating func premultiplyAlpha() {
        pixels.withUnsafeMutableBufferPointer { buffer in
            var index = 0
            let end = buffer.count - buffer.count % 4
            while index < end {
                let alpha = UInt32(buffer[index + 3])
                if alpha != 255 {
                    buffer[index] = Image.scale(buffer[index], by: alpha)
                    buffer[index + 1] = Image.scale(buffer[index + 1], by: alpha)
                    buffer[index + 2] = Image.scale(buffer[index + 2], by: alpha)
                }
                index += 4
            }
        }
    }

    /// A copy with premultiplied alpha.
    public func premultipliedAlpha() -> Image {
        var copy = self
        copy.premultiplyAlpha()
        return copy
    }

    /// Divides red, green and blue by alpha (rounded, clamped to 255); fully transparent pixels
    /// become 0. Inverse of `premultiplyAlpha` up to the precision premultiplication lost.
    public mutating func unpremultiplyAlpha() {
        pixels.withUnsafeMutableBufferPointer { buffer in
            var index = 0
            let end = buffer.count - buffer.count % 4
            while index < end {
                let alpha = UInt32(buffer[index + 3])
                if alpha == 0 {
                    buffer[index] = 0
                    buffer[index + 1] = 0
                    buffer[index + 2] = 0
                } else if alpha != 255 {
                    for channel in index..<(index + 3) {
                        let value = (UInt32(buffer[channel]) * 255 + alpha / 2) / alpha
                        buffer[channel] = UInt8(min(value, 255))
                    }
                }
                index += 4
            }
        }
    }

    /// `value * alpha / 255` rounded to nearest, exactly, without a division.
    @inline(__always)
    static func scale(_ value: UInt8, by alpha: UInt32) -> UInt8 {
        let product = UInt32(value) * alpha + 128
        return UInt8(truncatingIfNeeded: (product + (product >> 8)) >> 8)
    }
}
