import { Injectable } from '@nestjs/common';
import type { OemListReply, ProductOemConfigInput, ProductOemConfigReply } from '@kidogo/contracts';
import { DatabaseService } from '../database/database.service.js';
import { AuditService } from '../audit/audit.service.js';
import type { AuthUser } from '../common/tenancy.js';
import { toOemConfig } from './oem-config.mapper.js';

@Injectable()
export class OemConfigService {
  constructor(
    private readonly database: DatabaseService,
    private readonly audit: AuditService,
  ) {}

  upsert(orgId: string, user: AuthUser, input: ProductOemConfigInput): Promise<ProductOemConfigReply> {
    return this.database.db.$transaction(async (tx) => {
      const data = {
        restricted_digit_set: input.restricted_digit_set,
        extended_token: input.extended_token,
        value_divider: input.value_divider,
      };
      const row = await tx.productOemConfig.upsert({
        where: { organization_id_product_oem: { organization_id: orgId, product_oem: input.product_oem } },
        create: { organization_id: orgId, product_oem: input.product_oem, ...data },
        update: data,
      });
      await this.audit.record(
        {
          organizationId: orgId,
          actor: user,
          action: 'oem_config.upsert',
          entityType: 'product_oem',
          entityId: input.product_oem,
          description: `Token settings of ${input.product_oem}: restricted digits ${data.restricted_digit_set}, extended ${data.extended_token}, divider ${data.value_divider}`,
          metadata: data,
        },
        tx,
      );
      return { message: 'OEM token settings saved', data: toOemConfig(row) };
    });
  }

  async list(orgId: string): Promise<OemListReply> {
    const rows = await this.database.db.productOemConfig.findMany({
      where: { organization_id: orgId },
      orderBy: { product_oem: 'asc' },
    });
    return { data: rows.map(toOemConfig) };
  }
}
