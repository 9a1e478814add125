import { Controller, Delete, Get, Module, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  ZMessageReplySchema,
  ZStockLocationInputSchema,
  ZStockLocationListReplySchema,
  ZStockLocationReplySchema,
  ZStockLocationSchema,
  ZStockLocationUpdateSchema,
  ZStockMovementsQuerySchema,
  ZStockMovementsReplySchema,
  ZStockMoveReplySchema,
  ZStockMoveSchema,
  ZStockTakeReplySchema,
  ZStockTakeSchema,
} from '@kidogo/contracts';
import type { z } from 'zod';
import { CurrentUser, OrgId, Roles, type AuthUser } from '../common/tenancy.js';
import { Endpoint, ValidBody, ValidParams, ValidQuery, zPathId } from '../common/validation.js';
import { StockService } from './stock.service.js';

const ZLocationParams = zPathId('location_id');
type LocationParams = z.output<typeof ZLocationParams>;
const NOT_FOUND = { 404: 'Stock location not found' };

/** Stock locations and the devices' moves between them (README "Stock locations"). */
@ApiTags('stock')
@Controller()
export class StockController {
  constructor(private readonly stock: StockService) {}

  @Get('stock-locations')
  @Endpoint({
    summary: 'Every stock location, by name, with its devices in stock by status and given out, in all and by product; and the devices in none',
    response: ZStockLocationListReplySchema,
  })
  list(@OrgId() orgId: string) {
    return this.stock.list(orgId);
  }

  @Post('stock-locations')
  @Roles('owner', 'admin', 'super_admin')
  @Endpoint({
    summary: 'Add a stock location (a warehouse, a shop, a field agent)',
    body: ZStockLocationInputSchema,
    response: ZStockLocationReplySchema,
    status: 201,
    errors: { 400: 'A bad name or description, named', 403: 'Not an owner or admin', 409: 'A stock location of that name exists' },
  })
  create(@OrgId() orgId: string, @CurrentUser() user: AuthUser, @ValidBody() body: z.output<typeof ZStockLocationInputSchema>) {
    return this.stock.create(orgId, user, body);
  }

  @Post('stock-locations/move')
  @Endpoint({
    summary: 'Move devices in stock to a stock location, or to none (location_id null): all of them or none',
    description:
      'Up to 500 serial numbers, each in any spelling (case, spaces, dashes). An unknown serial is a 400 naming them; a device with a ' +
      'customer is a 409 (it is not in stock). A device already there is left alone (unchanged). Each device moved gets a movement, ' +
      'with the note; the move is audited (stock.moved).',
    body: ZStockMoveSchema,
    response: ZStockMoveReplySchema,
    errors: { 400: 'A bad field, or serial numbers of no device (named)', 404: 'Stock location not found', 409: 'A device is with a customer' },
  })
  move(@OrgId() orgId: string, @CurrentUser() user: AuthUser, @ValidBody() body: z.output<typeof ZStockMoveSchema>) {
    return this.stock.move(orgId, user, body);
  }

  @Post('stock-locations/:location_id/stock-take')
  @Endpoint({
    summary: 'Compare the serial numbers counted at a stock location with the devices Kidogo has in stock there',
    description:
      'Up to 20,000 serial numbers, each in any spelling (case, spaces, dashes; one counted twice is counted once). The reply names ' +
      'the devices missing (in stock there in Kidogo, not counted), those counted that Kidogo has elsewhere (another place, none, ' +
      'a customer) and the serial numbers of no device, each list by serial number and its first 1,000, with its count. No device ' +
      'changes; the stock take is audited (stock.counted) with its figures.',
    params: ZLocationParams,
    body: ZStockTakeSchema,
    response: ZStockTakeReplySchema,
    errors: { 400: 'A bad field, named', ...NOT_FOUND },
  })
  stockTake(
    @OrgId() orgId: string,
    @CurrentUser() user: AuthUser,
    @ValidParams() p: LocationParams,
    @ValidBody() body: z.output<typeof ZStockTakeSchema>,
  ) {
    return this.stock.stockTake(orgId, user, p.location_id, body);
  }

  @Get('stock-locations/:location_id')
  @Endpoint({ summary: 'One stock location with its counts', params: ZLocationParams, response: ZStockLocationSchema, errors: NOT_FOUND })
  get(@OrgId() orgId: string, @ValidParams() p: LocationParams) {
    return this.stock.get(orgId, p.location_id);
  }

  @Put('stock-locations/:location_id')
  @Roles('owner', 'admin', 'super_admin')
  @Endpoint({
    summary: 'Rename a stock location or change its description',
    params: ZLocationParams,
    body: ZStockLocationUpdateSchema,
    response: ZStockLocationReplySchema,
    errors: { 400: 'A bad name or description, named', 403: 'Not an owner or admin', ...NOT_FOUND, 409: 'A stock location of that name exists' },
  })
  update(
    @OrgId() orgId: string,
    @CurrentUser() user: AuthUser,
    @ValidParams() p: LocationParams,
    @ValidBody() body: z.output<typeof ZStockLocationUpdateSchema>,
  ) {
    return this.stock.update(orgId, user, p.location_id, body);
  }

  @Delete('stock-locations/:location_id')
  @Roles('owner', 'admin', 'super_admin')
  @Endpoint({
    summary: 'Delete a stock location that holds no device in stock; the devices given out from it keep no place',
    params: ZLocationParams,
    response: ZMessageReplySchema,
    errors: { 403: 'Not an owner or admin', ...NOT_FOUND, 409: 'Devices are in stock there' },
  })
  remove(@OrgId() orgId: string, @CurrentUser() user: AuthUser, @ValidParams() p: LocationParams) {
    return this.stock.remove(orgId, user, p.location_id);
  }

  @Get('stock-movements')
  @Endpoint({
    summary: "Devices' moves between stock locations, newest first: all, one device's (serial_number) or one place's (location_id)",
    query: ZStockMovementsQuerySchema,
    response: ZStockMovementsReplySchema,
    errors: { 400: 'A bad page, limit or location_id' },
  })
  movements(@OrgId() orgId: string, @ValidQuery() q: z.output<typeof ZStockMovementsQuerySchema>) {
    return this.stock.movements(orgId, q);
  }
}

@Module({ controllers: [StockController], providers: [StockService] })
export class StockModule {}
