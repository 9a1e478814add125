// Writes the next SQL migration: the difference between the schema as of the
// last migration (prisma/migrations/schema.snapshot.prisma) and
// prisma/schema.prisma. Usage: DATABASE_URL=... node scripts/db-migration.mjs <name>
// Review the SQL, add what Prisma cannot express (trigram indexes, partial
// unique indexes, sequences) by hand, and commit both files.
import { existsSync, mkdirSync, readdirSync, writeFileSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { diffSchemas, readSchema, root } from './prisma6.mjs';

const name = (process.argv[2] ?? '').replace(/[^a-z0-9_]/gi, '_').toLowerCase();
if (!name) {
  console.error('usage: node scripts/db-migration.mjs <name>');
  process.exit(2);
}
const url = process.env.DATABASE_URL;
if (!url) {
  console.error('DATABASE_URL must point at a reachable PostgreSQL (Prisma 6 needs one to diff)');
  process.exit(2);
}
const dir = resolve(root, 'prisma/migrations');
const snapshotPath = resolve(dir, 'schema.snapshot.prisma');
const previous = existsSync(snapshotPath) ? readFileSync(snapshotPath, 'utf8') : null;
const current = readSchema();
const sql = diffSchemas(previous, current, url);
if (!sql.trim() || /^-- This is an empty migration/m.test(sql)) {
  console.log('schema.prisma has no changes since the last migration');
  process.exit(0);
}
const seq = String(readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory()).length + 1).padStart(4, '0');
const target = resolve(dir, `${seq}_${name}`);
mkdirSync(target, { recursive: true });
writeFileSync(resolve(target, 'migration.sql'), sql);
writeFileSync(snapshotPath, current);
console.log(`wrote prisma/migrations/${seq}_${name}/migration.sql`);
