import Testing
@testable import BoneworkRender
