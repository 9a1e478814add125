import type { Prisma } from '../../src/generated/prisma/client.js';
import type { TestApp } from './test-app.js';

type AuditRow = Prisma.AuditLogGetPayload<object>;

/**
 * The newest audit entry matching `where`, waiting up to a second for it:
 * the entries that must never fail their request (failed sign-ins, the CSV
 * exports, written once the file is sent) land just after the reply.
 * Null when none came.
 */
export async function settledAuditEntry(t: TestApp, where: Prisma.AuditLogWhereInput): Promise<AuditRow | null> {
  for (let i = 0; i < 40; i++) {
    const entry = await t.db.platform.auditLog.findFirst({ where, orderBy: { id: 'desc' } });
    if (entry) return entry;
    await new Promise((r) => setTimeout(r, 25));
  }
  return null;
}
