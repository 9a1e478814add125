import { Module } from '@nestjs/common';
import { ReportsController } from './reports.controller.js';
import { ReportsService } from './reports.service.js';
import { MetricSnapshots } from '../metrics/metric-snapshots.js';

@Module({ controllers: [ReportsController], providers: [ReportsService, MetricSnapshots], exports: [ReportsService] })
export class ReportsModule {}
