#include <EGL/egl.h>
// Extension tokens such as EGL_PLATFORM_SURFACELESS_MESA (headless rendering without a window
// system) and EGL_NO_CONFIG_KHR live here.
#include <EGL/eglext.h>
