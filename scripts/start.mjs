// `pnpm start`: build what is needed, then run the API, which serves the web
// app on the same port, starts the embedded PostgreSQL when DATABASE_URL is
// unset, applies migrations and seeds the demo on first start.
import { spawnSync, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { root } from './prisma6.mjs';
import { pnpmCommand } from './pnpm.mjs';
import { apiEnv, apiNodeArgs } from './api-runtime.mjs';

function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: process.env });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const [bin, ...pre] = pnpmCommand();

if (!process.argv.includes('--no-build')) {
  console.log('Building Kidogo (contracts, API, web)...');
  run(process.execPath, [resolve(root, 'scripts/prisma-generate.mjs'), '--quiet']);
  run(bin, [...pre, '-r', '--workspace-concurrency=1', 'run', 'build']);
}

// The API as in production: a bounded heap and malloc's settings (api-runtime.mjs).
const api = spawn(process.execPath, [...apiNodeArgs(), resolve(root, 'apps/api/dist/main.js')], {
  cwd: root,
  stdio: 'inherit',
  env: apiEnv(),
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => api.kill(sig));
api.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
