import type { CustomerPaymentDetails, DeviceActivity, Item, PaymentOutcome } from '@kidogo/contracts';
import { jsonResponse, mockFetch, type RecordedCall } from '@/testing/fetch';

export function buildOutcome(overrides: Partial<PaymentOutcome> = {}): PaymentOutcome {
  return {
    status: 'processed',
    message_id: 31,
    payment_id: 77,
    token: '123456789',
    days: 17,
    tokens: [{ token: '123456789', token_type: 'activation', days: 17, token_count: 1 }],
    reason: 'activated',
    serial_number: 'SHS-0001',
    transaction_code: 'RCPT-1',
    amount: '1500.00',
    credit: '20.00',
    remaining_balance: '10500.00',
    reply_message: 'Payment of KES 1,500.00 received for SHS-0001. Token: 123 456 789 (17 days). Balance KES 10,500.00',
    ...overrides,
  };
}

export function buildDevice(overrides: Partial<Item> = {}): Item {
  return {
    item_id: 1,
    organization_id: 'org-1',
    serial_number: 'SHS-0001',
    product_name: 'Solar Home 50W',
    product_type: null,
    manufacturer: 'SunCo',
    model: null,
    description: null,
    price: '12000.00',
    status: 'assigned',
    product_oem: 'SunKing',
    is_assigned: true,
    customer_id: 11,
    customer_name: 'Amina Wanjiru',
    assigned_at: '2026-11-01T10:00:00Z',
    token_count: 0,
    total_paid: '0.00',
    credit_until: null,
    paid_off: false,
    location_id: null,
    location_name: null,
    created_at: '2026-11-01T10:00:00Z',
    updated_at: '2026-11-01T10:00:00Z',
    ...overrides,
  };
}

const activity = (serial: string): DeviceActivity => ({
  data: {
    device_info: {
      serial_number: serial,
      product_name: 'Solar Home 50W',
      product_oem: 'SunKing',
      manufacturer: 'SunCo',
      status: 'assigned',
      customer_name: 'Amina Wanjiru',
      customer_id: 11,
      token_count: 0,
      is_assigned: true,
      assigned_at: '2026-11-01T10:00:00Z',
      price: '12000.00',
      total_paid: '0.00',
      credit_until: null,
      payment_plan: null,
      location_name: null,
      repayment: { expected_by_today: null, paid_towards: null, repaid_share: null, standing: null },
      warranty: null,
      remaining: null,
      discount: '0.00',
      brought_over: null,
      transferred: null,
    },
    token_history: { items: [], total: 0 },
    payment_history: { items: [], total: 0 },
    message_history: { items: [], total: 0 },
    page: 1,
    limit: 20,
  },
});

const paymentDetails = (deviceSerial: string): CustomerPaymentDetails => ({
  data: {
    customer_info: {
      customer_id: 11,
      customer_name: 'Amina Wanjiru',
      phone_contact: '0712345678',
      email: null,
      status: 'active',
      sms_opted_out_at: null,
      sms_opt_out_source: null,
      device_serial: deviceSerial,
      product_name: 'Solar Home 50W',
      product_oem: 'SunKing',
    },
    payment_template: { template_id: 5, template_name: 'Daily 50', daily_price: '50.00', activation_price: '500.00', grace_period_days: 2, currency: 'KES', deposit_made: '1000.00' },
    payment_summary: { total_paid: '0.00', free_code_price: '12000.00', remaining_balance: '12000.00', payment_progress: 0, is_fully_paid: false, payment_count: 0, paid_before: '0.00' },
    repayment: { expected_by_today: '1500.00', paid_towards: '0.00', repaid_share: 0, standing: 'far_behind' },
    payment_history: [],
    devices: [],
  },
});

/**
 * The API behind the two screens that record payments: Device Activity and
 * Customer Payment Details (with the customer's devices), and POST /payments,
 * which answers `outcome` unless `handler` answers first (return undefined to
 * fall through).
 */
export function mockRecordPaymentApi({
  outcome = buildOutcome(),
  devices = [buildDevice()],
  handler,
}: {
  outcome?: PaymentOutcome;
  devices?: Item[];
  handler?: (call: RecordedCall, path: string) => Response | undefined;
} = {}) {
  return mockFetch((call) => {
    const path = new URL(call.url, 'http://x').pathname;
    const custom = handler?.(call, path);
    if (custom) return custom;
    const device = /^\/payg\/devices\/([^/]+)\/activity$/.exec(path);
    if (device) return jsonResponse(200, activity(decodeURIComponent(device[1]!)));
    if (path === '/payg/customers/11/payment-details') return jsonResponse(200, paymentDetails(devices[devices.length - 1]?.serial_number ?? 'SHS-0001'));
    if (path === '/payg/customers/11/items') return jsonResponse(200, { data: devices });
    if (path === '/payg/payments' && call.method === 'POST') return jsonResponse(201, outcome);
    if (path === '/payg/payments') return jsonResponse(200, { data: [{ currency: 'KES' }] });
    return jsonResponse(200, { data: [] });
  });
}

/** How many times the screen read `path` (a GET): a write that refreshes the screen reads it again. */
export const readsOf = (calls: RecordedCall[], path: string) => calls.filter((c) => c.method === 'GET' && new URL(c.url, 'http://x').pathname === path).length;
