import { Injectable } from '@nestjs/common';
import type { WarrantySettings, WarrantySettingsInput, ZWarrantySettingsInputSchema } from '@kidogo/contracts';
import type { z } from 'zod';
import { Prisma } from '../generated/prisma/client.js';
import { AuditService } from '../audit/audit.service.js';
import { DatabaseService, type Run } from '../database/database.service.js';
import type { AuthUser } from '../common/tenancy.js';

type Input = z.output<typeof ZWarrantySettingsInputSchema>;

/** Settings → Warranties: how many months each product is under warranty (README "Warranties"). */
@Injectable()
export class WarrantiesService {
  constructor(
    private readonly database: DatabaseService,
    private readonly audit: AuditService,
  ) {}

  read(orgId: string): Promise<WarrantySettings> {
    return this.readWith(this.database.query, orgId);
  }

  /**
   * The warranties with how many devices of each product the organization
   * has, and its other product names: both from item_stats (the devices'
   * running totals by product), not a scan of the devices.
   */
  private async readWith(run: Run, orgId: string): Promise<WarrantySettings> {
    const rows = await run<{ product_name: string; months: number | null; devices: number }>(Prisma.sql`
      WITH products AS (
        SELECT lower(product_name) AS key, min(product_name) AS product_name, sum(n)::int AS devices
        FROM item_stats WHERE organization_id = ${orgId} GROUP BY 1 HAVING sum(n) > 0
      )
      SELECT coalesce(w.product_name, p.product_name) AS product_name, w.months, coalesce(p.devices, 0)::int AS devices
      FROM (SELECT product_name, months FROM product_warranties WHERE organization_id = ${orgId}) w
      FULL JOIN products p ON p.key = lower(w.product_name)
      ORDER BY lower(coalesce(w.product_name, p.product_name)), coalesce(w.product_name, p.product_name)`);
    return {
      warranties: rows.flatMap((r) => (r.months === null ? [] : [{ product_name: r.product_name, months: r.months, devices: r.devices }])),
      other_products: rows.flatMap((r) => (r.months === null ? [r.product_name] : [])),
    };
  }

  /** Replaces the organization's list, audited with the list before and after. */
  async update(orgId: string, user: AuthUser, input: Input | WarrantySettingsInput): Promise<WarrantySettings> {
    const rules = (input as Input).warranties;
    return this.database.db.$transaction(async (tx) => {
      const run: Run = <T,>(sql: Prisma.Sql) => tx.$queryRaw<T[]>(sql);
      const before = await run<{ product_name: string; months: number }>(Prisma.sql`
        SELECT product_name, months FROM product_warranties WHERE organization_id = ${orgId} ORDER BY lower(product_name) FOR UPDATE`);
      await run(Prisma.sql`DELETE FROM product_warranties WHERE organization_id = ${orgId} RETURNING 1`);
      if (rules.length) {
        await run(Prisma.sql`
          INSERT INTO product_warranties (organization_id, product_name, months, updated_by)
          SELECT ${orgId}, u.product_name, u.months, ${user.username}
          FROM unnest(${rules.map((r) => r.product_name)}::text[], ${rules.map((r) => r.months)}::int[]) AS u(product_name, months)
          RETURNING 1`);
      }
      const after = [...rules].sort((a, b) => a.product_name.toLowerCase().localeCompare(b.product_name.toLowerCase()));
      await this.audit.record(
        {
          organizationId: orgId,
          actor: user,
          action: 'warranties.update',
          entityType: 'organization',
          entityId: orgId,
          description: after.length
            ? `Warranties: ${after.map((r) => `${r.product_name} ${r.months} month(s)`).join(', ')}, set by ${user.username}`.slice(0, 1000)
            : `Warranties: none, set by ${user.username}`,
          metadata: { before: before.map((r) => ({ product_name: r.product_name, months: r.months })), after },
        },
        tx,
      );
      return this.readWith(run, orgId);
    });
  }
}
