import { Module } from '@nestjs/common';
import { CatalogModule } from '../catalog/catalog.module.js';
import { TokensModule } from '../tokens/tokens.module.js';
import { CreditCheckController } from './credit-check.controller.js';
import { CreditCheckService } from './credit-check.service.js';
import { ItemsController } from './items.controller.js';
import { ItemsCsvService } from './items-csv.service.js';
import { ItemsService } from './items.service.js';
import { RepossessionService } from './repossession.service.js';

@Module({
  imports: [CatalogModule, TokensModule],
  controllers: [ItemsController, CreditCheckController],
  providers: [ItemsService, ItemsCsvService, RepossessionService, CreditCheckService],
  exports: [ItemsService],
})
export class ItemsModule {}
