import { Injectable } from '@nestjs/common';
import { FOLLOW_ON_RULE_LABELS, type CreditCheck, type FollowOnSettings, type FollowOnSettingsInput } from '@kidogo/contracts';
import { AuditService } from '../audit/audit.service.js';
import { DatabaseService } from '../database/database.service.js';
import { Errors } from '../common/errors.js';
import type { AuthUser } from '../common/tenancy.js';
import { asRule, readCreditCheck } from './credit-check.js';

const toSettings = (o: { follow_on_rule: string; follow_on_refuse_repossessed: boolean }): FollowOnSettings => ({
  rule: asRule(o.follow_on_rule),
  refuse_repossessed: o.follow_on_refuse_repossessed,
});

const SETTINGS = { follow_on_rule: true, follow_on_refuse_repossessed: true } as const;

@Injectable()
export class CreditCheckService {
  constructor(
    private readonly database: DatabaseService,
    private readonly audit: AuditService,
  ) {}

  async check(orgId: string, customerId: number): Promise<CreditCheck> {
    const check = await readCreditCheck(this.database.query, orgId, customerId);
    if (!check) throw Errors.notFound('Customer');
    return check;
  }

  async settings(orgId: string): Promise<FollowOnSettings> {
    const org = await this.database.db.organization.findUnique({ where: { id: orgId }, select: SETTINGS });
    if (!org) throw Errors.notFound('Organization');
    return toSettings(org);
  }

  async update(orgId: string, user: AuthUser, input: FollowOnSettingsInput): Promise<FollowOnSettings> {
    return this.database.db.$transaction(async (tx) => {
      const before = toSettings(await tx.organization.findUniqueOrThrow({ where: { id: orgId }, select: SETTINGS }));
      const after = toSettings(
        await tx.organization.update({
          where: { id: orgId },
          data: {
            ...(input.rule !== undefined ? { follow_on_rule: input.rule } : {}),
            ...(input.refuse_repossessed !== undefined ? { follow_on_refuse_repossessed: input.refuse_repossessed } : {}),
          },
          select: SETTINGS,
        }),
      );
      await this.audit.record(
        {
          organizationId: orgId,
          actor: user,
          action: 'follow_on.update',
          entityType: 'organization',
          entityId: orgId,
          description:
            `Follow-on sales: ${FOLLOW_ON_RULE_LABELS[after.rule]}` +
            `${after.refuse_repossessed ? ', none to customers repossessed from' : ''}, set by ${user.username}`,
          metadata: { before, after },
        },
        tx,
      );
      return after;
    });
  }
}
