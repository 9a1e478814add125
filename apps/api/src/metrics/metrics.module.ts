import { Module } from '@nestjs/common';
import { DashboardWarmer } from './dashboard-warmer.js';
import { MetricsController } from './metrics.controller.js';
import { MetricsService } from './metrics.service.js';
import { MetricSnapshots } from './metric-snapshots.js';

@Module({ controllers: [MetricsController], providers: [MetricsService, MetricSnapshots, DashboardWarmer] })
export class MetricsModule {}
