// libxml2's push parser and SAX2 callbacks (Debian's libxml2-dev, the library FoundationXML
// links too), for reading a CardDAV answer as it arrives (`DAVMultistatusStream`).
#ifndef CLIBXML2_SHIM_H
#define CLIBXML2_SHIM_H

#include <libxml/parser.h>
#include <libxml/parserInternals.h>

#endif
