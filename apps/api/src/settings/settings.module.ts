import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ApiKeyGuard } from './api-key.guard.js';
import { ApiKeyService } from './api-key.service.js';
import { SettingsController } from './settings.controller.js';
import { SmsProviderService } from './sms-provider.service.js';

@Module({
  controllers: [SettingsController],
  providers: [ApiKeyService, SmsProviderService, { provide: APP_GUARD, useClass: ApiKeyGuard }],
  exports: [SmsProviderService],
})
export class SettingsModule {}
