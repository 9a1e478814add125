import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseMessage, type ParsedPayment } from '../src/index.js';

interface Fixtures {
  sources: Record<string, string>;
  payments: Array<{ file: string; seen_in: string[]; expected: ParsedPayment }>;
  rejected: Array<{ file: string; seen_in: string[]; error_contains: string }>;
}

const dir = new URL('./fixtures/', import.meta.url);
const fixtures = JSON.parse(readFileSync(new URL('sms-expected.json', dir), 'utf8')) as Fixtures;
const text = (file: string) => readFileSync(new URL(`sms/${file}`, dir), 'utf8');

describe('SMS fixtures modelled on real M-Pesa, Airtel Money and MTN MoMo formats', () => {
  it('has at least 12 payment samples covering every format family', () => {
    expect(fixtures.payments.length).toBeGreaterThanOrEqual(12);
    const families = new Set(fixtures.payments.map((p) => `${p.expected.provider}:${p.expected.kind}`));
    for (const f of ['mpesa:paybill', 'mpesa:till', 'mpesa:p2p', 'airtel:p2p', 'airtel:paybill', 'mtn:p2p', 'mtn:till']) expect(families).toContain(f);
    expect(new Set(fixtures.payments.map((p) => p.expected.currency))).toEqual(new Set(['KES', 'UGX', 'TZS', 'RWF', 'GHS', 'ZMW']));
  });

  it('names a known public source for every sample', () => {
    for (const f of [...fixtures.payments, ...fixtures.rejected]) {
      expect(f.seen_in.length, f.file).toBeGreaterThan(0);
      for (const s of f.seen_in) expect(fixtures.sources, `${f.file}: ${s}`).toHaveProperty(s);
    }
  });

  for (const f of fixtures.payments) {
    it(`parses ${f.file}`, () => {
      const r = parseMessage(text(f.file));
      expect(r).toEqual({ ok: true, payment: f.expected });
    });
  }

  for (const f of fixtures.rejected) {
    it(`refuses ${f.file}`, () => {
      const r = parseMessage(text(f.file));
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error).toContain(f.error_contains);
    });
  }
});
