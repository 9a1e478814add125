// The API's contract (packages/contracts/src/activity.ts). Rows may also carry a
// currency one day; the tables use it when present.
import type {
  DeviceActivity,
  MessageHistoryEntry as ContractMessage,
  PaymentHistoryEntry as ContractPayment,
  TokenHistoryEntry as ContractToken,
} from '@kidogo/contracts';

export type { DeviceActivity } from '@kidogo/contracts';

type WithCurrency = { currency?: string | null };

export type DeviceInfo = DeviceActivity['data']['device_info'];
export type TokenHistoryEntry = ContractToken & WithCurrency;
export type PaymentHistoryEntry = ContractPayment & WithCurrency;
export type MessageHistoryEntry = ContractMessage & WithCurrency;

export interface HistoryPage<T> {
  items: T[];
  total: number;
}
