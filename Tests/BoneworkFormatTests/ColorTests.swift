import Testing

@testable import BoneworkFormat

@Test func placeholderBuilds() { #expect(Color(hex: "ff000080")?.a == Float(0x80) / 255) }
