import { Injectable } from '@nestjs/common';
import type { NotificationList, NotifyInput, OrgNotification } from '@kidogo/contracts';
import { DatabaseService } from '../database/database.service.js';
import { AuditService } from '../audit/audit.service.js';
import { Errors } from '../common/errors.js';
import type { AuthUser } from '../common/tenancy.js';

const toReply = (n: { id: number; message: string; level: string; created_by: string | null; created_at: Date }): OrgNotification => ({
  id: n.id,
  message: n.message,
  level: n.level,
  created_by: n.created_by,
  created_at: n.created_at.toISOString(),
});

/** Messages the platform sends to an organization; its users see them in the header. */
@Injectable()
export class NotificationsService {
  constructor(
    private readonly database: DatabaseService,
    private readonly audit: AuditService,
  ) {}

  async notify(actor: AuthUser, orgId: string, input: NotifyInput): Promise<OrgNotification> {
    return this.database.platform.$transaction(async (tx) => {
      const org = await tx.organization.findUnique({ where: { id: orgId }, select: { id: true } });
      if (!org) throw Errors.notFound('Organization');
      const n = await tx.notification.create({
        data: { organization_id: orgId, message: input.message, level: input.level, created_by: actor.username },
      });
      await this.audit.record(
        {
          organizationId: orgId,
          actor,
          action: 'organization.notified',
          entityType: 'notification',
          entityId: n.id,
          description: `Notification sent by ${actor.username}: ${input.message.slice(0, 120)}`,
        },
        tx,
      );
      return toReply(n);
    });
  }

  async list(orgId: string, limit = 20): Promise<NotificationList> {
    const rows = await this.database.db.notification.findMany({
      where: { organization_id: orgId },
      orderBy: [{ created_at: 'desc' }, { id: 'desc' }],
      take: limit,
    });
    return { data: rows.map(toReply) };
  }
}
