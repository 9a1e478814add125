import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatFreeDaysReply } from '../src/index.js';

describe('formatFreeDaysReply', () => {
  it('hands the code over in English, greeting the customer by first name', () => {
    expect(formatFreeDaysReply({ customerName: 'Grace Achieng', serialNumber: 'SHS-0042', days: 3, token: '123456789' })).toBe(
      'Kidogo: Hi Grace, device SHS-0042 is fixed. Enter code 123 456 789 for 3 free days of use.',
    );
    expect(formatFreeDaysReply({ serialNumber: 'SHS-0042', days: 1, token: '123456789' })).toBe(
      'Kidogo: device SHS-0042 is fixed. Enter code 123 456 789 for 1 free day of use.',
    );
  });

  it('in Kiswahili', () => {
    expect(formatFreeDaysReply({ language: 'sw', customerName: 'Grace Achieng', serialNumber: 'SHS-0042', days: 5, token: '987654321' })).toBe(
      'Kidogo: Habari Grace, kifaa SHS-0042 kimerekebishwa. Weka namba 987 654 321 upate siku 5 za matumizi bure.',
    );
  });

  it('in French', () => {
    expect(formatFreeDaysReply({ language: 'fr', customerName: 'Aline Uwase', serialNumber: 'SHS-0042', days: 5, token: '987654321' })).toBe(
      "Kidogo: Bonjour Aline, l'appareil SHS-0042 est repare. Saisissez le code 987 654 321 pour 5 jours gratuits d'utilisation.",
    );
  });

  it('fits one SMS and stays ASCII for ordinary names and serials, at any number of days a ticket gives', () => {
    const name = fc.string({ minLength: 1, maxLength: 12 }).map((s) => s.replace(/[^A-Za-z]/g, 'a'));
    fc.assert(
      fc.property(name, fc.integer({ min: 1, max: 30 }), fc.constantFrom('en' as const, 'sw' as const, 'fr' as const), (first, days, language) => {
        const text = formatFreeDaysReply({ language, customerName: `${first} Otieno`, serialNumber: 'SHS-0000042', days, token: '123456789012' });
        expect(text.length).toBeLessThanOrEqual(160);
        expect(/^[\x20-\x7e]*$/.test(text)).toBe(true);
      }),
    );
  });
});
