// libxml2's push parser behind a few plain C functions, so Swift never imports libxml2's own
// headers: they include ICU's (Debian builds libxml2 with ICU), whose types clash with the
// toolchain's Foundation ICU in one module (the fuzz build failed on UErrorCode).
#ifndef CLIBXML2SUPPORT_H
#define CLIBXML2SUPPORT_H

/// What the parser calls, with the `context` given at creation.
typedef struct cxml_callbacks {
    /// An element starts: its local name, and its attributes as libxml2's SAX2 gives them (five
    /// pointers each: local name, prefix, URI, value start, value end).
    void (*_Nonnull start)(void *_Nullable context, const unsigned char *_Nonnull name, int attributeCount,
                           const unsigned char *_Nullable *_Nullable attributes);
    void (*_Nonnull end)(void *_Nullable context, const unsigned char *_Nonnull name);
    /// Text, CDATA or white space, in pieces.
    void (*_Nonnull characters)(void *_Nullable context, const unsigned char *_Nonnull bytes, int count);
    /// A reference to an entity that is not one of XML's five (`parameter`: `%name;`). None is
    /// ever declared to the parser, so none is expanded.
    void (*_Nonnull entity)(void *_Nullable context, const unsigned char *_Nonnull name, int parameter);
    /// An error (level 2) or fatal error (3) with its line; warnings are not passed on.
    void (*_Nonnull error)(void *_Nullable context, int level, int line, const char *_Nullable message);
} cxml_callbacks;

typedef struct cxml_parser cxml_parser;

/// Why libxml2 could not be loaded on first use (CLazyXML2), naming the package to install;
/// NULL when it is there (or linked).
const char *_Nullable cxml_unavailable(void);
/// xmlInitParser, once, before any thread parses (nothing when libxml2 is unavailable).
void cxml_initialize(void);
/// A push parser (no network, no DTD loaded, no entity substituted); NULL when out of memory.
cxml_parser *_Nullable cxml_create(cxml_callbacks callbacks, void *_Nullable context);
/// xmlParseChunk: 0 while the document is well-formed so far.
int cxml_parse(cxml_parser *_Nonnull parser, const char *_Nullable bytes, int count, int terminate);
/// Stops the parser from inside a callback.
void cxml_stop(cxml_parser *_Nonnull parser);
void cxml_free(cxml_parser *_Nullable parser);

#endif
