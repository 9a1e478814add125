import { Global, Module } from '@nestjs/common';
import { DatabaseService } from './database.service.js';
import { BusinessDayService } from './business-day.js';

@Global()
@Module({ providers: [DatabaseService, BusinessDayService], exports: [DatabaseService] })
export class DatabaseModule {}
