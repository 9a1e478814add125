import { Module } from '@nestjs/common';
import { MessagesController } from './messages.controller.js';
import { MessagesService } from './messages.service.js';
import { MetricSnapshots } from '../metrics/metric-snapshots.js';

@Module({ controllers: [MessagesController], providers: [MessagesService, MetricSnapshots] })
export class MessagesModule {}
