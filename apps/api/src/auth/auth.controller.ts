import { Controller, Get, Post, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { HttpRequest } from '../common/http.js';
import {
  ZAuthReplySchema,
  ZChangePasswordSchema,
  ZLoginSchema,
  ZMessageReplySchema,
  ZRefreshSchema,
  ZSessionUserSchema,
  type ChangePasswordInput,
  type LoginInput,
  type RefreshInput,
} from '@kidogo/contracts';
import { Endpoint, ValidBody } from '../common/validation.js';
import { CurrentUser, Public, type AuthUser } from '../common/tenancy.js';
import { AuthService } from './auth.service.js';

export const clientIp = (req: HttpRequest) => req.ip ?? req.socket.remoteAddress ?? 'unknown';

@ApiTags('auth')
@Controller()
export class AuthController {
  constructor(private readonly auth: AuthService) {}

  @Post('authenticate')
  @Public()
  @Endpoint({
    summary: 'Sign in with username and password (form-encoded or JSON)',
    body: ZLoginSchema,
    formEncoded: true,
    response: ZAuthReplySchema,
    errors: { 400: 'Blank username or password', 401: 'Invalid username or password', 429: 'Too many failed attempts' },
  })
  login(@ValidBody() body: LoginInput, @Req() req: HttpRequest) {
    return this.auth.login(body, clientIp(req));
  }

  @Post('refresh')
  @Public()
  @Endpoint({ summary: 'Exchange a refresh token for a new access token (rotates the refresh token)', body: ZRefreshSchema, response: ZAuthReplySchema })
  refresh(@ValidBody() body: RefreshInput) {
    return this.auth.refresh(body.refresh_token);
  }

  @Post('logout')
  @Public()
  @Endpoint({ summary: 'Sign out: revokes the refresh token', body: ZRefreshSchema, response: ZMessageReplySchema })
  async logout(@ValidBody() body: RefreshInput) {
    await this.auth.logout(body.refresh_token);
    return { message: 'Signed out' };
  }

  @Post('auth/change-password')
  @Endpoint({
    summary: 'Change your own password (any role); answers a fresh session and signs out every other one',
    description:
      'The new password follows the rules of a new user\'s. Every refresh token of the user is revoked; the reply carries a new one, ' +
      'the same shape as POST /authenticate, so the caller stays signed in.',
    body: ZChangePasswordSchema,
    response: ZAuthReplySchema,
    errors: { 400: 'current_password is incorrect; new_password breaks the password rules or equals the current one' },
  })
  changePassword(@CurrentUser() user: AuthUser, @ValidBody() body: ChangePasswordInput, @Req() req: HttpRequest) {
    return this.auth.changePassword(user, body, clientIp(req));
  }

  @Get('me')
  @Endpoint({ summary: 'The signed-in user', response: ZSessionUserSchema })
  me(@CurrentUser() user: AuthUser) {
    return this.auth.me(user.user_id);
  }
}
