import { Controller, Get, Module } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ZFindQuerySchema, ZFindReplySchema, type FindQuery } from '@kidogo/contracts';
import { OrgId } from '../common/tenancy.js';
import { Endpoint, ValidQuery } from '../common/validation.js';
import { FindService } from './find.service.js';

@ApiTags('find')
@Controller()
export class FindController {
  constructor(private readonly finder: FindService) {}

  @Get('find')
  @Endpoint({
    summary: 'Find customers, devices and payments by a name, phone number, ID number, serial or transaction code',
    description:
      'The header’s Find box. Customers whose name, phone number (also a whole number written in any form, read in the ' +
      'organization’s country), ID number or, for a term with an @, email holds the term; devices whose serial holds it ' +
      '(the same serial whatever its case, spaces and dashes first); the payment whose transaction code it is, whatever ' +
      'its case. Each group newest first, at most `limit` (5 unless given).',
    query: ZFindQuerySchema,
    response: ZFindReplySchema,
    errors: { 400: 'q shorter than 3 or longer than 100 characters, or a bad limit (named)' },
  })
  find(@OrgId() orgId: string, @ValidQuery() q: FindQuery) {
    return this.finder.find(orgId, q);
  }
}

@Module({ controllers: [FindController], providers: [FindService] })
export class FindModule {}
