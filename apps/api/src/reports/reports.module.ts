import { Module } from '@nestjs/common';
import { ReportsController } from './reports.controller.js';
import { ReportsService } from './reports.service.js';
import { CommissionsController } from './commissions.controller.js';
import { CommissionsService } from './commissions.service.js';
import { CommissionPayoutsController } from './commission-payouts.controller.js';
import { CommissionPayoutsService } from './commission-payouts.service.js';
import { MetricSnapshots } from '../metrics/metric-snapshots.js';

@Module({
  controllers: [ReportsController, CommissionsController, CommissionPayoutsController],
  providers: [ReportsService, CommissionsService, CommissionPayoutsService, MetricSnapshots],
  exports: [ReportsService],
})
export class ReportsModule {}
