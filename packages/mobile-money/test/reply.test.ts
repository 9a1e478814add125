import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatPaymentReply, groupToken, MAX_REPLY_LENGTH, type PaymentReplyInput } from '../src/index.js';

const base: PaymentReplyInput = {
  amount: '150.00',
  currency: 'KES',
  serialNumber: 'SN123',
  tokens: [{ type: 'add_time', days: 3, token: '123456789' }],
  creditLeft: '0.00',
  remainingBalance: '18350.00',
  reason: 'days_added',
};

describe('groupToken', () => {
  it.each([
    ['123456789', '123 456 789'],
    ['123 456789', '123 456 789'],
    ['1234567890', '123 456 789 0'],
    ['12', '12'],
    ['', ''],
  ])('%j -> %j', (raw, want) => expect(groupToken(raw)).toBe(want));
});

describe('formatPaymentReply', () => {
  it('add time: the example from the brief', () => {
    expect(formatPaymentReply(base)).toBe(
      'Kidogo: Payment of KES 150.00 received for device SN123. Token: 123 456 789 (3 days). Balance to pay off: KES 18,350.00.',
    );
  });

  it('greets the customer by first name and reports carried credit', () => {
    expect(
      formatPaymentReply({ ...base, amount: '75.00', customerName: 'Grace Wanjiku Mutua', creditLeft: '45.00', tokens: [{ type: 'add_time', days: 1, token: '555000111' }] }),
    ).toBe(
      'Kidogo: Hi Grace, payment of KES 75.00 received for device SN123. Token: 555 000 111 (1 day). Credit carried: KES 45.00. Balance to pay off: KES 18,350.00.',
    );
  });

  it('several tokens are numbered, to be entered in order', () => {
    const text = formatPaymentReply({
      ...base,
      amount: '60000.00',
      remainingBalance: null,
      tokens: [
        { type: 'add_time', days: 995, token: '111222333' },
        { type: 'add_time', days: 205, token: '444555666' },
      ],
    });
    expect(text).toBe(
      'Kidogo: Payment of KES 60,000.00 received for device SN123. Tokens, enter in order: 1) 111 222 333 (995 days), 2) 444 555 666 (205 days).',
    );
  });

  it('activation', () => {
    expect(
      formatPaymentReply({ ...base, amount: '1000.00', reason: 'activated', tokens: [{ type: 'activation', days: 17, token: '987654321' }], remainingBalance: '17800.00' }),
    ).toBe(
      'Kidogo: Payment of KES 1,000.00 received for device SN123. Your device is activated. Code: 987 654 321 (17 days). Balance to pay off: KES 17,800.00.',
    );
  });

  it('unlock: fully paid, no balance line', () => {
    expect(
      formatPaymentReply({ ...base, reason: 'paid_off', tokens: [{ type: 'unlock', days: 0, token: '000111222' }], remainingBalance: '0.00' }),
    ).toBe(
      'Kidogo: Payment of KES 150.00 received for device SN123. Your device is now fully paid and unlocked forever. Code: 000 111 222.',
    );
  });

  it('below activation: says how much more is needed', () => {
    expect(
      formatPaymentReply({ ...base, amount: '1200.00', reason: 'below_activation', tokens: [], creditLeft: '1200.00', remainingToActivate: '300.00', remainingBalance: '18800.00' }),
    ).toBe(
      'Kidogo: Payment of KES 1,200.00 received for device SN123. KES 300.00 more is needed to activate your device. Balance to pay off: KES 18,800.00.',
    );
    expect(
      formatPaymentReply({ ...base, reason: 'below_activation', tokens: [], creditLeft: '150.00', remainingBalance: null }),
    ).toBe('Kidogo: Payment of KES 150.00 received for device SN123. KES 150.00 is held toward activating your device.');
  });

  it('below one day: the money is held as credit', () => {
    expect(formatPaymentReply({ ...base, amount: '4.00', reason: 'below_daily_price', tokens: [], creditLeft: '49.00' })).toBe(
      'Kidogo: Payment of KES 4.00 received for device SN123. This is less than one day of use: KES 49.00 is held as credit for your next payment. Balance to pay off: KES 18,350.00.',
    );
  });

  it('no template: the amount is held as credit', () => {
    expect(formatPaymentReply({ ...base, amount: '500.00', reason: 'no_template', tokens: [], creditLeft: '500.00', remainingBalance: null })).toBe(
      'Kidogo: Payment of KES 500.00 received for device SN123. The amount is held as credit on your account until your payment plan is set up.',
    );
  });

  it('uses the given currency', () => {
    expect(formatPaymentReply({ ...base, currency: 'UGX', amount: '35000', remainingBalance: null })).toContain('UGX 35,000.00');
  });

  it('stays under 480 characters with many tokens, dropping extras first and then announcing hidden codes', () => {
    const tokens = Array.from({ length: 30 }, (_, i) => ({ type: 'add_time' as const, days: 995, token: String(100000000 + i) }));
    const text = formatPaymentReply({ ...base, amount: '1500000.00', customerName: 'Grace', creditLeft: '45.00', tokens });
    expect(text.length).toBeLessThan(MAX_REPLY_LENGTH);
    expect(text).toContain('1) 100 000 000 (995d)');
    expect(text).toMatch(/ \+\d+ more codes: please call us\. Balance to pay off: KES 18,350.00\.$/);
    expect(text).not.toContain('Hi Grace');
  });

  it('is always shorter than 480 characters and plain ASCII', () => {
    fc.assert(
      fc.property(
        fc.record({
          amount: fc.integer({ min: 1, max: 1e12 }).map((c) => `${Math.floor(c / 100)}.${String(c % 100).padStart(2, '0')}`),
          serialNumber: fc.stringMatching(/^[A-Z0-9-]{1,24}$/),
          customerName: fc.option(fc.stringMatching(/^[A-Za-z]{1,40}( [A-Za-z]{1,40}){0,3}$/)),
          reason: fc.constantFrom('no_template', 'below_activation', 'below_daily_price', 'activated', 'days_added', 'paid_off' as const),
          count: fc.integer({ min: 0, max: 60 }),
          creditLeft: fc.constantFrom('0.00', '45.00', '123456.78'),
          remainingBalance: fc.option(fc.constantFrom('0.00', '18350.00', '99999999.99')),
        }),
        (p) => {
          const tokens = Array.from({ length: p.count }, (_, i) => ({
            type: (p.reason === 'paid_off' ? 'unlock' : i === 0 && p.reason === 'activated' ? 'activation' : 'add_time') as
              | 'unlock'
              | 'activation'
              | 'add_time',
            days: 995,
            token: String(100000000 + i),
          }));
          const text = formatPaymentReply({ ...base, ...p, tokens });
          expect(text.length).toBeLessThan(MAX_REPLY_LENGTH);
          expect(text).toMatch(/^[\x20-\x7e]+$/);
          expect(text.startsWith('Kidogo: ')).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('formatPaymentReply in French', () => {
  const fr = { ...base, language: 'fr' as const };

  it('add time, with the greeting, carried credit and balance', () => {
    expect(formatPaymentReply({ ...fr, customerName: 'Aline Uwase', creditLeft: '45.00' })).toBe(
      "Kidogo: Bonjour Aline, paiement de KES 150.00 recu pour l'appareil SN123. Code: 123 456 789 (3 jours). Credit reporte: KES 45.00. Reste a payer: KES 18,350.00.",
    );
  });

  it('activation with several codes, paid off, below the daily price, below activation and without a plan', () => {
    const tokens = [
      { type: 'activation' as const, days: 30, token: '111222333' },
      { type: 'add_time' as const, days: 1, token: '444555666' },
    ];
    expect(formatPaymentReply({ ...fr, reason: 'activated', tokens, remainingBalance: null })).toBe(
      "Kidogo: Paiement de KES 150.00 recu pour l'appareil SN123. Votre appareil est active. Codes, a saisir dans l'ordre: 1) 111 222 333 (30 jours), 2) 444 555 666 (1 jour).",
    );
    expect(formatPaymentReply({ ...fr, reason: 'paid_off', tokens: [{ type: 'unlock', days: 0, token: '999888777' }], remainingBalance: '0.00' })).toBe(
      "Kidogo: Paiement de KES 150.00 recu pour l'appareil SN123. Votre appareil est entierement paye et debloque pour toujours. Code: 999 888 777.",
    );
    expect(formatPaymentReply({ ...fr, reason: 'below_daily_price', tokens: [], creditLeft: '30.00', remainingBalance: null })).toContain(
      "C'est moins d'un jour d'utilisation: KES 30.00 est garde en credit pour votre prochain paiement.",
    );
    expect(formatPaymentReply({ ...fr, reason: 'below_activation', tokens: [], remainingToActivate: '350.00', remainingBalance: null })).toContain(
      'Il manque KES 350.00 pour activer votre appareil.',
    );
    expect(formatPaymentReply({ ...fr, reason: 'no_template', tokens: [], remainingBalance: null })).toContain("jusqu'a la mise en place de votre plan de paiement.");
  });

  it('stays within MAX_REPLY_LENGTH and plain ASCII, whatever the tokens', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ days: fc.integer({ min: 1, max: 995 }), token: fc.stringMatching(/^\d{9,20}$/) }), { minLength: 1, maxLength: 40 }), (list) => {
        const text = formatPaymentReply({ ...fr, customerName: 'Aline', creditLeft: '12345.67', tokens: list.map((t) => ({ ...t, type: 'add_time' as const })) });
        expect(text.length).toBeLessThan(MAX_REPLY_LENGTH);
        expect(text).toMatch(/^[\x20-\x7e]*$/);
      }),
    );
  });
});

describe('formatPaymentReply in Kiswahili', () => {
  const sw = { ...base, language: 'sw' as const };

  it('add time, with the greeting, carried credit and balance', () => {
    expect(formatPaymentReply({ ...sw, customerName: 'Grace Wanjiku', creditLeft: '45.00' })).toBe(
      'Kidogo: Habari Grace, malipo ya KES 150.00 yamepokelewa kwa kifaa SN123. Tokeni: 123 456 789 (siku 3). Akiba iliyobaki: KES 45.00. Deni lililobaki: KES 18,350.00.',
    );
  });

  it('activation with several codes, to be entered in order', () => {
    const tokens = [
      { type: 'activation' as const, days: 30, token: '111222333' },
      { type: 'add_time' as const, days: 12, token: '444555666' },
    ];
    expect(formatPaymentReply({ ...sw, reason: 'activated', tokens, remainingBalance: null })).toBe(
      'Kidogo: Malipo ya KES 150.00 yamepokelewa kwa kifaa SN123. Kifaa chako kimewashwa. Namba, weka kwa mpangilio: 1) 111 222 333 (siku 30), 2) 444 555 666 (siku 12).',
    );
  });

  it('paid off, below the daily price, below activation and without a plan', () => {
    expect(formatPaymentReply({ ...sw, reason: 'paid_off', tokens: [{ type: 'unlock', days: 0, token: '999888777' }], remainingBalance: '0.00' })).toBe(
      'Kidogo: Malipo ya KES 150.00 yamepokelewa kwa kifaa SN123. Kifaa chako kimelipiwa kikamilifu na kimefunguliwa milele. Namba: 999 888 777.',
    );
    expect(formatPaymentReply({ ...sw, reason: 'below_daily_price', tokens: [], creditLeft: '30.00', remainingBalance: null })).toBe(
      'Kidogo: Malipo ya KES 150.00 yamepokelewa kwa kifaa SN123. Kiasi hiki ni chini ya siku moja ya matumizi: KES 30.00 kimewekwa kama akiba kwa malipo yako yajayo.',
    );
    expect(formatPaymentReply({ ...sw, reason: 'below_activation', tokens: [], remainingToActivate: '350.00', remainingBalance: null })).toBe(
      'Kidogo: Malipo ya KES 150.00 yamepokelewa kwa kifaa SN123. Unahitaji KES 350.00 zaidi ili kuwasha kifaa chako.',
    );
    expect(formatPaymentReply({ ...sw, reason: 'no_template', tokens: [], remainingBalance: null })).toBe(
      'Kidogo: Malipo ya KES 150.00 yamepokelewa kwa kifaa SN123. Kiasi hiki kimewekwa kama akiba kwenye akaunti yako hadi mpango wako wa malipo utakapowekwa.',
    );
  });

  it('stays within MAX_REPLY_LENGTH and plain ASCII, whatever the tokens', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ days: fc.integer({ min: 1, max: 995 }), token: fc.stringMatching(/^\d{9,20}$/) }), { minLength: 1, maxLength: 40 }), (list) => {
        const text = formatPaymentReply({ ...sw, customerName: 'Grace', creditLeft: '12345.67', tokens: list.map((t) => ({ ...t, type: 'add_time' as const })) });
        expect(text.length).toBeLessThan(MAX_REPLY_LENGTH);
        expect(text).toMatch(/^[\x20-\x7e]*$/);
      }),
    );
  });
});
