import type { Prisma } from '../generated/prisma/client.js';
import type { AppConfig } from '../config/config.js';
import { hashPassword } from '../auth/passwords.js';

/** A demo organization with an owner and a little of everything to look at. */
export async function seedDemoData(
  tx: Prisma.TransactionClient,
  orgId: string,
  owner: { username: string; password: string },
  _config: AppConfig,
): Promise<void> {
  await tx.organization.create({ data: { id: orgId, name: 'Demo Solar Ltd', external_key: 'DEMO-001', app: 'kidogo' } });
  await tx.user.create({
    data: {
      username: owner.username,
      email: 'owner@demo.kidogo.local',
      password_hash: await hashPassword(owner.password),
      role: 'owner',
      organization_id: orgId,
    },
  });
}
