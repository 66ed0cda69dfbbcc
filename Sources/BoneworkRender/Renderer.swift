/// Draws posed instances with OpenGL 3.3: an instanced path and a CPU vertex path.
public enum BoneworkRenderModule {}
