/**
 * A browser without JavaScript, for tests on a real socket: fetch with a cookie jar, redirects
 * followed by hand (so each hop can be seen), and HTML forms filled in and submitted the way a
 * browser submits them. Enough for the login and consent pages, which need nothing more.
 */
export class FormBrowser {
  readonly origin: string;
  private readonly cookies = new Map<string, string>();
  /** The kind of every page shown (HTML the user acts on), in order. */
  readonly pagesShown: string[] = [];

  constructor(origin: string) {
    this.origin = origin;
  }

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  clearCookies(): void {
    this.cookies.clear();
  }

  async request(url: string, init: { method?: string; form?: Record<string, string> } = {}) {
    const target = new URL(url, this.origin);
    const headers = new Headers({ 'accept-language': 'en' });
    if (target.origin === this.origin && this.cookies.size > 0) {
      headers.set(
        'cookie',
        [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
      );
    }
    let body: string | undefined;
    if (init.form) {
      headers.set('content-type', 'application/x-www-form-urlencoded');
      body = new URLSearchParams(init.form).toString();
    }
    const response = await fetch(target, {
      method: init.method ?? (body === undefined ? 'GET' : 'POST'),
      headers,
      body,
      redirect: 'manual',
    });
    for (const line of response.headers.getSetCookie()) storeCookie(this.cookies, line);
    return response;
  }

  /**
   * Follows an authorization request through our pages until it leaves for the client's
   * redirect URI, and returns that URL (with code or error). `act` answers each page shown:
   * submits its form, or follows its link (the region refusal's way back to the client).
   */
  async authorize(url: string, act: (page: ShownPage) => PageAction): Promise<URL> {
    const end = await this.walk(url, act);
    if (end instanceof ShownPage) throw new Error(`stopped at a page:\n${end.html}`);
    return end;
  }

  /**
   * Follows our pages as `authorize` does, until one of them is the last (`act` answers null on
   * it: a device's verification ends on a page, RFC 8628) or a redirect leaves for a client.
   */
  async walk(url: string, act: (page: ShownPage) => PageAction | null): Promise<URL | ShownPage> {
    let response = await this.request(url);
    for (let hop = 0; hop < 20; hop++) {
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        const next = new URL(location, this.origin);
        if (next.origin !== this.origin) return next;
        response = await this.request(next.href);
        continue;
      }
      const html = await response.text();
      const page = new ShownPage(html);
      // A refusal page answers 403 and is still a page for the user to act on.
      if (response.status !== 200 && !(response.status === 403 && page.kind === 'refused')) {
        throw new Error(`stopped at ${response.url || url}: ${response.status}\n${html}`);
      }
      this.pagesShown.push(page.kind);
      const next = act(page);
      if (next === null) return page;
      if ('follow' in next) {
        const target = new URL(next.follow, this.origin);
        if (target.origin !== this.origin) return target;
        response = await this.request(target.href);
      } else {
        response = await this.request(next.action, { form: next.fields });
      }
    }
    throw new Error('too many hops');
  }
}

/** What the user does on a page: submit a form, or follow a link. */
export type PageAction = { action: string; fields: Record<string, string> } | { follow: string };

type PageKind = 'login' | 'consent' | 'device' | 'refused' | 'other';

/** The form a page's user answers with, by the page's kind (the first form on others). */
const FORM_ACTIONS: Partial<Record<PageKind, string>> = {
  login: '/login',
  consent: '/oauth/consent',
  device: '/oauth/device',
};

/** A page of ours as the test sees it: which one, and its form's fields. */
export class ShownPage {
  readonly html: string;
  readonly kind: PageKind;

  constructor(html: string) {
    this.html = html;
    if (html.includes('action="/login"')) this.kind = 'login';
    else if (html.includes('action="/oauth/consent"')) this.kind = 'consent';
    else if (html.includes('action="/oauth/device"')) this.kind = 'device';
    // The region refusal; the previous release's has the link back only.
    else if (html.includes('id="region-refusal"') || html.includes('id="back-to-client"')) {
      this.kind = 'refused';
    } else this.kind = 'other';
  }

  /** The refusal page's link back to the client, followed as a click would. */
  backToClient(): { follow: string } {
    const match = /id="back-to-client" href="([^"]+)"/.exec(this.html);
    if (!match?.[1]) throw new Error('no link back to the client on the page');
    return { follow: match[1].replace(/&amp;/g, '&') };
  }

  /**
   * The form the user answers with: on the consent page the one posting to /oauth/consent, not
   * "not you?" (which posts to /logout); elsewhere the first.
   */
  private get form(): { action: string; html: string } {
    const forms = [
      ...this.html.matchAll(/<form method="post" action="([^"]+)">([\s\S]*?)<\/form>/g),
    ];
    const wanted = FORM_ACTIONS[this.kind];
    const form = forms.find((match) => wanted === undefined || match[1] === wanted) ?? forms[0];
    if (!form?.[1]) throw new Error('no form on the page');
    return { action: form[1].replace(/&amp;/g, '&'), html: form[2] ?? '' };
  }

  get action(): string {
    return this.form.action;
  }

  /** The hidden fields of the form, as a browser would submit them. */
  get hiddenFields(): Record<string, string> {
    const fields: Record<string, string> = {};
    for (const match of this.form.html.matchAll(
      /<input type="hidden" name="([^"]+)" value="([^"]*)"/g,
    )) {
      if (match[1] !== undefined) fields[match[1]] = match[2] ?? '';
    }
    return fields;
  }

  /** The login form filled in. */
  login(email: string, password: string): { action: string; fields: Record<string, string> } {
    return { action: this.action, fields: { ...this.hiddenFields, email, password } };
  }

  /** The value a text field of the form holds (prefilled, as the browser would submit it). */
  field(name: string): string {
    const match = new RegExp(`name="${name}"[^>]*value="([^"]*)"`).exec(this.form.html);
    return match?.[1] ?? '';
  }

  /** The device verification form (RFC 8628 3.3) submitted with a user code as typed. */
  enterUserCode(userCode: string): { action: string; fields: Record<string, string> } {
    return { action: this.action, fields: { ...this.hiddenFields, user_code: userCode } };
  }

  /** The consent form answered with one of its two buttons. */
  decide(
    decision: 'allow' | 'deny',
    remember = false,
  ): { action: string; fields: Record<string, string> } {
    return {
      action: this.action,
      fields: { ...this.hiddenFields, decision, ...(remember ? { remember: 'on' } : {}) },
    };
  }
}

/** A Set-Cookie line kept in a cookie jar, or its cookie dropped when it expires it. */
export function storeCookie(cookies: Map<string, string>, line: string): void {
  const [pair = '', ...attributes] = line.split(';');
  const separator = pair.indexOf('=');
  const name = pair.slice(0, separator).trim();
  const value = pair.slice(separator + 1).trim();
  const expired = attributes.some((attribute) => {
    const [key = '', val = ''] = attribute.trim().split('=');
    if (key.toLowerCase() === 'max-age') return Number(val) <= 0;
    if (key.toLowerCase() === 'expires') return new Date(val).getTime() <= Date.now();
    return false;
  });
  if (expired || value === '') cookies.delete(name);
  else cookies.set(name, value);
}
