import { Module } from '@nestjs/common';
import { MessagesController } from './messages.controller.js';
import { MessagesService } from './messages.service.js';
import { MetricSnapshots } from '../metrics/metric-snapshots.js';
import { SettingsModule } from '../settings/settings.module.js';
import { CustomerSmsService } from './customer-sms.service.js';

@Module({ imports: [SettingsModule], controllers: [MessagesController], providers: [MessagesService, MetricSnapshots, CustomerSmsService] })
export class MessagesModule {}
