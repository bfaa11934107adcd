#include "CLibXML2Support.h"

#include <stdlib.h>
#include <string.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>

struct cxml_parser {
    xmlParserCtxtPtr context;
    cxml_callbacks callbacks;
    void *user;
};

static void start(void *ctx, const xmlChar *name, const xmlChar *prefix, const xmlChar *uri, int namespaceCount,
                  const xmlChar **namespaces, int attributeCount, int defaulted, const xmlChar **attributes) {
    (void)prefix; (void)uri; (void)namespaceCount; (void)namespaces; (void)defaulted;
    cxml_parser *parser = ctx;
    parser->callbacks.start(parser->user, name, attributeCount, attributes);
}

static void end(void *ctx, const xmlChar *name, const xmlChar *prefix, const xmlChar *uri) {
    (void)prefix; (void)uri;
    cxml_parser *parser = ctx;
    parser->callbacks.end(parser->user, name);
}

static void characters(void *ctx, const xmlChar *bytes, int count) {
    cxml_parser *parser = ctx;
    parser->callbacks.characters(parser->user, bytes, count);
}

static xmlEntityPtr entity(void *ctx, const xmlChar *name) {
    cxml_parser *parser = ctx;
    parser->callbacks.entity(parser->user, name, 0);
    return NULL;
}

static xmlEntityPtr parameterEntity(void *ctx, const xmlChar *name) {
    cxml_parser *parser = ctx;
    parser->callbacks.entity(parser->user, name, 1);
    return NULL;
}

static void error(void *ctx, xmlErrorPtr error) {
    cxml_parser *parser = ctx;
    if (error == NULL || error->level < XML_ERR_ERROR) return;
    parser->callbacks.error(parser->user, (int)error->level, error->line, error->message);
}

// On Linux libxml2 is loaded on first use (CLazyXML2): a missing library is an error the sync
// reports, never a call into a stub that has nothing to jump to.
#if __has_include("CLazyXML2.h")
#include "CLazyXML2.h"
const char *cxml_unavailable(void) { return cb_xml2_load_failure(); }
#else
const char *cxml_unavailable(void) { return NULL; }
#endif

void cxml_initialize(void) {
    if (cxml_unavailable() == NULL) xmlInitParser();
}

cxml_parser *cxml_create(cxml_callbacks callbacks, void *user) {
    cxml_parser *parser = calloc(1, sizeof(cxml_parser));
    if (parser == NULL) return NULL;
    parser->callbacks = callbacks;
    parser->user = user;
    xmlSAXHandler sax;
    memset(&sax, 0, sizeof(sax));
    sax.initialized = XML_SAX2_MAGIC;
    sax.startElementNs = start;
    sax.endElementNs = end;
    sax.characters = characters;
    sax.ignorableWhitespace = characters;
    sax.cdataBlock = characters;
    sax.getEntity = entity;
    sax.getParameterEntity = parameterEntity;
    sax.serror = error;
    parser->context = xmlCreatePushParserCtxt(&sax, parser, NULL, 0, NULL);
    if (parser->context == NULL) { free(parser); return NULL; }
    xmlCtxtUseOptions(parser->context, XML_PARSE_NONET);
    return parser;
}

int cxml_parse(cxml_parser *parser, const char *bytes, int count, int terminate) {
    return xmlParseChunk(parser->context, bytes, count, terminate);
}

void cxml_stop(cxml_parser *parser) { xmlStopParser(parser->context); }

void cxml_free(cxml_parser *parser) {
    if (parser == NULL) return;
    // A DTD's entity declarations are kept in a document libxml2 makes "for expat compatibility
    // in SAX mode" (never looked up: `entity` answers NULL); it is the caller's to free.
    if (parser->context->myDoc != NULL) xmlFreeDoc(parser->context->myDoc);
    xmlFreeParserCtxt(parser->context);
    free(parser);
}
