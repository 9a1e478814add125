import { Injectable } from '@nestjs/common';
import type { Role, User, UserList, UserListQuery } from '@kidogo/contracts';
import { Prisma } from '../generated/prisma/client.js';
import { DatabaseService } from '../database/database.service.js';
import { AuditService } from '../audit/audit.service.js';
import { Errors } from '../common/errors.js';
import { offsetPagination } from '../common/pagination.js';
import type { AuthUser } from '../common/tenancy.js';
import { hashPassword } from '../auth/passwords.js';
import { endPasswordResets, revokeRefreshTokens } from '../auth/session.js';
import { USER_SELECT, UsersMapper } from './users.mapper.js';
import { setupDeadline } from '../auth/two-factor.service.js';

type Tx = Prisma.TransactionClient;

export interface NewUser {
  username: string;
  email: string | null;
  password: string;
  organization_id: string;
  role: Role;
}

export interface UserChanges {
  email?: string | null;
  password?: string;
  role?: Role;
  is_active?: boolean;
  organization_id?: string;
}

/**
 * Accounts. The super admin manages every organization's users; owners and
 * admins manage their own organization's (with the rules in OrgUserPolicy).
 * An organization never loses its last active owner through these calls.
 */
@Injectable()
export class UsersService {
  constructor(
    private readonly database: DatabaseService,
    private readonly audit: AuditService,
  ) {}

  private get db() {
    return this.database.platform;
  }

  async list(query: UserListQuery): Promise<UserList> {
    const where: Prisma.UserWhereInput = {
      ...(query.organization_id ? { organization_id: query.organization_id } : {}),
      ...(query.search
        ? {
            OR: [
              { username: { contains: query.search, mode: 'insensitive' } },
              { email: { contains: query.search, mode: 'insensitive' } },
            ],
          }
        : {}),
    };
    const [rows, total] = await Promise.all([
      this.db.user.findMany({ where, select: USER_SELECT, orderBy: [{ created_at: 'desc' }, { id: 'desc' }], skip: query.offset, take: query.limit }),
      this.db.user.count({ where }),
    ]);
    return { data: rows.map(UsersMapper.user), pagination: offsetPagination(total, query.limit, query.offset) };
  }

  /** A user, only if it belongs to `orgId` when one is given (another organization's reads as not found). */
  async findOne(id: number, orgId?: string, tx: Tx = this.db) {
    const user = await tx.user.findUnique({ where: { id }, select: USER_SELECT });
    if (!user || (orgId && user.organization_id !== orgId)) throw Errors.notFound('User');
    return user;
  }

  async create(actor: AuthUser, input: NewUser): Promise<User> {
    return this.db.$transaction(async (tx) => {
      const org = await tx.organization.findUnique({ where: { id: input.organization_id }, select: { id: true, require_two_factor: true } });
      if (!org) throw Errors.notFound('Organization');
      const taken = await tx.user.findUnique({ where: { username: input.username }, select: { id: true } });
      if (taken) throw Errors.conflict(`The username "${input.username}" is already taken`);
      const user = await tx.user.create({
        data: {
          username: input.username,
          email: input.email,
          password_hash: await hashPassword(input.password),
          role: input.role,
          organization_id: input.organization_id,
          // Where two-factor sign-in is required, the new user has TWO_FACTOR_SETUP_DAYS to set it up.
          ...(org.require_two_factor ? { two_factor_setup_until: setupDeadline() } : {}),
        },
        select: USER_SELECT,
      });
      await this.audit.record(
        {
          organizationId: input.organization_id,
          actor,
          action: 'user.created',
          entityType: 'user',
          entityId: user.id,
          description: `User ${user.username} (${user.role}) added by ${actor.username}`,
        },
        tx,
      );
      return UsersMapper.user(user);
    });
  }

  /**
   * Applies changes under a lock on the organization's owners, so two
   * concurrent demotions cannot both pass the last-owner check.
   */
  async update(actor: AuthUser, id: number, changes: UserChanges, orgId?: string, check?: (target: { role: Role; id: number }) => void): Promise<User> {
    return this.db.$transaction(async (tx) => {
      const target = await this.findOne(id, orgId, tx);
      check?.(target);
      if (id === actor.user_id && (changes.is_active === false || (changes.role && changes.role !== target.role) || changes.organization_id)) {
        throw Errors.conflict('You cannot deactivate your own account, change your own role or move yourself to another organization');
      }
      if (changes.organization_id && changes.organization_id !== target.organization_id) {
        const org = await tx.organization.findUnique({ where: { id: changes.organization_id }, select: { id: true } });
        if (!org) throw Errors.notFound('Organization');
      }
      const losesOwner =
        target.role === 'owner' &&
        ((changes.role && changes.role !== 'owner') || changes.is_active === false || (changes.organization_id && changes.organization_id !== target.organization_id));
      if (losesOwner) await this.assertAnotherOwner(tx, target.organization_id, target.id);
      const user = await tx.user.update({
        where: { id },
        data: {
          ...(changes.email !== undefined ? { email: changes.email } : {}),
          ...(changes.password ? { password_hash: await hashPassword(changes.password), password_changed_at: new Date() } : {}),
          ...(changes.role ? { role: changes.role } : {}),
          ...(changes.is_active !== undefined ? { is_active: changes.is_active } : {}),
          ...(changes.organization_id ? { organization_id: changes.organization_id } : {}),
        },
        select: USER_SELECT,
      });
      // A changed password or a deactivation ends the user's sessions.
      if (changes.password || changes.is_active === false || changes.organization_id) {
        await revokeRefreshTokens(tx, id);
      }
      if (changes.password || (changes.email !== undefined && changes.email !== target.email)) await endPasswordResets(tx, id);
      const what = Object.keys(changes).map((k) => (k === 'password' ? 'password' : `${k}`)).join(', ');
      await this.audit.record(
        {
          organizationId: user.organization_id,
          actor,
          action: 'user.updated',
          entityType: 'user',
          entityId: id,
          description: `User ${user.username} updated by ${actor.username} (${what || 'no changes'})`,
          metadata: { fields: Object.keys(changes), role: user.role, is_active: user.is_active },
        },
        tx,
      );
      return UsersMapper.user(user);
    });
  }

  async remove(actor: AuthUser, id: number, orgId?: string, check?: (target: { role: Role; id: number }) => void): Promise<{ message: string }> {
    if (id === actor.user_id) throw Errors.conflict('You cannot delete your own account');
    return this.db.$transaction(async (tx) => {
      const target = await this.findOne(id, orgId, tx);
      check?.(target);
      if (target.role === 'owner') await this.assertAnotherOwner(tx, target.organization_id, target.id);
      await tx.user.delete({ where: { id } });
      await this.audit.record(
        {
          organizationId: target.organization_id,
          actor,
          action: 'user.deleted',
          entityType: 'user',
          entityId: id,
          description: `User ${target.username} (${target.role}) deleted by ${actor.username}`,
        },
        tx,
      );
      return { message: `User ${target.username} deleted` };
    });
  }

  private async assertAnotherOwner(tx: Tx, orgId: string, exceptId: number): Promise<void> {
    const owners = await tx.$queryRaw<{ user_id: number }[]>`
      SELECT user_id FROM users
      WHERE organization_id = ${orgId} AND role = 'owner' AND is_active AND user_id <> ${exceptId}::int
      FOR UPDATE`;
    if (!owners.length) throw Errors.conflict('An organization must keep at least one active owner');
  }
}
