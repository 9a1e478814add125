import { Controller, Post, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ZReportRequestSchema, ZReportSchema, type ReportRequest } from '@kidogo/contracts';
import { Endpoint, ValidBody } from '../common/validation.js';
import { OrgId, Reads } from '../common/tenancy.js';
import { streamReply, type HttpReply } from '../common/http.js';
import { isoDayOf } from '../metrics/period.js';
import { Calendar } from '../common/calendar.js';
import { ReportsService } from './reports.service.js';
import { primed, writeCsv, writeJson, writePdf } from './report-writers.js';

@ApiTags('reports')
@Controller('reports')
export class ReportsController {
  constructor(
    private readonly reports: ReportsService,
    private readonly calendar: Calendar,
  ) {}

  @Post('page')
  @Reads()
  @Endpoint({
    summary:
      'A report (revenue, customers, tokens, repossessions, agents, tickets, the portfolio by month of sale, documents, M-Pesa Express requests, device swaps or discounts) as JSON, or as a CSV or PDF download',
    description:
      'csv and pdf answer an attachment named {report}-report-YYYY-MM-DD.{csv,pdf}. Every format streams. With limit (json only), rows are one page from offset and totals cover the whole report. ' +
      'With agent (portfolio only), the accounts of one sales agent\'s customers; with standing (customers only), the customers of those repayment standings (paid_off and on_track: the customers to offer a second product to).',
    body: ZReportRequestSchema,
    response: ZReportSchema,
    produces: 'application/json, text/csv, application/pdf',
  })
  async page(@OrgId() orgId: string, @ValidBody() body: ReportRequest, @Res() reply: HttpReply): Promise<void> {
    const report = await primed(body.limit !== undefined ? await this.reports.page(orgId, { ...body, limit: body.limit }) : this.reports.open(orgId, body));
    const filename = `${body.report}-report-${isoDayOf(this.calendar.today())}.${body.format}`;
    if (body.format === 'csv') return writeCsv(streamReply(reply, 'text/csv; charset=utf-8', filename), report);
    if (body.format === 'pdf') return writePdf(streamReply(reply, 'application/pdf', filename), report);
    return writeJson(streamReply(reply, 'application/json; charset=utf-8'), report);
  }
}
