// `pnpm test`: every check the project has, in the order a failure is
// cheapest to read: lint, types, unit and API tests, then the browser suite.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { root } from './prisma6.mjs';
import { pnpmCommand } from './pnpm.mjs';

const [bin, ...pre] = pnpmCommand();

function step(title, cmd, args, env = {}) {
  console.log(`\n=== ${title} ===`);
  const started = Date.now();
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  if (r.status !== 0) {
    console.error(`\n${title} failed`);
    process.exit(r.status ?? 1);
  }
  console.log(`(${title}: ${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

step('Prisma client', process.execPath, [resolve(root, 'scripts/prisma-generate.mjs'), '--quiet']);
step('Lint', bin, [...pre, 'run', 'lint']);
step('Build', bin, [...pre, '-r', '--workspace-concurrency=1', 'run', 'build']);
step('Typecheck', bin, [...pre, '-r', 'run', 'typecheck']);
step('Unit, API and component tests', bin, [...pre, '-r', '--workspace-concurrency=1', '--filter', '!@kidogo/e2e', 'run', 'test']);

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (existsSync(resolve(root, 'e2e/package.json'))) {
  if (existsSync(chromium)) {
    step('Browser tests', bin, [...pre, '--filter', '@kidogo/e2e', 'run', 'test']);
  } else if (process.env.REQUIRE_BROWSER_TESTS === '1') {
    console.error(`Browser tests need Chromium at ${chromium} (apt-get install -y chromium)`);
    process.exit(1);
  } else {
    console.warn(`\nSKIPPED the browser tests: no Chromium at ${chromium}. Install it (apt-get install -y chromium) to run them.`);
  }
}
console.log('\nAll tests passed.');
