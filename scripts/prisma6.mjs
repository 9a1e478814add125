// Runs the Prisma 6.19.3 CLI's `migrate diff` offline. Prisma 7's migrate
// commands need a native schema engine that cannot be downloaded everywhere;
// Prisma 6.19.3 can diff schemas with its JavaScript engine when its config
// names a driver adapter (see ENVIRONMENT notes in the README). It wants a
// reachable PostgreSQL even for a datamodel-to-datamodel diff.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(resolve(root, 'apps/api/package.json'));

/** The schema as Prisma 6 wants it: url in the datasource, the JS client engine. */
export function toPrisma6Schema(text) {
  return text
    .replace(/generator client \{[\s\S]*?\n\}/, 'generator client {\n  provider   = "prisma-client-js"\n  engineType = "client"\n}')
    .replace(/datasource db \{[\s\S]*?\n\}/, 'datasource db {\n  provider = "postgresql"\n  url      = env("DATABASE_URL")\n}');
}

/**
 * SQL that turns the `from` schema into the `to` schema (`from` null: empty database).
 * Both are schema texts in this repo's (Prisma 7) form.
 */
export function diffSchemas(fromText, toText, databaseUrl) {
  const dir = mkdtempSync(join(tmpdir(), 'kidogo-prisma6-'));
  try {
    const toPath = join(dir, 'to.prisma');
    writeFileSync(toPath, toPrisma6Schema(toText));
    const args = ['migrate', 'diff', '--script', '--to-schema-datamodel', toPath];
    if (fromText == null) args.push('--from-empty');
    else {
      const fromPath = join(dir, 'from.prisma');
      writeFileSync(fromPath, toPrisma6Schema(fromText));
      args.push('--from-schema-datamodel', fromPath);
    }
    const configUrl = pathToFileURL(require.resolve('prisma6/config')).href;
    const adapterUrl = pathToFileURL(require.resolve('@prisma/adapter-pg')).href;
    writeFileSync(
      join(dir, 'prisma.config.mjs'),
      `import { defineConfig } from ${JSON.stringify(configUrl)};
import { PrismaPg } from ${JSON.stringify(adapterUrl)};
export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  schema: './to.prisma',
  adapter: async () => new PrismaPg({ connectionString: process.env.DATABASE_URL, idleTimeoutMillis: 50 }),
});
`,
    );
    const cli = resolve(dirname(require.resolve('prisma6/package.json')), 'build/index.js');
    const r = spawnSync(process.execPath, [cli, ...args, '--config', join(dir, 'prisma.config.mjs')], {
      cwd: dir,
      encoding: 'utf8',
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        PRISMA_QUERY_ENGINE_LIBRARY: '/bin/true',
        PRISMA_SCHEMA_ENGINE_BINARY: '/bin/true',
        CHECKPOINT_DISABLE: '1',
        PRISMA_HIDE_UPDATE_MESSAGE: '1',
      },
    });
    if (r.status !== 0) throw new Error(`prisma migrate diff failed:\n${r.stdout}\n${r.stderr}`);
    return r.stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function readSchema() {
  return readFileSync(resolve(root, 'prisma/schema.prisma'), 'utf8');
}
