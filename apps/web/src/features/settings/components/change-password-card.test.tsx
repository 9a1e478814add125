import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildAuthReply, buildUser, seedSession } from '@/testing/factories';
import { deferred, jsonResponse } from '@/testing/fetch';
import { renderApp } from '@/testing/render';
import { mockSettingsApi } from '../testing/mock-settings-api';

const CURRENT = 'password123';
const NEXT = 'a-much-better-one';

async function openCard() {
  renderApp('/settings');
  const card = await screen.findByRole('region', { name: 'Change Password' });
  const box = (name: string) => within(card).getByLabelText(new RegExp(`^${name}`), { selector: 'input' });
  return { card, current: box('Current password'), next: box('New password'), confirm: box('Confirm new password') };
}

describe('Change Password card', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it("checks the form with the API's rules before sending anything", async () => {
    const user = userEvent.setup();
    seedSession({ user: buildUser({ role: 'staff' }) });
    const { calls } = mockSettingsApi();
    const { card, current, next, confirm } = await openCard();
    const submit = within(card).getByRole('button', { name: 'Change Password' });

    await user.click(submit);
    expect(within(card).getByText('Current password is required')).toBeInTheDocument();
    expect(within(card).getByText('New password must be at least 8 characters')).toBeInTheDocument();

    await user.type(current, CURRENT);
    await user.type(next, CURRENT);
    await user.type(confirm, CURRENT);
    await user.click(submit);
    expect(within(card).getByText('New password must be different from the current password')).toBeInTheDocument();

    await user.clear(next);
    await user.type(next, NEXT);
    await user.clear(confirm);
    await user.type(confirm, `${NEXT}!`);
    await user.click(submit);
    expect(within(card).getByText('Passwords do not match')).toBeInTheDocument();
    expect(calls.some((c) => c.url === '/payg/auth/change-password')).toBe(false);
  });

  it("shows and hides all three boxes together", async () => {
    const user = userEvent.setup();
    seedSession({ user: buildUser({ role: 'staff' }) });
    mockSettingsApi();
    const { card, current, next, confirm } = await openCard();
    for (const box of [current, next, confirm]) expect(box).toHaveAttribute('type', 'password');
    await user.click(within(card).getByRole('button', { name: 'Show new password' }));
    for (const box of [current, next, confirm]) expect(box).toHaveAttribute('type', 'text');
    await user.click(within(card).getByRole('button', { name: 'Show current password' }));
    for (const box of [current, next, confirm]) expect(box).toHaveAttribute('type', 'password');
  });

  it("says 'Saving...' while the change is sent, then 'Password changed', and keeps the browser signed in with the fresh session", async () => {
    const user = userEvent.setup();
    seedSession({ user: buildUser({ role: 'staff' }) });
    const held = deferred<void>();
    const { calls } = mockSettingsApi((_call, path) =>
      path === '/payg/auth/change-password'
        ? held.promise.then(() => jsonResponse(200, buildAuthReply({ access_token: 'access-2', refresh_token: 'refresh-2', user: buildUser({ role: 'staff' }) })))
        : undefined,
    );
    const { card, current, next, confirm } = await openCard();
    await user.type(current, CURRENT);
    await user.type(next, NEXT);
    await user.type(confirm, NEXT);
    await user.click(within(card).getByRole('button', { name: 'Change Password' }));

    expect(await within(card).findByRole('button', { name: 'Saving...' })).toBeDisabled();
    held.resolve();
    expect(await within(card).findByText('Password changed')).toBeInTheDocument();
    const sent = calls.filter((c) => c.url === '/payg/auth/change-password');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.method).toBe('POST');
    expect(JSON.parse(sent[0]!.body!)).toEqual({ current_password: CURRENT, new_password: NEXT });
    expect(localStorage.getItem('authToken')).toBe('access-2');
    expect(localStorage.getItem('refreshToken')).toBe('refresh-2');
    for (const box of [current, next, confirm]) expect(box).toHaveValue('');
    // Still on Settings, still signed in.
    expect(screen.getByRole('heading', { name: 'Settings' })).toBeInTheDocument();
  });

  it("shows the API's refusal next to the field it names", async () => {
    const user = userEvent.setup();
    seedSession({ user: buildUser({ role: 'owner' }) });
    mockSettingsApi((_call, path) =>
      path === '/payg/auth/change-password'
        ? jsonResponse(400, { detail: 'current_password: is incorrect', message: 'current_password: is incorrect', errors: [{ field: 'current_password', message: 'is incorrect' }] })
        : undefined,
    );
    const { card, current, next, confirm } = await openCard();
    await user.type(current, 'not-my-password');
    await user.type(next, NEXT);
    await user.type(confirm, NEXT);
    await user.click(within(card).getByRole('button', { name: 'Change Password' }));
    expect(await within(card).findByText('Current password is incorrect')).toBeInTheDocument();
    expect(current).toHaveAttribute('aria-invalid', 'true');
    expect(within(card).queryByText('Password changed')).not.toBeInTheDocument();
    expect(localStorage.getItem('authToken')).toBe('access-1');
  });

  it('shows any other failure as a message in the card', async () => {
    const user = userEvent.setup();
    seedSession({ user: buildUser({ role: 'staff' }) });
    mockSettingsApi((_call, path) => (path === '/payg/auth/change-password' ? jsonResponse(500, { message: 'Internal server error' }) : undefined));
    const { card, current, next, confirm } = await openCard();
    await user.type(current, CURRENT);
    await user.type(next, NEXT);
    await user.type(confirm, NEXT);
    await user.click(within(card).getByRole('button', { name: 'Change Password' }));
    const alert = await within(card).findByRole('alert');
    expect(alert).toHaveTextContent('Failed to change the password');
    expect(alert).toHaveTextContent('Internal server error');
    await user.type(current, 'x');
    await waitFor(() => expect(within(card).queryByRole('alert')).not.toBeInTheDocument());
  });
});
