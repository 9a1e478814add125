import { Module } from '@nestjs/common';
import { ActivityController } from './activity.controller.js';
import { ActivityService } from './activity.service.js';
import { StatementService } from './statement.service.js';

@Module({ controllers: [ActivityController], providers: [ActivityService, StatementService] })
export class ActivityModule {}
