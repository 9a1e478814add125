import { MAX_TOKEN_VALUE } from '@kidogo/openpaygo';
import type { ProductOemConfig } from '@kidogo/contracts';
import type { ProductOemConfig as Row } from '../generated/prisma/client.js';

export function toOemConfig(r: Row): ProductOemConfig {
  const divider = Number(r.value_divider);
  return {
    product_oem: r.product_oem,
    restricted_digit_set: r.restricted_digit_set,
    extended_token: r.extended_token,
    value_divider: divider,
    max_days_per_token: Math.floor(MAX_TOKEN_VALUE / divider + 1e-9),
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}
