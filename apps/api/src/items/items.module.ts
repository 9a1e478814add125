import { Module } from '@nestjs/common';
import { CatalogModule } from '../catalog/catalog.module.js';
import { ItemsController } from './items.controller.js';
import { ItemsCsvService } from './items-csv.service.js';
import { ItemsService } from './items.service.js';

@Module({
  imports: [CatalogModule],
  controllers: [ItemsController],
  providers: [ItemsService, ItemsCsvService],
  exports: [ItemsService],
})
export class ItemsModule {}
