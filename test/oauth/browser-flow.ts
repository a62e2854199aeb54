// A browser without a browser: a cookie jar, manual redirects, and form posts, enough to walk the
// authorization-code flow through the server-rendered login and consent pages.
import type { TestService } from '../helpers/service.js';

class CookieJar {
  private readonly cookies = new Map<string, string>();

  store(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';').map((p) => p.trim());
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      const expires = attributes.find((a) => a.toLowerCase().startsWith('expires='));
      const gone =
        !value ||
        (expires && Date.parse(expires.slice(8)) <= Date.now()) ||
        attributes.some((a) => a.toLowerCase() === 'max-age=0');
      if (gone) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([n, v]) => `${n}=${v}`).join('; ');
  }
}

export interface Page {
  status: number;
  url: string;
  location: string | null;
  html: string;
  headers: Headers;
}

export class Browser {
  readonly jar = new CookieJar();

  constructor(private readonly svc: TestService) {}

  private absolute(url: string): string {
    return new URL(url, this.svc.url).href;
  }

  async get(url: string): Promise<Page> {
    const res = await fetch(this.absolute(url), {
      redirect: 'manual',
      headers: { cookie: this.jar.header(), accept: 'text/html' },
    });
    return this.page(url, res);
  }

  async post(url: string, form: Record<string, string> = {}): Promise<Page> {
    const res = await fetch(this.absolute(url), {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: this.jar.header(), 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
      body: new URLSearchParams(form),
    });
    return this.page(url, res);
  }

  /** Follows redirects on this server; stops at a page, or at a redirect elsewhere (the client's redirect_uri). */
  async follow(page: Page): Promise<Page> {
    let current = page;
    for (let hops = 0; current.location && hops < 10; hops++) {
      const next = new URL(current.location, this.svc.url);
      if (next.origin !== new URL(this.svc.url).origin) return current;
      current = await this.get(next.href);
    }
    return current;
  }

  private async page(url: string, res: Response): Promise<Page> {
    this.jar.store(res);
    return {
      status: res.status,
      url,
      location: res.headers.get('location'),
      html: await res.text(),
      headers: res.headers,
    };
  }
}

/** The `action` of the first form on the page whose action matches `pattern`. */
export function formAction(html: string, pattern: RegExp): string {
  for (const match of html.matchAll(/<form[^>]*action="([^"]+)"/g)) {
    const action = match[1]!.replace(/&amp;/g, '&');
    if (pattern.test(action)) return action;
  }
  throw new Error(`no form matching ${pattern} in:\n${html}`);
}
