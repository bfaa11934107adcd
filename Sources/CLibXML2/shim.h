// libxml2 (Debian's libxml2-dev, the library FoundationXML links too): this system library gives
// CLibXML2Support libxml2's include path and links it; Swift imports CLibXML2Support alone.
#ifndef CLIBXML2_SHIM_H
#define CLIBXML2_SHIM_H

#include <libxml/parser.h>

#endif
