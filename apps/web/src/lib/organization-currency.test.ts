import { afterEach, describe, expect, it, vi } from 'vitest';
import { seedSession } from '@/testing/factories';
import { jsonResponse, mockFetch } from '@/testing/fetch';
import { getOrganizationCurrency } from './organization-currency';

const templates = (currency?: string) =>
  jsonResponse(200, { data: { data: currency ? [{ template_id: 1, currency }] : [], pagination: { total: currency ? 1 : 0 } } });

describe('organization currency', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('is the currency of the latest completed payment', async () => {
    seedSession();
    const { calls } = mockFetch((c) => (c.url.startsWith('/payg/payments?') ? jsonResponse(200, { data: [{ currency: 'MZN' }] }) : templates('KES')));
    await expect(getOrganizationCurrency()).resolves.toBe('MZN');
    expect(calls.map((c) => c.url)).toEqual(['/payg/payments?limit=1&status=completed']);
  });

  it("without payments, is the currency of the organization's payment templates", async () => {
    seedSession();
    const { calls } = mockFetch((c) => (c.url.startsWith('/payg/payments?') ? jsonResponse(200, { data: [] }) : templates('KES')));
    await expect(getOrganizationCurrency()).resolves.toBe('KES');
    expect(calls.map((c) => c.url)).toContain('/payg/payments/templates?limit=1');
  });

  it('is unknown (null, so the screens show their default) without payments or templates, or when the calls fail', async () => {
    seedSession();
    mockFetch((c) => (c.url.startsWith('/payg/payments?') ? jsonResponse(200, { data: [] }) : templates()));
    await expect(getOrganizationCurrency()).resolves.toBeNull();
    mockFetch(() => jsonResponse(500, { message: 'down' }));
    await expect(getOrganizationCurrency()).resolves.toBeNull();
  });
});
