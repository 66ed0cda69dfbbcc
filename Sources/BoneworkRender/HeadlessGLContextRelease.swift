import CEGL

extension HeadlessGLContext {
    /// Detaches the context from the calling thread, so that another thread can make it current.
    public func releaseCurrent() {
        if isCurrent { eglMakeCurrent(display, nil, nil, nil) }
    }
}
