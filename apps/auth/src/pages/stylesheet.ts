import { createHash } from 'node:crypto';

/** Region trees nest deeper than a form can indent: deeper units stay at this indentation. */
export const MAX_INDENT_DEPTH = 8;

const indents = Array.from(
  { length: MAX_INDENT_DEPTH },
  (_, i) => `.depth-${i + 1}{padding-left:${(i + 1) * 1.5}rem}`,
).join('');

/**
 * The one stylesheet of every page of this service (login, consent, connected apps, logout,
 * errors, admin), served from here so that the pages' CSP can refuse every inline style. No
 * build step: plain CSS in a string, which the TypeScript build carries along. The colours
 * keep a contrast of at least 4.5:1 (WCAG 2 AA) in both the light and the dark variant.
 */
export const STYLESHEET = `
:root{color-scheme:light dark;--bg:#f3f5f1;--card:#fff;--text:#1c231e;--muted:#4f5a52;
--line:#d5dcd6;--primary:#2d6a37;--on-primary:#fff;--primary-hover:#22552b;--error:#a3161a;
--error-bg:#fdeceb;--notice-bg:#e8f3ea;--focus:#1a5fb4;--code-bg:#eef1ee}
@media (prefers-color-scheme:dark){:root{--bg:#121614;--card:#1b211d;--text:#e6ece7;
--muted:#aab5ad;--line:#36413a;--primary:#8fd19b;--on-primary:#0c1a0f;--primary-hover:#a9dcb2;
--error:#ff9c9c;--error-bg:#3a1d1d;--notice-bg:#1f3324;--focus:#8ab4f8;--code-bg:#262e29}}
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--text);font:1rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;overflow-wrap:anywhere}
.site-header{display:flex;align-items:center;gap:.6rem;max-width:34rem;margin:0 auto;padding:1.25rem 1rem .5rem}
.wide .site-header,.wide main,.wide .site-footer{max-width:72rem}
.brand{display:flex;align-items:center;gap:.6rem;font-weight:700;font-size:1.15rem;color:var(--text)}
.mark{width:2rem;height:2rem;flex:none;color:var(--primary)}
.mark .leaf{fill:none;stroke:var(--on-primary);stroke-width:2.4;stroke-linecap:round;stroke-linejoin:round}
main{max-width:34rem;margin:0 auto;padding:0 1rem}
.card{background:var(--card);border:1px solid var(--line);border-radius:12px;padding:1.25rem 1.25rem 1.5rem;box-shadow:0 1px 3px rgb(0 0 0 / 8%)}
.site-footer{max-width:34rem;margin:0 auto;padding:1rem 1rem 2rem;color:var(--muted);font-size:.875rem}
h1{font-size:1.5rem;line-height:1.25;margin:0 0 .75rem}
h2{font-size:1.15rem;margin:1.25rem 0 .5rem}
p{margin:.5rem 0}
a{color:var(--primary);text-underline-offset:.15em}
a:hover{color:var(--primary-hover)}
label{display:block;margin:.9rem 0 .3rem;font-weight:600}
label.check{display:flex;gap:.5rem;align-items:flex-start;font-weight:400}
label.check input{margin-top:.3rem;width:1.1rem;height:1.1rem;flex:none}
input[type=text],input[type=email],input[type=password],input[type=url],textarea,select{width:100%;padding:.6rem .7rem;font:inherit;color:var(--text);background:var(--card);border:1px solid var(--muted);border-radius:8px}
textarea{min-height:5rem}
button,a.button{display:inline-flex;align-items:center;justify-content:center;min-height:2.75rem;padding:.55rem 1.1rem;margin:.75rem .5rem 0 0;font:inherit;font-weight:600;border-radius:8px;border:2px solid var(--primary);background:transparent;color:var(--primary);text-decoration:none;cursor:pointer}
button.primary{background:var(--primary);color:var(--on-primary)}
button.primary:hover{background:var(--primary-hover);border-color:var(--primary-hover)}
button.link{min-height:0;padding:0;margin:0;border:0;font-weight:400;color:var(--primary);text-decoration:underline;text-underline-offset:.15em}
.actions{display:flex;flex-wrap:wrap;gap:0 .5rem}.actions button,.actions a.button{margin-right:0}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.error{color:var(--error)}
p.error,div.error{background:var(--error-bg);border-left:4px solid var(--error);padding:.5rem .75rem;border-radius:4px}
.muted{color:var(--muted)}
.small{font-size:.875rem}
code{background:var(--code-bg);padding:0 .25rem;border-radius:4px;overflow-wrap:anywhere}
ul.scopes{padding-left:1.25rem}ul.scopes li{margin:.3rem 0}
.who{display:flex;flex-wrap:wrap;align-items:baseline;gap:.25rem .75rem;padding:.6rem .75rem;border:1px solid var(--line);border-radius:8px;margin:.75rem 0}
.who form{display:inline}
.client{display:flex;gap:.75rem;align-items:center}
.client-logo{width:3rem;height:3rem;object-fit:contain;border-radius:8px;flex:none}
.client-links{display:flex;flex-wrap:wrap;gap:.25rem 1rem;padding:0;margin:.5rem 0;list-style:none}
.destination{font-weight:600}
section.app{border-top:1px solid var(--line);padding-top:.5rem;margin-top:1rem}
.notice{background:var(--notice-bg);padding:.5rem .75rem;border-radius:4px}
.regions{max-height:18rem;overflow:auto;border:1px solid var(--line);padding:.3rem}
.regions label{margin:.2rem 0;font-weight:400}
fieldset{margin:.8rem 0;border:1px solid var(--line);border-radius:8px}
.secret{font-size:1.1rem;padding:.6rem;background:var(--code-bg);word-break:break-all}
nav a{margin-right:1rem}
.table-wrap{overflow-x:auto}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid var(--line);padding:.3rem;text-align:left;vertical-align:top}
td ul{margin:0;padding-left:1rem}
${indents}
`;

/** Where the pages link the stylesheet; the version changes with its content. */
export const STYLESHEET_PATH = '/oauth/assets/pages.css';

export const STYLESHEET_VERSION = createHash('sha256')
  .update(STYLESHEET)
  .digest('hex')
  .slice(0, 12);

export const STYLESHEET_URL = `${STYLESHEET_PATH}?v=${STYLESHEET_VERSION}`;
