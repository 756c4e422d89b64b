// For the project's own tests: a reference on a free port, and plain HTTP calls to it.

import { startReference, type ReferenceOptions, type RunningReference } from '../http/server.js';

export interface Call {
  status: number;
  headers: Headers;
  body: any;
}

export class TestServer {
  private constructor(readonly reference: RunningReference) {}

  static async start(options: ReferenceOptions = {}): Promise<TestServer> {
    return new TestServer(await startReference({ port: 0, ...options }));
  }

  get url(): string {
    return this.reference.url;
  }

  credentials(role: 'admin' | 'member' | 'other'): string {
    const email = this.reference.fixture.profile[role];
    const user = this.reference.fixture.users.find((candidate) => candidate.email === email)!;
    return 'Basic ' + Buffer.from(`${user.email}:${user.api_key}`).toString('base64');
  }

  userId(role: 'admin' | 'member' | 'other'): number {
    return this.reference.realm.usersByEmail.get(this.reference.fixture.profile[role])!.id;
  }

  /** A form-encoded call; values that are not strings go as JSON. */
  async call(as: 'admin' | 'member' | 'other' | null, method: string, path: string, params: Record<string, unknown> = {}, init: RequestInit = {}): Promise<Call> {
    const form = new URLSearchParams();
    for (const [name, value] of Object.entries(params)) form.set(name, typeof value === 'string' ? value : JSON.stringify(value));
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
    if (as) headers.authorization = this.credentials(as);
    const url = path.startsWith('http') ? path : `${this.url}${path.startsWith('/reference') ? '' : '/api/v1'}${path}`;
    const response = await fetch(method === 'GET' ? `${url}${form.size ? `?${form}` : ''}` : url, {
      method, headers, body: method === 'GET' ? undefined : form.toString(), ...init,
    });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: the test sees the text
    }
    return { status: response.status, headers: response.headers, body };
  }

  close(): Promise<void> {
    return this.reference.close();
  }
}
