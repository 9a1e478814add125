import { Module } from '@nestjs/common';
import { ItemsModule } from '../items/items.module.js';
import { ProductsController } from './products.controller.js';
import { ProductsService } from './products.service.js';

@Module({ imports: [ItemsModule], controllers: [ProductsController], providers: [ProductsService] })
export class ProductsModule {}
