import { Controller, Delete, Get, Post, Put, Req, UseInterceptors } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { HttpRequest } from '../common/http.js';
import {
  ZCsvImportReportSchema,
  ZItemAssignReplySchema,
  ZItemAssignSchema,
  ZItemFetchSchema,
  ZItemInputSchema,
  ZItemListQuerySchema,
  ZItemListReplySchema,
  ZItemReplySchema,
  ZItemRepossessReplySchema,
  ZItemRepossessSchema,
  ZItemDiscountSchema,
  ZItemDiscountReplySchema,
  ZDeviceDiscountListSchema,
  ZDiscountParamsSchema,
  ZDiscountVoidSchema,
  ZDiscountVoidReplySchema,
  ZItemSwapReplySchema,
  ZItemSwapSchema,
  ZItemTransferReplySchema,
  ZItemTransferSchema,
  ZItemSchema,
  ZItemSearchSchema,
  ZItemUnassignSchema,
  ZItemUpdateSchema,
  ZMessageReplySchema,
  ZSerialParamsSchema,
  type ItemInputParsed,
  type ItemUpdateParsed,
} from '@kidogo/contracts';
import type { z } from 'zod';
import { CurrentUser, OrgId, Reads, Roles, type AuthUser } from '../common/tenancy.js';
import { Endpoint, ValidBody, ValidParams, ValidQuery } from '../common/validation.js';
import { CsvUploadInterceptor, requireUpload } from '../catalog/csv-upload.js';
import { ItemsService } from './items.service.js';
import { RepossessionService } from './repossession.service.js';
import { DiscountService } from './discount.service.js';
import { SwapService } from './swap.service.js';
import { ITEM_UPLOAD_FIELD, ItemsCsvService } from './items-csv.service.js';

type SerialParams = z.output<typeof ZSerialParamsSchema>;
const NOT_FOUND = { 404: 'No such device in your organization' };

@ApiTags('items')
@Controller('items')
export class ItemsController {
  constructor(
    private readonly items: ItemsService,
    private readonly csv: ItemsCsvService,
    private readonly repossession: RepossessionService,
    private readonly swaps: SwapService,
    private readonly discounts: DiscountService,
  ) {}

  @Get()
  @Endpoint({
    summary: 'List devices, newest first, optionally by serial number (partial) or OEM',
    query: ZItemListQuerySchema,
    response: ZItemListReplySchema,
  })
  list(@OrgId() orgId: string, @ValidQuery() q: z.output<typeof ZItemListQuerySchema>) {
    return this.items.list(orgId, q);
  }

  @Post('add')
  @Endpoint({
    summary: 'Add a device',
    description:
      'secret_key (32 hex characters) and starting_code (0..999999999) are the OpenPAYGO factory data; when absent a ' +
      'random key is generated and the starting code derived from it. They are stored encrypted and never returned.',
    body: ZItemInputSchema,
    response: ZItemSchema,
    status: 201,
    errors: { 400: 'A field is missing or invalid (each one named)', 409: 'A device with this serial number already exists' },
  })
  add(@OrgId() orgId: string, @ValidBody() body: ItemInputParsed) {
    return this.items.add(orgId, body);
  }

  @Post('add/bulk')
  @UseInterceptors(CsvUploadInterceptor(ITEM_UPLOAD_FIELD))
  @Endpoint({
    summary: 'Import devices from a CSV file (header = device field names, secret_key and starting_code optional)',
    files: [ITEM_UPLOAD_FIELD],
    response: ZCsvImportReportSchema,
    errors: { 400: 'Not a CSV file, empty, or a required column is missing: nothing imported', 413: 'The file is above the upload limit' },
  })
  bulk(@OrgId() orgId: string, @Req() req: HttpRequest, @CurrentUser() user: AuthUser) {
    return this.csv.import(orgId, requireUpload(req, ITEM_UPLOAD_FIELD), user);
  }

  @Post('fetch')
  @Reads()
  @Endpoint({ summary: 'One device by serial number', body: ZItemFetchSchema, response: ZItemSchema, errors: NOT_FOUND })
  fetch(@OrgId() orgId: string, @ValidBody() body: z.output<typeof ZItemFetchSchema>) {
    return this.items.fetch(orgId, body.serial_number);
  }

  @Post('search')
  @Reads()
  @Endpoint({
    summary: 'Search devices by serial number, product name or manufacturer',
    body: ZItemSearchSchema,
    response: ZItemListReplySchema,
  })
  search(@OrgId() orgId: string, @ValidBody() body: z.output<typeof ZItemSearchSchema>) {
    return this.items.search(orgId, body);
  }

  @Post('assign')
  @Endpoint({
    summary: 'Assign a device to a customer (again to the same customer: no change)',
    description:
      'A device whose last holder was another customer starts a new account: total paid, credit, activation, payoff and credit date back to none, so the customer pays their own plan from the deposit on; the OpenPAYGO count goes on. Its last holder again keeps the account. ' +
      "A new account is checked against the organization's follow-on sales rule (GET /customers/{id}/credit-check): a customer it refuses gets the device only from an owner or admin with override_reason.",
    body: ZItemAssignSchema,
    response: ZItemAssignReplySchema,
    errors: {
      403: 'override_reason from a staff user: only an owner or admin can give a device against the follow-on sales rule',
      404: 'Unknown customer or device',
      409: 'The device is assigned to another customer, retired or under maintenance, or the follow-on sales rule refuses the customer (the detail says why): nothing changed',
    },
  })
  assign(@OrgId() orgId: string, @ValidBody() body: z.output<typeof ZItemAssignSchema>, @CurrentUser() user: AuthUser) {
    return this.items.assign(orgId, body.customer_id, body.item_serial_number, user, { overrideReason: body.override_reason });
  }

  @Post('unassign')
  @Endpoint({
    summary: 'Take a device back from its customer: it becomes available again',
    body: ZItemUnassignSchema,
    response: ZItemReplySchema,
    errors: { ...NOT_FOUND, 409: 'The device is not assigned' },
  })
  unassign(@OrgId() orgId: string, @ValidBody() body: z.output<typeof ZItemUnassignSchema>, @CurrentUser() user: AuthUser) {
    return this.items.unassign(orgId, body.item_serial_number, user);
  }

  @Post('repossess')
  @Roles('owner', 'admin', 'super_admin')
  @Endpoint({
    summary: 'Repossess a device from a customer who stopped paying: lock it, take it back, write off what was left to pay',
    description:
      'In one step: a set_time 0 token that locks the device (lock_token, to enter on it; it also closes every older code), unless lock is ' +
      'false; the device leaves the customer (assignment and its own plan ended) for maintenance (default) or available stock; what was ' +
      'left to pay on it is written off and audited with the reason (item.repossessed). Given back later to the same customer, its account ' +
      'carries on; to anyone else, it starts afresh.',
    body: ZItemRepossessSchema,
    response: ZItemRepossessReplySchema,
    errors: { 400: 'A bad field, named', 403: 'Not an owner or admin', ...NOT_FOUND, 409: 'The device is not assigned, or is paid off' },
  })
  repossess(@OrgId() orgId: string, @ValidBody() body: z.output<typeof ZItemRepossessSchema>, @CurrentUser() user: AuthUser) {
    return this.repossession.repossess(orgId, user, body);
  }

  @Post('swap')
  @Roles('owner', 'admin', 'super_admin')
  @Endpoint({
    summary: "Swap a customer's faulty device for one from stock: the account moves to the replacement, which gets a code for it",
    description:
      'In one step: what the customer paid, the days left, the activation or payoff, the date the account began and the plan of the ' +
      "device's own move to the replacement (an available device given to nobody), with a code to enter on it (token: set_time with " +
      'the days left rounded up, unlock for a paid-off account, none when no days are left); the old device gets the set_time 0 code that ' +
      'locks it (lock_token) unless lock is false, an empty account, and goes to maintenance (default) or is retired, where it was given ' +
      'from or at location_id. No sale: no credit check, and the reports count the account once. Audited (item.swapped); ' +
      'webhook device.swapped. A payment sent to the old serial afterwards reaches the replacement.',
    body: ZItemSwapSchema,
    response: ZItemSwapReplySchema,
    status: 201,
    errors: {
      400: 'A bad field, named (new_serial_number: no such device, or the same device)',
      403: 'Not an owner or admin',
      404: 'No such device (item_serial_number) or stock location in your organization',
      409: 'The device is not assigned, or the replacement is assigned, under maintenance or retired',
    },
  })
  swap(@OrgId() orgId: string, @ValidBody() body: z.output<typeof ZItemSwapSchema>, @CurrentUser() user: AuthUser) {
    return this.swaps.swap(orgId, user, body);
  }

  @Post('transfer')
  @Roles('owner', 'admin', 'super_admin')
  @Endpoint({
    summary: "Transfer a device's account to another customer, who takes over its payments",
    description:
      'For a customer who died, moved away or sold the device on: the device keeps its account (what was paid, credit and ' +
      'the days bought, activation or payoff, the day it began, its token count) and the plan it was paid on, which becomes ' +
      "the device's own plan of the new holder. No code is issued: the device runs as before, and payments to its serial " +
      "reach the new holder. An account not paid off is checked against the follow-on sales rule for the new holder " +
      '(override_reason to go ahead anyway). No sale: the Agent, Commission, Documents and Portfolio reports count the account ' +
      'once. Audited (item.account_transferred); webhook device.transferred.',
    body: ZItemTransferSchema,
    response: ZItemTransferReplySchema,
    status: 201,
    errors: {
      400: 'A bad field, named',
      403: 'Not an owner or admin',
      404: 'No such device or customer in your organization',
      409: "The device is not assigned, is already this customer's, the customer's data was erased, or the follow-on sales rule refuses them (the detail says why)",
    },
  })
  transfer(@OrgId() orgId: string, @ValidBody() body: z.output<typeof ZItemTransferSchema>, @CurrentUser() user: AuthUser) {
    return this.items.transfer(orgId, body, user);
  }

  @Post('discount')
  @Roles('owner', 'admin', 'super_admin')
  @Endpoint({
    summary: 'Take an amount off what is left to pay on a device (Give Discount): paying off early, goodwill, a price corrected',
    description:
      "The amount (at most what is left to pay) comes off the device's payoff price on its present account, so what is left to pay, the " +
      'repayment standing and the payment that pays it off follow at once; audited with the reason (item.discounted) and sent as ' +
      'device.discounted. All that is left pays the device off on the spot: unlock_token is the code that unlocks it for good.',
    body: ZItemDiscountSchema,
    response: ZItemDiscountReplySchema,
    status: 201,
    errors: {
      400: 'A bad field, named (amount above what is left to pay)',
      403: 'Not an owner or admin',
      ...NOT_FOUND,
      409: 'The device is not assigned, is paid off, or has no price to pay off',
    },
  })
  discount(@OrgId() orgId: string, @ValidBody() body: z.output<typeof ZItemDiscountSchema>, @CurrentUser() user: AuthUser) {
    return this.discounts.give(orgId, user, body);
  }

  @Post('discounts/:discount_id/void')
  @Roles('owner', 'admin', 'super_admin')
  @Endpoint({
    summary: 'Void a discount given by mistake: what it took off is back on what the customer has left to pay',
    description:
      'The discount stays listed, with who voided it, when and why (item.discount_voided, device.discount_voided). Only while it is on ' +
      "the device's present account and the device is not paid off: an unlock code cannot be taken back.",
    params: ZDiscountParamsSchema,
    body: ZDiscountVoidSchema,
    response: ZDiscountVoidReplySchema,
    errors: {
      400: 'A bad field, named',
      403: 'Not an owner or admin',
      404: 'No such discount in your organization',
      409: 'Voided already, its account has ended, or the device is paid off',
    },
  })
  voidDiscount(
    @OrgId() orgId: string,
    @ValidParams() p: z.output<typeof ZDiscountParamsSchema>,
    @ValidBody() body: z.output<typeof ZDiscountVoidSchema>,
    @CurrentUser() user: AuthUser,
  ) {
    return this.discounts.voidDiscount(orgId, user, p.discount_id, body);
  }

  @Get(':serial_number/discounts')
  @Endpoint({
    summary: "A device's discounts, newest first, and the total on its present account",
    params: ZSerialParamsSchema,
    response: ZDeviceDiscountListSchema,
    errors: NOT_FOUND,
  })
  listDiscounts(@OrgId() orgId: string, @ValidParams() p: SerialParams) {
    return this.discounts.list(orgId, p.serial_number);
  }

  @Put(':serial_number')
  @Endpoint({
    summary: 'Edit a device (Edit Product)',
    params: ZSerialParamsSchema,
    body: ZItemUpdateSchema,
    response: ZItemSchema,
    errors: { 400: 'A field is invalid', ...NOT_FOUND, 409: 'A status change the assignment does not allow' },
  })
  update(@OrgId() orgId: string, @ValidParams() p: SerialParams, @ValidBody() body: ItemUpdateParsed, @CurrentUser() user: AuthUser) {
    return this.items.update(orgId, p.serial_number, body, user);
  }

  @Delete(':serial_number')
  @Endpoint({
    summary: 'Delete a device that is not assigned and has no payments or tokens (Delete Product)',
    params: ZSerialParamsSchema,
    response: ZMessageReplySchema,
    errors: { ...NOT_FOUND, 409: 'Assigned, or has payments or tokens (the detail says which)' },
  })
  remove(@OrgId() orgId: string, @ValidParams() p: SerialParams, @CurrentUser() user: AuthUser) {
    return this.items.remove(orgId, p.serial_number, user);
  }
}
