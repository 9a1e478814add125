import { Injectable } from '@nestjs/common';
import type { CommissionSettings, CommissionSettingsInput } from '@kidogo/contracts';
import { Prisma } from '../generated/prisma/client.js';
import { AuditService } from '../audit/audit.service.js';
import { DatabaseService } from '../database/database.service.js';
import { Errors } from '../common/errors.js';
import type { AuthUser } from '../common/tenancy.js';
import { commissionSql } from './commissions.js';

/** The settings' example: what an agent earns for this much work. */
const EXAMPLE = { devices: 10, revenue: '100000.00' };

@Injectable()
export class CommissionsService {
  constructor(
    private readonly database: DatabaseService,
    private readonly audit: AuditService,
  ) {}

  async read(orgId: string): Promise<CommissionSettings> {
    const [row] = await this.database.query<{ per_device: string; percent: string; commission: string }>(Prisma.sql`
      SELECT commission_per_device::text AS per_device, commission_percent::text AS percent,
             ${commissionSql(
               Prisma.sql`commission_per_device`,
               Prisma.sql`commission_percent`,
               Prisma.sql`${EXAMPLE.devices}::int`,
               Prisma.sql`${EXAMPLE.revenue}::numeric`,
             )}::numeric(20,2)::text AS commission
      FROM organizations WHERE organization_id = ${orgId}`);
    if (!row) throw Errors.notFound('Organization');
    return {
      per_device: row.per_device,
      percent: row.percent,
      example: { devices_given: EXAMPLE.devices, revenue: EXAMPLE.revenue, commission: row.commission },
    };
  }

  async update(orgId: string, user: AuthUser, input: CommissionSettingsInput): Promise<CommissionSettings> {
    const data = {
      ...(input.per_device !== undefined ? { commission_per_device: new Prisma.Decimal(input.per_device.toFixed(2)) } : {}),
      ...(input.percent !== undefined ? { commission_percent: new Prisma.Decimal(input.percent.toFixed(2)) } : {}),
    };
    await this.database.db.$transaction(async (tx) => {
      const before = await tx.organization.findUniqueOrThrow({
        where: { id: orgId },
        select: { commission_per_device: true, commission_percent: true },
      });
      const org = await tx.organization.update({ where: { id: orgId }, data });
      const perDevice = org.commission_per_device.toFixed(2);
      const percent = org.commission_percent.toFixed(2);
      await this.audit.record(
        {
          organizationId: orgId,
          actor: user,
          action: 'commissions.update',
          entityType: 'organization',
          entityId: orgId,
          description:
            org.commission_per_device.isZero() && org.commission_percent.isZero()
              ? `Agent commissions off, set by ${user.username}`
              : `Agent commissions: ${perDevice} per device given and ${percent}% of payments collected, set by ${user.username}`,
          metadata: {
            before: { per_device: before.commission_per_device.toFixed(2), percent: before.commission_percent.toFixed(2) },
            after: { per_device: perDevice, percent },
          },
        },
        tx,
      );
    });
    return this.read(orgId);
  }
}
