import Testing

@testable import BoneworkWorld
