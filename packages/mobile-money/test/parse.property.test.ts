import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  extractForwardedMessage,
  formatCents,
  mapStatementRow,
  normalizeAccountRef,
  normalizePhone,
  parseDarajaC2B,
  parseMessage,
} from '../src/index.js';

const RUNS = { numRuns: 400 };

describe('nothing throws on arbitrary input', () => {
  it('parseMessage never throws and always answers ok:true or ok:false', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' }), fc.string({ maxLength: 3000 })), (s) => {
        const r = parseMessage(s);
        expect(typeof r.ok).toBe('boolean');
      }),
      { numRuns: 2000 },
    );
  });

  it('parseMessage never throws on strings built from payment-message words', () => {
    const word = fc.constantFrom(
      'Confirmed.', 'Ksh1,500.00', 'received', 'from', 'JOHN', '254712345678', 'on', '5/6/24', 'at', '10:15', 'AM.',
      'Account', 'Number', 'New', 'Utility', 'balance', 'is', 'sent', 'to', 'for', 'account', 'paid', 'TID', 'UGX',
      'Umepokea', 'Tsh', 'Salio', 'Muamala', 'No.', '2547******678', 'QAI1S35S7Z', ',', '.', '\n', '31/2/24', '99:99',
      "Y'ello.", 'Financial', 'Transaction', 'Id:', '76662021700.', 'RWF', 'GHS', 'ZMW', '2024-05-10', '2024-02-31', '16:30:51',
      '(*********013)', 'Message', 'sender:', 'Reference:', 'mobile', 'money', 'Payment', 'Cash', 'In', 'TxId:',
    );
    fc.assert(
      fc.property(fc.array(word, { maxLength: 40 }), (words) => {
        const r = parseMessage(words.join(' '));
        expect(typeof r.ok).toBe('boolean');
      }),
      { numRuns: 2000 },
    );
  });

  it('the other entry points never throw either', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.integer(), fc.double(), fc.constant(null))), (body) => {
        parseDarajaC2B(body);
        extractForwardedMessage(body);
        mapStatementRow(Object.fromEntries(Object.entries(body).map(([k, v]) => [k, String(v)])));
        normalizeAccountRef(String(body['x']));
      }),
      RUNS,
    );
    fc.assert(fc.property(fc.string(), (s) => void normalizePhone(s)), { numRuns: 2000 });
  });
});

// --- valid messages built from random parts --------------------------------

const KEYWORDS = new Set([
  'ON', 'AT', 'FOR', 'ACCOUNT', 'NUMBER', 'NEW', 'FROM', 'TO', 'SENT', 'RECEIVED', 'CONFIRMED', 'BALANCE', 'YOUR',
  'YOU', 'HAVE', 'KSH', 'KES', 'KSHS', 'PAID', 'BAL', 'SALIO', 'NO', 'TRANSACTION', 'COST', 'MUAMALA', 'TID',
  'UTILITY', 'AM', 'PM', 'IN', 'REFERENCE',
]);
const nameWord = fc
  .stringMatching(/^[A-Za-z][a-z']{1,9}$/)
  .filter((w) => !KEYWORDS.has(w.toUpperCase()) && !w.endsWith("'"));
const upperWord = nameWord.map((w) => w.toUpperCase());
const personName = fc.array(fc.oneof(nameWord, upperWord), { minLength: 1, maxLength: 4 }).map((ws) => ws.join(' '));
const code = fc
  .stringMatching(/^[A-Z][A-Z0-9]{9}$/)
  .filter((c) => /\d/.test(c));
const national = fc.tuple(fc.constantFrom('7', '1'), fc.stringMatching(/^\d{8}$/)).map(([a, b]) => a + b);
const cents = fc.integer({ min: 1, max: 25_000_000 });
const ref = fc.stringMatching(/^[A-Z0-9]{1,12}$/).filter((r) => !KEYWORDS.has(r));
const when = fc.record({
  day: fc.integer({ min: 1, max: 28 }),
  month: fc.integer({ min: 1, max: 12 }),
  year: fc.integer({ min: 2010, max: 2039 }),
  hour: fc.integer({ min: 1, max: 12 }),
  minute: fc.integer({ min: 0, max: 59 }),
  pm: fc.boolean(),
  longYear: fc.boolean(),
});
type When = typeof when extends fc.Arbitrary<infer T> ? T : never;

function writtenAmount(c: number, grouped: boolean, decimals: boolean): string {
  const [whole, frac] = formatCents(c).split('.') as [string, string];
  const w = grouped ? whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',') : whole;
  return decimals || frac !== '00' ? `${w}.${frac}` : w;
}
function writtenDate(w: When): string {
  const y = w.longYear ? String(w.year) : String(w.year % 100).padStart(2, '0');
  return `${w.day}/${w.month}/${y}`;
}
function writtenTime(w: When): string {
  return `${w.hour}:${String(w.minute).padStart(2, '0')} ${w.pm ? 'PM' : 'AM'}`;
}
function isoOf(w: When): string {
  const h = (w.hour % 12) + (w.pm ? 12 : 0);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${w.year}-${p(w.month)}-${p(w.day)}T${p(h)}:${p(w.minute)}:00+03:00`;
}

/** Replace some single spaces with line breaks or runs of spaces, as forwarders and phones do. */
function mangle(text: string, seed: number[]): string {
  let i = 0;
  return text.replace(/ /g, () => ['  ', '\n', ' \n ', ' '][seed[i++ % seed.length]! % 4]!);
}

const parts = fc.record({
  code,
  amount: cents,
  grouped: fc.boolean(),
  decimals: fc.boolean(),
  name: personName,
  business: personName,
  national,
  phoneStyle: fc.constantFrom('254', '0'),
  ref,
  when,
  balance: cents,
  template: fc.constantFrom('paybill_old', 'paybill_new', 'till', 'p2p', 'customer_paybill'),
  seed: fc.array(fc.nat(), { minLength: 1, maxLength: 8 }),
});

describe('valid messages built from random parts parse back to those parts', () => {
  it('round-trips every supported M-Pesa layout', () => {
    fc.assert(
      fc.property(parts, (p) => {
        const amt = `Ksh${writtenAmount(p.amount, p.grouped, p.decimals)}`;
        const bal = `Ksh${writtenAmount(p.balance, true, true)}`;
        const phone = p.phoneStyle === '254' ? `254${p.national}` : `0${p.national}`;
        const d = writtenDate(p.when);
        const t = writtenTime(p.when);
        const text = {
          paybill_old: `${p.code} Confirmed. on ${d} at ${t} ${amt} received from ${p.name} ${phone}. Account Number ${p.ref} New Utility balance is ${bal}`,
          paybill_new: `${p.code} Confirmed. ${amt} received from ${p.name} ${phone} on ${d} at ${t}. Account Number ${p.ref}. New Utility balance is ${bal}.`,
          till: `${p.code} Confirmed.on ${d} at ${t}${amt} received from ${phone} ${p.name}. New Account balance is ${bal}. Transaction cost, Ksh0.00.`,
          p2p: `${p.code} Confirmed.You have received ${amt} from ${p.name} ${phone} on ${d} at ${t} New M-PESA balance is ${bal}.`,
          customer_paybill: `${p.code} Confirmed. ${amt} sent to ${p.business} for account ${p.ref} on ${d} at ${t} New M-PESA balance is ${bal}. Transaction cost, Ksh0.00.`,
        }[p.template];

        const r = parseMessage(mangle(text, p.seed));
        if (!r.ok) throw new Error(`${r.error}: ${text}`);
        const got = r.payment;
        const customerSide = p.template === 'customer_paybill';
        expect(got.provider).toBe('mpesa');
        expect(got.kind).toBe(
          { paybill_old: 'paybill', paybill_new: 'paybill', till: 'till', p2p: 'p2p', customer_paybill: 'paybill' }[p.template],
        );
        expect(got.transaction_code).toBe(p.code);
        expect(got.amount).toBe(formatCents(p.amount));
        expect(got.currency).toBe('KES');
        expect(got.transacted_at).toBe(isoOf(p.when));
        expect(got.sender_name).toBe(customerSide ? null : p.name);
        expect(got.sender_phone).toBe(customerSide ? null : `254${p.national}`);
        expect(got.account_reference).toBe(p.template.includes('paybill') ? p.ref : null);
        expect(got.balance).toBe(customerSide ? null : formatCents(p.balance));
      }),
      { numRuns: 1000 },
    );
  });

  it('round-trips Airtel Uganda and Tanzania receipts', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^\d{12}$/),
        fc.integer({ min: 1, max: 5_000_000 }),
        personName,
        fc.stringMatching(/^7\d{8}$/),
        fc.boolean(),
        (tid, shillings, name, nat, tz) => {
          const grouped = String(shillings).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
          const text = tz
            ? `Umepokea Tsh${grouped}.00, ${nat} ${name}. Salio jipya ni Tsh1,000.00. Muamala No. MP${tid.slice(0, 6)}.${tid.slice(6, 10)}.A${tid.slice(0, 5)}`
            : `RECEIVED. TID ${tid}. UGX ${grouped} from ${nat}, ${name}. Bal UGX 1,000.`;
          const r = parseMessage(text);
          if (!r.ok) throw new Error(`${r.error}: ${text}`);
          expect(r.payment.provider).toBe('airtel');
          expect(r.payment.amount).toBe(`${shillings}.00`);
          expect(r.payment.currency).toBe(tz ? 'TZS' : 'UGX');
          expect(r.payment.sender_name).toBe(name);
          expect(r.payment.sender_phone).toBe(`${tz ? '255' : '256'}${nat}`);
          expect(r.payment.balance).toBe('1000.00');
        },
      ),
      RUNS,
    );
  });

  it('round-trips MTN MoMo receipts (Rwanda, Uganda, Ghana), the reference the payer wrote included', () => {
    const mtnWhen = fc.record({
      year: fc.integer({ min: 2010, max: 2039 }),
      month: fc.integer({ min: 1, max: 12 }),
      day: fc.integer({ min: 1, max: 28 }),
      hour: fc.integer({ min: 0, max: 23 }),
      minute: fc.integer({ min: 0, max: 59 }),
      second: fc.integer({ min: 0, max: 59 }),
    });
    fc.assert(
      fc.property(
        fc.stringMatching(/^[1-9]\d{10}$/),
        fc.integer({ min: 1, max: 5_000_000 }),
        personName,
        fc.stringMatching(/^7\d{8}$/),
        fc.option(ref, { nil: null }),
        mtnWhen,
        fc.constantFrom('RWF', 'UGX', 'GHS'),
        (tid, units, name, nat, reference, w, currency) => {
          const p = (n: number) => String(n).padStart(2, '0');
          const at = `${w.year}-${p(w.month)}-${p(w.day)} ${p(w.hour)}:${p(w.minute)}:${p(w.second)}`;
          const grouped = String(units).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
          const cc = { RWF: '250', UGX: '256', GHS: '233' }[currency]!;
          const text =
            currency === 'GHS'
              ? `Payment received for GHS ${grouped}.00 from ${name} Current Balance: GHS 1,000.00 . Available Balance: GHS 1,000.00. Reference: ${reference ?? '-'}. Transaction ID: ${tid}. TRANSACTION FEE: 0.00`
              : currency === 'RWF'
                ? `You have received ${grouped} RWF from ${name} (${cc}${nat}) on your mobile money account at ${at}. Message from sender: ${reference ?? ''}. Your new balance:1,000 RWF. Financial Transaction Id: ${tid}.`
                : `Y'ello. You have received UGX ${grouped}.00 from ${name} (${cc}${nat}) on your mobile money account at ${at}.Your new balance:UGX 1000.00.`;
          const r = parseMessage(text);
          if (!r.ok) throw new Error(`${r.error}: ${text}`);
          expect(r.payment.provider).toBe('mtn');
          expect(r.payment.amount).toBe(`${units}.00`);
          expect(r.payment.currency).toBe(currency);
          expect(r.payment.sender_name).toBe(name);
          expect(r.payment.balance).toBe('1000.00');
          if (currency === 'GHS') {
            expect(r.payment.transaction_code).toBe(tid);
            expect(r.payment.account_reference).toBe(reference);
            expect(r.payment.sender_phone).toBeNull();
          } else {
            expect(r.payment.sender_phone).toBe(`${cc}${nat}`);
            expect(r.payment.transacted_at).toBe(`${at.replace(' ', 'T')}+03:00`);
          }
          if (currency === 'RWF') {
            expect(r.payment.transaction_code).toBe(tid);
            expect(r.payment.account_reference).toBe(reference);
          }
          if (currency === 'UGX') {
            // No id in the text: named by its time and words, the same for the same text, another for another.
            expect(r.payment.transaction_code).toMatch(new RegExp(`^MTN-${at.replace(/\D/g, '')}-[0-9A-F]{8}$`));
            const again = parseMessage(text.replace(/ /g, '\n'));
            expect(again.ok && again.payment.transaction_code).toBe(r.payment.transaction_code);
            const other = parseMessage(text.replace(`UGX ${grouped}.00 from`, `UGX ${grouped}.50 from`));
            expect(other.ok && other.payment.transaction_code).not.toBe(r.payment.transaction_code);
          }
        },
      ),
      RUNS,
    );
  });

  it('normalizePhone gives the same answer for every way of writing one number', () => {
    fc.assert(
      fc.property(national, (nat) => {
        const canonical = `254${nat}`;
        const spaced = `${nat.slice(0, 3)} ${nat.slice(3, 6)} ${nat.slice(6)}`;
        for (const form of [nat, `0${nat}`, canonical, `+${canonical}`, `+254 ${spaced}`, `0${spaced}`, `00${canonical}`]) {
          expect(normalizePhone(form)).toBe(canonical);
        }
      }),
      RUNS,
    );
  });
});
