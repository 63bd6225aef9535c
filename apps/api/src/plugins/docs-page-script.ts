/**
 * Names Swagger UI's server list for assistive technology (WCAG 2 4.1.2): Swagger UI draws it
 * as a `<select>` in an empty `<label>`. Served as a file (script-src 'self'), and kept up as
 * Swagger UI redraws the page.
 */
export const DOCS_PAGE_SCRIPT = `
'use strict';
new MutationObserver(function () {
  var servers = document.getElementById('servers');
  if (servers && !servers.hasAttribute('aria-label')) servers.setAttribute('aria-label', 'Server');
}).observe(document.documentElement, { childList: true, subtree: true });
`;
