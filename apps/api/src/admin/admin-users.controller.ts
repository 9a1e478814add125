import { Controller, Delete, Get, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  ZAdminCreateUserSchema,
  ZAdminUpdateUserSchema,
  ZCreateSuperAdminSchema,
  ZMessageReplySchema,
  ZUserListQuerySchema,
  ZUserListSchema,
  ZUserSchema,
  type AdminCreateUserInput,
  type AdminUpdateUserInput,
  type CreateSuperAdminInput,
  type UserListQuery,
} from '@kidogo/contracts';
import { Endpoint, ValidBody, ValidParams, ValidQuery, zPathId } from '../common/validation.js';
import { CurrentUser, Roles, type AuthUser } from '../common/tenancy.js';
import { UsersService } from '../users/users.service.js';

const UserIdParams = zPathId('id');

@ApiTags('admin')
@Roles('super_admin')
@Controller('admin')
export class AdminUsersController {
  constructor(private readonly users: UsersService) {}

  @Get('users')
  @Endpoint({ summary: 'Users of every organization', query: ZUserListQuerySchema, response: ZUserListSchema })
  list(@ValidQuery() query: UserListQuery) {
    return this.users.list(query);
  }

  @Post('users')
  @Endpoint({ summary: 'Create a user in any organization', body: ZAdminCreateUserSchema, response: ZUserSchema, status: 201, errors: { 404: 'Organization not found', 409: 'Username taken' } })
  create(@CurrentUser() actor: AuthUser, @ValidBody() body: AdminCreateUserInput) {
    return this.users.create(actor, body);
  }

  @Put('users/:id')
  @Endpoint({ summary: "Change a user's email, password, role, active flag or organization", params: UserIdParams, body: ZAdminUpdateUserSchema, response: ZUserSchema, errors: { 409: 'It would leave an organization without an active owner' } })
  update(@CurrentUser() actor: AuthUser, @ValidParams() params: { id: number }, @ValidBody() body: AdminUpdateUserInput) {
    return this.users.update(actor, params.id, body);
  }

  @Delete('users/:id')
  @Endpoint({ summary: 'Delete a user', params: UserIdParams, response: ZMessageReplySchema, errors: { 409: 'Yourself, or an organization’s last owner' } })
  remove(@CurrentUser() actor: AuthUser, @ValidParams() params: { id: number }) {
    return this.users.remove(actor, params.id);
  }

  @Post('create-super-admin')
  @Endpoint({ summary: 'Create another super admin', body: ZCreateSuperAdminSchema, response: ZUserSchema, status: 201, errors: { 404: 'Organization not found', 409: 'Username taken' } })
  createSuperAdmin(@CurrentUser() actor: AuthUser, @ValidBody() body: CreateSuperAdminInput) {
    return this.users.create(actor, { ...body, role: 'super_admin' });
  }
}
