/**
 * Fixes to Swagger UI's own style sheet for WCAG 2 AA, served as a file after it:
 * - text at 4.5:1 at least against its background (1.4.3): the method badges, the version
 *   badges, the links and the Authorize button are darker, each in its own hue;
 * - code samples wrap in full instead of scrolling in a box, which a keyboard could not reach
 *   (2.1.1);
 * - nothing wider than a phone's 375 CSS pixels (1.4.10, reflow): a long code in an error's
 *   description wraps, and the responses' Links column, empty in this document, is left out.
 */
export const DOCS_PAGE_CSS = `
.swagger-ui .opblock.opblock-get .opblock-summary-method { background: #0b5cad; }
.swagger-ui .opblock.opblock-post .opblock-summary-method { background: #0f7a47; }
.swagger-ui .opblock.opblock-put .opblock-summary-method { background: #9a5200; }
.swagger-ui .opblock.opblock-patch .opblock-summary-method { background: #0b6e5d; }
.swagger-ui .opblock.opblock-delete .opblock-summary-method { background: #b8202a; }
.swagger-ui .info .title small { background: #4f5663; }
.swagger-ui .info .title small.version-stamp { background: #3f6b00; }
.swagger-ui .info a { color: #1f5fa8; }
.swagger-ui .btn.authorize { border-color: #0f7a47; color: #0f7a47; }
.swagger-ui .btn.authorize svg { fill: #0f7a47; }
.swagger-ui .json-schema-2020-12-expand-deep-button { color: #595959; }
.swagger-ui .json-schema-2020-12__constraint--string { background-color: #8a5a00; }
.swagger-ui .json-schema-2020-12-keyword__name--extension,
.swagger-ui .json-schema-2020-12-keyword__value--extension,
.swagger-ui .json-schema-2020-12-json-viewer__name--extension,
.swagger-ui .json-schema-2020-12-json-viewer__value--extension { color: #5f5f5f; }

.swagger-ui .highlight-code > .microlight { max-height: none; overflow: visible; }
.swagger-ui .responses-table .response-col_links { display: none; }
.swagger-ui .responses-table .response-col_description { overflow-wrap: anywhere; }
`;
