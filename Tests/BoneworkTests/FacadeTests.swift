import Testing

@testable import Bonework
