// A worker at /work (or a customer at /account) over HTTP for the integration tests, without a browser: the sign-in form, the
// session cookie, the CSRF token.
export class WorkerSession {
  private cookies = new Map<string, string>();
  csrf = '';
  constructor(private readonly base: string) {}

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async request(
    method: string,
    path: string,
    body?: Record<string, string> | object,
    json = false,
  ): Promise<{ status: number; text: string; location: string | null }> {
    const headers: Record<string, string> = { cookie: this.cookieHeader() };
    let payload: string | undefined;
    if (body) {
      headers['content-type'] = json ? 'application/json' : 'application/x-www-form-urlencoded';
      if (json) headers['x-csrf-token'] = this.csrf;
      payload = json ? JSON.stringify(body) : new URLSearchParams({ csrf: this.csrf, ...(body as Record<string, string>) }).toString();
    }
    const response = await fetch(this.base + path, { method, headers, body: payload, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
    const text = await response.text();
    const csrf = /name="csrf" value="([^"]+)"/.exec(text)?.[1];
    if (csrf) this.csrf = csrf;
    return { status: response.status, text, location: response.headers.get('location') };
  }

  static async signIn(base: string, token: string): Promise<WorkerSession> {
    const session = new WorkerSession(base);
    await session.request('GET', '/work/sign-in');
    const answer = await session.request('POST', '/work/sign-in', { sign_in_token: token });
    if (answer.status !== 303) throw new Error(`sign-in refused: ${answer.status}`);
    await session.request('GET', '/work/queue');
    return session;
  }

  /** The same kind of session for a customer in the account area, signed in with the API token. */
  static async signInToAccount(base: string, apiToken: string): Promise<WorkerSession> {
    const session = new WorkerSession(base);
    await session.request('GET', '/account/sign-in');
    const answer = await session.request('POST', '/account/sign-in', { api_token: apiToken });
    if (answer.status !== 303) throw new Error(`account sign-in refused: ${answer.status}`);
    return session;
  }
}
