// libheif's header for Swift (HEIC and AVIF decoding).
#ifndef PICKUP_HEIF_SHIM_H
#define PICKUP_HEIF_SHIM_H
#include <libheif/heif.h>
#endif
