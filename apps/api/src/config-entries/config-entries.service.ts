import { Injectable } from '@nestjs/common';
import type { CreateConfigEntryInput, UpdateConfigEntryInput } from '@kidogo/contracts';
import type { Prisma } from '../generated/prisma/client.js';
import { DatabaseService } from '../database/database.service.js';
import { AuditService } from '../audit/audit.service.js';
import { Errors } from '../common/errors.js';
import type { AuthUser } from '../common/tenancy.js';
import { ConfigEntriesMapper } from './config-entries.mapper.js';

/** Free-form settings of one organization, keyed by name. */
@Injectable()
export class ConfigEntriesService {
  constructor(
    private readonly database: DatabaseService,
    private readonly audit: AuditService,
  ) {}

  private get db() {
    return this.database.db;
  }

  async list(orgId: string) {
    const rows = await this.db.configEntry.findMany({ where: { organization_id: orgId }, orderBy: { key: 'asc' }, take: 1000 });
    return { data: rows.map(ConfigEntriesMapper.entry) };
  }

  async findOne(orgId: string, id: number) {
    const row = await this.db.configEntry.findUnique({ where: { organization_id_id: { organization_id: orgId, id } } });
    if (!row) throw Errors.notFound('Config entry');
    return ConfigEntriesMapper.entry(row);
  }

  private async assertKeyFree(orgId: string, key: string, exceptId?: number) {
    const clash = await this.db.configEntry.findUnique({ where: { organization_id_key: { organization_id: orgId, key } } });
    if (clash && clash.id !== exceptId) throw Errors.conflict(`A config entry with the key ${key} already exists`);
  }

  async create(actor: AuthUser, orgId: string, input: CreateConfigEntryInput) {
    await this.assertKeyFree(orgId, input.key);
    const row = await this.db.configEntry.create({
      data: { organization_id: orgId, key: input.key, value: input.value as Prisma.InputJsonValue, description: input.description ?? null },
    });
    await this.audit.record({ organizationId: orgId, actor, action: 'config.created', entityType: 'config', entityId: row.id, description: `Setting ${row.key} created by ${actor.username}` });
    return ConfigEntriesMapper.entry(row);
  }

  async update(actor: AuthUser, orgId: string, id: number, input: UpdateConfigEntryInput) {
    await this.findOne(orgId, id);
    if (input.key) await this.assertKeyFree(orgId, input.key, id);
    const row = await this.db.configEntry.update({
      where: { organization_id_id: { organization_id: orgId, id } },
      data: {
        ...(input.key ? { key: input.key } : {}),
        ...(input.value !== undefined ? { value: input.value as Prisma.InputJsonValue } : {}),
        ...(input.description !== undefined ? { description: input.description ?? null } : {}),
      },
    });
    await this.audit.record({ organizationId: orgId, actor, action: 'config.updated', entityType: 'config', entityId: id, description: `Setting ${row.key} updated by ${actor.username}` });
    return ConfigEntriesMapper.entry(row);
  }

  async remove(actor: AuthUser, orgId: string, id: number) {
    const row = await this.findOne(orgId, id);
    await this.db.configEntry.delete({ where: { organization_id_id: { organization_id: orgId, id } } });
    await this.audit.record({ organizationId: orgId, actor, action: 'config.deleted', entityType: 'config', entityId: id, description: `Setting ${row.key} deleted by ${actor.username}` });
    return { message: `Config entry ${row.key} deleted` };
  }
}
