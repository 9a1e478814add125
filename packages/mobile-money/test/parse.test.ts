import { describe, expect, it } from 'vitest';
import {
  extractForwardedMessage,
  isPersonSender,
  parseAirtelCollection,
  parseDarajaC2B,
  parseMessage,
  parseMomoCollection,
  type ParseResult,
} from '../src/index.js';

function payment(r: ParseResult) {
  if (!r.ok) throw new Error(`expected ok, got: ${r.error}`);
  return r.payment;
}

const paybill = (amount: string, when = 'on 5/6/24 at 10:15 AM') =>
  `SF57HQ2K8D Confirmed. ${amount} received from JOHN DOE 254712345678 ${when}. Account Number SN-48213. New Utility balance is Ksh45,300.00.`;

describe('parseMessage: amounts', () => {
  it.each([
    ['Ksh1,500.00', '1500.00'],
    ['KES 1,500.00', '1500.00'],
    ['KES1500', '1500.00'],
    ['Ksh50.00', '50.00'],
    ['Ksh 50', '50.00'],
    ['KSH12,345,678.90', '12345678.90'],
    ['Kshs.250.5', '250.50'],
    ['ksh0.50', '0.50'],
  ])('%s -> %s', (written, want) => {
    const p = payment(parseMessage(paybill(written)));
    expect(p.amount).toBe(want);
    expect(p.currency).toBe('KES');
  });

  it('does not take the balance or the transaction cost for the amount', () => {
    const p = payment(
      parseMessage(
        'QAI1S35S7Z Confirmed.on 18/1/22 at 3:57 PMKsh40.00 received from 254721863742 MERCY W. New Account balance is Ksh440.00. Transaction cost, Ksh0.00.',
      ),
    );
    expect(p.amount).toBe('40.00');
    expect(p.balance).toBe('440.00');
  });

  it('refuses a zero amount', () => {
    expect(parseMessage(paybill('Ksh0.00'))).toEqual({ ok: false, error: 'Amount is zero' });
  });

  it('never takes the balance for the amount when no amount is written next to the payment', () => {
    const noAmount =
      'SNOAMT34EF Confirmed. Payment received from AUDIT TWO 254722118698 on 24/11/26 at 10:15 AM. Account Number SN-48213. New Utility balance is Ksh45,300.00.';
    const r = parseMessage(noAmount);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain("No amount found next to 'received'");
  });

  it('refuses a negative amount instead of reading the balance', () => {
    expect(parseMessage(paybill('Ksh-400.00'))).toEqual({ ok: false, error: 'Amount is negative' });
    expect(parseMessage(paybill('Ksh -400.00'))).toEqual({ ok: false, error: 'Amount is negative' });
  });

  it('refuses an amount written with spaces for thousands rather than reading part of it', () => {
    expect(parseMessage(paybill('Ksh 1 500.00')).ok).toBe(false);
  });
});

describe('parseMessage: dates and times (day/month/year, East Africa Time)', () => {
  it.each([
    ['on 5/6/24 at 10:15 AM', '2024-06-05T10:15:00+03:00'],
    ['on 05/06/2024 at 10:15 AM', '2024-06-05T10:15:00+03:00'],
    ['on 5/6/24 at 10:15 PM', '2024-06-05T22:15:00+03:00'],
    ['on 5/6/24 at 12:05 AM', '2024-06-05T00:05:00+03:00'],
    ['on 5/6/24 at 12:05 PM', '2024-06-05T12:05:00+03:00'],
    ['on 5/6/24 at 8.02AM', '2024-06-05T08:02:00+03:00'],
    ['on 5/6/24 at 10:15 pm', '2024-06-05T22:15:00+03:00'],
    ['on 5/6/24 13:09', '2024-06-05T13:09:00+03:00'],
    ['on 5/6/24', '2024-06-05'],
    ['on 31/12/2025', '2025-12-31'],
  ])('%s -> %s', (when, want) => {
    expect(payment(parseMessage(paybill('Ksh1,500.00', when))).transacted_at).toBe(want);
  });

  it('gives null for an impossible or missing date', () => {
    expect(payment(parseMessage(paybill('Ksh1,500.00', 'on 31/2/24 at 10:15 AM'))).transacted_at).toBeNull();
    expect(payment(parseMessage(paybill('Ksh1,500.00', 'on 5/13/24 at 10:15 AM'))).transacted_at).toBeNull();
    expect(payment(parseMessage(paybill('Ksh1,500.00', ''))).transacted_at).toBeNull();
  });

  it('keeps the date but not an impossible time', () => {
    expect(payment(parseMessage(paybill('Ksh1,500.00', 'on 5/6/24 at 13:15 PM'))).transacted_at).toBe('2024-06-05');
  });
});

describe('parseMessage: names, case and whitespace', () => {
  it('keeps multi-word names as written', () => {
    const p = payment(
      parseMessage(
        'SF57HQ2K8D Confirmed. Ksh100.00 received from MARY WANJIRU WA KAMAU NJOROGE 0722000111 on 5/6/24 at 9:00 AM. Account Number X1. New Utility balance is Ksh100.00.',
      ),
    );
    expect(p.sender_name).toBe('MARY WANJIRU WA KAMAU NJOROGE');
    expect(p.sender_phone).toBe('254722000111');
  });

  it('reads an all-lower-case and an all-upper-case message alike', () => {
    const base =
      'SF57HQ2K8D Confirmed. Ksh1,500.00 received from John Doe 254712345678 on 5/6/24 at 10:15 AM. Account Number sn-1. New Utility balance is Ksh45,300.00.';
    const lower = payment(parseMessage(base.toLowerCase()));
    const upper = payment(parseMessage(base.toUpperCase()));
    expect(lower.transaction_code).toBe('SF57HQ2K8D');
    expect(upper.transaction_code).toBe('SF57HQ2K8D');
    expect(lower.sender_name).toBe('john doe');
    expect(upper.sender_name).toBe('JOHN DOE');
    for (const p of [lower, upper]) {
      expect(p.amount).toBe('1500.00');
      expect(p.kind).toBe('paybill');
      expect(p.transacted_at).toBe('2024-06-05T10:15:00+03:00');
      expect(p.sender_phone).toBe('254712345678');
    }
    expect(lower.account_reference).toBe('sn-1');
    expect(upper.account_reference).toBe('SN-1');
  });

  it('ignores extra whitespace and line breaks', () => {
    const messy =
      '  SF57HQ2K8D   Confirmed.\r\n\r\nKsh1,500.00\treceived from\n  JOHN   DOE\n254712345678 on 5/6/24\nat 10:15   AM.\nAccount Number   SN-48213.\n New Utility balance is Ksh45,300.00.  ';
    const p = payment(parseMessage(messy));
    expect(p.sender_name).toBe('JOHN DOE');
    expect(p.account_reference).toBe('SN-48213');
    expect(p.transacted_at).toBe('2024-06-05T10:15:00+03:00');
  });

  it('takes a phone written in groups after the name', () => {
    const p = payment(
      parseMessage(
        'TJF987E58C Confirmed.You have received Ksh300.00 from Person 2 0711 111 111 on 15/10/24 at 12:16 PM New M-PESA balance is Ksh123.12.',
      ),
    );
    expect(p.sender_name).toBe('Person 2');
    expect(p.sender_phone).toBe('254711111111');
  });

  it('does not mistake a name starting with a zero for a phone', () => {
    const p = payment(
      parseMessage(
        'EV52AY844 Confirmed.\nYou have received Ksh200.00 from\n0RENGE ALEX 254724613573\non 29/3/14 at 1:38 AM\nNew M-PESA balance is Ksh2,927.00.',
      ),
    );
    expect(p.sender_name).toBe('0RENGE ALEX');
    expect(p.sender_phone).toBe('254724613573');
  });

  it('prefers a full number to a masked reading of number plus name (found by fast-check)', () => {
    const ug = payment(parseMessage('RECEIVED. TID 000000000000. UGX 1 from 700000000, Xx. Bal UGX 1,000.'));
    expect(ug.sender_name).toBe('Xx');
    expect(ug.sender_phone).toBe('256700000000');
    const tz = payment(parseMessage('Umepokea Tsh1.00, 700000000 xx Aa. Salio jipya ni Tsh1,000.00. Muamala No. MP000000.0000.A00000'));
    expect(tz.sender_name).toBe('xx Aa');
    expect(tz.sender_phone).toBe('255700000000');
  });

  it('reads "You have paid ... to ... for account ..." as a customer-side paybill', () => {
    const p = payment(
      parseMessage('RF45AB1C2D Confirmed. You have paid Ksh1,200.00 to KIDOGO SOLAR for account SN48213 on 18/11/2025 at 4:30 PM. New balance is Ksh11,300.00.'),
    );
    expect(p).toMatchObject({ kind: 'paybill', account_reference: 'SN48213', sender_name: null, amount: '1200.00' });
  });

  it('reads the Swahili M-Pesa Tanzania date ("tarehe 19/06/2026 saa 22:38:24")', () => {
    const p = payment(
      parseMessage('DFJ9B1FX2B imethibitishwa. Umepokea Tshs 4,000.00 kutoka NEEMA JOHN 255754123456 tarehe 19/06/2026 saa 22:38:24.'),
    );
    expect(p).toMatchObject({
      provider: 'mpesa',
      kind: 'p2p',
      currency: 'TZS',
      amount: '4000.00',
      sender_name: 'NEEMA JOHN',
      sender_phone: '255754123456',
      transacted_at: '2026-06-19T22:38:24+03:00',
    });
  });

  it('keeps a name without phone (bank transfer into a wallet)', () => {
    const p = payment(
      parseMessage(
        'DT85TH896 Confirmed.\nYou have received Ksh3,500.00 from\n501901 - KCB Money Transfer Services \non 31/7/13 at 6:43 PM\nNew M-PESA balance is Ksh11,312.00.',
      ),
    );
    expect(p.kind).toBe('p2p');
    expect(p.sender_name).toBe('501901 - KCB Money Transfer Services');
    expect(p.sender_phone).toBeNull();
  });

  it('a paybill message without account number is still paybill', () => {
    const p = payment(
      parseMessage('BH45UU225 Confirmed. on 5/4/11 at 2:45 PM Ksh950 received from BORIS BECKER 254723908002. New Utility balance is Ksh50,802'),
    );
    expect(p.kind).toBe('paybill');
    expect(p.account_reference).toBeNull();
    expect(p.balance).toBe('50802.00');
  });
});

describe('parseMessage: refusals', () => {
  it.each([
    ['', 'Empty message'],
    ['   \n\t ', 'Empty message'],
    ['Hello, are you coming today?', 'No transaction code found'],
    ['Confirmed. Ksh1,500.00 received from JOHN DOE 254712345678', 'No transaction code found'],
    ['ABCDEFGHIJ Confirmed. Ksh1,500.00 received from JOHN', 'No transaction code found'],
    ['SF57HQ2K8D Confirmed. You have received money from JOHN DOE', 'No amount found'],
    ['SF57HQ2K8D Confirmed. Transaction SF57HQ2K8C has been reversed. Ksh100.00 has been returned', 'Reversal'],
    ['Trans. ID: 1450335211705 You have sent 50.00Ksh to JOSEPH KARANJA. Your available balance is 10.00Ksh.', 'Outgoing transfer'],
    ['Trans. ID: 7740224211672. You have received Airtime of 10.00Ksh from your OWN account.', 'No amount found'],
  ])('%j -> %s', (text, error) => {
    const r = parseMessage(text);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain(error);
  });

  it('refuses overlong texts and non-strings without throwing', () => {
    expect(parseMessage('x'.repeat(5000)).ok).toBe(false);
    expect(parseMessage(null as unknown as string)).toEqual({ ok: false, error: 'Message text must be a string' });
  });
});

// Shape documented by Safaricom for the C2B confirmation URL (Daraja "C2B Register URL"),
// e.g. TransID "RKTQDM7W6S", TransTime "20191122063845", MSISDN "25470****149".
const DARAJA = {
  TransactionType: 'Pay Bill',
  TransID: 'RKT3QDM7W6',
  TransTime: '20191122063845',
  TransAmount: '10.00',
  BusinessShortCode: '600638',
  BillRefNumber: 'invoice008',
  InvoiceNumber: '',
  OrgAccountBalance: '49197.00',
  ThirdPartyTransID: '',
  MSISDN: '254708374149',
  FirstName: 'John',
  MiddleName: '',
  LastName: 'Doe',
};

describe('parseDarajaC2B', () => {
  it('reads a paybill confirmation', () => {
    expect(parseDarajaC2B(DARAJA)).toEqual({
      ok: true,
      payment: {
        provider: 'mpesa',
        kind: 'c2b',
        transaction_code: 'RKT3QDM7W6',
        amount: '10.00',
        currency: 'KES',
        sender_name: 'John Doe',
        sender_phone: '254708374149',
        transacted_at: '2019-11-22T06:38:45+03:00',
        account_reference: 'invoice008',
        balance: '49197.00',
        business_short_code: '600638',
      },
    });
  });

  it('accepts numbers for amount, time, short code and MSISDN', () => {
    const p = payment(
      parseDarajaC2B({ ...DARAJA, TransAmount: 1500.5, TransTime: 20240605101500, BusinessShortCode: 4012345, MSISDN: 254712345678 }),
    );
    expect(p.amount).toBe('1500.50');
    expect(p.transacted_at).toBe('2024-06-05T10:15:00+03:00');
    expect(p.business_short_code).toBe('4012345');
    expect(p.sender_phone).toBe('254712345678');
  });

  it('keeps a masked MSISDN aside and ignores a hashed one', () => {
    const masked = payment(parseDarajaC2B({ ...DARAJA, MSISDN: '25470****149' }));
    expect(masked.sender_phone).toBeNull();
    expect(masked.sender_phone_masked).toBe('25470****149');
    const hashed = payment(
      parseDarajaC2B({ ...DARAJA, MSISDN: '9e2d4f2b6f9a1c7c5b0f4c1b1d2e8f0a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e' }),
    );
    expect(hashed.sender_phone).toBeNull();
    expect(hashed.sender_phone_masked).toBeUndefined();
  });

  it('joins all three names and tolerates missing ones', () => {
    expect(payment(parseDarajaC2B({ ...DARAJA, MiddleName: 'K.' })).sender_name).toBe('John K. Doe');
    const { FirstName: _f, MiddleName: _m, LastName: _l, ...anonymous } = DARAJA;
    expect(payment(parseDarajaC2B(anonymous)).sender_name).toBeNull();
  });

  it('a Buy Goods confirmation has no bill reference', () => {
    const p = payment(parseDarajaC2B({ ...DARAJA, TransactionType: 'Buy Goods', BillRefNumber: '', OrgAccountBalance: '' }));
    expect(p.account_reference).toBeNull();
    expect(p.balance).toBeNull();
  });

  it('gives null for a malformed TransTime', () => {
    expect(payment(parseDarajaC2B({ ...DARAJA, TransTime: '2019-11-22 06:38' })).transacted_at).toBeNull();
    expect(payment(parseDarajaC2B({ ...DARAJA, TransTime: '20191322063845' })).transacted_at).toBeNull();
  });

  it.each([
    [{ ...DARAJA, TransID: '' }, 'Missing TransID'],
    [{ ...DARAJA, TransID: 'bad id!' }, 'Invalid TransID'],
    [{ ...DARAJA, TransAmount: 'ten' }, 'TransAmount'],
    [{ ...DARAJA, TransAmount: -5 }, 'TransAmount'],
    [{ ...DARAJA, TransAmount: '0.00' }, 'Amount is zero'],
    [{ ...DARAJA, TransAmount: undefined }, 'TransAmount'],
  ])('refuses %j', (body, error) => {
    const r = parseDarajaC2B(body as Record<string, unknown>);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain(error);
  });

  it('refuses non-objects', () => {
    expect(parseDarajaC2B(null as unknown as Record<string, unknown>).ok).toBe(false);
    expect(parseDarajaC2B([] as unknown as Record<string, unknown>).ok).toBe(false);
  });
});

/** An MTN MoMo Request to Pay that MTN says was paid, as GET requesttopay/{id} and the callback read it. */
const MOMO = {
  financialTransactionId: '76662021701',
  externalId: 'SHS-1001',
  amount: '15000',
  currency: 'UGX',
  payer: { partyIdType: 'MSISDN', partyId: '256772123456' },
  payerMessage: 'Pay SHS-1001',
  payeeNote: 'Kidogo request 7 for SHS-1001',
  status: 'SUCCESSFUL',
};

describe('parseMomoCollection', () => {
  it('reads a paid request to pay: the external id is the account, the transaction id the code', () => {
    expect(parseMomoCollection(MOMO)).toEqual({
      ok: true,
      payment: {
        provider: 'mtn',
        kind: 'c2b',
        transaction_code: '76662021701',
        amount: '15000.00',
        currency: 'UGX',
        sender_name: null,
        sender_phone: '256772123456',
        transacted_at: null,
        account_reference: 'SHS-1001',
        balance: null,
      },
    });
    expect(extractForwardedMessage(MOMO)).toEqual({ kind: 'momo', body: MOMO });
  });

  it('takes numbers, decimals and a payer that is not a full number', () => {
    const p = payment(parseMomoCollection({ ...MOMO, financialTransactionId: 76662021702, amount: 10.5, currency: 'ghs', payer: { partyId: '0772123456' } }));
    expect(p).toMatchObject({ transaction_code: '76662021702', amount: '10.50', currency: 'GHS', sender_phone: null });
  });

  it.each([
    [{ ...MOMO, status: 'FAILED' }, 'Not a successful'],
    [{ ...MOMO, financialTransactionId: undefined }, 'Missing financialTransactionId'],
    [{ ...MOMO, financialTransactionId: 'no way!' }, 'Invalid financialTransactionId'],
    [{ ...MOMO, amount: 'lots' }, 'amount'],
    [{ ...MOMO, amount: '0' }, 'Amount is zero'],
    [{ ...MOMO, currency: 'shillings' }, 'currency'],
  ])('refuses %j', (body, error) => {
    const r = parseMomoCollection(body as Record<string, unknown>);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain(error);
  });
});

const AIRTEL = {
  airtel_money_id: 'MP261206.1015.A00001',
  transaction_id: 'KDGABCDEFGHJKLMNPQR',
  reference: 'SHS-1001',
  amount: '15000.00',
  currency: 'UGX',
  msisdn: '256752123456',
  status_code: 'TS',
};

describe('parseAirtelCollection', () => {
  it("reads a paid USSD push: the reference is the account, Airtel Money's id the code", () => {
    expect(parseAirtelCollection(AIRTEL)).toEqual({
      ok: true,
      payment: {
        provider: 'airtel',
        kind: 'c2b',
        transaction_code: 'MP261206.1015.A00001',
        amount: '15000.00',
        currency: 'UGX',
        sender_name: null,
        sender_phone: '256752123456',
        transacted_at: null,
        account_reference: 'SHS-1001',
        balance: null,
      },
    });
    expect(extractForwardedMessage(AIRTEL)).toEqual({ kind: 'airtel', body: AIRTEL });
  });

  it('takes numbers, lower case and a number that is not a full one', () => {
    const p = payment(parseAirtelCollection({ ...AIRTEL, airtel_money_id: 'mp1234567', amount: 250.5, currency: 'kes', msisdn: '0733123456' }));
    expect(p).toMatchObject({ transaction_code: 'MP1234567', amount: '250.50', currency: 'KES', sender_phone: null });
  });

  it.each([
    [{ ...AIRTEL, status_code: 'TF' }, 'Not a successful'],
    [{ ...AIRTEL, airtel_money_id: undefined }, 'Missing airtel_money_id'],
    [{ ...AIRTEL, airtel_money_id: 'no way!' }, 'Invalid airtel_money_id'],
    [{ ...AIRTEL, amount: 'lots' }, 'amount'],
    [{ ...AIRTEL, amount: 0 }, 'Amount is zero'],
    [{ ...AIRTEL, currency: 'shillings' }, 'currency'],
  ])('refuses %j', (body, error) => {
    const r = parseAirtelCollection(body as Record<string, unknown>);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain(error);
  });
});

const SMS = 'SF57HQ2K8D Confirmed. Ksh1,500.00 received from JOHN DOE 254712345678 on 5/6/24 at 10:15 AM.';

describe('extractForwardedMessage', () => {
  it.each(['message', 'text', 'body', 'msg', 'content'])('finds the text in "%s"', (key) => {
    expect(extractForwardedMessage({ [key]: SMS })).toEqual({
      kind: 'sms',
      text: SMS,
      from: null,
      received_at: null,
      recipient: null,
    });
  });

  it.each(['from', 'sender', 'phone', 'phoneNumber', 'address'])('finds the sender in "%s"', (key) => {
    const r = extractForwardedMessage({ text: SMS, [key]: 'MPESA' });
    expect(r).toMatchObject({ kind: 'sms', from: 'MPESA' });
  });

  it('takes a numeric sender as a string', () => {
    expect(extractForwardedMessage({ text: SMS, from: 254712345678 })).toMatchObject({ from: '254712345678' });
  });

  it.each([
    ['received_at', '2024-06-05T07:15:00.000Z'],
    ['timestamp', 1717571700000],
    ['sentStamp', 1717571700],
    ['receivedStamp', '1717571700000'],
    ['date', '2024-06-05T10:15:00+03:00'],
  ])('reads the time from "%s" (%j)', (key, value) => {
    expect(extractForwardedMessage({ body: SMS, [key]: value })).toMatchObject({ received_at: '2024-06-05T07:15:00.000Z' });
  });

  it('prefers the received time over the sent time', () => {
    const r = extractForwardedMessage({ text: SMS, sentStamp: 1717571600000, receivedStamp: 1717571700000 });
    expect(r).toMatchObject({ received_at: '2024-06-05T07:15:00.000Z' });
  });

  it('ignores unparsable times and unfilled app placeholders', () => {
    expect(extractForwardedMessage({ text: SMS, receivedStamp: '%receivedStamp%' })).toMatchObject({ received_at: null });
    expect(extractForwardedMessage({ text: SMS, date: 'yesterday' })).toMatchObject({ received_at: null });
    expect(extractForwardedMessage({ text: SMS, timestamp: -1 })).toMatchObject({ received_at: null });
  });

  it.each(['recipient', 'to'])('finds the receiving line in "%s"', (key) => {
    expect(extractForwardedMessage({ msg: SMS, [key]: '+254700000001' })).toMatchObject({ recipient: '+254700000001' });
  });

  it('reads a complete forwarder body', () => {
    // Shape of the "Incoming SMS to URL forwarder" app's default payload.
    const body = { from: 'MPESA', text: SMS, sentStamp: 1717571690000, receivedStamp: 1717571700000, sim: 'sim1' };
    const r = extractForwardedMessage(body);
    expect(r).toEqual({ kind: 'sms', text: SMS, from: 'MPESA', received_at: '2024-06-05T07:15:00.000Z', recipient: null });
    if (r.kind === 'sms') expect(payment(parseMessage(r.text)).amount).toBe('1500.00');
  });

  it('recognises a Daraja callback by TransID and TransAmount', () => {
    expect(extractForwardedMessage(DARAJA)).toEqual({ kind: 'daraja', body: DARAJA });
    expect(extractForwardedMessage({ TransID: 'X', TransAmount: 10 })).toMatchObject({ kind: 'daraja' });
  });

  it('says what is missing', () => {
    const r = extractForwardedMessage({ from: 'MPESA', message: '   ' });
    expect(r.kind).toBe('invalid');
    if (r.kind === 'invalid') expect(r.error).toContain('No message text found');
    expect(extractForwardedMessage({ TransID: 'X' }).kind).toBe('invalid');
    expect(extractForwardedMessage(null as unknown as Record<string, unknown>).kind).toBe('invalid');
    expect(extractForwardedMessage('text' as unknown as Record<string, unknown>).kind).toBe('invalid');
  });
});

describe('isPersonSender: a phone number, not a mobile-money service', () => {
  it.each([
    ['+254 799 123456', true],
    ['0712345678', true],
    ['(0712) 345-678', true],
    ['MPESA', false],
    ['M-PESA', false],
    ['AirtelMoney', false],
    ['21456', false],
    ['', false],
    [null, false],
  ])('%p -> %p', (sender, person) => {
    expect(isPersonSender(sender)).toBe(person);
  });
});
