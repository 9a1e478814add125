import { Inject, Injectable, Logger } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { DatabaseService } from '../database/database.service.js';
import { hashPassword } from '../auth/passwords.js';
import type { AuthUser } from '../common/tenancy.js';
import { populateDemo } from './demo-data.js';

export const DEMO_ORG = 'demo';
export const DEMO_ADMIN = { username: 'admin', password: 'admin123' };
export const DEMO_OWNER = { username: 'demo', password: 'demo1234' };
/** A technician of the demo organization: he and the owner hand service tickets to each other. */
export const DEMO_STAFF = { username: 'baraka', password: 'baraka123' };
const SEED_LOCK = 7_202_612;

/**
 * First start: when no user exists, creates the super admin (from
 * PAYG_ADMIN_USERNAME / PAYG_ADMIN_PASSWORD, or admin/admin123 for the
 * embedded quick start) and, for the quick start, a demo organization with
 * data to look at. Runs under an advisory lock so two processes seed once.
 */
@Injectable()
export class SeedService {
  private readonly logger = new Logger('Seed');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly database: DatabaseService,
    private readonly moduleRef: ModuleRef,
  ) {}

  /** Returns lines worth printing at start (credentials of what it created). */
  async run(): Promise<string[]> {
    const created = { demo: false };
    const lines = await this.createUsers(created);
    if (created.demo) {
      const [owner, admin, staff] = await Promise.all([
        this.actor(DEMO_OWNER.username),
        this.actor(this.config.admin.username ?? DEMO_ADMIN.username),
        this.actor(DEMO_STAFF.username),
      ]);
      try {
        await populateDemo(this.moduleRef, DEMO_ORG, owner, admin, staff);
      } catch (e) {
        this.logger.error(`The demo data could not be completed: ${(e as Error).stack ?? e}`);
      }
    }
    return lines;
  }

  private async actor(username: string): Promise<AuthUser> {
    const u = await this.database.platform.user.findUniqueOrThrow({ where: { username }, include: { organization: true } });
    return {
      user_id: u.id,
      username: u.username,
      email: u.email,
      role: u.role,
      organization_id: u.organization_id,
      app: u.organization.app,
      org_status: u.organization.status,
      org_disabled_reason: null,
      org_status_changed_at: null,
    };
  }

  private async createUsers(created: { demo: boolean }): Promise<string[]> {
    const db = this.database.platform;
    return db.$transaction(
      async (tx) => {
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(${SEED_LOCK})`;
        const lines: string[] = [];
        if ((await tx.user.count()) === 0) {
          const username = this.config.admin.username ?? DEMO_ADMIN.username;
          const password = this.config.admin.password ?? (this.config.seedDemo ? DEMO_ADMIN.password : null);
          if (!password) {
            lines.push('No user exists: set PAYG_ADMIN_USERNAME and PAYG_ADMIN_PASSWORD and restart to create the super admin.');
            return lines;
          }
          const orgId = this.config.admin.organizationId;
          await tx.organization.upsert({
            where: { id: orgId },
            create: { id: orgId, name: 'Platform administration', app: 'kidogo' },
            update: {},
          });
          await tx.user.create({
            data: {
              username,
              email: this.config.admin.email,
              password_hash: await hashPassword(password),
              role: 'super_admin',
              organization_id: orgId,
            },
          });
          lines.push(`Created the super admin "${username}" in organization "${orgId}".`);
          if (this.config.seedDemo && !(await tx.organization.findUnique({ where: { id: DEMO_ORG } }))) {
            await tx.organization.create({
              // Commissions set, so the Agent report shows what each agent earned: 500.00 a device and 5% of payments.
              data: {
                id: DEMO_ORG,
                name: 'Demo Solar Ltd',
                external_key: 'DEMO-001',
                app: 'kidogo',
                commission_per_device: 500,
                commission_percent: 5,
                // What its PAYG agreement says of it besides its name (Settings → Agreement).
                agreement_seller_details: 'P.O. Box 1234-00100, Nairobi · 0700 123 456',
                agreement_paybill: '555000',
              },
            });
            await tx.user.create({
              data: {
                username: DEMO_OWNER.username,
                email: 'owner@demo.kidogo.local',
                password_hash: await hashPassword(DEMO_OWNER.password),
                role: 'owner',
                organization_id: DEMO_ORG,
              },
            });
            await tx.user.create({
              data: {
                username: DEMO_STAFF.username,
                email: 'baraka@demo.kidogo.local',
                password_hash: await hashPassword(DEMO_STAFF.password),
                role: 'staff',
                organization_id: DEMO_ORG,
              },
            });
            created.demo = true;
            lines.push(`Seeded the demo organization "${DEMO_ORG}".`);
          }
        }
        if (this.config.seedDemo && (await tx.user.findUnique({ where: { username: DEMO_OWNER.username } }))) {
          lines.push(
            `Demo sign-in: super admin ${DEMO_ADMIN.username} / ${DEMO_ADMIN.password}, organization owner ${DEMO_OWNER.username} / ${DEMO_OWNER.password}` +
              `, technician ${DEMO_STAFF.username} / ${DEMO_STAFF.password}`,
          );
        }
        return lines;
      },
      { timeout: 120_000, maxWait: 60_000 },
    );
  }
}
