// libxml2 loaded on first use (lazyxml2.c, stubs.S): its functions keep their names, so callers
// (FoundationXML, the sync) need nothing but this target linked in place of libxml2.
#ifndef CLAZYXML2_H
#define CLAZYXML2_H

/// Loads libxml2 if it is not loaded yet: NULL when it is there, or why it could not be,
/// naming the package to install.
const char *_Nullable cb_xml2_load_failure(void);

#endif
