import { Module } from '@nestjs/common';
import { MetricSnapshots } from '../metrics/metric-snapshots.js';
import { CollectionsController } from './collections.controller.js';
import { CollectionsService } from './collections.service.js';
import { BandSmsService } from './band-sms.service.js';
import { SettingsModule } from '../settings/settings.module.js';

@Module({ imports: [SettingsModule], controllers: [CollectionsController], providers: [CollectionsService, BandSmsService, MetricSnapshots] })
export class CollectionsModule {}
