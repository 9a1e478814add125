import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  ZCustomerMetricsSchema,
  ZDateRangeQuerySchema,
  ZItemMetricsSchema,
  ZMetricsSummarySchema,
  ZPaymentMetricsQuerySchema,
  ZPaymentMetricsSchema,
  ZPerformanceMetricsSchema,
  ZRevenueQuerySchema,
  ZRevenueSeriesSchema,
  ZUsageMetricsSchema,
  type DateRangeQuery,
  type PaymentMetricsQuery,
  type RevenueQuery,
} from '@kidogo/contracts';
import { Endpoint, ValidQuery } from '../common/validation.js';
import { OrgId } from '../common/tenancy.js';
import { MetricsService } from './metrics.service.js';

@ApiTags('metrics')
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Get('summary')
  @Endpoint({ summary: 'Revenue, average transaction, count and success rate of payments in the period', query: ZDateRangeQuerySchema, response: ZMetricsSummarySchema })
  summary(@OrgId() orgId: string, @ValidQuery() query: DateRangeQuery) {
    return this.metrics.summarize(orgId, query);
  }

  @Get('customers')
  @Endpoint({ summary: 'Customer counts by status, new this week and the 3 newest', response: ZCustomerMetricsSchema })
  customers(@OrgId() orgId: string) {
    return this.metrics.summarizeCustomers(orgId);
  }

  @Get('payments')
  @Endpoint({ summary: 'Payment counts by status, revenue and the newest payments', query: ZPaymentMetricsQuerySchema, response: ZPaymentMetricsSchema })
  payments(@OrgId() orgId: string, @ValidQuery() query: PaymentMetricsQuery) {
    return this.metrics.summarizePayments(orgId, query);
  }

  @Get('items')
  @Endpoint({ summary: 'Device counts by assignment and status, and the top 10 products', response: ZItemMetricsSchema })
  items(@OrgId() orgId: string) {
    return this.metrics.summarizeItems(orgId);
  }

  @Get('revenue')
  @Endpoint({
    summary: 'Revenue per day, week or month over a range, zero-filled (default: the last 30 days by day)',
    query: ZRevenueQuerySchema,
    response: ZRevenueSeriesSchema,
    errors: { 400: 'Bad dates, or more than 1100 points' },
  })
  revenue(@OrgId() orgId: string, @ValidQuery() query: RevenueQuery) {
    return this.metrics.seriesRevenue(orgId, query);
  }

  @Get('usage')
  @Endpoint({ summary: 'Tokens by type and days generated in the period, active and expired devices, the 3 newest tokens', query: ZDateRangeQuerySchema, response: ZUsageMetricsSchema })
  usage(@OrgId() orgId: string, @ValidQuery() query: DateRangeQuery) {
    return this.metrics.summarizeUsage(orgId, query);
  }

  @Get('performance')
  @Endpoint({ summary: 'Collection rate, days between payments, paid-off devices and portfolio at risk', response: ZPerformanceMetricsSchema })
  performance(@OrgId() orgId: string) {
    return this.metrics.summarizePerformance(orgId);
  }
}
