// Prints the JavaScript a browser downloads before each entry route can render:
// the app entry, the route's chunk and every chunk they import statically
// (read from Vite's build manifest), raw and gzipped. Run after `vite build`.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const dist = new URL('../dist/', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('.vite/manifest.json', dist), 'utf8'));
const ROUTES = {
  '/': 'src/features/landing/routes/landing.tsx',
  '/login': 'src/features/auth/routes/login.tsx',
  '/dashboard': 'src/features/dashboard/routes/dashboard.tsx',
};

function collect(key, seen) {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const dep of manifest[key]?.imports ?? []) collect(dep, seen);
  return seen;
}

const entry = Object.keys(manifest).find((k) => manifest[k].isEntry);
const layout = 'src/app/routes/app-layout.tsx';
const kb = (n) => `${(n / 1024).toFixed(1)} kB`;

for (const [route, module] of Object.entries(ROUTES)) {
  if (!manifest[module]) throw new Error(`${module} is not a chunk of this build`);
  const keys = collect(module, collect(entry, new Set()));
  if (route === '/dashboard') collect(layout, keys);
  let raw = 0;
  let gz = 0;
  for (const file of new Set([...keys].map((k) => manifest[k].file))) {
    const bytes = readFileSync(new URL(file, dist));
    raw += bytes.length;
    gz += gzipSync(bytes).length;
  }
  console.log(`${route.padEnd(11)} initial JS ${kb(raw).padStart(9)} raw, ${kb(gz).padStart(8)} gzip`);
}
