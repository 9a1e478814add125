import { Controller, Delete, Get, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  ZCreateOrgUserSchema,
  ZMessageReplySchema,
  ZOrgUserListQuerySchema,
  ZUpdateOrgUserSchema,
  ZUserListSchema,
  ZUserSchema,
  type CreateOrgUserInput,
  type Role,
  type UpdateOrgUserInput,
  type UserListQuery,
} from '@kidogo/contracts';
import { Endpoint, ValidBody, ValidParams, ValidQuery, zPathId } from '../common/validation.js';
import { CurrentUser, OrgId, Roles, type AuthUser } from '../common/tenancy.js';
import { Errors } from '../common/errors.js';
import { UsersService } from './users.service.js';

const UserIdParams = zPathId('id');

/**
 * What an owner or admin may do to a user of their own organization: an
 * admin may not create, promote, change or delete owners; nobody but the
 * super admin touches a super admin account.
 */
export function policy(actor: AuthUser, newRole?: Role) {
  if (newRole === 'owner' && actor.role === 'admin') throw Errors.forbidden('Admins cannot create owners or promote users to owner');
  return (target: { role: Role }) => {
    if (target.role === 'super_admin' && actor.role !== 'super_admin') throw Errors.forbidden('Only a super admin can change a super admin account');
    if (target.role === 'owner' && actor.role === 'admin') throw Errors.forbidden("Admins cannot change or delete an owner's account");
  };
}

@ApiTags('users')
@Roles('owner', 'admin', 'super_admin')
@Controller('users')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Get()
  @Endpoint({ summary: "The organization's users", query: ZOrgUserListQuerySchema, response: ZUserListSchema })
  list(@OrgId() orgId: string, @ValidQuery() query: Omit<UserListQuery, 'organization_id'>) {
    return this.users.list({ ...query, organization_id: orgId });
  }

  @Post()
  @Endpoint({
    summary: 'Add a user to the organization',
    body: ZCreateOrgUserSchema,
    response: ZUserSchema,
    status: 201,
    errors: { 403: 'An admin creating an owner', 409: 'Username taken' },
  })
  create(@CurrentUser() actor: AuthUser, @OrgId() orgId: string, @ValidBody() body: CreateOrgUserInput) {
    policy(actor, body.role);
    return this.users.create(actor, { ...body, organization_id: orgId });
  }

  @Put(':id')
  @Endpoint({
    summary: "Change a user's email, password, role or active flag",
    params: UserIdParams,
    body: ZUpdateOrgUserSchema,
    response: ZUserSchema,
    errors: { 404: 'User not found in this organization', 409: 'Would leave the organization without an owner' },
  })
  update(@CurrentUser() actor: AuthUser, @OrgId() orgId: string, @ValidParams() params: { id: number }, @ValidBody() body: UpdateOrgUserInput) {
    return this.users.update(actor, params.id, body, orgId, policy(actor, body.role));
  }

  @Delete(':id')
  @Endpoint({
    summary: 'Delete a user of the organization',
    params: UserIdParams,
    response: ZMessageReplySchema,
    errors: { 404: 'User not found in this organization', 409: 'Yourself, or the last owner' },
  })
  remove(@CurrentUser() actor: AuthUser, @OrgId() orgId: string, @ValidParams() params: { id: number }) {
    return this.users.remove(actor, params.id, orgId, policy(actor));
  }
}
