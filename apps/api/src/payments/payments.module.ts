import { Module } from '@nestjs/common';
import { MulterModule } from '@nestjs/platform-express';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { TokensModule } from '../tokens/tokens.module.js';
import { PaymentPipeline } from './payment-pipeline.service.js';
import { PaymentsController } from './payments.controller.js';
import { PaymentsService } from './payments.service.js';
import { StatementImportService } from './statement-import.service.js';

@Module({
  imports: [
    TokensModule,
    MulterModule.registerAsync({
      inject: [APP_CONFIG],
      useFactory: (c: AppConfig) => ({ limits: { fileSize: c.maxUploadBytes, files: 1 } }),
    }),
  ],
  controllers: [PaymentsController],
  providers: [PaymentPipeline, PaymentsService, StatementImportService],
  exports: [PaymentPipeline],
})
export class PaymentsModule {}
