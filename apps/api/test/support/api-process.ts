import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TEST_ENCRYPTION_KEY, TEST_JWT_SECRET } from './test-app.js';

const MAIN = resolve(fileURLToPath(import.meta.url), '../../../dist/main.js');

export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => ok(port));
    });
    s.on('error', fail);
  });
}

/** The real API (apps/api/dist/main.js) as a child process: what `pnpm start` runs in production. */
export class ApiProcess {
  private child: ChildProcess | null = null;
  readonly output: string[] = [];
  baseUrl = '';

  constructor(
    private readonly databaseUrl: string,
    private readonly env: Record<string, string> = {},
  ) {}

  async start(timeoutMs = 60_000): Promise<void> {
    const port = await freePort();
    this.baseUrl = `http://127.0.0.1:${port}`;
    this.child = spawn(process.execPath, [MAIN], {
      env: {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'test',
        HOST: '127.0.0.1',
        PORT: String(port),
        DATABASE_URL: this.databaseUrl,
        DATABASE_POOL_SIZE: '8',
        JWT_SECRET: TEST_JWT_SECRET,
        ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
        SEED_DEMO: 'false',
        DATA_DIR: mkdtempSync(join(tmpdir(), 'kidogo-api-')),
        WEB_DIST: '/nonexistent',
        ...this.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const stream of [this.child.stdout!, this.child.stderr!]) stream.on('data', (d: Buffer) => this.output.push(d.toString()));
    const exited = new Promise<never>((_, fail) =>
      this.child!.once('exit', (code, signal) => fail(new Error(`the API exited (${code ?? signal}) before it was ready:\n${this.output.join('')}`))),
    );
    const deadline = Date.now() + timeoutMs;
    const ready = (async () => {
      for (;;) {
        try {
          const res = await fetch(`${this.baseUrl}/payg/ready`);
          if (res.ok) return;
        } catch {
          // not listening yet
        }
        if (Date.now() > deadline) throw new Error(`the API was not ready within ${timeoutMs} ms:\n${this.output.join('')}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    exited.catch(() => undefined); // a kill after the start is not a failure to start
    await Promise.race([ready, exited]);
  }

  /** kill -9: no shutdown hook, no drain, no flush. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await gone;
    this.child = null;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }
}
