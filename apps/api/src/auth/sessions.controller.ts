import { Controller, Delete, Get, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ZSessionListSchema, ZSignOutReplySchema } from '@kidogo/contracts';
import { z } from 'zod';
import { Endpoint, ValidParams, zPathId } from '../common/validation.js';
import { CurrentUser, OrgId, Roles, type AuthUser } from '../common/tenancy.js';
import { policy } from '../users/users.controller.js';
import { SessionsService } from './sessions.service.js';

const SessionParams = z.object({ session_id: z.uuid({ error: 'must be a session id from GET /auth/sessions' }) });
const UserIdParams = zPathId('id');
const AT_ONCE = 'The access tokens that device holds are refused from its next request (401 "Your session is no longer valid").';

/** Where each user is signed in, and signing out of it (README "Signed-in devices"). */
@ApiTags('auth')
@Controller()
export class SessionsController {
  constructor(private readonly sessions: SessionsService) {}

  @Get('auth/sessions')
  @Endpoint({
    summary: 'Where you are signed in: each sign-in still able to renew its access token, most recently active first',
    description: 'current is the session of this request (none for an API token). At most 100.',
    response: ZSessionListSchema,
  })
  list(@CurrentUser() user: AuthUser) {
    return this.sessions.list(user);
  }

  @Delete('auth/sessions/:session_id')
  @Endpoint({
    summary: 'Sign out of one of your sessions (a device you no longer use or do not recognise)',
    description: `Its refresh token is revoked. ${AT_ONCE} Audited.`,
    params: SessionParams,
    response: ZSignOutReplySchema,
    errors: { 400: 'session_id is not a session id', 404: 'No live session of yours with that id' },
  })
  end(@CurrentUser() user: AuthUser, @ValidParams() p: { session_id: string }) {
    return this.sessions.end(user, p.session_id);
  }

  @Post('auth/sessions/sign-out-others')
  @Endpoint({
    summary: 'Sign out of every session but this one',
    description: `Their refresh tokens are revoked. ${AT_ONCE.replace('that device holds', 'those devices hold').replace('its next', 'their next')} Audited.`,
    response: ZSignOutReplySchema,
  })
  endOthers(@CurrentUser() user: AuthUser) {
    return this.sessions.endOthers(user);
  }

  @Post('auth/sessions/sign-out-everywhere')
  @Endpoint({
    summary: 'Sign out of every session, this one included, at once',
    description:
      'Every refresh token is revoked and every access token issued before now is refused from the next request (a lost or stolen ' +
      'device). API tokens go on working: revoke them in Settings → API Tokens. Audited.',
    response: ZSignOutReplySchema,
  })
  endEverywhere(@CurrentUser() user: AuthUser) {
    return this.sessions.endEverywhere(user);
  }

  @Post('users/:id/sign-out')
  @Roles('owner', 'admin', 'super_admin')
  @Endpoint({
    summary: "Sign a user of your organization out everywhere, at once (their phone was lost or stolen)",
    description: 'As POST /auth/sessions/sign-out-everywhere, for them; their API tokens go on working. Audited.',
    params: UserIdParams,
    response: ZSignOutReplySchema,
    errors: { 403: "An admin signing out an owner", 404: 'User not found in this organization', 409: 'Yourself (use POST /auth/sessions/sign-out-everywhere)' },
  })
  endForUser(@CurrentUser() actor: AuthUser, @OrgId() orgId: string, @ValidParams() p: { id: number }) {
    return this.sessions.endForUser(actor, orgId, p.id, policy(actor));
  }
}
