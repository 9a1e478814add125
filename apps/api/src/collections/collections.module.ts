import { Module } from '@nestjs/common';
import { MetricSnapshots } from '../metrics/metric-snapshots.js';
import { CollectionsController } from './collections.controller.js';
import { CollectionsService } from './collections.service.js';
import { BandSmsService } from './band-sms.service.js';
import { PromiseNoticesService } from './promise-notices.service.js';
import { SettingsModule } from '../settings/settings.module.js';

@Module({ imports: [SettingsModule], controllers: [CollectionsController], providers: [CollectionsService, BandSmsService, PromiseNoticesService, MetricSnapshots] })
export class CollectionsModule {}
