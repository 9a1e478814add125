import { Module } from '@nestjs/common';
import { ExternalController } from './external.controller.js';
import { ExternalService } from './external.service.js';

@Module({ controllers: [ExternalController], providers: [ExternalService] })
export class ExternalModule {}
