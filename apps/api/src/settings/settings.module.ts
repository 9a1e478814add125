import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ApiKeyGuard } from './api-key.guard.js';
import { ApiKeyService } from './api-key.service.js';
import { PhoneCountryController } from './phone-country.controller.js';
import { PhoneCountryService } from './phone-country.service.js';
import { SettingsController } from './settings.controller.js';
import { SmsProviderService } from './sms-provider.service.js';

@Module({
  controllers: [SettingsController, PhoneCountryController],
  providers: [ApiKeyService, SmsProviderService, PhoneCountryService, { provide: APP_GUARD, useClass: ApiKeyGuard }],
  exports: [SmsProviderService],
})
export class SettingsModule {}
