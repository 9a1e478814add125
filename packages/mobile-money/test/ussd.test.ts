import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  fitScreen,
  REPLY_LANGUAGES,
  ussdAnswers,
  ussdIdentityText,
  ussdMenu,
  ussdRefusedText,
  ussdTicketText,
  USSD_MAX_DEVICES,
  USSD_MAX_SCREEN,
  type UssdDevice,
  type UssdMenuInput,
} from '../src/index.js';

const shs: UssdDevice = {
  serialNumber: 'SHS-0042',
  creditEndsOn: '2026-11-27',
  daysLeft: 2,
  paidOff: false,
  remaining: '7080.00',
  currency: 'KES',
  dailyPrice: '50.00',
  lastCode: { token: '123456789', type: 'add_time', days: 7, issuedOn: '2026-11-20' },
};
const phone: UssdDevice = { ...shs, serialNumber: 'PHN-3003', paidOff: true, remaining: '0.00', lastCode: { token: '987654321', type: 'unlock', days: 0, issuedOn: '2026-10-02' } };
const mpesa = { provider: 'mpesa_express', label: 'M-Pesa', currency: 'KES', maxAmount: 250_000 };
const airtel = { provider: 'airtel_money', label: 'Airtel Money', currency: 'KES', maxAmount: 150_000 };

const menu = (over: Partial<UssdMenuInput> = {}): UssdMenuInput => ({
  organizationName: 'Jua Power',
  customerName: 'Grace Achieng',
  devices: [shs],
  pay: [mpesa],
  sms: true,
  ...over,
});
const at = (input: UssdMenuInput, text: string) => ussdMenu(input, ussdAnswers(text));

describe('ussdAnswers', () => {
  it('splits what the gateway posts into answers', () => {
    expect(ussdAnswers('')).toEqual([]);
    expect(ussdAnswers('  ')).toEqual([]);
    expect(ussdAnswers('3')).toEqual(['3']);
    expect(ussdAnswers('3*1*500')).toEqual(['3', '1', '500']);
    expect(ussdAnswers('3**1')).toEqual(['3', '', '1']);
  });
});

describe('ussdMenu', () => {
  it('opens on the main menu, with Pay now only when the phone can be asked to pay', () => {
    expect(at(menu(), '')).toEqual({
      end: false,
      text: 'Jua Power: Hi Grace\n1. My balance\n2. My last code\n3. Pay now\n4. Report a problem',
      outcome: 'menu',
      serial: null,
      action: null,
    });
    expect(at(menu({ pay: [] }), '').text).toBe('Jua Power: Hi Grace\n1. My balance\n2. My last code\n3. Report a problem');
    // Without Pay now, 3 is Report a problem.
    expect(at(menu({ pay: [] }), '3').text).toMatch(/^What is wrong with SHS-0042\?/);
  });

  it('says an answer is none of the choices, and stays', () => {
    expect(at(menu(), '7').text).toBe('Invalid choice.\nJua Power: Hi Grace\n1. My balance\n2. My last code\n3. Pay now\n4. Report a problem');
    expect(at(menu(), 'x*').text).toMatch(/^Invalid choice\./);
    // An invalid answer before a good one is forgotten.
    expect(at(menu(), '7*1').outcome).toBe('balance');
  });

  it("ends with every device's credit and what is left", () => {
    const input = menu({ devices: [shs, phone, { ...shs, serialNumber: 'LMP-1', daysLeft: -3, creditEndsOn: '2026-11-22', remaining: null }] });
    expect(at(input, '1')).toEqual({
      end: true,
      text: 'SHS-0042: credit until 27 Nov, KES 7,080.00 left to pay.\nPHN-3003: paid off.\nLMP-1: no credit since 22 Nov.',
      outcome: 'balance',
      serial: null,
      action: null,
    });
    expect(at(menu({ devices: [] }), '1').text).toBe('No device is on your account.');
  });

  it('fits many devices on one screen, then says how many more', () => {
    const many = Array.from({ length: 9 }, (_, i) => ({ ...shs, serialNumber: `SHS-00${i + 10}` }));
    const { text } = at(menu({ devices: many }), '1');
    expect(text.length).toBeLessThanOrEqual(USSD_MAX_SCREEN);
    expect(text).toMatch(/\n\+\d more devices\.$/);
    const shown = text.split('\n').length - 1;
    expect(text).toContain(`+${9 - shown} more devices.`);
  });

  it('shows the last code and asks it to be texted; says when there is none', () => {
    const code = at(menu(), '2');
    expect(code).toEqual({
      end: true,
      text: 'SHS-0042 last code: 123 456 789 (20 Nov, 7 days).\nWe sent it by SMS too.',
      outcome: 'code',
      serial: 'SHS-0042',
      action: { kind: 'code', serial: 'SHS-0042', code: shs.lastCode },
    });
    expect(at(menu({ sms: false }), '2').text).toBe('SHS-0042 last code: 123 456 789 (20 Nov, 7 days).');
    expect(at(menu({ devices: [{ ...shs, lastCode: null }] }), '2')).toMatchObject({ text: 'No code has been issued for SHS-0042 yet.', action: null });
    expect(at(menu({ devices: [phone] }), '2').text).toMatch(/^PHN-3003 last code: 987 654 321 \(2 Oct, unlock\)\./);
  });

  it('asks which device when there are several, and 0 goes back, 00 to the start', () => {
    const input = menu({ devices: [shs, phone] });
    expect(at(input, '2').text).toBe('Choose a device:\n1. SHS-0042\n2. PHN-3003\n0. Back');
    expect(at(input, '2*2').action).toMatchObject({ kind: 'code', serial: 'PHN-3003' });
    expect(at(input, '2*3').text).toBe('Invalid choice.\nChoose a device:\n1. SHS-0042\n2. PHN-3003\n0. Back');
    expect(at(input, '2*0').text).toMatch(/^Jua Power: Hi Grace\n/);
    expect(at(input, '4*1*00').text).toMatch(/^Jua Power: Hi Grace\n/);
    expect(at(input, '4*1*0').text).toBe('Choose a device:\n1. SHS-0042\n2. PHN-3003\n0. Back');
    // 0 on the main menu is no choice.
    expect(at(input, '0').text).toMatch(/^Invalid choice\./);
  });

  it(`offers at most ${USSD_MAX_DEVICES} devices`, () => {
    const many = Array.from({ length: 8 }, (_, i) => ({ ...shs, serialNumber: `D-${i + 1}` }));
    const { text } = at(menu({ devices: many }), '2');
    expect(text.split('\n').filter((l) => /^\d\. D-/.test(l))).toHaveLength(USSD_MAX_DEVICES);
    expect(at(menu({ devices: many }), '2*7').text).toMatch(/^Invalid choice\./);
  });

  it('asks the amount to pay, with the price of a day and what is left, and checks it', () => {
    expect(at(menu(), '3').text).toBe('SHS-0042: KES 50 a day, KES 7,080 left to pay.\nEnter the amount (KES):\n0. Back');
    for (const bad of ['abc', '250001', '12.5', '', '00000']) {
      expect(at(menu(), `3*${bad}`).text).toBe('SHS-0042: KES 50 a day, KES 7,080 left to pay.\nEnter a whole amount from 1 to 250,000.\nEnter the amount (KES):\n0. Back');
    }
    // 0 is Back, not an amount.
    expect(at(menu(), '3*0').text).toMatch(/^Jua Power: Hi Grace\n/);
    expect(at(menu(), '3*350')).toEqual({
      end: true,
      text: 'Check your phone: enter your M-Pesa PIN to pay KES 350 for SHS-0042. Your code comes by SMS.',
      outcome: 'pay',
      serial: 'SHS-0042',
      action: { kind: 'pay', serial: 'SHS-0042', provider: 'mpesa_express', label: 'M-Pesa', amount: 350, currency: 'KES' },
    });
  });

  it('asks how to pay when the phone can pay more than one way, and never asks for a device paid off', () => {
    const input = menu({ devices: [shs, phone], pay: [mpesa, airtel] });
    expect(at(input, '3*1').text).toBe('Pay with:\n1. M-Pesa\n2. Airtel Money\n0. Back');
    expect(at(input, '3*1*2*100').action).toMatchObject({ provider: 'airtel_money', amount: 100 });
    expect(at(input, '3*1*2*150001').text).toContain('Enter a whole amount from 1 to 150,000.');
    expect(at(input, '3*2')).toMatchObject({ end: true, text: 'PHN-3003 is paid off: it needs no more payments.', action: null });
  });

  it('asks what is wrong, and leaves the last screen to the ticket', () => {
    expect(at(menu(), '4').text).toBe('What is wrong with SHS-0042?\n1. Device not working\n2. Code not accepted\n3. Payment question\n4. Other\n0. Back');
    expect(at(menu(), '4*2')).toEqual({ end: true, text: '', outcome: 'ticket', serial: 'SHS-0042', action: { kind: 'ticket', serial: 'SHS-0042', problem: 'token_problem' } });
    expect(at(menu({ devices: [] }), '4')).toMatchObject({ end: true, text: 'No device is on your account.', action: null });
    expect(ussdTicketText('en', 12, 'SHS-0042', false)).toBe('Thank you. Ticket #12 is open for SHS-0042: we will call you.');
    expect(ussdTicketText('en', 12, 'SHS-0042', true)).toBe('We already have your report on SHS-0042 (ticket #12): we will call you.');
    expect(ussdTicketText('en', null, 'SHS-0042', false)).toBe('Thank you. We have your report on SHS-0042: we will call you.');
  });

  it('speaks Kiswahili and French', () => {
    expect(at(menu({ language: 'sw' }), '').text).toBe('Jua Power: Habari Grace\n1. Salio langu\n2. Namba yangu ya mwisho\n3. Lipa sasa\n4. Ripoti tatizo');
    expect(at(menu({ language: 'sw' }), '1').text).toBe('SHS-0042: salio hadi 27 Nov, zimebaki KES 7,080.00 kulipa.');
    expect(at(menu({ language: 'fr' }), '').text).toBe('Jua Power: Bonjour Grace\n1. Mon solde\n2. Mon dernier code\n3. Payer maintenant\n4. Signaler un probleme');
    expect(ussdIdentityText('sw', 'unavailable', 'X')).toBe('Samahani, huduma hii haipatikani sasa.');
  });

  it('never shows more than a screen holds, in any language, whatever is answered', () => {
    const answer = fc.oneof(fc.constantFrom('0', '00', '1', '2', '3', '4', '5', '350', '999999'), fc.string({ maxLength: 6 }).map((s) => s.replace(/\*/g, '')));
    const name = fc.string({ minLength: 1, maxLength: 60 }).filter((s) => s.trim().length > 0);
    fc.assert(
      fc.property(fc.constantFrom(...REPLY_LANGUAGES), fc.array(answer, { maxLength: 6 }), name, fc.integer({ min: 0, max: 9 }), (language, answers, org, n) => {
        const devices = Array.from({ length: n }, (_, i) => ({ ...shs, serialNumber: `SERIAL-NUMBER-${i}`, paidOff: i % 3 === 2 }));
        const screen = ussdMenu(menu({ language, organizationName: org, devices, pay: n % 2 ? [mpesa, airtel] : [mpesa] }), answers);
        expect(screen.text.length).toBeLessThanOrEqual(USSD_MAX_SCREEN);
      }),
    );
  });
});

describe('the screens around the menu', () => {
  it('fits long texts to a screen', () => {
    expect(fitScreen('a'.repeat(USSD_MAX_SCREEN))).toHaveLength(USSD_MAX_SCREEN);
    expect(fitScreen('a'.repeat(300))).toBe(`${'a'.repeat(USSD_MAX_SCREEN - 3)}...`);
    expect(ussdRefusedText('en', 'x'.repeat(400)).length).toBe(USSD_MAX_SCREEN);
  });

  it('tells a phone on no account, asks a shared phone for an ID number', () => {
    expect(ussdIdentityText('en', 'not_registered', 'Jua Power')).toBe('Jua Power: this phone number is on no account. Call us to register it.');
    expect(ussdIdentityText('en', 'ask_id', 'Jua Power')).toBe('Jua Power\nThis phone is on more than one account. Enter your ID number:');
    expect(ussdIdentityText('fr', 'not_found', 'Jua Power')).toBe('Nous n avons pas trouve votre compte. Appelez-nous.');
  });
});
