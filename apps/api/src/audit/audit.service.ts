import { Global, Injectable, Logger, Module } from '@nestjs/common';
import { DatabaseService } from '../database/database.service.js';
import type { Prisma } from '../generated/prisma/client.js';
import type { AuthUser } from '../common/tenancy.js';

/** Any client or transaction that can write an audit row. */
export interface AuditWriter {
  auditLog: { create(args: { data: Prisma.AuditLogUncheckedCreateInput }): PromiseLike<unknown> };
}

export interface AuditEntry {
  organizationId: string | null;
  actor?: Pick<AuthUser, 'user_id' | 'username'> | null;
  action: string;
  entityType?: string;
  entityId?: string | number;
  description: string;
  metadata?: Prisma.InputJsonValue;
  ip?: string | null;
}

/**
 * Who did what and when: sign-ins, status changes, user changes, token
 * generations, imports and deletions. Super admins read it as the
 * organization activity list.
 */
@Injectable()
export class AuditService {
  private readonly logger = new Logger('Audit');

  constructor(private readonly database: DatabaseService) {}

  /** Inside a transaction (plain or organization-guarded) when the entry must commit with the change it describes. */
  async record(entry: AuditEntry, tx?: AuditWriter): Promise<void> {
    const client = tx ?? this.database.platform;
    await client.auditLog.create({
      data: {
        organization_id: entry.organizationId,
        actor_user_id: entry.actor?.user_id ?? null,
        actor_username: entry.actor?.username ?? null,
        action: entry.action,
        entity_type: entry.entityType ?? null,
        entity_id: entry.entityId == null ? null : String(entry.entityId),
        description: entry.description,
        metadata: entry.metadata,
        ip: entry.ip ?? null,
      },
    });
  }

  /**
   * For entries that must never fail the request they describe, written just
   * after it: failed sign-ins, and the CSV exports (recorded once the file is
   * sent, with its count). A change is audited with record() in its own
   * transaction instead, so the entry is there as soon as the reply is.
   */
  recordQuietly(entry: AuditEntry): void {
    this.record(entry).catch((e) => this.logger.warn(`audit entry lost: ${(e as Error).message}`));
  }
}

@Global()
@Module({ providers: [AuditService], exports: [AuditService] })
export class AuditModule {}
