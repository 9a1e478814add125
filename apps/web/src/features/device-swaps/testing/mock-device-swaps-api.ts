import type { Product } from '@/features/products/api/types';
import { jsonResponse, type RecordedCall } from '@/testing/fetch';
import type { DeviceSwap, ItemSwapReply } from '../api/types';

/** SHS-0001 of Amina Wanjiru (customer 11) replaced by SHS-0042: 13 days moved, the old one locked and in maintenance. */
export function buildDeviceSwap(overrides: Partial<DeviceSwap> = {}): DeviceSwap {
  return {
    swap_id: 5,
    swapped_at: '2026-11-25T09:30:00Z',
    swapped_by: 'amina',
    reason: 'Battery fails after an hour',
    customer_id: 11,
    customer_name: 'Amina Wanjiru',
    old_serial_number: 'SHS-0001',
    new_serial_number: 'SHS-0042',
    total_paid: '2400.00',
    days_moved: 13,
    paid_off: false,
    token_type: 'set_time',
    token_count: 1,
    lock_token_count: 8,
    old_status: 'maintenance',
    warranty_until: null,
    in_warranty: null,
    ...overrides,
  };
}

/** What POST /items/swap answers for buildDeviceSwap: both codes. */
export function buildSwapReply(overrides: Partial<ItemSwapReply> = {}): ItemSwapReply {
  return {
    message: 'Device SHS-0001 of Amina Wanjiru swapped for SHS-0042',
    swap_id: 5,
    customer_id: 11,
    customer_name: 'Amina Wanjiru',
    old_serial_number: 'SHS-0001',
    new_serial_number: 'SHS-0042',
    token: { token: '111222333', token_count: 1, token_type: 'set_time', days: 13 },
    lock_token: { token: '444555666', token_count: 8 },
    total_paid: '2400.00',
    days_moved: 13,
    paid_off: false,
    credit_until: '2026-12-08T09:30:00Z',
    status: 'maintenance',
    location_id: null,
    location_name: null,
    ticket_id: null,
    warranty: null,
    ...overrides,
  };
}

/** A device in stock (available, given to nobody) at Kisumu Shop. */
export function buildStockDevice(overrides: Partial<Product> = {}): Product {
  return {
    item_id: 42,
    organization_id: 'org-1',
    serial_number: 'SHS-0042',
    product_name: 'Solar Home 50W',
    product_type: null,
    manufacturer: 'SunKing',
    model: null,
    description: null,
    price: '20000.00',
    status: 'available',
    product_oem: 'SunKing',
    is_assigned: false,
    customer_id: null,
    customer_name: null,
    assigned_at: null,
    token_count: 0,
    total_paid: '0.00',
    credit_until: null,
    paid_off: false,
    location_id: 3,
    location_name: 'Kisumu Shop',
    created_at: '2026-11-01T10:00:00Z',
    updated_at: '2026-11-01T10:00:00Z',
    ...overrides,
  };
}

/** The query of a call. */
export const queryOf = (call: RecordedCall) => new URL(call.url, 'http://x').searchParams;

/** GET /device-swaps answering `rows`, one page of them. */
export function swapsReply(call: RecordedCall, rows: DeviceSwap[]): Response {
  const q = queryOf(call);
  const limit = Number(q.get('limit'));
  return jsonResponse(200, { data: rows, pagination: { total: rows.length, total_pages: Math.ceil(rows.length / limit), page: Number(q.get('page')), limit } });
}

/** GET /products answering `devices` (as the Products list does). */
export function productsReply(devices: Product[]): Response {
  return jsonResponse(200, { data: { items: devices, pagination: { total: devices.length, total_pages: 1, page: 1, limit: 20 } } });
}

/** The GET /device-swaps URLs called. */
export const swapListCalls = (calls: RecordedCall[]) => calls.filter((c) => c.method === 'GET' && c.url.startsWith('/payg/device-swaps')).map((c) => c.url);
