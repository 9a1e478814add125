import { Module } from '@nestjs/common';
import { CatalogModule } from '../catalog/catalog.module.js';
import { TemplatesModule } from '../templates/templates.module.js';
import { AccountsImportController } from './accounts-import.controller.js';
import { AccountsImportService } from './accounts-import.service.js';
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
  imports: [CatalogModule, TokensModule, TemplatesModule],
  controllers: [ItemsController, CreditCheckController, SwapsController, CustomerDiscountsController, AccountsImportController],
  providers: [ItemsService, ItemsCsvService, RepossessionService, SwapService, DiscountService, CreditCheckService, AccountsImportService],
  exports: [ItemsService],
})
export class ItemsModule {}
