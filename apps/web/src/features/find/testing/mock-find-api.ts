import type { FindCustomer, FindDevice, FindPayment, FindReply } from '@kidogo/contracts';
import { jsonResponse, mockFetch, type RecordedCall } from '@/testing/fetch';

/** Amina Wanjiru, found by name, holding one device. */
export function buildFindCustomer(overrides: Partial<FindCustomer> = {}): FindCustomer {
  return {
    customer_id: 42,
    customer_name: 'Amina Wanjiru',
    phone_contact: '0712 345 678',
    id_number: '12345678',
    matched: 'customer_name',
    devices: 1,
    ...overrides,
  };
}

/** Amina's solar home system. */
export function buildFindDevice(overrides: Partial<FindDevice> = {}): FindDevice {
  return {
    serial_number: 'SHS-0001',
    product_name: 'Solar Home 50W',
    status: 'assigned',
    customer_id: 42,
    customer_name: 'Amina Wanjiru',
    ...overrides,
  };
}

/** Amina's payment of KES 500 to her device. */
export function buildFindPayment(overrides: Partial<FindPayment> = {}): FindPayment {
  return {
    payment_id: 9,
    transaction_code: 'QK12AB34CD',
    amount: '500.00',
    currency: 'KES',
    status: 'completed',
    hold_reason: null,
    paid_at: '2026-11-20T09:30:00Z',
    serial_number: 'SHS-0001',
    customer_id: 42,
    customer_name: 'Amina Wanjiru',
    ...overrides,
  };
}

export const emptyReply = (q: string): FindReply => ({ q, customers: [], devices: [], payments: [] });

/** The q of a GET /find call; null for any other call. */
export function findTerm(call: RecordedCall): string | null {
  const url = new URL(call.url, 'http://x');
  return url.pathname === '/payg/find' ? url.searchParams.get('q') : null;
}

/**
 * GET /find answered by `reply(q)` (a Response as it is, anything else as a
 * 200 JSON body); every other call of the shell and of the pages Find leads
 * to answers an empty 200.
 */
export function mockFindApi(reply: (q: string) => Partial<FindReply> | Response = emptyReply) {
  return mockFetch((call) => {
    const q = findTerm(call);
    if (q === null) return jsonResponse(200, call.url.startsWith('/payg/notifications') ? { data: [] } : {});
    const answer = reply(q);
    return answer instanceof Response ? answer : jsonResponse(200, { ...emptyReply(q), ...answer });
  });
}

export const findCalls = (calls: RecordedCall[]) => calls.map(findTerm).filter((q): q is string => q !== null);
