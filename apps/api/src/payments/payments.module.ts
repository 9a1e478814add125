import { Module } from '@nestjs/common';
import { TokensModule } from '../tokens/tokens.module.js';
import { PaymentPipeline } from './payment-pipeline.service.js';
import { PaymentsController } from './payments.controller.js';
import { PaymentsService } from './payments.service.js';
import { StatementImportService } from './statement-import.service.js';

@Module({
  imports: [TokensModule],
  controllers: [PaymentsController],
  providers: [PaymentPipeline, PaymentsService, StatementImportService],
  exports: [PaymentPipeline],
})
export class PaymentsModule {}
