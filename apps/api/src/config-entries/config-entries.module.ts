import { Module } from '@nestjs/common';
import { AdminModule } from '../admin/admin.module.js';
import { ConfigEntriesController } from './config-entries.controller.js';
import { ConfigEntriesService } from './config-entries.service.js';

@Module({ imports: [AdminModule], controllers: [ConfigEntriesController], providers: [ConfigEntriesService] })
export class ConfigEntriesModule {}
