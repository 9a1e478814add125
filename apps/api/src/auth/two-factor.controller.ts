import { Controller, Get, Post, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  TWO_FACTOR_SETUP_DAYS,
  ZAuthReplySchema,
  ZMessageReplySchema,
  ZRecoveryCodesReplySchema,
  ZTwoFactorEnableSchema,
  ZTwoFactorLoginSchema,
  ZTwoFactorPasswordSchema,
  ZTwoFactorSetupReplySchema,
  ZTwoFactorStatusSchema,
  type TwoFactorLoginInput,
  type TwoFactorPasswordInput,
} from '@kidogo/contracts';
import type { z } from 'zod';
import type { HttpRequest } from '../common/http.js';
import { Endpoint, ValidBody, ValidParams, zPathId } from '../common/validation.js';
import { CurrentUser, OpenWithoutTwoFactor, OrgId, Public, Roles, type AuthUser } from '../common/tenancy.js';
import { policy } from '../users/users.controller.js';
import { AuthService } from './auth.service.js';
import { clientOf } from './auth.controller.js';
import { TwoFactorService } from './two-factor.service.js';

const UserIdParams = zPathId('id');

/** Two-factor sign-in: the second sign-in step, each user's own setup, and a manager's reset (README "Two-factor sign-in"). */
@ApiTags('auth')
@Controller()
export class TwoFactorController {
  constructor(
    private readonly auth: AuthService,
    private readonly twoFactor: TwoFactorService,
  ) {}

  @Post('authenticate/2fa')
  @Public()
  @Endpoint({
    summary: 'The second sign-in step: the challenge of POST /authenticate and a code from the authenticator app (or a recovery code)',
    description: 'A code works once. Wrong codes count towards the same lockout as wrong passwords.',
    body: ZTwoFactorLoginSchema,
    response: ZAuthReplySchema,
    errors: {
      400: 'A blank field (named)',
      401: 'Invalid code (ask for the code again); or code TWO_FACTOR_CHALLENGE_EXPIRED: the challenge is over 5 minutes old or no longer valid (ask for the password again)',
      429: 'Too many failed attempts',
    },
  })
  login(@ValidBody() body: TwoFactorLoginInput, @Req() req: HttpRequest) {
    return this.auth.loginWithCode(body, clientOf(req));
  }

  @Get('auth/2fa')
  @OpenWithoutTwoFactor()
  @Endpoint({ summary: 'Your own two-factor sign-in: on or off, and the recovery codes left', response: ZTwoFactorStatusSchema })
  status(@CurrentUser() user: AuthUser) {
    return this.twoFactor.status(user);
  }

  @Post('auth/2fa/setup')
  @OpenWithoutTwoFactor()
  @Endpoint({
    summary: 'Start setting up two-factor sign-in: a new secret for your authenticator app (your password again)',
    description: 'Nothing changes at sign-in until POST /auth/2fa/enable takes the first code the app shows.',
    body: ZTwoFactorPasswordSchema,
    response: ZTwoFactorSetupReplySchema,
    errors: {
      400: 'password is incorrect',
      403: `The organization requires it and the user's ${TWO_FACTOR_SETUP_DAYS} days to set it up with the password alone have passed`,
      409: 'Two-factor sign-in is already on',
    },
  })
  setup(@CurrentUser() user: AuthUser, @ValidBody() body: TwoFactorPasswordInput) {
    return this.twoFactor.setup(user, body.password);
  }

  @Post('auth/2fa/enable')
  @OpenWithoutTwoFactor()
  @Endpoint({
    summary: 'Turn on two-factor sign-in with the first code of your authenticator app; answers ten recovery codes, shown once',
    body: ZTwoFactorEnableSchema,
    response: ZRecoveryCodesReplySchema,
    errors: {
      400: 'code is not the current one',
      403: `The organization requires it and the user's ${TWO_FACTOR_SETUP_DAYS} days to set it up with the password alone have passed`,
      409: 'Not set up, or already on',
    },
  })
  enable(@CurrentUser() user: AuthUser, @ValidBody() body: z.output<typeof ZTwoFactorEnableSchema>) {
    return this.twoFactor.enable(user, body.code);
  }

  @Post('auth/2fa/disable')
  @Endpoint({
    summary: 'Turn off your two-factor sign-in (your password again)',
    body: ZTwoFactorPasswordSchema,
    response: ZMessageReplySchema,
    errors: { 400: 'password is incorrect', 409: 'Your organization requires it' },
  })
  disable(@CurrentUser() user: AuthUser, @ValidBody() body: TwoFactorPasswordInput) {
    return this.twoFactor.disable(user, body.password);
  }

  @Post('auth/2fa/recovery-codes')
  @Endpoint({
    summary: 'Ten new recovery codes (your password again); the old ones stop working',
    body: ZTwoFactorPasswordSchema,
    response: ZRecoveryCodesReplySchema,
    errors: { 400: 'password is incorrect', 409: 'Two-factor sign-in is off' },
  })
  recoveryCodes(@CurrentUser() user: AuthUser, @ValidBody() body: TwoFactorPasswordInput) {
    return this.twoFactor.newRecoveryCodes(user, body.password);
  }

  @Post('users/:id/2fa/reset')
  @Roles('owner', 'admin', 'super_admin')
  @Endpoint({
    summary: "Turn off a user's two-factor sign-in (they lost their phone and their recovery codes); signs them out",
    description:
      `Where the organization requires two-factor sign-in, the user then has ${TWO_FACTOR_SETUP_DAYS} days to set it up again with their ` +
      'password; for a user who never set it up and whose days have passed, this gives them another ' +
      `${TWO_FACTOR_SETUP_DAYS} days (nothing to sign out). Audited (user.2fa_reset).`,
    params: UserIdParams,
    response: ZMessageReplySchema,
    errors: {
      403: "An admin resetting an owner's",
      404: 'User not found in this organization',
      409: 'The user does not use two-factor sign-in, and the organization does not require it',
    },
  })
  reset(@CurrentUser() actor: AuthUser, @OrgId() orgId: string, @ValidParams() p: { id: number }) {
    return this.twoFactor.reset(actor, orgId, p.id, policy(actor));
  }
}
