import { Module } from '@nestjs/common';
import { MetricSnapshots } from '../metrics/metric-snapshots.js';
import { CollectionsController } from './collections.controller.js';
import { CollectionsService } from './collections.service.js';

@Module({ controllers: [CollectionsController], providers: [CollectionsService, MetricSnapshots] })
export class CollectionsModule {}
