import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Answers one call: a status and a JSON body (none when null). */
export type Reply = (status: number, body: object | null) => void;

/**
 * A payment provider's API (Safaricom's Daraja, MTN's MoMo, Airtel's Open API) played on a real HTTP port of this
 * machine, so that the API under test calls it as it would the real one. Each subclass answers the calls Kidogo makes.
 */
export abstract class FakeProvider {
  server!: Server;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      void (async () => {
        const chunks: Buffer[] = [];
        for await (const c of req) chunks.push(c as Buffer);
        await this.handle(req, Buffer.concat(chunks).toString('utf8'), (status, body) => {
          // No kept-alive connection left behind for a test worker to wait on.
          res.writeHead(status, { 'content-type': 'application/json', connection: 'close' });
          res.end(body ? JSON.stringify(body) : '');
        });
      })();
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** One call: its method, path and headers, its body as text, and how to answer it. */
  protected abstract handle(req: IncomingMessage, body: string, send: Reply): Promise<void> | void;

  stop(): Promise<void> {
    return new Promise<void>((r) => this.server.close(() => r()));
  }
}
