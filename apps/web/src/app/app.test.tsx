import { notifications } from '@mantine/notifications';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildUser, seedSession } from '@/testing/factories';
import { jsonResponse, mockFetch } from '@/testing/fetch';
import { renderApp } from '@/testing/render';

/** The API as far as the shell needs it: notifications, and an answer to logout. */
function mockShellApi(notifications: unknown[] = []) {
  return mockFetch((call) => {
    if (call.url.startsWith('/payg/notifications')) return jsonResponse(200, { data: notifications });
    return jsonResponse(200, {});
  });
}

describe('app', () => {
  afterEach(() => vi.unstubAllGlobals());

  describe('landing page', () => {
    it('renders for a visitor, with its sections and every primary button leading to /login', async () => {
      renderApp('/');
      expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent(/Small payments/);

      for (const [label, id] of [
        ['Solutions', 'solutions'],
        ['Company', 'company'],
        ['Resources', 'resources'],
      ] as const) {
        const nav = screen.getByRole('navigation', { name: 'Sections' });
        expect(within(nav).getByRole('link', { name: label })).toHaveAttribute('href', `#${id}`);
        expect(document.getElementById(id)).not.toBeNull();
      }
      expect(screen.getByText(/Mobile-money forwarding into your CRM/)).toBeInTheDocument();
      expect(screen.getByText('QR payment systems')).toBeInTheDocument();
      expect(screen.getByText('Smart vending machines')).toBeInTheDocument();
      expect(screen.getByText('Analytics')).toBeInTheDocument();

      for (const name of ['Login', 'Get Started', 'Request Demo', 'Contact Sales']) {
        const links = screen.getAllByRole('link', { name: new RegExp(`^${name}`) });
        expect(links.length).toBeGreaterThan(0);
        for (const link of links) expect(link).toHaveAttribute('href', '/login');
      }
    });

    it('sends a visitor with a stored session to the dashboard', async () => {
      seedSession();
      mockShellApi();
      const { router } = renderApp('/');
      await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
      expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    });
  });

  describe('routing', () => {
    it('sends an unknown path to the dashboard', async () => {
      seedSession();
      mockShellApi();
      const { router } = renderApp('/no/such/page');
      await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    });

    it('sends a visitor without a session from a protected page to /login, remembering it', async () => {
      const { router } = renderApp('/device-activity/SN-001');
      await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
      expect(router.state.location.state).toMatchObject({ from: { pathname: '/device-activity/SN-001' } });
    });

    it.each([
      ['/customers', 'Customers'],
      ['/payments', 'Payment Templates'],
      ['/tokens', 'Tokens'],
      ['/reports', 'Reports'],
      ['/settings', 'Settings'],
      ['/onboarding', 'Customer Onboarding'],
      ['/messages', 'Message History'],
      ['/products', 'Product Management'],
      ['/stock', 'Stock Locations'],
      ['/collections', 'Collections'],
      ['/tickets', 'Service Tickets'],
      ['/invoices', 'Invoices'],
      ['/device-activity/SN-001', 'Device Activity'],
      ['/customer-payment-details/42', 'Customer Payment Details'],
    ])('%s shows %s inside the shell', async (url, title) => {
      seedSession();
      mockShellApi();
      renderApp(url);
      expect(await screen.findByRole('heading', { name: title })).toBeInTheDocument();
      expect(screen.getByRole('navigation', { name: 'Main navigation' })).toBeInTheDocument();
    });
  });

  describe('app shell', () => {
    const sidebarLabels = () =>
      within(screen.getByRole('navigation', { name: 'Main navigation' }))
        .getAllByRole('link')
        .map((a) => a.textContent);

    it('lists the sidebar entries in order, without Super Admin for other roles', async () => {
      seedSession({ user: buildUser({ role: 'owner' }) });
      mockShellApi();
      renderApp('/dashboard');
      await screen.findByRole('heading', { name: 'Dashboard' });
      expect(sidebarLabels()).toEqual([
        'Dashboard',
        'Customers',
        'Products',
        'Stock Locations',
        'Collections',
        'Service Tickets',
        'Onboarding',
        'Payment Templates',
        'Invoices',
        'Tokens',
        'Messages',
        'Bulk SMS',
        'Cash in Hand',
        'Agent Commissions',
        'Reports',
        'Activity Log',
        'Settings',
      ]);
      expect(screen.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page');
    });

    it('keeps the Activity Log, Bulk SMS and Agent Commissions from staff', async () => {
      seedSession({ user: buildUser({ role: 'staff' }) });
      mockShellApi();
      renderApp('/dashboard');
      await screen.findByRole('heading', { name: 'Dashboard' });
      expect(sidebarLabels()).not.toContain('Activity Log');
      expect(sidebarLabels()).not.toContain('Bulk SMS');
      expect(sidebarLabels()).not.toContain('Agent Commissions');
      expect(sidebarLabels()).toContain('Settings');
    });

    it('shows Super Admin to a super_admin', async () => {
      seedSession({ user: buildUser({ role: 'super_admin' }) });
      mockShellApi();
      renderApp('/super-admin');
      expect(await screen.findByRole('heading', { name: 'Super Admin Dashboard' })).toBeInTheDocument();
      expect(sidebarLabels().at(-1)).toBe('Super Admin');
    });

    it('collapses the sidebar and remembers it', async () => {
      const user = userEvent.setup();
      seedSession();
      mockShellApi();
      renderApp('/dashboard');
      await screen.findByRole('heading', { name: 'Dashboard' });
      await user.click(screen.getByRole('button', { name: 'Collapse sidebar' }));
      expect(localStorage.getItem('sidebarExpanded')).toBe('false');
      expect(screen.getByRole('button', { name: 'Expand sidebar' })).toBeInTheDocument();
    });

    it("shows 'No notifications' when there are none, and the list when there are", async () => {
      const user = userEvent.setup();
      seedSession();
      const { calls } = mockShellApi();
      renderApp('/dashboard');
      await screen.findByRole('heading', { name: 'Dashboard' });
      await user.click(screen.getByRole('button', { name: 'Notifications' }));
      expect(await screen.findByText('No notifications')).toBeInTheDocument();
      expect(calls.find((c) => c.url === '/payg/notifications')?.headers.authorization).toBe('Bearer access-1');
    });

    it('lists notifications from the API', async () => {
      const user = userEvent.setup();
      seedSession();
      mockShellApi([
        { id: 1, message: 'Token batch finished', level: 'success', created_by: 'system', created_at: '2026-11-21T08:00:00Z' },
      ]);
      renderApp('/dashboard');
      await screen.findByRole('heading', { name: 'Dashboard' });
      await user.click(screen.getByRole('button', { name: 'Notifications' }));
      expect(await screen.findByText('Token batch finished')).toBeInTheDocument();
    });

    it('help menu items are real links', async () => {
      const user = userEvent.setup();
      seedSession();
      mockShellApi();
      renderApp('/dashboard');
      await screen.findByRole('heading', { name: 'Dashboard' });
      await user.click(screen.getByRole('button', { name: 'Help' }));
      expect(await screen.findByRole('menuitem', { name: 'Documentation' })).toHaveAttribute('href', '/payg/docs');
      expect(screen.getByRole('menuitem', { name: 'Support Site' })).toHaveAttribute('href');
      expect(screen.getByRole('menuitem', { name: 'Contact us' }).getAttribute('href')).toMatch(/^mailto:/);
    });

    it('switches to the dark theme and keeps it under "theme"', async () => {
      const user = userEvent.setup();
      seedSession();
      mockShellApi();
      renderApp('/dashboard');
      await screen.findByRole('heading', { name: 'Dashboard' });
      await user.click(screen.getByRole('button', { name: 'Switch to dark theme' }));
      expect(localStorage.getItem('theme')).toBe('dark');
      expect(document.documentElement).toHaveAttribute('data-mantine-color-scheme', 'dark');
      await user.click(screen.getByRole('button', { name: 'Switch to light theme' }));
      expect(localStorage.getItem('theme')).toBe('light');
    });

    it('user menu shows the user and role; Sign Out ends the session and shows the landing page', async () => {
      const user = userEvent.setup();
      seedSession({ user: buildUser({ username: 'wanjiru', role: 'owner' }) });
      mockShellApi();
      const { router } = renderApp('/tokens');
      await screen.findByRole('heading', { name: 'Tokens' });
      const menuButton = screen.getByRole('button', { name: 'User menu' });
      expect(menuButton).toHaveTextContent('wanjiru');
      expect(menuButton).toHaveTextContent('Owner');
      await user.click(menuButton);
      expect(await screen.findByRole('menuitem', { name: 'Settings' })).toHaveAttribute('href', '/settings');
      await user.click(screen.getByRole('menuitem', { name: 'Sign Out' }));
      await waitFor(() => expect(router.state.location.pathname).toBe('/'));
      expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent(/Small payments/);
      expect(localStorage.getItem('authToken')).toBeNull();
    });

    it("falls back to the organization id, then 'User', and to 'Administrator' for the role", async () => {
      localStorage.setItem('authToken', 'opaque-token');
      mockShellApi();
      renderApp('/dashboard');
      await screen.findByRole('heading', { name: 'Dashboard' });
      const menuButton = screen.getByRole('button', { name: 'User menu' });
      expect(menuButton).toHaveTextContent('User');
      expect(menuButton).toHaveTextContent('Administrator');
    });
  });

  describe('organization-service-disabled', () => {
    it.each([
      ['SERVICE_DISABLED', { reason: 'Contract ended' }, 'Contract ended', 'Service disabled'],
      ['SERVICE_SUSPENDED', { message: 'Suspended for non-payment' }, 'Suspended for non-payment', 'Service suspended'],
      ['SERVICE_SUSPENDED', {}, 'Your organization access has been restricted', 'Service suspended'],
    ])('%s shows a toast', async (error, detail, text, title) => {
      renderApp('/');
      await screen.findByRole('heading', { level: 1 });
      act(() => {
        window.dispatchEvent(new CustomEvent('organization-service-disabled', { detail: { error, ...detail } }));
      });
      expect(await screen.findByText(text)).toBeInTheDocument();
      expect(screen.getByText(title)).toBeInTheDocument();
    });

    const blockedReply = (error: 'SERVICE_DISABLED' | 'SERVICE_SUSPENDED') =>
      jsonResponse(403, {
        detail: {
          error,
          message: error === 'SERVICE_DISABLED' ? 'Your organization has been disabled.' : 'Your organization has been suspended.',
          reason: 'Invoice INV-000042 is unpaid',
          ...(error === 'SERVICE_DISABLED' ? { disabled_at: '2026-11-01T10:00:00Z' } : { suspended_at: '2026-11-01T10:00:00Z' }),
          support_message: 'Please contact your platform administrator or support to restore access.',
        },
        message: 'Invoice INV-000042 is unpaid',
      });

    it.each([
      ['SERVICE_SUSPENDED', 'Your organization has been suspended.', /^Suspended since /, 'yellow'],
      ['SERVICE_DISABLED', 'Your organization has been disabled.', /^Disabled since /, 'red'],
    ] as const)('%s keeps a banner above every page until the organization answers again', async (error, message, since, color) => {
      let blocked = true;
      mockFetch((call) => {
        if (call.url.startsWith('/payg/health')) return jsonResponse(200, { status: 'healthy', database: 'connected', external_services: 'operational' });
        return blocked ? blockedReply(error) : jsonResponse(200, { data: [] });
      });
      seedSession();
      const { router } = renderApp('/dashboard');
      const banner = await screen.findByRole('alert', { name: message });
      expect(banner.style.getPropertyValue('--alert-bg')).toBe(`var(--mantine-color-${color}-light)`);
      expect(within(banner).getByText('Invoice INV-000042 is unpaid')).toBeInTheDocument();
      expect(within(banner).getByText(since)).toHaveTextContent('2026');
      expect(within(banner).getByText('Please contact your platform administrator or support to restore access.')).toBeInTheDocument();

      // The toast goes after 5 s; the banner stays, on every page.
      act(() => notifications.clean());
      await act(() => router.navigate('/products'));
      expect(await screen.findByRole('heading', { name: 'Product Management' })).toBeInTheDocument();
      expect(screen.getByRole('alert', { name: message })).toBeInTheDocument();

      // Reactivated: the next reply of an organization call clears it (a public /health reply does not).
      blocked = false;
      await act(() => router.navigate('/customers'));
      await waitFor(() => expect(screen.queryByRole('alert', { name: message })).not.toBeInTheDocument());
    });
  });
});
