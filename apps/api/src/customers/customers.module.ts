import { Module } from '@nestjs/common';
import { CatalogModule } from '../catalog/catalog.module.js';
import { CustomersController } from './customers.controller.js';
import { CustomerPrivacyController } from './customer-privacy.controller.js';
import { CustomerPrivacyService } from './customer-privacy.service.js';
import { CustomersCsvService } from './customers-csv.service.js';
import { CustomersService } from './customers.service.js';

@Module({
  imports: [CatalogModule],
  controllers: [CustomersController, CustomerPrivacyController],
  providers: [CustomersService, CustomersCsvService, CustomerPrivacyService],
  exports: [CustomersService],
})
export class CustomersModule {}
