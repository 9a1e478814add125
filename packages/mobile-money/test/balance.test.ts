import { describe, expect, it } from 'vitest';
import { formatBalanceReply, formatCodeReply, parseBalanceRequest, parseCodeRequest, type BalanceDevice } from '../src/index.js';

const lamp: BalanceDevice = { serialNumber: 'SHS-0042', creditEndsOn: '2026-11-27', daysLeft: 2, paidOff: false, remaining: '7080.00', currency: 'KES' };

describe('parseBalanceRequest', () => {
  it('reads BAL, BALANCE and SALIO in any case, with or without a serial number', () => {
    expect(parseBalanceRequest('BAL')).toEqual({ serial: null });
    expect(parseBalanceRequest('  balance ')).toEqual({ serial: null });
    expect(parseBalanceRequest('Salio.')).toEqual({ serial: null });
    expect(parseBalanceRequest('bal shs-0042')).toEqual({ serial: 'shs-0042' });
    expect(parseBalanceRequest('SALIO SHS-0042')).toEqual({ serial: 'SHS-0042' });
  });

  it('leaves everything else alone', () => {
    for (const text of [null, '', 'QK12AB34CD Confirmed. Ksh100.00 received', 'balanced diet', 'BALANCE IS 400', 'BAL SHS 0042', 'bal please', 'What is my balance?', 'BAL?x']) {
      expect(parseBalanceRequest(text)).toBeNull();
    }
  });
});

describe('formatBalanceReply', () => {
  it("tells each device's credit and what is left, in English", () => {
    expect(
      formatBalanceReply({
        customerName: 'Grace Achieng',
        devices: [lamp, { ...lamp, serialNumber: 'PHN-3003', paidOff: true }, { ...lamp, serialNumber: 'LMP-1', daysLeft: -3, creditEndsOn: '2026-11-22', remaining: null }],
      }),
    ).toBe('Kidogo: Hi Grace. SHS-0042: credit until 27 Nov, KES 7,080.00 left to pay. PHN-3003: paid off. LMP-1: no credit since 22 Nov.');
  });

  it('today, never, and in Kiswahili', () => {
    expect(formatBalanceReply({ devices: [{ ...lamp, daysLeft: 0 }] })).toBe('Kidogo: SHS-0042: credit ends today, KES 7,080.00 left to pay.');
    expect(formatBalanceReply({ devices: [{ ...lamp, creditEndsOn: null, daysLeft: null }] })).toContain('SHS-0042: no credit yet,');
    expect(formatBalanceReply({ language: 'sw', customerName: 'Juma', devices: [lamp, { ...lamp, serialNumber: 'PHN-1', paidOff: true }] })).toBe(
      'Kidogo: Habari Juma. SHS-0042: salio hadi 27 Nov, zimebaki KES 7,080.00 kulipa. PHN-1: kimelipwa kikamilifu.',
    );
  });

  it('in French, asked with SOLDE', () => {
    expect(parseBalanceRequest('solde shs-0042')).toEqual({ serial: 'shs-0042' });
    expect(
      formatBalanceReply({
        language: 'fr',
        customerName: 'Aline',
        devices: [lamp, { ...lamp, serialNumber: 'PHN-1', paidOff: true }, { ...lamp, serialNumber: 'LMP-1', daysLeft: -3, creditEndsOn: '2026-11-22', remaining: null }],
      }),
    ).toBe("Kidogo: Bonjour Aline. SHS-0042: credit jusqu'au 27 nov, reste KES 7,080.00 a payer. PHN-1: entierement paye. LMP-1: sans credit depuis le 22 nov.");
  });

  it('names a serial that is none of theirs, and counts the devices past three', () => {
    const many = ['A', 'B', 'C', 'D', 'E'].map((s) => ({ ...lamp, serialNumber: s }));
    const text = formatBalanceReply({ customerName: 'Grace', devices: many, unknownSerial: 'XYZ-1' });
    expect(text.startsWith('Kidogo: Hi Grace. No device XYZ-1 on your account. A: credit until')).toBe(true);
    expect(text.endsWith('+2 more devices.')).toBe(true);
    expect(formatBalanceReply({ devices: [] })).toBe('Kidogo: No device is on your account.');
  });
});

describe('parseCodeRequest', () => {
  it('reads CODE, TOKEN and NAMBA in any case, with or without a serial number', () => {
    expect(parseCodeRequest('CODE')).toEqual({ serial: null });
    expect(parseCodeRequest(' token. ')).toEqual({ serial: null });
    expect(parseCodeRequest('Namba')).toEqual({ serial: null });
    expect(parseCodeRequest('code shs-0042')).toEqual({ serial: 'shs-0042' });
  });

  it('leaves everything else alone', () => {
    for (const text of [null, '', 'BAL', 'code please', 'CODE SHS 0042', 'What is my code?', 'QK12AB34CD Confirmed. Ksh100.00 received']) {
      expect(parseCodeRequest(text)).toBeNull();
    }
  });
});

describe('formatCodeReply', () => {
  const code = { token: '123456789', type: 'add_time', days: 7, issuedOn: '2026-11-20' };
  it("tells each device's last code, in English, Kiswahili and French", () => {
    const devices = [
      { serialNumber: 'SHS-0042', code },
      { serialNumber: 'PHN-3003', code: { token: '987654321', type: 'unlock', days: 0, issuedOn: '2026-10-02' } },
      { serialNumber: 'LMP-1', code: null },
    ];
    expect(formatCodeReply({ customerName: 'Grace Achieng', devices })).toBe(
      'Kidogo: Hi Grace. SHS-0042 last code: 123 456 789 (20 Nov, 7 days). PHN-3003 last code: 987 654 321 (2 Oct, unlock). No code has been issued for LMP-1 yet.',
    );
    expect(formatCodeReply({ language: 'sw', customerName: 'Grace', devices: devices.slice(0, 1) })).toBe(
      'Kidogo: Habari Grace. Namba ya mwisho ya SHS-0042: 123 456 789 (20 Nov, siku 7).',
    );
    expect(formatCodeReply({ language: 'fr', customerName: 'Grace', devices: devices.slice(0, 1) })).toMatch(/^Kidogo: Bonjour Grace\. Dernier code de SHS-0042: 123 456 789 \(20 /);
  });

  it('says a serial that is none of theirs first, and how many more devices past three', () => {
    const many = Array.from({ length: 5 }, (_, i) => ({ serialNumber: `D-${i}`, code }));
    expect(formatCodeReply({ customerName: 'Grace', devices: many, unknownSerial: 'XYZ-9' })).toMatch(/^Kidogo: Hi Grace\. No device XYZ-9 on your account\. D-0 .* \+2 more devices\.$/);
    expect(formatCodeReply({ devices: [] })).toBe('Kidogo: No device is on your account.');
  });
});
