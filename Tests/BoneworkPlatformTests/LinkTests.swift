import BoneworkImage
import Testing

@Test func imageSize() { #expect(Image(width: 2, height: 3).pixels.count == 24) }
