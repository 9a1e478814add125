import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';
import { ConfigError, loadConfig, REPO_ROOT } from '../src/config/config.js';

const KEY = 'ab'.repeat(32);
const SECRET = 'x'.repeat(40);

describe('configuration', () => {
  it('refuses to start in production without the admin password, JWT secret and encryption key', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgresql://u:p@h/db' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgresql://u:p@h/db', JWT_SECRET: SECRET, ENCRYPTION_KEY: KEY })).toThrow(
      /PAYG_ADMIN_PASSWORD/,
    );
    const c = loadConfig({
      NODE_ENV: 'production',
      DATABASE_URL: 'postgresql://u:p@h/db',
      JWT_SECRET: SECRET,
      ENCRYPTION_KEY: KEY,
      PAYG_ADMIN_PASSWORD: 'long-enough-password',
    });
    expect(c.seedDemo).toBe(false);
    expect(c.admin.username).toBe('admin');
    expect(c.embedded.enabled).toBe(false);
  });

  it('names the variable that is wrong', () => {
    expect(() => loadConfig({ PORT: 'abc', JWT_SECRET: SECRET, ENCRYPTION_KEY: KEY })).toThrow(/PORT/);
    expect(() => loadConfig({ ENCRYPTION_KEY: 'short', JWT_SECRET: SECRET })).toThrow(/ENCRYPTION_KEY/);
  });

  it('uses the embedded database and seeds the demo when nothing is configured', () => {
    const c = loadConfig({ JWT_SECRET: SECRET, ENCRYPTION_KEY: KEY });
    expect(c.embedded.enabled).toBe(true);
    expect(c.seedDemo).toBe(true);
    expect(c.port).toBe(3000);
  });

  it('issues short-lived access tokens unless told otherwise (the web client refreshes on a 401)', () => {
    expect(loadConfig({ JWT_SECRET: SECRET, ENCRYPTION_KEY: KEY }).jwtExpiresIn).toBe(900);
    expect(loadConfig({ JWT_SECRET: SECRET, ENCRYPTION_KEY: KEY, JWT_EXPIRES_IN: '3600' }).jwtExpiresIn).toBe(3600);
    expect(() => loadConfig({ JWT_SECRET: SECRET, ENCRYPTION_KEY: KEY, JWT_EXPIRES_IN: '10' })).toThrow(/JWT_EXPIRES_IN/);
  });

  it('believes X-Forwarded-For only from the proxies TRUST_PROXY names (loopback by default)', () => {
    const trust = (v?: string) => loadConfig({ JWT_SECRET: SECRET, ENCRYPTION_KEY: KEY, ...(v === undefined ? {} : { TRUST_PROXY: v }) }).trustProxy;
    expect(trust()).toBe('loopback');
    expect(trust('true')).toBe(true);
    expect(trust('false')).toBe(false);
    expect(trust('2')).toBe(2);
    expect(trust('10.0.0.0/8, 192.168.1.10')).toBe('10.0.0.0/8, 192.168.1.10');
    expect(trust('loopback,uniquelocal')).toBe('loopback,uniquelocal');
    for (const bad of ['yes', 'proxy.example.com', '10.0.0.0/33', '300.1.1.1']) expect(() => trust(bad)).toThrow(/TRUST_PROXY/);
  });

  it('counts days in Nairobi unless TIME_ZONE names another IANA zone, and refuses one it does not know', () => {
    const zone = (v?: string) => loadConfig({ JWT_SECRET: SECRET, ENCRYPTION_KEY: KEY, ...(v === undefined ? {} : { TIME_ZONE: v }) }).timeZone;
    expect(zone()).toBe('Africa/Nairobi');
    expect(zone('Africa/Kampala')).toBe('Africa/Kampala');
    expect(zone(' UTC ')).toBe('UTC');
    expect(zone('')).toBe('Africa/Nairobi');
    for (const bad of ['Africa/Nairobbi', 'EAT', '+03:00', 'Mars/Olympus']) {
      expect(() => zone(bad)).toThrow(ConfigError);
      expect(() => zone(bad)).toThrow(`TIME_ZONE: TIME_ZONE must be an IANA time zone name such as Africa/Nairobi, Africa/Kampala or UTC (got ${JSON.stringify(bad)})`);
    }
  });

  it('takes PUBLIC_URL as an http(s) address without its trailing slash, and refuses anything else', () => {
    const url = (v?: string) => loadConfig({ JWT_SECRET: SECRET, ENCRYPTION_KEY: KEY, ...(v === undefined ? {} : { PUBLIC_URL: v }) }).publicUrl;
    expect(url()).toBeNull();
    expect(url('')).toBeNull();
    expect(url('https://payg.example.com/')).toBe('https://payg.example.com');
    expect(url(' https://example.org/kidogo ')).toBe('https://example.org/kidogo');
    for (const bad of ['payg.example.com', 'ftp://example.com', 'https://example.com/?x=1', 'https://']) {
      expect(() => url(bad)).toThrow('PUBLIC_URL: PUBLIC_URL must be an http(s) address such as https://payg.example.com');
    }
  });
});

describe('deployment files', () => {
  it('docker-compose.yml runs PostgreSQL and the app wired to it, with the secrets required', () => {
    const compose = parse(readFileSync(resolve(REPO_ROOT, 'docker-compose.yml'), 'utf8'));
    expect(Object.keys(compose.services).sort()).toEqual(['app', 'db']);
    expect(compose.services.db.image).toMatch(/^postgres:/);
    expect(compose.services.app.build).toBe('.');
    expect(compose.services.app.depends_on.db.condition).toBe('service_healthy');
    const env = compose.services.app.environment;
    expect(env.DATABASE_URL).toMatch(/@db:5432\//);
    for (const name of ['JWT_SECRET', 'ENCRYPTION_KEY', 'PAYG_ADMIN_PASSWORD']) expect(env[name]).toMatch(/:\?/);
    expect(compose.services.app.ports[0]).toMatch(/3000$/);
  });

  it('the app starts from docker-compose.yml with .env.example filled in: the optional variables it passes empty count as unset', () => {
    const compose = parse(readFileSync(resolve(REPO_ROOT, 'docker-compose.yml'), 'utf8'));
    const dotenv = Object.fromEntries(
      readFileSync(resolve(REPO_ROOT, '.env.example'), 'utf8')
        .split('\n')
        .filter((l) => /^[A-Z_]+=/.test(l))
        .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    );
    // What the operator fills in, as the README says.
    Object.assign(dotenv, { JWT_SECRET: 'j'.repeat(40), ENCRYPTION_KEY: 'a'.repeat(64), PAYG_ADMIN_PASSWORD: 'a-long-password' });
    // Compose's ${NAME}, ${NAME:-default} and ${NAME:?message}, as `docker compose config` resolves them.
    const resolveValue = (v: string) =>
      String(v).replace(/\$\{(\w+)(?::([-?])([^}]*))?\}/g, (_, name: string, op: string | undefined, arg: string) =>
        dotenv[name] ? dotenv[name] : op === '-' ? arg : op === '?' ? (() => { throw new Error(`${name}: ${arg}`); })() : '',
      );
    const env = Object.fromEntries(Object.entries(compose.services.app.environment as Record<string, string>).map(([k, v]) => [k, resolveValue(v)]));
    expect(env.SMS_WEBHOOK_URL).toBe('');
    expect(env.PAYG_ADMIN_EMAIL).toBe('');
    const config = loadConfig({ ...env, DATA_DIR: mkdtempSync(join(tmpdir(), 'kidogo-compose-')) });
    expect(config.env).toBe('production');
  });

  it('the Dockerfile starts the API as pnpm start does: the same node flags and malloc settings', async () => {
    const runtime = (await import(resolve(REPO_ROOT, 'scripts/api-runtime.mjs'))) as {
      MALLOC_ENV: Record<string, string>;
      apiEnv: (env: Record<string, string | undefined>) => Record<string, string | undefined>;
      apiNodeArgs: (heapMb?: string) => string[];
    };
    const docker = readFileSync(resolve(REPO_ROOT, 'Dockerfile'), 'utf8');
    const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(docker)![1]!) as string[];
    expect(cmd).toEqual(['node', ...runtime.apiNodeArgs('256'), 'apps/api/dist/main.js']);
    const env = /^ENV (.*)$/m.exec(docker)![1]!;
    expect(Object.keys(runtime.MALLOC_ENV).length).toBeGreaterThan(0);
    for (const [name, value] of Object.entries(runtime.MALLOC_ENV)) expect(env.split(' ')).toContain(`${name}=${value}`);
    // pnpm start adds them unless the operator set their own.
    expect(runtime.apiEnv({ PORT: '3000' })).toEqual({ PORT: '3000', ...runtime.MALLOC_ENV });
    expect(runtime.apiEnv({ MALLOC_MMAP_THRESHOLD_: '65536' }).MALLOC_MMAP_THRESHOLD_).toBe('65536');
    expect(runtime.apiNodeArgs('512')).toContain('--max-old-space-size=512');
  });

  it('the Dockerfile builds and runs the API, and CI runs the README test command', () => {
    const docker = readFileSync(resolve(REPO_ROOT, 'Dockerfile'), 'utf8');
    expect(docker).toMatch(/pnpm install --frozen-lockfile/);
    expect(docker).toMatch(/CMD \["node", "--enable-source-maps", "--max-old-space-size=\d+", "apps\/api\/dist\/main.js"\]/);
    const ci = parse(readFileSync(resolve(REPO_ROOT, '.github/workflows/ci.yml'), 'utf8'));
    const steps = ci.jobs.test.steps.map((s: { run?: string }) => s.run ?? '');
    expect(steps).toContain('npx --yes pnpm install --frozen-lockfile');
    expect(steps).toContain('npx --yes pnpm test');
    expect(readFileSync(resolve(REPO_ROOT, '.ci/run'), 'utf8')).toMatch(/npx --yes pnpm test/);
    expect(readFileSync(resolve(REPO_ROOT, 'README.md'), 'utf8')).toMatch(/npx --yes pnpm install && npx --yes pnpm test/);
  });
});
