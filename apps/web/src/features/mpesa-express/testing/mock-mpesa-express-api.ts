import {
  AIRTEL_MONEY_MAX_AMOUNT,
  MPESA_EXPRESS_MAX_AMOUNT,
  MTN_MOMO_MAX_AMOUNT,
  PAYMENT_REQUEST_PROVIDER_LABELS,
  type MpesaExpressSettings,
  type MpesaExpressTestReply,
  type PaymentRequest,
  type PaymentRequestProvider,
  type PaymentRequestProviderInfo,
} from '@kidogo/contracts';
import { buildCustomer } from '@/testing/factories';
import { jsonResponse, mockFetch, type RecordedCall } from '@/testing/fetch';

/** M-Pesa Express as GET answers it once set up: a sandbox paybill, its secrets masked, ready. */
export function buildMpesaExpressSettings(overrides: Partial<MpesaExpressSettings> = {}): MpesaExpressSettings {
  return {
    configured: true,
    is_active: true,
    environment: 'sandbox',
    short_code: '174379',
    transaction_type: 'CustomerPayBillOnline',
    till_number: null,
    consumer_key: 'GTWA••••Xk2q',
    consumer_secret: 'Rf8s••••9aZp',
    passkey: 'bfb2••••c919',
    callback_base: 'https://kidogo.example.com/payg/external/mpesa-express',
    ready: true,
    problem: null,
    updated_at: '2026-11-20T09:00:00Z',
    ...overrides,
  };
}

/** Nothing set up yet, as GET answers it for a new organization. */
export const NOT_SET_UP = buildMpesaExpressSettings({
  configured: false,
  is_active: false,
  short_code: null,
  consumer_key: null,
  consumer_secret: null,
  passkey: null,
  ready: false,
  problem: 'M-Pesa Express is not set up: enter your short code and Daraja keys',
  updated_at: null,
});

/** A request for SHS-0001's customer, just sent. */
export function buildPaymentRequest(overrides: Partial<PaymentRequest> = {}): PaymentRequest {
  return {
    request_id: 31,
    provider: 'mpesa_express',
    item_id: 1,
    serial_number: 'SHS-0001',
    customer_id: 11,
    customer_name: 'Amina Wanjiru',
    phone_number: '254712345678',
    amount: '150.00',
    currency: 'KES',
    status: 'pending',
    status_text: "Sent to the customer's phone: waiting for their PIN",
    result_code: null,
    result_desc: null,
    answered_by: null,
    receipt: null,
    mpesa_receipt: null,
    payment_id: null,
    payment_outcome: null,
    payment_reason: null,
    days: null,
    token: null,
    requested_by: 'amina',
    from_customer_page: false,
    created_at: '2026-11-25T10:00:00Z',
    completed_at: null,
    ...overrides,
  };
}

/** What a paid request reads once M-Pesa has answered. */
export const paid = (overrides: Partial<PaymentRequest> = {}) =>
  buildPaymentRequest({
    status: 'paid',
    status_text: 'Paid: the payment was applied to SHS-0001',
    result_code: 0,
    result_desc: 'The service request is processed successfully.',
    answered_by: 'callback',
    receipt: 'SKL4ABC123',
    mpesa_receipt: 'SKL4ABC123',
    payment_id: 77,
    payment_outcome: 'processed',
    days: 3,
    token: '123456789',
    completed_at: '2026-11-25T10:00:40Z',
    ...overrides,
  });

/** An MTN MoMo request (Uganda) for SHS-0001's customer, just sent: UGX 5,000.50 from +256 772 123 456. */
export function buildMtnPaymentRequest(overrides: Partial<PaymentRequest> = {}): PaymentRequest {
  return buildPaymentRequest({
    request_id: 61,
    provider: 'mtn_momo',
    phone_number: '256772123456',
    amount: '5000.50',
    currency: 'UGX',
    status_text: 'Waiting for the customer to approve with their MTN MoMo PIN',
    ...overrides,
  });
}

/** What a paid MTN MoMo request reads once MTN has answered: its financial transaction id is the receipt; no M-Pesa receipt. */
export const mtnPaid = (overrides: Partial<PaymentRequest> = {}) =>
  buildMtnPaymentRequest({
    status: 'paid',
    status_text: 'Paid, MTN MoMo transaction 76662021700: 3 days of credit',
    result_desc: 'SUCCESSFUL',
    answered_by: 'callback',
    receipt: '76662021700',
    mpesa_receipt: null,
    payment_id: 78,
    payment_outcome: 'processed',
    days: 3,
    token: '987654321',
    completed_at: '2026-11-25T10:01:10Z',
    ...overrides,
  });

/** An Airtel Money request (Uganda) for SHS-0001's customer, just sent: UGX 5,000 from +256 752 123 456. */
export function buildAirtelPaymentRequest(overrides: Partial<PaymentRequest> = {}): PaymentRequest {
  return buildPaymentRequest({
    request_id: 71,
    provider: 'airtel_money',
    phone_number: '256752123456',
    amount: '5000.00',
    currency: 'UGX',
    status_text: 'Waiting for the customer to approve with their Airtel Money PIN',
    ...overrides,
  });
}

/** What a paid Airtel Money request reads once Airtel has confirmed it: Airtel Money's transaction id is the receipt; no M-Pesa receipt. */
export const airtelPaid = (overrides: Partial<PaymentRequest> = {}) =>
  buildAirtelPaymentRequest({
    status: 'paid',
    status_text: 'Paid, Airtel Money transaction MP261206.1015.A00001: 3 days of credit',
    result_desc: 'TS',
    answered_by: 'callback',
    receipt: 'MP261206.1015.A00001',
    mpesa_receipt: null,
    payment_id: 79,
    payment_outcome: 'processed',
    days: 3,
    token: '555666777',
    completed_at: '2026-11-25T10:01:20Z',
    ...overrides,
  });

/**
 * One provider as GET /payment-requests/providers gives it, ready: M-Pesa Express in KES, MTN MoMo in Uganda's UGX
 * (with cents), Airtel Money in Uganda's UGX (whole, as the API says of UGX).
 */
export function buildPaymentRequestProvider(provider: PaymentRequestProvider, overrides: Partial<PaymentRequestProviderInfo> = {}): PaymentRequestProviderInfo {
  const market = {
    mpesa_express: { currency: 'KES', max_amount: MPESA_EXPRESS_MAX_AMOUNT, decimals: false },
    mtn_momo: { currency: 'UGX', max_amount: MTN_MOMO_MAX_AMOUNT, decimals: true },
    airtel_money: { currency: 'UGX', max_amount: AIRTEL_MONEY_MAX_AMOUNT, decimals: false },
  }[provider];
  return { provider, label: PAYMENT_REQUEST_PROVIDER_LABELS[provider], ready: true, problem: null, ...market, ...overrides };
}

/** Airtel Money as GET /payment-requests/providers gives it for an organization that has not set it up. */
const AIRTEL_NOT_SET_UP = buildPaymentRequestProvider('airtel_money', {
  ready: false,
  problem: 'Airtel Money is not set up: an owner or admin sets it up in Settings → Airtel Money',
  currency: 'KES',
  decimals: true,
});

/** An organization that has set up M-Pesa Express and neither MTN MoMo nor Airtel Money. */
export const MPESA_READY_ONLY: PaymentRequestProviderInfo[] = [
  buildPaymentRequestProvider('mpesa_express'),
  buildPaymentRequestProvider('mtn_momo', { ready: false, problem: 'MTN MoMo is not set up: enter your API user and keys', currency: 'EUR' }),
  AIRTEL_NOT_SET_UP,
];

/** M-Pesa Express and MTN MoMo set up and ready (not Airtel Money): Ask to Pay offers the choice of the two. */
export const BOTH_READY: PaymentRequestProviderInfo[] = [buildPaymentRequestProvider('mpesa_express'), buildPaymentRequestProvider('mtn_momo'), AIRTEL_NOT_SET_UP];

/** All three set up and ready: Ask to Pay offers the choice of the three, in the API's order. */
export const ALL_READY: PaymentRequestProviderInfo[] = [
  buildPaymentRequestProvider('mpesa_express'),
  buildPaymentRequestProvider('mtn_momo'),
  buildPaymentRequestProvider('airtel_money'),
];

/** GET /payment-requests/providers answering `providers`; undefined for any other call. */
export const providersHandler =
  (providers: PaymentRequestProviderInfo[] = MPESA_READY_ONLY) =>
  (call: RecordedCall): Response | undefined =>
    call.method === 'GET' && call.url === '/payg/payment-requests/providers' ? jsonResponse(200, { data: providers }) : undefined;

/**
 * /payg/settings/mpesa-express in memory, for mockSettingsApi's handler: GET
 * answers the stored settings, PUT stores them (a secret sent is stored and
 * read back masked, one left out is kept), POST …/test answers `test`.
 * Returns undefined for any other path.
 */
export function mpesaExpressSettingsHandler(initial: MpesaExpressSettings = buildMpesaExpressSettings(), test: MpesaExpressTestReply = { ok: true, message: 'Safaricom accepted the keys (sandbox)' }) {
  let stored = initial;
  const mask = (v: string) => `${v.slice(0, 4)}••••${v.slice(-4)}`;
  return (call: RecordedCall, path: string): Response | undefined => {
    if (path === '/payg/settings/mpesa-express' && call.method === 'GET') return jsonResponse(200, stored);
    if (path === '/payg/settings/mpesa-express' && call.method === 'PUT') {
      const body = JSON.parse(call.body!) as Record<string, unknown>;
      const secret = (k: 'consumer_key' | 'consumer_secret' | 'passkey') => (typeof body[k] === 'string' && body[k] ? mask(body[k] as string) : stored[k]);
      stored = {
        ...stored,
        configured: true,
        is_active: body.is_active as boolean,
        environment: body.environment as MpesaExpressSettings['environment'],
        transaction_type: body.transaction_type as MpesaExpressSettings['transaction_type'],
        short_code: body.short_code as string,
        till_number: (body.till_number as string | undefined) ?? null,
        consumer_key: secret('consumer_key'),
        consumer_secret: secret('consumer_secret'),
        passkey: secret('passkey'),
        updated_at: '2026-11-26T08:00:00Z',
      };
      return jsonResponse(200, stored);
    }
    if (path === '/payg/settings/mpesa-express/test' && call.method === 'POST') return jsonResponse(200, test);
    return undefined;
  };
}

/** Device Activity's reply for SHS-0001: Amina Wanjiru's, on a plan of KES 50.00 a day, unless `device` says otherwise. */
export function buildDeviceActivity(device: Record<string, unknown> = {}) {
  return {
    data: {
      device_info: {
        serial_number: 'SHS-0001',
        product_name: 'Solar Home 50W',
        product_oem: 'SunKing',
        manufacturer: null,
        status: 'assigned',
        customer_name: 'Amina Wanjiru',
        customer_id: 11,
        token_count: 6,
        is_assigned: true,
        assigned_at: '2026-11-01T10:00:00Z',
        price: '12000.00',
        total_paid: '1500.00',
        credit_until: null,
        payment_plan: { template_id: 3, template_name: 'Daily 50', daily_price: '50.00', currency: 'KES', own: false },
        ...device,
      },
      token_history: { items: [], total: 0 },
      payment_history: { items: [], total: 0 },
      message_history: { items: [], total: 0 },
      page: 1,
      limit: 20,
    },
  };
}

/** Customer 11's page (GET /customers/11/payment-details): Amina Wanjiru, 0712345678, with `devices`. */
export function buildCustomerPaymentDetails(devices: object[] = []) {
  return {
    data: {
      customer_info: {
        customer_id: 11,
        customer_name: 'Amina Wanjiru',
        phone_contact: '0712345678',
        email: null,
        sms_opted_out_at: null,
        sms_opt_out_source: null,
        status: 'active',
        device_serial: null,
        product_name: null,
        product_oem: null,
      },
      payment_template: null,
      payment_summary: { total_paid: '0.00', free_code_price: '0.00', remaining_balance: '0.00', payment_progress: 0, is_fully_paid: false },
      payment_history: [],
      devices,
    },
  };
}

/** Answers a call (now, or later: a promise holds it in flight), or passes it on with undefined. */
export type Handler = (call: RecordedCall) => Response | Promise<Response> | undefined;

/** The query of a GET /payment-requests call. */
export const queryOf = (call: RecordedCall) => new URL(call.url, 'http://x').searchParams;

/** The GET /payment-requests calls made (the lists, not one request), by URL. */
export const listCalls = (calls: RecordedCall[]) => calls.filter((c) => c.method === 'GET' && c.url.startsWith('/payg/payment-requests?')).map((c) => c.url);

/** The requests checked with their provider (POST /payment-requests/{id}/check), by URL. */
export const checkCalls = (calls: RecordedCall[]) => calls.filter((c) => c.method === 'POST' && c.url.endsWith('/check')).map((c) => c.url);

/** The bodies POSTed to /payment-requests. */
export const sentRequests = (calls: RecordedCall[]) =>
  calls.filter((c) => c.method === 'POST' && c.url === '/payg/payment-requests').map((c) => JSON.parse(c.body!) as unknown);

/**
 * The API of a device's page with M-Pesa Express: SHS-0001's activity
 * (`device` over buildDeviceActivity's), customer 11 (Amina, 0712345678),
 * the ways to ask for payment (`providers`: M-Pesa Express ready, MTN MoMo and Airtel Money not set up),
 * `rows(query)` for GET /payment-requests (`total` in all), a POST that sends
 * `sent` (201), and GET /payment-requests/{id} answering each of `polls` in
 * turn (the last one from then on), POST /payment-requests/{id}/check answering `check` (200 with its data and
 * message, or the Response given). `extra` answers first.
 */
export function mockPaymentRequestsApi({
  device = {},
  rows = () => [],
  total,
  sent = buildPaymentRequest(),
  polls = [sent],
  check,
  providers = MPESA_READY_ONLY,
  extra = () => undefined,
}: {
  device?: Record<string, unknown>;
  rows?: (q: URLSearchParams) => PaymentRequest[];
  total?: number;
  sent?: PaymentRequest;
  polls?: PaymentRequest[];
  check?: { data: PaymentRequest; message: string } | Response;
  providers?: PaymentRequestProviderInfo[];
  extra?: Handler;
} = {}) {
  let polled = 0;
  return mockFetch((call) => {
    const hit = extra(call) ?? providersHandler(providers)(call);
    if (hit) return hit;
    if (call.url.startsWith('/payg/devices/')) return jsonResponse(200, buildDeviceActivity(device));
    if (call.method === 'GET' && call.url === '/payg/customers/11') return jsonResponse(200, buildCustomer({ customer_id: 11, phone_contact: '0712345678' }));
    if (call.method === 'GET' && call.url.startsWith('/payg/payment-requests?')) {
      const q = queryOf(call);
      const items = rows(q);
      const count = total ?? items.length;
      const limit = Number(q.get('limit'));
      return jsonResponse(200, { data: { items, pagination: { total: count, total_pages: Math.ceil(count / limit), page: Number(q.get('page')), limit } } });
    }
    if (call.method === 'POST' && call.url === '/payg/payment-requests') {
      return jsonResponse(201, { data: sent, message: "M-Pesa sent the prompt to the customer's phone" });
    }
    if (call.method === 'POST' && /^\/payg\/payment-requests\/\d+\/check$/.test(call.url) && check) {
      if (check instanceof Response) return check.clone();
      polls = [check.data];
      polled = 0;
      return jsonResponse(200, check);
    }
    const one = call.method === 'GET' ? /^\/payg\/payment-requests\/(\d+)$/.exec(call.url) : null;
    if (one) {
      const reply = polls[Math.min(polled, polls.length - 1)]!;
      polled += 1;
      return jsonResponse(200, { data: reply });
    }
    if (call.url.startsWith('/payg/notifications')) return jsonResponse(200, { data: [] });
    if (call.url.startsWith('/payg/me/notifications')) return jsonResponse(200, { data: { items: [], unread: 0, next_before: null } });
    return jsonResponse(200, { data: [] });
  });
}

/** A refusal as the API words one (409 no set-up, one still waiting; 502 M-Pesa's answer). */
export const refusal = (status: number, message: string) => jsonResponse(status, { detail: message, message });
