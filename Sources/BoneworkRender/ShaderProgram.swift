import CGL

/// A linked GLSL program; deleted with its owner.
final class ShaderProgram {
    let name: GLuint
    let context: GLContext

    init(vertex: String, fragment: String, context: GLContext) throws(RenderError) {
        self.context = context
        let vertexShader = try Self.compile(GL.e(GL_VERTEX_SHADER), vertex, "vertex")
        let fragmentShader: GLuint
        do {
            fragmentShader = try Self.compile(GL.e(GL_FRAGMENT_SHADER), fragment, "fragment")
        } catch {
            glDeleteShader(vertexShader)
            throw error
        }
        let program = glCreateProgram()
        glAttachShader(program, vertexShader)
        glAttachShader(program, fragmentShader)
        glLinkProgram(program)
        glDeleteShader(vertexShader)
        glDeleteShader(fragmentShader)
        var status: GLint = 0
        glGetProgramiv(program, GL.e(GL_LINK_STATUS), &status)
        guard status != 0 else {
            let log = Self.log(program, glGetProgramiv, glGetProgramInfoLog)
            glDeleteProgram(program)
            throw .shader("link failed: \(log)")
        }
        name = program
    }

    deinit {
        if context.makeCurrent() { glDeleteProgram(name) }
    }

    func uniform(_ identifier: String) -> GLint { glGetUniformLocation(name, identifier) }

    private static func compile(_ kind: GLenum, _ source: String, _ label: String) throws(RenderError) -> GLuint {
        let shader = glCreateShader(kind)
        source.withCString { text in
            var pointer: UnsafePointer<GLchar>? = text
            glShaderSource(shader, 1, &pointer, nil)
        }
        glCompileShader(shader)
        var status: GLint = 0
        glGetShaderiv(shader, GL.e(GL_COMPILE_STATUS), &status)
        guard status != 0 else {
            let log = Self.log(shader, glGetShaderiv, glGetShaderInfoLog)
            glDeleteShader(shader)
            throw .shader("\(label) shader did not compile: \(log)")
        }
        return shader
    }

    private static func log(
        _ object: GLuint,
        _ getInteger: (GLuint, GLenum, UnsafeMutablePointer<GLint>?) -> Void,
        _ getLog: (GLuint, GLsizei, UnsafeMutablePointer<GLsizei>?, UnsafeMutablePointer<GLchar>?) -> Void
    ) -> String {
        var length: GLint = 0
        getInteger(object, GL.e(GL_INFO_LOG_LENGTH), &length)
        guard length > 0 else { return "(no log)" }
        var buffer = [GLchar](repeating: 0, count: Int(length) + 1)
        getLog(object, GLsizei(length), nil, &buffer)
        return String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
