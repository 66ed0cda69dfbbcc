#include <png.h>

// PNG_FORMAT_RGBA is a macro built from other macros, which Swift does not import; this constant
// carries its value into Swift.
static const png_uint_32 bonework_png_format_rgba = PNG_FORMAT_RGBA;
