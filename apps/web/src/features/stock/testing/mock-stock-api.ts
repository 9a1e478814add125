import { jsonResponse, mockFetch, type RecordedCall } from '@/testing/fetch';
import type { StockCounts, StockLocation, StockLocationListReply, StockMovement, StockProductCounts } from '../api/types';

export const counts = (overrides: Partial<StockCounts> = {}): StockCounts => {
  const c = { available: 0, maintenance: 0, retired: 0, given_out: 0, ...overrides };
  return { ...c, in_stock: overrides.in_stock ?? c.available + c.maintenance + c.retired };
};

export const productCounts = (product_name: string, overrides: Partial<StockCounts> = {}): StockProductCounts => ({
  product_name,
  ...counts(overrides),
});

/** Kisumu Shop: 3 Solar Home 50W available and 1 in maintenance, 2 given out from there. */
export function buildLocation(overrides: Partial<StockLocation> = {}): StockLocation {
  return {
    location_id: 3,
    name: 'Kisumu Shop',
    description: 'Oginga Odinga Street',
    created_at: '2026-11-01T10:00:00Z',
    counts: counts({ available: 3, maintenance: 1, given_out: 2 }),
    products: [productCounts('Solar Home 50W', { available: 2, maintenance: 1, given_out: 2 }), productCounts('Lantern', { available: 1 })],
    ...overrides,
  };
}

/** Nairobi Warehouse: empty. */
export const WAREHOUSE = buildLocation({
  location_id: 5,
  name: 'Nairobi Warehouse',
  description: null,
  counts: counts(),
  products: [],
});

export function buildMovement(overrides: Partial<StockMovement> = {}): StockMovement {
  return {
    movement_id: 21,
    serial_number: 'SHS-0001',
    product_name: 'Solar Home 50W',
    from_location: null,
    to_location: 'Kisumu Shop',
    moved_by: 'amina',
    note: 'Restock for market day',
    moved_at: '2026-11-20T09:00:00Z',
    ...overrides,
  };
}

/** 4 devices in no place: 4 Lanterns available. */
export const UNPLACED: StockLocationListReply['unplaced'] = {
  counts: counts({ available: 4 }),
  products: [productCounts('Lantern', { available: 4 })],
};

export type Handler = (call: RecordedCall) => Response | undefined;

/** The query of a call. */
export const queryOf = (call: RecordedCall) => new URL(call.url, 'http://x').searchParams;

/**
 * The API of the stock screens: GET /stock-locations answers `locations` and
 * UNPLACED, GET /stock-movements `movements(query)` (`total` in all), the bell
 * nothing; `extra` anything first. Any other call is a 404.
 */
export function mockStockApi({
  locations = [buildLocation(), WAREHOUSE],
  unplaced = UNPLACED,
  movements = () => [buildMovement()],
  total,
  extra = () => undefined,
}: {
  locations?: StockLocation[] | (() => StockLocation[]);
  unplaced?: StockLocationListReply['unplaced'];
  movements?: (q: URLSearchParams) => StockMovement[];
  total?: number;
  extra?: Handler;
} = {}) {
  return mockFetch((call) => {
    const hit = extra(call);
    if (hit) return hit;
    if (call.method === 'GET' && call.url === '/payg/stock-locations') {
      return jsonResponse(200, { data: typeof locations === 'function' ? locations() : locations, unplaced });
    }
    if (call.method === 'GET' && call.url.startsWith('/payg/stock-movements?')) {
      const q = queryOf(call);
      const data = movements(q);
      const limit = Number(q.get('limit'));
      const count = total ?? data.length;
      return jsonResponse(200, { data, pagination: { total: count, total_pages: Math.ceil(count / limit), page: Number(q.get('page')), limit } });
    }
    if (call.url.startsWith('/payg/notifications')) return jsonResponse(200, { data: [] });
    if (call.url.startsWith('/payg/me/notifications')) return jsonResponse(200, { data: { items: [], unread: 0, next_before: null } });
    return jsonResponse(404, { detail: 'Not found', message: 'Not found' });
  });
}

/** The bodies sent with `method` to `url`. */
export const sent = (calls: RecordedCall[], method: string, url: string) =>
  calls.filter((c) => c.method === method && c.url === url).map((c) => JSON.parse(c.body!) as unknown);

/** A refusal as the API words one. */
export const refusal = (status: number, message: string) => jsonResponse(status, { detail: message, message });
