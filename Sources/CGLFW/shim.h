#include <GLFW/glfw3.h>
