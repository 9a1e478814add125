import { Controller, Delete, Get, Post, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { HttpRequest } from '../common/http.js';
import {
  API_TOKEN_DEFAULT_DAYS,
  API_TOKEN_MAX_DAYS,
  ZApiTokenCreatedSchema,
  ZApiTokenCreateSchema,
  ZApiTokenListReplySchema,
  ZAuthReplySchema,
  ZChangePasswordSchema,
  ZLoginReplySchema,
  ZLoginSchema,
  ZMessageReplySchema,
  ZPasswordResetAvailabilitySchema,
  ZPasswordResetConfirmSchema,
  ZPasswordResetRequestSchema,
  ZRefreshSchema,
  ZSessionUserSchema,
  type ChangePasswordInput,
  type LoginInput,
  type PasswordResetConfirmInput,
  type PasswordResetRequestInput,
  PASSWORD_RESET_MINUTES,
  type RefreshInput,
} from '@kidogo/contracts';
import { Endpoint, ValidBody, ValidParams, zPathId } from '../common/validation.js';
import type { z } from 'zod';
import { CurrentUser, OpenWithoutTwoFactor, Public, type AuthUser } from '../common/tenancy.js';
import { AuthService, type SignInClient } from './auth.service.js';
import { ApiTokensService, MAX_API_TOKENS_PER_USER } from './api-tokens.service.js';
import { MAX_RESET_REQUESTS_PER_ADDRESS, MAX_RESETS_PER_USER_HOUR, PasswordResetService } from './password-reset.service.js';

const TokenParams = zPathId('id');

export const clientIp = (req: HttpRequest) => req.ip ?? req.socket.remoteAddress ?? 'unknown';

/** The address and browser of a sign-in or refresh, kept with its session. */
export const clientOf = (req: HttpRequest): SignInClient => {
  const agent = req.headers['user-agent'];
  return { ip: clientIp(req), userAgent: typeof agent === 'string' && agent.trim() ? agent.trim().slice(0, 300) : null };
};

@ApiTags('auth')
@Controller()
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly apiTokens: ApiTokensService,
    private readonly passwordReset: PasswordResetService,
  ) {}

  @Post('authenticate')
  @Public()
  @Endpoint({
    summary: 'Sign in with username and password (form-encoded or JSON)',
    description:
      'Answers the session; for a user with two-factor sign-in on, a challenge instead ({two_factor_required: true, challenge_token}), ' +
      'which POST /authenticate/2fa exchanges with a code for the session.',
    body: ZLoginSchema,
    formEncoded: true,
    response: ZLoginReplySchema,
    errors: { 400: 'Blank username or password', 401: 'Invalid username or password', 429: 'Too many failed attempts' },
  })
  login(@ValidBody() body: LoginInput, @Req() req: HttpRequest) {
    return this.auth.login(body, clientOf(req));
  }

  @Post('refresh')
  @Public()
  @Endpoint({ summary: 'Exchange a refresh token for a new access token (rotates the refresh token)', body: ZRefreshSchema, response: ZAuthReplySchema })
  refresh(@ValidBody() body: RefreshInput, @Req() req: HttpRequest) {
    return this.auth.refresh(body.refresh_token, clientOf(req));
  }

  @Post('logout')
  @Public()
  @Endpoint({ summary: 'Sign out: revokes the refresh token', body: ZRefreshSchema, response: ZMessageReplySchema })
  async logout(@ValidBody() body: RefreshInput) {
    await this.auth.logout(body.refresh_token);
    return { message: 'Signed out' };
  }

  @Get('auth/password-reset')
  @Public()
  @Endpoint({
    summary: 'Whether a forgotten password can be reset by email here (SMTP_URL and PUBLIC_URL are set)',
    response: ZPasswordResetAvailabilitySchema,
  })
  passwordResetAvailability() {
    return { available: this.passwordReset.available };
  }

  @Post('auth/password-reset')
  @Public()
  @Endpoint({
    summary: 'Forgot password: email a link to choose a new one to the account with this username or email address',
    description:
      `Each active account the login names (its username, or its email address in any case) that has an email address is sent a link to ` +
      `PUBLIC_URL/reset-password?token=..., which works once, for ${PASSWORD_RESET_MINUTES} minutes. The reply is the same whether an account ` +
      `matched or not. At most ${MAX_RESETS_PER_USER_HOUR} links an account an hour (more requests send nothing) and ` +
      `${MAX_RESET_REQUESTS_PER_ADDRESS} requests an address in 15 minutes.`,
    body: ZPasswordResetRequestSchema,
    response: ZMessageReplySchema,
    status: 202,
    errors: { 400: 'Blank login', 409: 'Email is not set up on this installation', 429: 'Too many requests from this address' },
  })
  requestPasswordReset(@ValidBody() body: PasswordResetRequestInput, @Req() req: HttpRequest) {
    return this.passwordReset.request(body.login, clientIp(req));
  }

  @Post('auth/password-reset/confirm')
  @Public()
  @Endpoint({
    summary: 'Choose a new password with the token of an emailed link; signs the account out everywhere',
    description:
      'The new password follows the rules of a new user\'s. The link then stops working, with every other link of the account; every session ' +
      'of the user ends and the sign-in lockout is lifted. Two-factor sign-in, if on, stays on. Audited as user.password_reset.',
    body: ZPasswordResetConfirmSchema,
    response: ZMessageReplySchema,
    errors: { 400: 'The link has expired, was used, or the password changed since; new_password breaks the password rules' },
  })
  confirmPasswordReset(@ValidBody() body: PasswordResetConfirmInput, @Req() req: HttpRequest) {
    return this.passwordReset.confirm(body, clientIp(req));
  }

  @Post('auth/change-password')
  @OpenWithoutTwoFactor()
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
    return this.auth.changePassword(user, body, clientOf(req));
  }

  @Get('auth/api-tokens')
  @Endpoint({
    summary: 'API tokens: your own; an owner or admin sees every token of the organization',
    description: 'Revoked tokens are not listed; expired ones are, marked expired, until revoked.',
    response: ZApiTokenListReplySchema,
  })
  listApiTokens(@CurrentUser() user: AuthUser) {
    return this.apiTokens.list(user);
  }

  @Post('auth/api-tokens')
  @Endpoint({
    summary: 'Make an API token for an integration: it acts as you, with your role; the reply carries it, shown this once',
    description:
      `Send it as Authorization: Bearer kdg_pat_... on any call you may make. It lasts expires_in_days (1 to ${API_TOKEN_MAX_DAYS}, default ` +
      `${API_TOKEN_DEFAULT_DAYS}; null: until revoked), and stops working when revoked, when you are deactivated or moved, or when your ` +
      `password is reset. At most ${MAX_API_TOKENS_PER_USER} active tokens a user. Made only from a signed-in session, not with another token. Audited.`,
    body: ZApiTokenCreateSchema,
    response: ZApiTokenCreatedSchema,
    status: 201,
    errors: { 400: 'A bad name or expires_in_days, named', 403: 'Called with an API token', 409: `Already ${MAX_API_TOKENS_PER_USER} active tokens` },
  })
  createApiToken(@CurrentUser() user: AuthUser, @ValidBody() body: z.output<typeof ZApiTokenCreateSchema>) {
    return this.apiTokens.create(user, body);
  }

  @Delete('auth/api-tokens/:id')
  @Endpoint({
    summary: 'Revoke an API token: yours, or as an owner or admin any of the organization; it stops working at once',
    params: TokenParams,
    response: ZMessageReplySchema,
    errors: { 404: 'No such active token that you may revoke' },
  })
  revokeApiToken(@CurrentUser() user: AuthUser, @ValidParams() params: { id: number }) {
    return this.apiTokens.revoke(user, params.id);
  }

  @Get('me')
  @OpenWithoutTwoFactor()
  @Endpoint({ summary: 'The signed-in user', response: ZSessionUserSchema })
  me(@CurrentUser() user: AuthUser) {
    return this.auth.me(user.user_id);
  }
}
