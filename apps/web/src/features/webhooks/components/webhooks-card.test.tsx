import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WEBHOOK_EVENT_TYPES } from '@kidogo/contracts';
import { buildUser, seedSession } from '@/testing/factories';
import { renderApp } from '@/testing/render';
import { mockSettingsApi } from '@/features/settings/testing/mock-settings-api';
import { SECRET, buildDelivery, buildEndpoint, webhooksHandler } from '../testing/mock-webhooks-api';

const signInAs = (role: 'owner' | 'admin' | 'staff') => seedSession({ user: buildUser({ user_id: 7, username: 'amina', role }) });

async function card() {
  return screen.findByRole('region', { name: 'Webhooks' });
}

describe('Webhooks card', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('is not shown to staff, and never asked for', async () => {
    signInAs('staff');
    const { calls } = mockSettingsApi(webhooksHandler([buildEndpoint()]));
    renderApp('/settings');
    await screen.findByRole('region', { name: 'Change Password' });
    expect(screen.queryByRole('region', { name: 'Webhooks' })).not.toBeInTheDocument();
    expect(calls.some((c) => c.url.startsWith('/payg/webhooks'))).toBe(false);
  });

  it('lists each endpoint with its events, state, queue and latest attempt', async () => {
    signInAs('owner');
    mockSettingsApi(
      webhooksHandler([
        buildEndpoint(),
        buildEndpoint({
          id: 2,
          url: 'https://crm.example.org/hooks',
          description: null,
          events: ['token.issued'],
          is_active: false,
          pending: 3,
          failed_7d: 1,
          last_attempt: { at: '2026-11-25T11:00:00Z', ok: false, response_status: 500, error: 'answered HTTP 500' },
        }),
      ]),
    );
    renderApp('/settings');
    const table = within(await card()).getByRole('table', { name: 'Webhook endpoints' });
    await within(table).findByText('https://erp.example.com/kidogo/events');
    const rows = within(table).getAllByRole('row');
    expect(within(rows[0]!).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Endpoint', 'Events', 'Status', 'Actions']);
    expect(rows[1]).toHaveTextContent(/Accounting \(ERPNext\).*payment\.applied.*payment\.held.*Active.*Delivered .*\(HTTP 200\)/);
    expect(rows[2]).toHaveTextContent(/crm\.example\.org.*token\.issued.*Paused.*3 waiting.*1 failed \(7 days\).*Failed .*: answered HTTP 500/);
  });

  it('adds an endpoint, checking the address first, and shows its secret once', async () => {
    const user = userEvent.setup();
    signInAs('admin');
    const { calls } = mockSettingsApi(webhooksHandler());
    renderApp('/settings');
    const region = await card();
    await within(region).findByText('No endpoints yet');
    await user.click(within(region).getByRole('button', { name: 'Add Endpoint' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Endpoint' });
    // Every event is offered, with what it means; the money events are checked to start with.
    expect(within(dialog).getAllByRole('checkbox')).toHaveLength(WEBHOOK_EVENT_TYPES.length);
    expect(within(dialog).getByRole('checkbox', { name: /payment\.applied/ })).toBeChecked();
    expect(within(dialog).getByRole('checkbox', { name: /token\.issued/ })).not.toBeChecked();

    await user.type(within(dialog).getByLabelText(/Endpoint URL/), 'ftp://erp.example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Add Endpoint' }));
    expect(await within(dialog).findByText('Endpoint URL must start with https:// or http://')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await user.clear(within(dialog).getByLabelText(/Endpoint URL/));
    await user.type(within(dialog).getByLabelText(/Endpoint URL/), 'https://erp.example.com/kidogo/events');
    await user.type(within(dialog).getByLabelText('Description'), 'Accounting');
    await user.click(within(dialog).getByRole('checkbox', { name: /token\.issued/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Add Endpoint' }));

    const shown = await screen.findByRole('dialog', { name: 'Endpoint Added' });
    expect(within(shown).getByLabelText('Signing secret')).toHaveValue(SECRET);
    expect(within(shown).getByText('Copy it now')).toBeInTheDocument();
    const post = calls.find((c) => c.method === 'POST' && c.url === '/payg/webhooks')!;
    expect(JSON.parse(post.body!)).toEqual({
      url: 'https://erp.example.com/kidogo/events',
      description: 'Accounting',
      events: ['payment.applied', 'payment.held', 'token.issued'],
    });
    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByDisplayValue(SECRET)).not.toBeInTheDocument());
    expect(await within(region).findByText('https://erp.example.com/kidogo/events')).toBeInTheDocument();
  });

  it('sends a test event and says what the endpoint answered', async () => {
    const user = userEvent.setup();
    signInAs('owner');
    mockSettingsApi(webhooksHandler([buildEndpoint()], [], { status: 'failed', response_status: 401, error: 'answered HTTP 401' }));
    renderApp('/settings');
    const region = await card();
    await user.click(await within(region).findByRole('button', { name: 'Send a test event to https://erp.example.com/kidogo/events' }));
    expect(await screen.findByText('Test event not delivered: answered HTTP 401')).toBeInTheDocument();
  });

  it('shows the delivery log with the body sent and sends one again', async () => {
    const user = userEvent.setup();
    signInAs('owner');
    const failed = buildDelivery({ id: 12, status: 'failed', attempts: 7, response_status: 503, error: 'answered HTTP 503', delivered_at: null, response_body: 'down' });
    const { calls } = mockSettingsApi(webhooksHandler([buildEndpoint()], [failed, buildDelivery()]));
    renderApp('/settings');
    const region = await card();
    await user.click(await within(region).findByRole('button', { name: 'Deliveries to https://erp.example.com/kidogo/events' }));
    const drawer = await screen.findByRole('dialog', { name: 'Deliveries to https://erp.example.com/kidogo/events' });
    const item = await within(drawer).findByRole('button', { name: 'Delivery 12: payment.applied, Failed' });
    expect(item).toHaveTextContent('HTTP 503 in 84 ms · 7 attempts');
    expect(within(drawer).getByRole('button', { name: 'Delivery 11: payment.applied, Delivered' })).toHaveTextContent('HTTP 200 in 84 ms');
    await user.click(item);
    // Each delivery opens on the body sent and the endpoint's answer.
    expect(await within(drawer).findAllByText(/"amount": "150.00"/)).toHaveLength(2);
    expect(within(drawer).getByText('down')).toBeInTheDocument();
    await user.click((await within(drawer).findAllByRole('button', { name: 'Send Again' }))[0]!);
    expect(await screen.findByText('Delivered again: HTTP 200')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST' && c.url === '/payg/webhooks/1/deliveries/12/redeliver')).toBe(true);
  });

  it('pauses, rotates the secret and deletes, asking first where it cannot be undone', async () => {
    const user = userEvent.setup();
    signInAs('owner');
    const { calls } = mockSettingsApi(webhooksHandler([buildEndpoint()]));
    renderApp('/settings');
    const region = await card();
    const more = async () => user.click(await within(region).findByRole('button', { name: 'More for https://erp.example.com/kidogo/events' }));

    await more();
    await user.click(await screen.findByRole('menuitem', { name: 'Pause' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH' && c.body === '{"is_active":false}')).toBe(true));
    expect(await within(region).findByText('Paused')).toBeInTheDocument();

    await more();
    await user.click(await screen.findByRole('menuitem', { name: 'Rotate Secret' }));
    const confirm = await screen.findByRole('dialog', { name: 'Rotate the signing secret?' });
    await user.click(within(confirm).getByRole('button', { name: 'Rotate Secret' }));
    const shown = await screen.findByRole('dialog', { name: 'New Signing Secret' });
    expect(within(shown).getByDisplayValue(`${SECRET}2`)).toBeInTheDocument();
    await user.click(within(shown).getByRole('button', { name: 'Done' }));

    await more();
    await user.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    const del = await screen.findByRole('dialog', { name: 'Delete endpoint?' });
    await user.click(within(del).getByRole('button', { name: 'Delete Endpoint' }));
    expect(await within(region).findByText('No endpoints yet')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'DELETE' && c.url === '/payg/webhooks/1')).toBe(true);
  });
});
