import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCreditReminder, type CreditReminderInput } from '../src/index.js';

const base: CreditReminderInput = {
  customerName: 'Grace Achieng',
  serialNumber: 'SHS-0042',
  creditEndsOn: '2026-11-27',
  daysLeft: 1,
  dailyPrice: '50.00',
  currency: 'KES',
};

describe('formatCreditReminder', () => {
  it('tomorrow, with the plan price, in English', () => {
    expect(formatCreditReminder(base)).toBe(
      'Kidogo: Hi Grace, the credit on device SHS-0042 runs out tomorrow. Pay KES 50.00 a day to account SHS-0042 to keep it on.',
    );
  });

  it('today, and on a named day three days out', () => {
    expect(formatCreditReminder({ ...base, daysLeft: 0 })).toContain('runs out today.');
    expect(formatCreditReminder({ ...base, daysLeft: 3, creditEndsOn: '2026-12-01' })).toContain('runs out on 1 Dec.');
  });

  it('in Kiswahili, with its month names', () => {
    expect(formatCreditReminder({ ...base, language: 'sw' })).toBe(
      'Kidogo: Habari Grace, salio la kifaa SHS-0042 litaisha kesho. Lipa KES 50.00 kwa siku kwa akaunti SHS-0042 ili kiendelee kufanya kazi.',
    );
    expect(formatCreditReminder({ ...base, language: 'sw', daysLeft: 0 })).toContain('litaisha leo.');
    expect(formatCreditReminder({ ...base, language: 'sw', daysLeft: 2, creditEndsOn: '2026-12-24' })).toContain('litaisha tarehe 24 Des.');
  });

  it('in French, with its month names', () => {
    expect(formatCreditReminder({ ...base, language: 'fr' })).toBe(
      "Kidogo: Bonjour Grace, le credit de l'appareil SHS-0042 s'epuise demain. Payez KES 50.00 par jour au compte SHS-0042 pour le garder allume.",
    );
    expect(formatCreditReminder({ ...base, language: 'fr', daysLeft: 0 })).toContain("s'epuise aujourd'hui.");
    expect(formatCreditReminder({ ...base, language: 'fr', daysLeft: 2, creditEndsOn: '2026-08-24' })).toContain("s'epuise le 24 aout.");
  });

  it('without a plan or a name, says what it can', () => {
    expect(formatCreditReminder({ ...base, customerName: null, dailyPrice: null })).toBe(
      'Kidogo: The credit on device SHS-0042 runs out tomorrow. Pay to account SHS-0042 to keep it on.',
    );
    expect(formatCreditReminder({ ...base, dailyPrice: '1500', currency: 'UGX' })).toContain('Pay UGX 1,500.00 a day');
  });

  it('drops the greeting before going past one SMS, and stays ASCII', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), fc.integer({ min: 0, max: 7 }), fc.constantFrom('en' as const, 'sw' as const, 'fr' as const), (name, daysLeft, language) => {
        const text = formatCreditReminder({ ...base, customerName: name.replace(/[^ -~]/g, 'a'), daysLeft, language });
        expect(text.length).toBeLessThanOrEqual(160);
        expect(text).toMatch(/^[ -~]*$/);
      }),
    );
  });
});
