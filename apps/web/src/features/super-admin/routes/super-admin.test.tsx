import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildUser, seedSession } from '@/testing/factories';
import { jsonResponse, mockFetch, type RecordedCall } from '@/testing/fetch';
import { renderApp } from '@/testing/render';
import { REASON_TEMPLATES } from '../components/reason-templates';
import type { AdminOrganization } from '../api/types';

const org = (overrides: Partial<AdminOrganization> = {}): AdminOrganization => ({
  organization_id: 'demo',
  external_key: 'DEMO-001',
  name: 'Demo Solar Ltd',
  app: 'kidogo',
  status: 'active',
  disabled_reason: null,
  phone_country_code: '254',
  status_changed_at: null,
  user_count: 3,
  last_activity: null,
  created_at: '2026-11-01T00:00:00Z',
  ...overrides,
});

function mockConsoleApi(orgs: AdminOrganization[], extra: (c: RecordedCall) => Response | undefined = () => undefined) {
  return mockFetch((call) => {
    const hit = extra(call);
    if (hit) return hit;
    if (call.url.startsWith('/payg/admin/organizations/stats'))
      return jsonResponse(200, { total_organizations: orgs.length, active_organizations: 1, suspended_organizations: 0, disabled_organizations: 0, total_users: 4 });
    if (call.url.startsWith('/payg/admin/organizations?'))
      return jsonResponse(200, { data: orgs, pagination: { total: orgs.length, total_pages: 1, limit: 50, offset: 0 } });
    return jsonResponse(200, { data: [] });
  });
}

async function openConsole() {
  seedSession({ user: buildUser({ role: 'super_admin', organization_id: 'platform' }) });
  const view = renderApp('/super-admin');
  await screen.findByRole('cell', { name: /demo/ }, { timeout: 5000 });
  return view;
}

async function openChangeStatus(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('button', { name: 'Change status of demo' }));
  return screen.findByRole('dialog', { name: 'Change Organization Status' });
}

async function choose(user: ReturnType<typeof userEvent.setup>, dialog: HTMLElement, label: RegExp, option: string) {
  await user.click(within(dialog).getByLabelText(label, { selector: 'input' }));
  await user.click(await screen.findByRole('option', { name: option }));
}

describe('Super Admin Dashboard', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('denies other roles', async () => {
    mockConsoleApi([]);
    seedSession({ user: buildUser({ role: 'owner' }) });
    renderApp('/super-admin');
    expect(await screen.findByText('Access Denied - You need super admin privileges to access this page.', {}, { timeout: 5000 })).toBeInTheDocument();
  });

  it('shows the title, the nine tabs, the stats and the organizations table', async () => {
    mockConsoleApi([org(), org({ organization_id: 'acme', external_key: null, status: 'suspended', user_count: null as unknown as number })]);
    await openConsole();
    expect(screen.getByRole('heading', { name: 'Super Admin Dashboard' })).toBeInTheDocument();
    expect(screen.getByText('Manage organizations, settings and platform-wide configuration.')).toBeInTheDocument();
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual([
      'Organizations',
      'Invoices',
      'Invoice Settings',
      'Users',
      'Token Logs',
      'Payment Providers',
      'OEM Credentials',
      'Plans',
      'Features',
    ]);
    expect(screen.getByRole('heading', { name: 'Organization Management' })).toBeInTheDocument();
    for (const card of ['Total Organizations', 'Active Organizations', 'Suspended', 'Total Users']) {
      expect(screen.getByRole('group', { name: card })).toBeInTheDocument();
    }
    const table = screen.getByRole('table', { name: 'Organizations' });
    expect(within(table).getByText('No external key')).toBeInTheDocument();
    expect(within(table).getAllByText('Never')).toHaveLength(2);
    expect(within(table).getByText('Suspended')).toBeInTheDocument();
    const acmeRow = within(table).getByText('acme').closest('tr')!;
    expect(within(acmeRow).getByRole('cell', { name: '0' })).toBeInTheDocument();
  });

  describe('change-status modal', () => {
    it('fills the reason from a template, empties it for custom, and switches to custom when edited', async () => {
      const user = userEvent.setup();
      mockConsoleApi([org()]);
      await openConsole();
      const dialog = await openChangeStatus(user);
      const reason = within(dialog).getByRole('textbox', { name: /^Reason/ });
      const templateInput = within(dialog).getByLabelText('Reason Template', { selector: 'input' });
      expect(templateInput).toHaveValue('Custom message');
      expect(reason).toHaveValue('');

      await user.click(templateInput);
      expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toHaveLength(REASON_TEMPLATES.length);
      await user.click(screen.getByRole('option', { name: 'Unpaid invoice' }));
      expect(reason).toHaveValue(REASON_TEMPLATES.find((t) => t.value === 'unpaid_invoice')!.message);

      await user.type(reason, ' Thanks.');
      expect(templateInput).toHaveValue('Custom message');
      expect(reason).toHaveValue(`${REASON_TEMPLATES.find((t) => t.value === 'unpaid_invoice')!.message} Thanks.`);

      await choose(user, dialog, /^Reason Template/, 'Maintenance');
      expect(reason).toHaveValue(REASON_TEMPLATES.find((t) => t.value === 'maintenance')!.message);
      await choose(user, dialog, /^Reason Template/, 'Custom message');
      expect(reason).toHaveValue('');
    });

    it('needs a reason to suspend or disable, and labels and colours the confirm by status', async () => {
      const user = userEvent.setup();
      mockConsoleApi([org()]);
      await openConsole();
      const dialog = await openChangeStatus(user);
      expect(within(dialog).getByRole('button', { name: 'Update Status' })).toBeDisabled();

      await choose(user, dialog, /^New Status/, 'Suspended: temporary');
      const suspend = within(dialog).getByRole('button', { name: 'Suspend Organization' });
      expect(suspend).toBeDisabled();
      expect(suspend).toHaveAttribute('style', expect.stringContaining('yellow'));
      await user.type(within(dialog).getByRole('textbox', { name: /^Reason/ }), 'Unpaid since October');
      expect(suspend).toBeEnabled();

      await choose(user, dialog, /^New Status/, 'Disabled: permanent');
      expect(within(dialog).getByRole('button', { name: 'Disable Organization' })).toHaveAttribute('style', expect.stringContaining('red'));
      await user.clear(within(dialog).getByRole('textbox', { name: /^Reason/ }));
      expect(within(dialog).getByRole('button', { name: 'Disable Organization' })).toBeDisabled();

      await choose(user, dialog, /^New Status/, 'Active: full access');
      const enable = within(dialog).getByRole('button', { name: 'Enable Organization' });
      expect(enable).toBeEnabled();
      expect(enable).toHaveAttribute('style', expect.stringContaining('green'));
    });

    it("sends the status and reason, shows 'Updating...', then the green banner, and resets", async () => {
      const user = userEvent.setup();
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      const { calls } = mockConsoleApi([org()], (c) =>
        c.method === 'PUT' && c.url === '/payg/admin/organizations/demo/status'
          ? (held.then(() => jsonResponse(200, { organization_id: 'demo', status: 'suspended', disabled_reason: 'x', status_changed_at: null, message: 'ok' })) as unknown as Response)
          : undefined,
      );
      await openConsole();
      const dialog = await openChangeStatus(user);
      await choose(user, dialog, /^New Status/, 'Suspended: temporary');
      await choose(user, dialog, /^Reason Template/, 'Payment overdue');
      await user.click(within(dialog).getByRole('button', { name: 'Suspend Organization' }));
      expect(await within(dialog).findByRole('button', { name: 'Updating...' })).toBeDisabled();
      release();
      expect(await screen.findByText('Organization suspended successfully')).toBeInTheDocument();
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(JSON.parse(calls.find((c) => c.method === 'PUT')!.body!)).toEqual({
        status: 'suspended',
        reason: REASON_TEMPLATES.find((t) => t.value === 'payment_overdue')!.message,
      });
      const again = await openChangeStatus(user);
      expect(within(again).getByRole('textbox', { name: /^Reason/ })).toHaveValue('');
    });

    it('shows a failure in the red banner', async () => {
      const user = userEvent.setup();
      mockConsoleApi([org()], (c) =>
        c.method === 'PUT' ? jsonResponse(409, { detail: 'You cannot suspend or disable your own organization', message: 'You cannot suspend or disable your own organization' }) : undefined,
      );
      await openConsole();
      const dialog = await openChangeStatus(user);
      await choose(user, dialog, /^New Status/, 'Disabled: permanent');
      await user.type(within(dialog).getByRole('textbox', { name: /^Reason/ }), 'Closed');
      await user.click(within(dialog).getByRole('button', { name: 'Disable Organization' }));
      expect(await screen.findByTestId('console-error')).toHaveTextContent('You cannot suspend or disable your own organization');
    });
  });

  it("adds an organization with app 'kidogo' by default", async () => {
    const user = userEvent.setup();
    const { calls } = mockConsoleApi([org()], (c) =>
      c.method === 'POST' && c.url === '/payg/admin/organizations' ? jsonResponse(201, org({ organization_id: 'sunlight' })) : undefined,
    );
    await openConsole();
    await user.click(screen.getByRole('button', { name: 'Add Organization' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Organization' });
    await user.click(within(dialog).getByRole('button', { name: 'Add Organization' }));
    expect(within(dialog).getByText('Organization ID is required')).toBeInTheDocument();
    await user.type(within(dialog).getByRole('textbox', { name: /^Organization ID/ }), 'sunlight');
    expect(within(dialog).getByRole('combobox', { name: /^Phone Numbers/ })).toHaveValue('Kenya (+254)');
    await user.click(within(dialog).getByRole('button', { name: 'Add Organization' }));
    expect(await screen.findByText('Organization created successfully')).toBeInTheDocument();
    expect(JSON.parse(calls.find((c) => c.method === 'POST')!.body!)).toEqual({
      organization_id: 'sunlight',
      external_key: null,
      name: null,
      app: 'kidogo',
      phone_country_code: '254',
    });
  });

  it("adds an organization whose customers' phones are Ugandan", async () => {
    const user = userEvent.setup();
    const { calls } = mockConsoleApi([org()], (c) =>
      c.method === 'POST' && c.url === '/payg/admin/organizations' ? jsonResponse(201, org({ organization_id: 'sunlight-ug', phone_country_code: '256' })) : undefined,
    );
    await openConsole();
    await user.click(screen.getByRole('button', { name: 'Add Organization' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Organization' });
    await user.type(within(dialog).getByRole('textbox', { name: /^Organization ID/ }), 'sunlight-ug');
    await user.click(within(dialog).getByRole('combobox', { name: /^Phone Numbers/ }));
    await user.click(await screen.findByRole('option', { name: 'Uganda (+256)' }));
    await user.click(within(dialog).getByRole('button', { name: 'Add Organization' }));
    expect(await screen.findByText('Organization created successfully')).toBeInTheDocument();
    expect(JSON.parse(calls.find((c) => c.method === 'POST')!.body!)).toMatchObject({ organization_id: 'sunlight-ug', phone_country_code: '256' });
  });

  it('asks before deleting, shows what would be lost, and offers a forced delete', async () => {
    const user = userEvent.setup();
    const lost = 'Organization demo still has 5 customers and 3 users. Deleting it would permanently remove all of them. Repeat with force=true to delete everything.';
    const { calls } = mockConsoleApi([org()], (c) => {
      if (c.method !== 'DELETE') return undefined;
      return c.url.endsWith('?force=true') ? jsonResponse(200, { message: 'Organization deleted successfully' }) : jsonResponse(409, { detail: lost, message: lost });
    });
    await openConsole();
    await user.click(screen.getByRole('button', { name: 'Delete demo' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Organization' });
    expect(within(dialog).getByText('Are you sure you want to delete this organization? This action cannot be undone.')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Delete Organization' }));
    expect(await within(dialog).findByText(lost)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Force Delete Everything' }));
    expect(await screen.findByText('Organization deleted successfully')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual([
      '/payg/admin/organizations/demo',
      '/payg/admin/organizations/demo?force=true',
    ]);
  });

  it('details show the real status, users and activity, and send a typed notification', async () => {
    const user = userEvent.setup();
    const { calls } = mockConsoleApi([org({ status: 'suspended' })], (c) => {
      if (c.url === '/payg/admin/organizations/demo')
        return jsonResponse(200, {
          ...org({ status: 'suspended', external_key: null, disabled_reason: 'Unpaid invoice', phone_country_code: '255' }),
          counts: { customers: 5, devices: 4, payments: 9, users: 1, tokens: 9, messages: 9, invoices: 1 },
          users: [{ user_id: 2, username: 'demo', email: 'owner@demo.kidogo.local', role: 'owner', is_active: true, last_login_at: null, created_at: '2026-11-01T00:00:00Z' }],
          plan_code: null,
        });
      if (c.url.startsWith('/payg/admin/organizations/demo/activity'))
        return jsonResponse(200, { data: [{ id: 1, description: 'Organization suspended by admin', timestamp: '2026-11-20T10:00:00Z', action: 'organization.status', actor: 'admin' }] });
      if (c.url === '/payg/admin/organizations/demo/notify') return jsonResponse(201, { id: 1 });
      return undefined;
    });
    await openConsole();
    await user.click(screen.getByRole('button', { name: 'View details of demo' }));
    const dialog = await screen.findByRole('dialog', { name: 'Organization Details' });
    expect(await within(dialog).findByText('Organization suspended by admin')).toBeInTheDocument();
    expect(within(dialog).getByText('Suspended')).toBeInTheDocument();
    expect(within(dialog).getByText('None')).toBeInTheDocument();
    expect(within(dialog).getByText('Tanzania (+255)')).toBeInTheDocument();
    expect(within(dialog).getByText('owner@demo.kidogo.local')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Send Notification' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Notification message' }), 'Please settle invoice INV-000001');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Notification sent to demo')).toBeInTheDocument();
    expect(JSON.parse(calls.find((c) => c.url.endsWith('/notify'))!.body!)).toEqual({ message: 'Please settle invoice INV-000001', level: 'info' });
  });
});
