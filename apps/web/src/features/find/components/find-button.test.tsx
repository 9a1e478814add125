import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildUser, seedSession } from '@/testing/factories';
import { buildFindCustomer, findCalls, mockFindApi } from '../testing/mock-find-api';
import { findBox, findDialog, openFind, renderShell } from '../testing/render-find';
import { FIND_HINT, FIND_PLACEHOLDER } from './find-modal';

async function shell(url?: string) {
  const view = renderShell(url);
  await screen.findByRole('heading', { name: /^Page / });
  return view;
}

describe('Find button', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('sits in the header with its shortcut, and opens Find with the box focused and empty', async () => {
    const user = userEvent.setup();
    seedSession();
    mockFindApi();
    await shell();
    const [desktop, phone] = screen.getAllByRole('button', { name: 'Find' });
    expect(desktop).toHaveTextContent('Ctrl K');
    expect(desktop).toHaveAttribute('aria-keyshortcuts', 'Control+K');
    expect(phone).toBeInTheDocument();
    // Left of the notifications bell.
    expect(desktop!.compareDocumentPosition(screen.getByRole('button', { name: /notifications/i })) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();

    const box = await openFind(user);
    expect(box).toHaveAttribute('placeholder', FIND_PLACEHOLDER);
    expect(box).toHaveValue('');
    expect(screen.getByText(FIND_HINT)).toBeInTheDocument();
  });

  it('opens with the phone icon too', async () => {
    const user = userEvent.setup();
    seedSession();
    mockFindApi();
    await shell();
    await user.click(screen.getAllByRole('button', { name: 'Find' })[1]!);
    expect(await findDialog()).toBeInTheDocument();
  });

  it('opens with Ctrl+K and ⌘K from anywhere, even a field', async () => {
    const user = userEvent.setup();
    seedSession();
    mockFindApi();
    await shell();
    await user.keyboard('{Control>}k{/Control}');
    expect(await findDialog()).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Find' })).not.toBeInTheDocument());

    await user.click(screen.getByRole('textbox', { name: 'Note' }));
    await user.keyboard('{Meta>}k{/Meta}');
    expect(await findDialog()).toBeInTheDocument();
    await waitFor(() => expect(findBox()).toHaveFocus());
  });

  it('opens with "/", except while typing in a field', async () => {
    const user = userEvent.setup();
    seedSession();
    mockFindApi();
    await shell();
    const note = screen.getByRole('textbox', { name: 'Note' });
    await user.type(note, 'a/b');
    expect(note).toHaveValue('a/b');
    expect(screen.queryByRole('dialog', { name: 'Find' })).not.toBeInTheDocument();

    note.blur();
    await user.keyboard('/');
    expect(await findDialog()).toBeInTheDocument();
    // The "/" opened Find; it is not typed into the box.
    await waitFor(() => expect(findBox()).toHaveFocus());
    expect(findBox()).toHaveValue('');
  });

  it('starts empty each time it is opened', async () => {
    const user = userEvent.setup();
    seedSession();
    const { calls } = mockFindApi((q) => ({ customers: [buildFindCustomer({ customer_name: `Amina ${q}` })] }));
    await shell();
    await user.type(await openFind(user), 'amina');
    expect(await screen.findByRole('option', { name: /Amina amina/ })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Find' })).not.toBeInTheDocument());

    const box = await openFind(user);
    expect(box).toHaveValue('');
    expect(screen.queryByRole('option')).not.toBeInTheDocument();
    expect(screen.getByText(FIND_HINT)).toBeInTheDocument();
    expect(findCalls(calls)).toEqual(['amina']);
  });

  it('is there for every role of an organization', async () => {
    seedSession({ user: buildUser({ role: 'staff' }) });
    mockFindApi();
    await shell();
    expect(screen.getAllByRole('button', { name: 'Find' })).toHaveLength(2);
  });

  it('is not there for a user of no organization, and its shortcut does nothing', async () => {
    const user = userEvent.setup();
    seedSession({ user: buildUser({ role: 'super_admin', organization_id: '' }) });
    mockFindApi();
    await shell();
    expect(screen.queryByRole('button', { name: 'Find' })).not.toBeInTheDocument();
    await user.keyboard('{Control>}k{/Control}');
    expect(screen.queryByRole('dialog', { name: 'Find' })).not.toBeInTheDocument();
  });
});
