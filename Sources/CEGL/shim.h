#include <EGL/egl.h>
