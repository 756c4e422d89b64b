// For the project's own tests of the suite: servers that no one here wrote, made by changing
// what passes between the suite and the reference.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Forwarded {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

export interface Proxy {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * A proxy in front of `target`. `answer` gets each request with its body and a `forward`
 * that sends it on (with another body, if given) and resolves to the upstream answer; it
 * answers as it likes.
 */
export async function proxy(
  target: string,
  answer: (req: IncomingMessage, res: ServerResponse, forward: (body?: string) => Promise<Forwarded>, body: string) => Promise<void>,
): Promise<Proxy> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const received = Buffer.concat(chunks);
      const forward = async (body?: string): Promise<Forwarded> => {
        const { host: _host, 'content-length': _length, 'transfer-encoding': _chunked, connection: _connection, 'keep-alive': _keepAlive, ...headers } = req.headers as Record<string, string>;
        const sent = body ?? (received.length > 0 ? received : undefined);
        const response = await fetch(target + req.url, { method: req.method, headers, body: sent });
        const kept: Record<string, string> = {};
        response.headers.forEach((value, name) => {
          if (!['content-length', 'transfer-encoding', 'connection', 'keep-alive'].includes(name)) kept[name] = value;
        });
        return { status: response.status, headers: kept, body: await response.text() };
      };
      answer(req, res, forward, received.toString('latin1')).catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** Answers with what the upstream answered, or with another body. */
export function reply(res: ServerResponse, answer: Forwarded, body = answer.body): void {
  res.writeHead(answer.status, answer.headers).end(body);
}
