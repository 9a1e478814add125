import { Module } from '@nestjs/common';
import { TemplatesController } from './templates.controller.js';
import { TemplatesService } from './templates.service.js';
import { MetricSnapshots } from '../metrics/metric-snapshots.js';

@Module({ controllers: [TemplatesController], providers: [TemplatesService, MetricSnapshots], exports: [TemplatesService] })
export class TemplatesModule {}
