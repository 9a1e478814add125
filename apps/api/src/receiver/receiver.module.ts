import { Module } from '@nestjs/common';
import { PaymentsModule } from '../payments/payments.module.js';
import { ReceiverController } from './receiver.controller.js';
import { ReceiverService } from './receiver.service.js';

@Module({ imports: [PaymentsModule], controllers: [ReceiverController], providers: [ReceiverService], exports: [ReceiverService] })
export class ReceiverModule {}
