import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { JwtModule } from '@nestjs/jwt';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { AuthController } from './auth.controller.js';
import { AuthService } from './auth.service.js';
import { AccessGuard, JwtAuthGuard } from './guards.js';
import { AccessTokens } from './access-token.js';
import { LoginThrottleService } from './login-throttle.service.js';
import { ApiTokensService } from './api-tokens.service.js';
import { TwoFactorService } from './two-factor.service.js';
import { TwoFactorController } from './two-factor.controller.js';
import { SecuritySettingsController } from './security-settings.controller.js';
import { SessionsController } from './sessions.controller.js';
import { SessionsService } from './sessions.service.js';
import { PasswordResetService } from './password-reset.service.js';
import { MailModule } from '../mail/mail.module.js';

@Module({
  imports: [
    MailModule,
    JwtModule.registerAsync({
      inject: [APP_CONFIG],
      useFactory: (c: AppConfig) => ({ secret: c.jwtSecret, signOptions: { algorithm: 'HS256' } }),
    }),
  ],
  controllers: [AuthController, TwoFactorController, SecuritySettingsController, SessionsController],
  providers: [
    AuthService,
    TwoFactorService,
    SessionsService,
    PasswordResetService,
    AccessTokens,
    ApiTokensService,
    LoginThrottleService,
    // Order matters: authenticate, then organization status and roles.
    { provide: APP_GUARD, useClass: JwtAuthGuard },
    { provide: APP_GUARD, useClass: AccessGuard },
  ],
  exports: [AuthService],
})
export class AuthModule {}
