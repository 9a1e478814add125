import { Module } from '@nestjs/common';
import { ActivityController } from './activity.controller.js';
import { ActivityService } from './activity.service.js';
import { StatementService } from './statement.service.js';
import { AgreementService } from './agreement.service.js';
import { AgreementSettingsController } from './agreement-settings.controller.js';

@Module({ controllers: [ActivityController, AgreementSettingsController], providers: [ActivityService, StatementService, AgreementService], exports: [StatementService] })
export class ActivityModule {}
