import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDate } from '@/components/ui/date-text';
import { mockSettingsApi } from '@/features/settings/testing/mock-settings-api';
import { buildUser, seedSession } from '@/testing/factories';
import { jsonResponse } from '@/testing/fetch';
import { renderApp } from '@/testing/render';
import {
  ADDRESS,
  buildUssdSession,
  buildUssdSettings,
  fakeMenu,
  fieldRefusal,
  NEW_ADDRESS,
  puts,
  sessionCalls,
  tries,
  ussdHandler,
  USSD_NEVER_ON,
} from '../testing/mock-ussd-api';

const signInAs = (role: 'owner' | 'admin' | 'staff') => seedSession({ user: buildUser({ role }) });
const card = () => screen.findByRole('region', { name: 'USSD Menu' });
const rotations = (calls: { method: string; url: string }[]) => calls.filter((c) => c.method === 'POST' && c.url === '/payg/settings/ussd/rotate');

describe('USSD Menu card', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('is not shown to staff, nor asked for', async () => {
    signInAs('staff');
    const { calls } = mockSettingsApi(ussdHandler());
    renderApp('/settings');
    await screen.findByRole('region', { name: 'Change Password' });
    expect(screen.queryByRole('region', { name: 'USSD Menu' })).not.toBeInTheDocument();
    expect(calls.some((c) => c.url.startsWith('/payg/settings/ussd'))).toBe(false);
  });

  it('is off at first with no address; Turn On shows the address to give the gateway, Turn Off takes it away', async () => {
    const user = userEvent.setup();
    signInAs('admin');
    const { calls } = mockSettingsApi(ussdHandler({ settings: USSD_NEVER_ON }));
    renderApp('/settings');
    const c = await card();
    expect(within(c).getByText(/read their balance, get their last code again \(also by SMS\), pay/)).toBeInTheDocument();
    expect(await within(c).findByTestId('ussd-status')).toHaveTextContent('Off');
    expect(within(c).queryByRole('textbox', { name: 'Callback URL' })).not.toBeInTheDocument();
    expect(within(c).queryByRole('button', { name: 'New Address' })).not.toBeInTheDocument();
    expect(within(c).getByText(/Turn the menu on, then paste its callback URL/)).toBeInTheDocument();

    await user.click(within(c).getByRole('button', { name: 'Turn On' }));
    expect(await screen.findByText('The USSD menu is on: give its address to your USSD gateway as the callback URL')).toBeInTheDocument();
    expect(await within(c).findByRole('textbox', { name: 'Callback URL' })).toHaveValue(ADDRESS);
    expect(within(c).getByRole('button', { name: 'Copy callback URL' })).toBeInTheDocument();
    expect(within(c).getByTestId('ussd-status')).toHaveTextContent('On');
    expect(within(c).getByText(`Turned on by amina on ${formatDate('2026-11-26T08:00:00Z')}`)).toBeInTheDocument();
    expect(within(c).getByTestId('ussd-usage')).toHaveTextContent('No one has dialled in the last 7 days');
    expect(within(c).queryByTestId('ussd-service-code')).not.toBeInTheDocument();
    expect(within(c).getByText(/Paste the callback URL above as the channel's callback URL/)).toBeInTheDocument();

    await user.click(within(c).getByRole('button', { name: 'Turn Off' }));
    await waitFor(() => expect(within(c).getByTestId('ussd-status')).toHaveTextContent('Off'));
    expect(within(c).queryByRole('textbox', { name: 'Callback URL' })).not.toBeInTheDocument();
    expect(within(c).getByRole('button', { name: 'Turn On' })).toBeInTheDocument();
    expect(await screen.findByText('The USSD menu is off: customers who dial it are told it is not available')).toBeInTheDocument();
    expect(puts(calls)).toEqual([{ enabled: true }, { enabled: false }]);
  });

  it("puts this server's address before the path the API gives when it has no public address of its own", async () => {
    signInAs('owner');
    mockSettingsApi(ussdHandler({ settings: buildUssdSettings({ callback_url: '/payg/external/ussd/u_7Hk2pQ9xLm4Rt8Vw' }) }));
    renderApp('/settings');
    const c = await card();
    expect(await within(c).findByRole('textbox', { name: 'Callback URL' })).toHaveValue(`${window.location.origin}/payg/external/ussd/u_7Hk2pQ9xLm4Rt8Vw`);
    expect(within(c).getByText(/public address \(PUBLIC_URL\) is not set/)).toBeInTheDocument();
  });

  it("shows how much the menu is used and the code customers dial, and says why it could not be turned off", async () => {
    const user = userEvent.setup();
    signInAs('owner');
    mockSettingsApi((call, path) =>
      path === '/payg/settings/ussd' && call.method === 'PUT'
        ? jsonResponse(503, { message: 'The database is not answering' })
        : ussdHandler()(call, path),
    );
    renderApp('/settings');
    const c = await card();
    expect(await within(c).findByTestId('ussd-usage')).toHaveTextContent(
      `12 sessions by 9 customers in the last 7 days, the last ${formatDate('2026-11-25T10:00:00Z', true)}`,
    );
    expect(within(c).getByTestId('ussd-service-code')).toHaveTextContent('*384*123#');
    expect(within(c).queryByText(/PUBLIC_URL/)).not.toBeInTheDocument();
    expect(within(c).getByText(`Turned on by amina on ${formatDate('2026-11-20T09:00:00Z')}`)).toBeInTheDocument();
    await user.click(within(c).getByRole('button', { name: 'Turn Off' }));
    expect(await within(c).findByText('Failed to turn the USSD menu off')).toBeInTheDocument();
    expect(within(c).getByText('The database is not answering')).toBeInTheDocument();
    expect(within(c).getByTestId('ussd-status')).toHaveTextContent('On');
  });

  it('gives a new address only once asked to confirm that the old one stops working', async () => {
    const user = userEvent.setup();
    signInAs('owner');
    const { calls } = mockSettingsApi(ussdHandler({ settings: buildUssdSettings() }));
    renderApp('/settings');
    const c = await card();
    const url = await within(c).findByRole('textbox', { name: 'Callback URL' });
    expect(url).toHaveValue(ADDRESS);

    await user.click(within(c).getByRole('button', { name: 'New Address' }));
    let dialog = await screen.findByRole('dialog', { name: 'Give the menu a new address?' });
    expect(dialog).toHaveTextContent('the current one stops working at once');
    expect(dialog).toHaveTextContent('until your USSD gateway is given the new one');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(rotations(calls)).toHaveLength(0);

    await user.click(within(c).getByRole('button', { name: 'New Address' }));
    dialog = await screen.findByRole('dialog', { name: 'Give the menu a new address?' });
    await user.click(within(dialog).getByRole('button', { name: 'New Address' }));
    await waitFor(() => expect(url).toHaveValue(NEW_ADDRESS));
    expect(await screen.findByText('A new address is made: the old one no longer answers, so give this one to your USSD gateway')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(rotations(calls)).toHaveLength(1);
  });

  it('keeps a refused new address in the dialog, with the reason', async () => {
    const user = userEvent.setup();
    signInAs('owner');
    mockSettingsApi((call, path) =>
      path === '/payg/settings/ussd/rotate' ? jsonResponse(409, { message: 'Turn the menu on first' }) : ussdHandler()(call, path),
    );
    renderApp('/settings');
    const c = await card();
    await user.click(await within(c).findByRole('button', { name: 'New Address' }));
    const dialog = await screen.findByRole('dialog', { name: 'Give the menu a new address?' });
    await user.click(within(dialog).getByRole('button', { name: 'New Address' }));
    expect(await within(dialog).findByText('Failed to give the USSD menu a new address')).toBeInTheDocument();
    expect(within(dialog).getByText('Turn the menu on first')).toBeInTheDocument();
    expect(within(c).getByRole('textbox', { name: 'Callback URL' })).toHaveValue(ADDRESS);
  });

  it('tries the menu: every answer so far joined by *, the screens as the phone shows them, and the end with what it would have done', async () => {
    const user = userEvent.setup();
    signInAs('owner');
    const { calls } = mockSettingsApi(ussdHandler());
    renderApp('/settings');
    const c = await card();
    const screenBox = await within(c).findByTestId('ussd-screen');
    const answer = within(c).getByRole('textbox', { name: 'Answer' });
    const send = within(c).getByRole('button', { name: 'Send' });
    expect(answer).toBeDisabled();
    expect(send).toBeDisabled();

    await user.type(within(c).getByRole('textbox', { name: 'Phone Number' }), '+254712345678');
    await user.click(within(c).getByRole('button', { name: 'Dial' }));
    await waitFor(() => expect(screenBox.textContent).toBe(fakeMenu({ phone_number: '', text: '' }).screen));
    // The lines stay lines.
    expect(screenBox.textContent).toContain('\n2. My last code\n');
    expect(screenBox).toHaveStyle({ whiteSpace: 'pre-wrap' });
    expect(answer).toBeEnabled();

    await user.type(answer, '3');
    await user.click(send);
    await waitFor(() => expect(screenBox).toHaveTextContent('Pay with: 1. M-Pesa 0. Back'));
    expect(answer).toHaveValue('');
    await user.type(answer, '1{Enter}');
    await waitFor(() => expect(screenBox).toHaveTextContent('Enter the amount (KES):'));
    expect(within(c).getByTestId('ussd-answers')).toHaveTextContent('3*1');
    await user.type(answer, '500');
    await user.click(send);
    await waitFor(() => expect(screenBox).toHaveTextContent('M-Pesa will ask for your PIN to pay KES 500 for SHS-0001.'));
    expect(within(c).getByText('Session ended')).toBeInTheDocument();
    expect(within(c).getByText('Asked to pay')).toBeInTheDocument();
    expect(within(c).getByTestId('ussd-would')).toHaveTextContent('Not done in a try: Ask +254712345678 to pay KES 500 with M-Pesa for SHS-0001');
    expect(send).toBeDisabled();
    expect(answer).toBeDisabled();
    expect(tries(calls)).toEqual([
      { phone_number: '+254712345678', text: '' },
      { phone_number: '+254712345678', text: '3' },
      { phone_number: '+254712345678', text: '3*1' },
      { phone_number: '+254712345678', text: '3*1*500' },
    ]);

    await user.click(within(c).getByRole('button', { name: 'Start Over' }));
    expect(screenBox).toHaveTextContent('Enter a phone number and Dial to see the first screen.');
    expect(within(c).queryByText('Session ended')).not.toBeInTheDocument();
    expect(within(c).queryByTestId('ussd-would')).not.toBeInTheDocument();
    await user.click(within(c).getByRole('button', { name: 'Dial' }));
    await waitFor(() => expect(screenBox).toHaveTextContent('Hi Amina'));
    await user.type(answer, '2');
    await user.click(send);
    await waitFor(() => expect(within(c).getByTestId('ussd-would')).toHaveTextContent('Not done in a try: Text the code to +254712345678'));
    expect(tries(calls).slice(4)).toEqual([
      { phone_number: '+254712345678', text: '' },
      { phone_number: '+254712345678', text: '2' },
    ]);
  });

  it("puts the API's refusal of the phone under the phone, and asks for a phone before dialling", async () => {
    const user = userEvent.setup();
    signInAs('owner');
    const { calls } = mockSettingsApi(
      ussdHandler({ tryMenu: (input) => (input.phone_number === '0700' ? fieldRefusal('phone_number', 'is not a phone number') : fakeMenu(input)) }),
    );
    renderApp('/settings');
    const c = await card();
    await user.click(await within(c).findByRole('button', { name: 'Dial' }));
    expect(within(c).getByText('Phone Number is required')).toBeInTheDocument();
    expect(tries(calls)).toEqual([]);

    const phone = within(c).getByRole('textbox', { name: 'Phone Number' });
    await user.type(phone, '0700');
    await user.click(within(c).getByRole('button', { name: 'Dial' }));
    expect(await within(c).findByText('Phone Number is not a phone number')).toBeInTheDocument();
    expect(phone).toHaveAttribute('aria-invalid', 'true');
    // Told by its field: no red box as well.
    expect(within(c).queryByText('Failed to try the menu')).not.toBeInTheDocument();
    expect(within(c).getByTestId('ussd-screen')).toHaveTextContent('Enter a phone number and Dial to see the first screen.');

    await user.clear(phone);
    await user.type(phone, '+254712345678');
    expect(within(c).queryByText('Phone Number is not a phone number')).not.toBeInTheDocument();
    await user.click(within(c).getByRole('button', { name: 'Dial' }));
    await waitFor(() => expect(within(c).getByTestId('ussd-screen')).toHaveTextContent('Hi Amina'));
  });

  it("puts a refused answer under Answer, and a refusal of no field in the red box, the session left where it was", async () => {
    const user = userEvent.setup();
    signInAs('owner');
    mockSettingsApi(
      ussdHandler({
        tryMenu: (input) =>
          input.text === '7'
            ? fieldRefusal('text', 'must be at most 500 characters')
            : input.text === '8'
              ? jsonResponse(503, { message: 'The menu could not be worked out' })
              : fakeMenu(input),
      }),
    );
    renderApp('/settings');
    const c = await card();
    await user.type(await within(c).findByRole('textbox', { name: 'Phone Number' }), '+254712345678');
    await user.click(within(c).getByRole('button', { name: 'Dial' }));
    await waitFor(() => expect(within(c).getByTestId('ussd-screen')).toHaveTextContent('Hi Amina'));
    const answer = within(c).getByRole('textbox', { name: 'Answer' });
    await user.click(within(c).getByRole('button', { name: 'Send' }));
    expect(within(c).getByText('Answer is required')).toBeInTheDocument();

    await user.type(answer, '7{Enter}');
    expect(await within(c).findByText('Answer must be at most 500 characters')).toBeInTheDocument();
    expect(within(c).queryByText('Failed to try the menu')).not.toBeInTheDocument();
    expect(answer).toHaveValue('7');

    await user.clear(answer);
    await user.type(answer, '8{Enter}');
    expect(await within(c).findByText('Failed to try the menu')).toBeInTheDocument();
    expect(within(c).getByText('The menu could not be worked out')).toBeInTheDocument();
    expect(within(c).getByTestId('ussd-screen')).toHaveTextContent('Hi Amina');
    expect(within(c).queryByTestId('ussd-answers')).not.toBeInTheDocument();
  });

  it('lists the recent sessions with a link to each known customer, and loads older ones', async () => {
    const user = userEvent.setup();
    signInAs('owner');
    const sessions = Array.from({ length: 25 }, (_, i) =>
      buildUssdSession({ session_id: `ATUid_${i}`, started_at: `2026-11-25T${String(23 - (i % 24)).padStart(2, '0')}:00:00Z` }),
    );
    sessions[0] = buildUssdSession({
      session_id: 'ATUid_stranger',
      phone_number: '+254799000111',
      customer_id: null,
      customer_name: null,
      steps: 0,
      outcome: 'not_registered',
      detail: null,
    });
    sessions[1] = buildUssdSession({ session_id: 'ATUid_ticket', steps: 3, outcome: 'ticket', detail: 'Ticket #42 for SHS-0001' });
    sessions[24] = buildUssdSession({ session_id: 'ATUid_oldest', customer_id: 12, customer_name: 'Brian Otieno', outcome: 'pay', detail: 'SHS-0002' });
    const { calls } = mockSettingsApi(ussdHandler({ sessions }));
    renderApp('/settings');
    const c = await card();
    const table = await within(c).findByRole('table', { name: 'Recent USSD sessions' });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(21));
    const [, stranger, ticket] = within(table).getAllByRole('row');
    expect(stranger).toHaveTextContent('+254799000111');
    expect(within(stranger!).getByText('Phone not registered')).toBeInTheDocument();
    expect(within(stranger!).queryByRole('link')).not.toBeInTheDocument();
    expect(within(ticket!).getByRole('link', { name: 'Amina Wanjiru' })).toHaveAttribute('href', '/customer-payment-details/11');
    expect(within(ticket!).getByText('Problem reported')).toBeInTheDocument();
    expect(within(ticket!).getByText('Ticket #42 for SHS-0001 · 3 answers')).toBeInTheDocument();
    expect(within(table).queryByText('Brian Otieno')).not.toBeInTheDocument();

    await user.click(within(c).getByRole('button', { name: 'Load Older' }));
    expect(await within(table).findByRole('link', { name: 'Brian Otieno' })).toHaveAttribute('href', '/customer-payment-details/12');
    expect(within(table).getAllByRole('row')).toHaveLength(26);
    expect(within(c).queryByRole('button', { name: 'Load Older' })).not.toBeInTheDocument();
    expect(sessionCalls(calls)).toEqual(['/payg/settings/ussd/sessions?limit=20', '/payg/settings/ussd/sessions?limit=20&before=6']);
  });

  it('says when no one has dialled the menu yet', async () => {
    signInAs('owner');
    mockSettingsApi(ussdHandler({ settings: USSD_NEVER_ON }));
    renderApp('/settings');
    const c = await card();
    expect(await within(c).findByText('No one has dialled the menu yet.')).toBeInTheDocument();
    expect(within(c).queryByRole('button', { name: 'Load Older' })).not.toBeInTheDocument();
  });
});
