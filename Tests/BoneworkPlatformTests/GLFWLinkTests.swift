import CGLFW
import Testing

/// GLFW links and answers without a display: version queries need no glfwInit.
@Test func glfwReportsItsVersion() throws {
    var major: Int32 = 0
    var minor: Int32 = 0
    var revision: Int32 = 0
    glfwGetVersion(&major, &minor, &revision)
    #expect(major == 3)
    #expect(minor >= 3)
    let text = String(cString: try #require(glfwGetVersionString()))
    #expect(text.hasPrefix("\(major).\(minor).\(revision)"), "version string \(text)")
}
