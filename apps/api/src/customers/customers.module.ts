import { Module } from '@nestjs/common';
import { CatalogModule } from '../catalog/catalog.module.js';
import { CustomersController } from './customers.controller.js';
import { CustomersCsvService } from './customers-csv.service.js';
import { CustomersService } from './customers.service.js';

@Module({
  imports: [CatalogModule],
  controllers: [CustomersController],
  providers: [CustomersService, CustomersCsvService],
  exports: [CustomersService],
})
export class CustomersModule {}
