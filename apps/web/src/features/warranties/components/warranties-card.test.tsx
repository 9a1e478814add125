import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildUser, seedSession } from '@/testing/factories';
import { jsonResponse, type RecordedCall } from '@/testing/fetch';
import { renderApp } from '@/testing/render';
import { mockSettingsApi } from '@/features/settings/testing/mock-settings-api';
import { buildWarrantySettings } from '../testing/mock-warranties-api';
import type { WarrantySettings } from '@kidogo/contracts';

const PATH = '/payg/settings/warranties';
const puts = (calls: RecordedCall[]) => calls.filter((c) => c.method === 'PUT' && c.url === PATH).map((c) => JSON.parse(c.body!) as unknown);

/** Settings as `role`, the warranties answering `settings` (PUT replaces them) unless `handler` answers first. */
function openSettings(role: 'owner' | 'admin' | 'staff', settings: WarrantySettings = buildWarrantySettings(), handler?: Parameters<typeof mockSettingsApi>[0]) {
  seedSession({ user: buildUser({ role }) });
  const api = mockSettingsApi(handler, [], undefined, undefined, settings);
  renderApp('/settings');
  return api;
}

const card = () => screen.findByRole('region', { name: 'Warranties' });
/** The rows of the list as owners and admins edit it. */
const rowsOf = (c: HTMLElement) => within(c).queryAllByRole('group', { name: /^Warranty \d+$/ });

describe('Settings: Warranties', { timeout: 30_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists the warranties with their devices, changes months, adds a product of the organization and saves the whole list', async () => {
    const { calls } = openSettings('owner');
    const c = await card();
    const user = userEvent.setup();
    expect(c).toHaveTextContent('How many months each product is under warranty, from the day its account began.');
    const months = await within(c).findByRole('textbox', { name: 'Months 1' });
    expect(within(c).getByRole('combobox', { name: 'Product 1' })).toHaveValue('Solar Home 50W');
    expect(months).toHaveValue('12');
    expect(rowsOf(c)[0]).toHaveTextContent('40 devices');
    expect(within(c).getByRole('button', { name: 'Save Warranties' })).toBeDisabled();

    await user.clear(months);
    await user.type(months, '24');
    await user.click(within(c).getByRole('button', { name: 'Add Product' }));
    const product = within(c).getByRole('combobox', { name: 'Product 2' });
    await user.click(product);
    // The organization's other products are offered; the one already in the list is not.
    expect(await screen.findByRole('option', { name: 'Smartphone A10' })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'Solar Home 50W' })).not.toBeInTheDocument();
    await user.type(product, 'lamp');
    await user.click(await screen.findByRole('option', { name: 'Solar Lamp Pro' }));
    expect(product).toHaveValue('Solar Lamp Pro');
    await user.type(within(c).getByRole('textbox', { name: 'Months 2' }), '6');
    // Any name may be typed, not only one offered; a row added and left empty is not sent.
    await user.click(within(c).getByRole('button', { name: 'Add Product' }));
    await user.type(within(c).getByRole('combobox', { name: 'Product 3' }), 'Fridge 90L');
    await user.type(within(c).getByRole('textbox', { name: 'Months 3' }), '18');
    await user.click(within(c).getByRole('button', { name: 'Add Product' }));
    await user.click(within(c).getByRole('button', { name: 'Save Warranties' }));

    expect(await screen.findByText('Warranties saved')).toBeInTheDocument();
    expect(puts(calls)).toEqual([
      {
        warranties: [
          { product_name: 'Solar Home 50W', months: 24 },
          { product_name: 'Solar Lamp Pro', months: 6 },
          { product_name: 'Fridge 90L', months: 18 },
        ],
      },
    ]);
    // The list as the API keeps it: by name, with each product's devices (none have the typed name).
    await waitFor(() => expect(rowsOf(c)).toHaveLength(3));
    expect(within(c).getByRole('combobox', { name: 'Product 1' })).toHaveValue('Fridge 90L');
    expect(within(rowsOf(c)[0]!).getByText('0 devices')).toHaveAttribute('title', 'No device has this product name');
    expect(within(c).getByRole('textbox', { name: 'Months 2' })).toHaveValue('24');
    expect(within(c).getByRole('button', { name: 'Save Warranties' })).toBeDisabled();
  });

  it('removes products, down to none: an empty list is sent, and the card says what no warranty means', async () => {
    const { calls } = openSettings('admin', buildWarrantySettings({ warranties: [{ product_name: 'Solar Home 50W', months: 12, devices: 40 }, { product_name: 'Solar Lamp Pro', months: 6, devices: 3 }] }));
    const c = await card();
    const user = userEvent.setup();
    await user.click(await within(c).findByRole('button', { name: 'Remove Solar Home 50W' }));
    expect(rowsOf(c)).toHaveLength(1);
    await user.click(within(c).getByRole('button', { name: 'Save Warranties' }));
    expect(await screen.findByText('Warranties saved')).toBeInTheDocument();
    expect(puts(calls)).toEqual([{ warranties: [{ product_name: 'Solar Lamp Pro', months: 6 }] }]);

    await user.click(await within(c).findByRole('button', { name: 'Remove Solar Lamp Pro' }));
    expect(within(c).getByText("No warranties set: a device's page and a swap say nothing about warranty.")).toBeInTheDocument();
    await user.click(within(c).getByRole('button', { name: 'Save Warranties' }));
    await waitFor(() => expect(puts(calls)).toHaveLength(2));
    expect(puts(calls)[1]).toEqual({ warranties: [] });
  });

  it("shows the API's refusal above the list and under the box it names", async () => {
    const refusal = 'warranties.0.months: must be at most 120';
    const { calls } = openSettings('owner', undefined, (call, path) =>
      path === PATH && call.method === 'PUT' ? jsonResponse(400, { message: refusal, errors: [{ field: 'warranties.0.months', message: 'must be at most 120' }] }) : undefined,
    );
    const c = await card();
    const user = userEvent.setup();
    const months = await within(c).findByRole('textbox', { name: 'Months 1' });
    await user.clear(months);
    await user.type(months, '36');
    await user.click(within(c).getByRole('button', { name: 'Save Warranties' }));
    const alert = await within(c).findByRole('alert');
    expect(alert).toHaveTextContent('Failed to save the warranties');
    expect(alert).toHaveTextContent(refusal);
    expect(within(c).getByText('Months must be at most 120')).toBeInTheDocument();
    expect(puts(calls)).toEqual([{ warranties: [{ product_name: 'Solar Home 50W', months: 36 }] }]);
    // Changing the box clears its message.
    await user.type(months, '0');
    expect(within(c).queryByText('Months must be at most 120')).not.toBeInTheDocument();
  });

  it('checks the list before sending it: a product twice whatever the case, a name or the months missing', async () => {
    const { calls } = openSettings('owner');
    const c = await card();
    const user = userEvent.setup();
    await within(c).findByRole('combobox', { name: 'Product 1' });
    await user.click(within(c).getByRole('button', { name: 'Add Product' }));
    await user.type(within(c).getByRole('combobox', { name: 'Product 2' }), 'solar home 50w');
    await user.type(within(c).getByRole('textbox', { name: 'Months 2' }), '6');
    await user.click(within(c).getByRole('button', { name: 'Add Product' }));
    await user.type(within(c).getByRole('combobox', { name: 'Product 3' }), 'Lantern');
    await user.click(within(c).getByRole('button', { name: 'Add Product' }));
    await user.type(within(c).getByRole('textbox', { name: 'Months 4' }), '3');
    await user.click(within(c).getByRole('button', { name: 'Save Warranties' }));
    expect(within(c).getByText('Months is required')).toBeInTheDocument();
    expect(within(c).getByText('Product is required')).toBeInTheDocument();
    // The list is checked for names twice once each row is whole.
    await user.type(within(c).getByRole('textbox', { name: 'Months 3' }), '6');
    await user.click(within(c).getByRole('button', { name: 'Remove row 4' }));
    await user.click(within(c).getByRole('button', { name: 'Save Warranties' }));
    expect(within(c).getByText('solar home 50w is already in the list (row 1)')).toBeInTheDocument();
    expect(within(c).queryByText('Months is required')).not.toBeInTheDocument();
    expect(puts(calls)).toEqual([]);
  });

  it('lets staff read the list and change nothing', async () => {
    const { calls } = openSettings('staff');
    const c = await card();
    const table = await within(c).findByRole('table', { name: 'Warranties' });
    const [, row] = within(table).getAllByRole('row');
    expect(within(row!).getAllByRole('cell').map((x) => x.textContent)).toEqual(['Solar Home 50W', '12', '40']);
    expect(within(c).queryByRole('textbox')).not.toBeInTheDocument();
    expect(within(c).queryByRole('combobox')).not.toBeInTheDocument();
    expect(within(c).queryByRole('button')).not.toBeInTheDocument();
    expect(puts(calls)).toEqual([]);
  });

  it('says what no warranty means when none is set', async () => {
    openSettings('staff', buildWarrantySettings({ warranties: [] }));
    const c = await card();
    expect(await within(c).findByText("No warranties set: a device's page and a swap say nothing about warranty.")).toBeInTheDocument();
    expect(within(c).queryByRole('table')).not.toBeInTheDocument();
  });
});
