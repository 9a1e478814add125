import { screen, waitFor } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { useLocation } from 'react-router-dom';
import { expect } from 'vitest';
import AppLayoutRoute from '@/app/routes/app-layout';
import { RootRoute } from '@/app/routes/root';
import { renderApp } from '@/testing/render';

/** Any page: says where it is, and has a field to type in (where "/" is a character, not the shortcut). */
function AnyPage() {
  const { pathname } = useLocation();
  return (
    <>
      <h1>Page {pathname}</h1>
      <input aria-label="Note" />
    </>
  );
}

/**
 * The real shell (header, session) around a stand-in page: Find's tests
 * follow its links without loading the screens they lead to.
 */
export function renderShell(url = '/dashboard') {
  const view = renderApp(url, [{ Component: RootRoute, children: [{ Component: AppLayoutRoute, children: [{ path: '*', Component: AnyPage }] }] }]);
  return { ...view, where: () => view.router.state.location.pathname };
}

/** The Find dialog, once it is open. */
export const findDialog = () => screen.findByRole('dialog', { name: 'Find' });

/** The search box of the open dialog. */
export const findBox = () => screen.getByRole('combobox', { name: 'Find a customer, device or payment' });

/** Opens Find with the header's button (the desktop one: both are in the page, CSS hides one) and waits for its box. */
export async function openFind(user: UserEvent) {
  await user.click(screen.getAllByRole('button', { name: 'Find' })[0]!);
  await findDialog();
  await waitFor(() => expect(findBox()).toHaveFocus());
  return findBox();
}
