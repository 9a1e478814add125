import { describe, expect, it } from 'vitest';
import { isKnownCountryCode, isMaskedPhone, normalizeAccountRef, normalizePhone, phoneMatchesMasked } from '../src/index.js';

describe('normalizePhone', () => {
  it.each([
    ['0712345678', '254712345678'],
    ['712345678', '254712345678'],
    ['254712345678', '254712345678'],
    ['+254712345678', '254712345678'],
    ['+254 712 345 678', '254712345678'],
    ['+254-712-345-678', '254712345678'],
    ['(0712) 345 678', '254712345678'],
    ['00254712345678', '254712345678'],
    [' 0712 345678 ', '254712345678'],
    ['0112345678', '254112345678'],
    ['112345678', '254112345678'],
    ['254112345678', '254112345678'],
    ['+254 110 000 000', '254110000000'],
    ['0733216540', '254733216540'],
  ])('%s -> %s', (raw, want) => {
    expect(normalizePhone(raw)).toBe(want);
  });

  it('keeps other country codes written with +', () => {
    expect(normalizePhone('+256 772 123456')).toBe('256772123456');
    expect(normalizePhone('+255 754 123 456')).toBe('255754123456');
    expect(normalizePhone('+250788123456')).toBe('250788123456');
    expect(normalizePhone('+1 415 555 0100')).toBe('14155550100');
  });

  it('recognises a known East African code written without +', () => {
    expect(normalizePhone('256772123456')).toBe('256772123456');
    expect(normalizePhone('255747900466')).toBe('255747900466');
  });

  it('uses the default country code for local forms', () => {
    expect(normalizePhone('0772123456', '256')).toBe('256772123456');
    expect(normalizePhone('743706731', '256')).toBe('256743706731');
    expect(normalizePhone('0754123456', '255')).toBe('255754123456');
    expect(normalizePhone('254712345678', '256')).toBe('254712345678');
  });

  it('reads local forms of the countries an organization may choose', () => {
    expect(normalizePhone('0803 123 4567', '234')).toBe('2348031234567');
    expect(normalizePhone('+234 803 123 4567', '254')).toBe('2348031234567');
    expect(normalizePhone('0803 123 456', '234')).toBeNull();
    expect(normalizePhone('0244 123 456', '233')).toBe('233244123456');
    expect(normalizePhone('0771 234 567', '263')).toBe('263771234567');
    expect(normalizePhone('0991 234 567', '265')).toBe('265991234567');
    // The same local form is another number in another country.
    expect(normalizePhone('0772 123 456', '254')).toBe('254772123456');
    expect(normalizePhone('0772 123 456', '256')).toBe('256772123456');
  });

  it('knows the calling codes it can read', () => {
    for (const cc of ['254', '256', '255', '250', '257', '211', '243', '251', '260', '265', '263', '234', '233']) {
      expect(isKnownCountryCode(cc), cc).toBe(true);
    }
    for (const cc of ['1', '44', '999', '', 'abc', 'toString']) expect(isKnownCountryCode(cc), cc).toBe(false);
  });

  it('returns null for masked numbers', () => {
    for (const m of ['2547******678', '0712***678', '25470****149', '2547****0111', '0722XXXXXX', '07** *** 111']) {
      expect(normalizePhone(m)).toBeNull();
    }
  });

  it('returns null for garbage', () => {
    for (const g of [
      '',
      '   ',
      'MPESA',
      'AIRTELMONEY',
      '12345',
      '07123456789',
      '071234567',
      '254812345678',
      '0212345678',
      '+0712345678',
      '+12',
      '0712abc678',
      'fe3b1c0aaf',
      '2547123456789',
      '+2547123456789',
    ]) {
      expect(normalizePhone(g), g).toBeNull();
    }
  });

  it('does not throw on non-strings', () => {
    expect(normalizePhone(undefined as unknown as string)).toBeNull();
    expect(normalizePhone(712345678 as unknown as string)).toBeNull();
    expect(normalizePhone('0712345678', 'abc')).toBeNull();
  });
});

describe('masked numbers', () => {
  it('detects masks', () => {
    expect(isMaskedPhone('2547******678')).toBe(true);
    expect(isMaskedPhone('0712***678')).toBe(true);
    expect(isMaskedPhone('0722XXXXXX')).toBe(true);
    expect(isMaskedPhone('254712345678')).toBe(false);
    expect(isMaskedPhone('*********')).toBe(false);
    expect(isMaskedPhone('JOHN')).toBe(false);
  });

  it.each([
    ['2547******678', '254712345678', true],
    ['2547******678', '0712345678', true],
    ['2547******678', '254712345679', false],
    ['0712***678', '254712345678', true],
    ['0712***678', '0712999678', true],
    ['0712***678', '0713345678', false],
    ['25470****149', '254708374149', true],
    ['2547****0111', '254722000111', true],
    ['0722XXXXXX', '254722123456', true],
    ['0722XXXXXX', '254733123456', false],
    ['+254 712 *** 678', '254712345678', true],
    ['254712345678', '0712345678', true],
    ['254712345678', '0712345679', false],
    ['**********', '254712345678', false],
    ['07*******8', '254712345678', false],
  ])('%s fits %s: %s', (masked, canonical, want) => {
    expect(phoneMatchesMasked(masked, canonical)).toBe(want);
  });

  it('never matches an invalid canonical number', () => {
    expect(phoneMatchesMasked('2547******678', 'garbage')).toBe(false);
  });
});

describe('normalizeAccountRef', () => {
  it.each([
    ['KD-0042', 'KD0042'],
    ['kd 0042', 'KD0042'],
    [' kd.0042 ', 'KD0042'],
    ['kd_00-42', 'KD0042'],
    ['Solar Home 17', 'SOLARHOME17'],
    ['sn\t48213\n', 'SN48213'],
    ['SN48213', 'SN48213'],
  ])('%j -> %s', (raw, want) => {
    expect(normalizeAccountRef(raw)).toBe(want);
  });

  it('empty is null', () => {
    for (const e of ['', '   ', ' - . _ ', null, undefined]) expect(normalizeAccountRef(e)).toBeNull();
  });
});
