import { Injectable } from '@nestjs/common';
import type { ApiKeyReply } from '@kidogo/contracts';
import { DatabaseService } from '../database/database.service.js';
import { AuditService } from '../audit/audit.service.js';
import { SecretBox, randomToken, sha256 } from '../common/crypto.js';
import { Errors } from '../common/errors.js';
import type { AuthUser } from '../common/tenancy.js';

export const newApiKey = () => `kdg_${randomToken(32)}`;

/**
 * The organization's receiver key. Stored twice: sha256 (looked up on every
 * gateway request) and sealed with SecretBox (so owners can read it again in
 * Settings). Never logged.
 */
@Injectable()
export class ApiKeyService {
  constructor(
    private readonly database: DatabaseService,
    private readonly box: SecretBox,
    private readonly audit: AuditService,
  ) {}

  /** The current key; the first read creates one. */
  async read(orgId: string, user: AuthUser): Promise<ApiKeyReply> {
    const org = await this.database.platform.organization.findUnique({ where: { id: orgId }, select: { api_key_enc: true } });
    if (!org) throw Errors.notFound('Organization');
    if (org.api_key_enc) return { api_key: this.box.open(org.api_key_enc) };
    const key = newApiKey();
    // Two first reads at once: only one key is written, both answer it.
    const { count } = await this.database.platform.organization.updateMany({
      where: { id: orgId, api_key_hash: null },
      data: { api_key_hash: sha256(key), api_key_enc: this.box.seal(key) },
    });
    if (count === 0) return this.read(orgId, user);
    await this.audit.record({
      organizationId: orgId,
      actor: user,
      action: 'api_key.create',
      entityType: 'organization',
      entityId: orgId,
      description: `Receiver API key created by ${user.username}`,
    });
    return { api_key: key };
  }

  /** A new key; the old one stops working with this write. */
  async rotate(orgId: string, user: AuthUser): Promise<ApiKeyReply> {
    const key = newApiKey();
    await this.database.platform.$transaction(async (tx) => {
      await tx.organization.update({ where: { id: orgId }, data: { api_key_hash: sha256(key), api_key_enc: this.box.seal(key) } });
      await this.audit.record(
        {
          organizationId: orgId,
          actor: user,
          action: 'api_key.rotate',
          entityType: 'organization',
          entityId: orgId,
          description: `Receiver API key replaced by ${user.username}; the old key no longer works`,
        },
        tx,
      );
    });
    return { api_key: key };
  }
}
