import type { DeviceWarranty, WarrantySettings } from '@kidogo/contracts';
import { jsonResponse, type RecordedCall } from '@/testing/fetch';

/** The demo's products: Solar Home 50W under warranty for 12 months on 40 devices, Solar Lamp Pro and Smartphone A10 without one. */
export function buildWarrantySettings(overrides: Partial<WarrantySettings> = {}): WarrantySettings {
  return {
    warranties: [{ product_name: 'Solar Home 50W', months: 12, devices: 40 }],
    other_products: ['Smartphone A10', 'Solar Lamp Pro'],
    ...overrides,
  };
}

/** A device's 12-month warranty from 1 Nov 2026: in warranty until 1 Nov 2027. */
export function buildDeviceWarranty(overrides: Partial<DeviceWarranty> = {}): DeviceWarranty {
  return { months: 12, starts_at: '2026-11-01T10:00:00Z', until: '2027-11-01T10:00:00Z', in_warranty: true, ...overrides };
}

/**
 * GET and PUT /settings/warranties in memory, as the API answers them: a PUT
 * replaces the list (each product's devices kept from what was known, 0 for a
 * name no device has) and the products it leaves out become choices again.
 * Returns undefined for any other call.
 */
export function warrantiesRoute(initial: WarrantySettings = buildWarrantySettings()) {
  let stored = initial;
  return (call: RecordedCall, path: string): Response | undefined => {
    if (path !== '/payg/settings/warranties') return undefined;
    if (call.method === 'GET') return jsonResponse(200, stored);
    if (call.method !== 'PUT') return undefined;
    const { warranties } = JSON.parse(call.body!) as { warranties: { product_name: string; months: number }[] };
    const devices = new Map(stored.warranties.map((w) => [w.product_name.toLowerCase(), w.devices]));
    const known = [...stored.warranties.map((w) => w.product_name), ...stored.other_products];
    const named = new Set(warranties.map((w) => w.product_name.toLowerCase()));
    stored = {
      warranties: warranties
        .map((w) => ({ ...w, devices: devices.get(w.product_name.toLowerCase()) ?? (known.some((k) => k.toLowerCase() === w.product_name.toLowerCase()) ? 3 : 0) }))
        .sort((a, b) => a.product_name.toLowerCase().localeCompare(b.product_name.toLowerCase())),
      other_products: known.filter((k) => !named.has(k.toLowerCase())).sort((a, b) => a.localeCompare(b)),
    };
    return jsonResponse(200, stored);
  };
}
