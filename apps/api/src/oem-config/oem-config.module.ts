import { Module } from '@nestjs/common';
import { OemConfigController } from './oem-config.controller.js';
import { OemConfigService } from './oem-config.service.js';

@Module({ controllers: [OemConfigController], providers: [OemConfigService] })
export class OemConfigModule {}
