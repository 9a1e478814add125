// Prints the SQL that creates prisma/schema.prisma from an empty database,
// as Prisma itself renders it. The migration test compares a database built
// from this with one built from prisma/migrations.
// Usage: DATABASE_URL=<any reachable PostgreSQL> node scripts/schema-sql.mjs
import { diffSchemas, readSchema } from './prisma6.mjs';

if (!process.env.DATABASE_URL) {
  console.error('DATABASE_URL must point at a reachable PostgreSQL');
  process.exit(2);
}
process.stdout.write(diffSchemas(null, readSchema(), process.env.DATABASE_URL));
