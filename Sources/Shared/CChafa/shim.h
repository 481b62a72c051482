#ifndef SNAPSHARE_CCHAFA_SHIM_H
#define SNAPSHARE_CCHAFA_SHIM_H
// libchafa (Debian's libchafa-dev), measured against our own encoders by snapshare-bench --sixel.
#include <chafa.h>
#endif
