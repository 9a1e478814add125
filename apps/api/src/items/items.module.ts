import { Module } from '@nestjs/common';
import { CatalogModule } from '../catalog/catalog.module.js';
import { TokensModule } from '../tokens/tokens.module.js';
import { CreditCheckController } from './credit-check.controller.js';
import { CreditCheckService } from './credit-check.service.js';
import { ItemsController } from './items.controller.js';
import { ItemsCsvService } from './items-csv.service.js';
import { ItemsService } from './items.service.js';
import { CustomerDiscountsController } from './customer-discounts.controller.js';
import { DiscountService } from './discount.service.js';
import { RepossessionService } from './repossession.service.js';
import { SwapService } from './swap.service.js';
import { SwapsController } from './swaps.controller.js';

@Module({
  imports: [CatalogModule, TokensModule],
  controllers: [ItemsController, CreditCheckController, SwapsController, CustomerDiscountsController],
  providers: [ItemsService, ItemsCsvService, RepossessionService, SwapService, DiscountService, CreditCheckService],
  exports: [ItemsService],
})
export class ItemsModule {}
