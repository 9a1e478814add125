import { Prisma } from '../generated/prisma/client.js';

/** Why a bulk text queued to a phone whose customer then texted STOP (or asked staff) did not go. */
export const WITHDRAWN_FOR_STOP = 'Not sent: the customer asked for no texts before it went out';

/**
 * The bulk texts (README "Bulk SMS") still waiting to go to these phone
 * numbers, withdrawn: a customer who texts STOP, or asks staff for no texts,
 * after a bulk SMS was set for next week is not texted by it. Marked failed
 * with why, so its campaign counts them. For the statement (and
 * transaction) that records the opt-out.
 */
export function withdrawCampaignTextsSql(orgId: string, phones: string[]): Prisma.Sql {
  return Prisma.sql`
    UPDATE messages SET delivery_status = 'failed'::"DeliveryStatus", next_attempt_at = NULL, last_delivery_error = ${WITHDRAWN_FOR_STOP}
    WHERE organization_id = ${orgId} AND campaign_id IS NOT NULL AND delivery_status = 'queued'::"DeliveryStatus"
      AND recipient_number = ANY(${phones}::text[])`;
}
