import { Module } from '@nestjs/common';
import { SettingsModule } from '../settings/settings.module.js';
import { OutboxService } from './outbox.service.js';

@Module({ imports: [SettingsModule], providers: [OutboxService], exports: [OutboxService] })
export class OutboxModule {}
