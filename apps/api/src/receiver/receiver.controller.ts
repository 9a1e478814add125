import { Controller, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ZReceiveReplySchema, ZReceiverBodySchema, type ReceiverBody } from '@kidogo/contracts';
import { Endpoint, ValidBody } from '../common/validation.js';
import { ApiKeyAuth, OrgId } from '../common/tenancy.js';
import { ReceiverService } from './receiver.service.js';

const DESCRIPTION = `Called by an SMS-forwarding phone app or a mobile-money callback, not a person. Authenticates with the organization's API key in the X-API-Key header (GET /payg/settings/api-key).

Accepted bodies, JSON or form-encoded:
- SMS forwarders: the text in message, text, body, msg or content; the sender in from, sender, phone, phoneNumber or address; the time in received_at, receivedStamp, timestamp, date or sentStamp (epoch seconds or milliseconds, or ISO 8601); optionally recipient or to (the receiving line). Texts understood: M-Pesa paybill and till confirmations (business side, old and new word order, masked numbers), M-Pesa person-to-person and customer-side receipts, M-Pesa Tanzania, Airtel Money Kenya, Uganda and Tanzania.
- Safaricom Daraja C2B confirmation: TransactionType, TransID, TransTime (YYYYMMDDHHmmss, EAT), TransAmount, BusinessShortCode, BillRefNumber, MSISDN, FirstName, MiddleName, LastName.

Every request is stored first; the reply says what happened: processed (payment recorded, tokens issued, reply SMS queued to the payer), duplicate (this transaction code was recorded before; the original payment_id, token and days are repeated), unmatched (payment kept as pending: no device matches the account reference or the payer's phone; POST /payg/payments/{id}/match assigns it) or unparsed (stored with the reason in error; never dropped). Always 200 once stored, so gateways do not retry a message that was received.`;

@ApiTags('receiver')
@ApiKeyAuth()
@Controller('external')
export class ReceiverController {
  constructor(private readonly receiver: ReceiverService) {}

  @Post('receive-phoneteletalk')
  @Endpoint({
    summary: 'Receive a mobile-money payment notice (forwarded SMS or Daraja C2B) and answer with the token issued',
    description: DESCRIPTION,
    body: ZReceiverBodySchema,
    formEncoded: true,
    response: ZReceiveReplySchema,
    errors: { 400: 'The body is not a JSON object or a form', 401: 'Missing or wrong X-API-Key (nothing stored)', 403: 'The organization is suspended or disabled' },
  })
  receive(@OrgId() orgId: string, @ValidBody() body: ReceiverBody) {
    return this.receiver.receive(orgId, body);
  }
}
