/**
 * Parsing of mobile-money payment confirmations: SMS texts (M-Pesa, Airtel
 * Money), Safaricom Daraja C2B callbacks, and the JSON bodies that SMS
 * forwarding apps post to our receiver.
 *
 * The message shapes handled here were learned from public material; the test
 * fixtures (test/fixtures/messages.json) name where each shape was seen. In
 * short:
 *
 * M-Pesa, seen by the business
 *   paybill  "<CODE> Confirmed. on 6/7/11 at 10:49 PM Ksh8,723.00 received from NAME 2547XXXXXXXX. Account Number REF New Utility balance is Ksh..."
 *            and the newer order "<CODE> Confirmed. Ksh1,500.00 received from NAME 2547... on 5/6/24 at 10:15 AM. Account Number REF ..."
 *   till     "<CODE> Confirmed.on 18/1/22 at 3:57 PMKsh40.00 received from 2547XXXXXXXX NAME. New Account balance is Ksh..."
 *            (phone first, name second; the phone may be masked: "2547******678")
 * M-Pesa, seen by a person (or forwarded by the customer)
 *   p2p      "<CODE> Confirmed.You have received Ksh300.00 from NAME 07XXXXXXXX on 15/10/24 at 12:16 PM New M-PESA balance is ..."
 *   paybill  "<CODE> Confirmed. Ksh1,000.00 sent to BUSINESS for account REF on 20/10/24 at 4:26 PM New M-PESA balance is ..."
 *   till     "<CODE> Confirmed. Ksh70.00 paid to MERCHANT. on 20/10/24 at 4:21 PM.New M-PESA balance is ..."
 * Airtel Money
 *   Kenya    "Trans. ID: 1440225031704 You have received 50.00Ksh from NAME. Your available balance is 155.00Ksh."
 *            "Trans. ID: 2240545115618 You have sent 50.00Ksh to BUSINESS in reference to REF. ..."
 *   Uganda   "RECEIVED. TID 149730678579. UGX 27,200 from 743706731, NAME. Bal UGX 332,358."
 *   Tanzania "Umepokea Tsh1,000.00, 747900466 NAME. Salio jipya ni Tsh26,684.00. Muamala No. MI240406.1141.Q03294"
 *   Zambia   "You have received ZMW 73.00 from 779935760 NAME. Dial *115# to check your new Bal. TID: PP260716.0924.F74300."
 * MTN Mobile Money (MoMo)
 *   Rwanda   "You have received 2000 RWF from NAME (*********013) on your mobile money account at 2024-05-10 16:30:51.
 *            Message from sender: REF. Your new balance:2000 RWF. Financial Transaction Id: 76662021700."
 *   Uganda   "Y'ello. You have received UGX 1000000.00 from NAME (256774656827) on your mobile money account at
 *            2015-05-10 13:35:12.Your new balance:UGX 1068816.00." (no transaction id: see mtnCode)
 *   Zambia   "Y'ello. You have received ZMW 21.00 ZMW from NAME at 2026-06-20 19:37:39. Dial *115# to view balance."
 *   Ghana    "Payment received for GHS 77.00 from NAME Current Balance: GHS 538.01 . Available Balance: GHS 538.01.
 *            Reference: REF. Transaction ID: 84157189921. TRANSACTION FEE: 0.00"
 *
 * Nothing here throws: every failure is an { ok: false, error } result.
 */
import { eatIso, isoDate, isoTime, parseCompactEat } from './datetime.js';
import { amountToCents, currencyFromMarker, formatCents, parseAmountToCents } from './money.js';
import { isMaskedPhone, normalizePhone } from './phone.js';
import type { ParsedPayment, ParseResult, PaymentKind, Provider } from './types.js';

/** Longer texts are not single confirmation SMS (a 6-part concatenated SMS is under 1,000 characters). */
export const MAX_MESSAGE_LENGTH = 2000;

const CUR = String.raw`(KES|Kshs?|UGX|USh|TZS|Tshs?|RWF|GHS|GHC|GH₵|ZMW)\.?`;
const AMT = String.raw`(\d{1,3}(?:,\d{3})+(?:\.\d{1,2})?|\d+(?:\.\d{1,2})?)`;

/** Ways the transacted amount is written, each with the marker and number groups' positions. */
const AMOUNT_PATTERNS: ReadonlyArray<{ re: RegExp; cur: number; amt: number }> = [
  // "Ksh1,500.00 received from", "Tsh5,000.00 Tsh. has been received from", "Ksh1000.00 sent to", "Ksh70.00 paid to"
  {
    re: new RegExp(`${CUR}\\s?${AMT}\\s*(?:Tsh\\.?\\s*)?(?:has\\s+been\\s+)?(?:received|sent|paid|transferred)\\b`, 'i'),
    cur: 1,
    amt: 2,
  },
  // "You have received Ksh300.00", "received a payment of Tsh1,000.00", "Umepokea Tsh1,000.00", "You have paid Ksh1,200.00 to",
  // MTN Ghana "Payment received for GHS 77.00"
  { re: new RegExp(`(?:received|umepokea|sent|paid)\\s*(?:a\\s+payment\\s+of\\s+|for\\s+)?${CUR}\\s?${AMT}`, 'i'), cur: 1, amt: 2 },
  // Airtel Kenya: "You have received 50.00Ksh from", MTN Rwanda "You have received 2000 RWF from"
  { re: new RegExp(`(?:received|sent)\\s+${AMT}\\s?${CUR}`, 'i'), cur: 2, amt: 1 },
  // Airtel Uganda: "UGX 27,200 from"
  { re: new RegExp(`${CUR}\\s?${AMT}\\s+from\\b`, 'i'), cur: 1, amt: 2 },
];

/**
 * Last resort: the first written amount. It lets a message that is not a
 * payment fail with the precise reason its shape gives, but is never taken as
 * a payment's amount: next to no 'received', 'sent' or 'paid' it may be the
 * account's balance.
 */
const ANY_AMOUNT = new RegExp(`${CUR}\\s?${AMT}`, 'i');

/** A minus sign between a currency marker and its digits ("Ksh-400.00"). */
const NEGATIVE_AMOUNT = new RegExp(`${CUR}\\s?-\\s?\\d`, 'i');

const COUNTRY_CODE_BY_CURRENCY: Readonly<Record<string, string>> = {
  KES: '254',
  TZS: '255',
  UGX: '256',
  RWF: '250',
  GHS: '233',
  ZMW: '260',
};

type Failure = { ok: false; error: string };
const fail = (error: string): Failure => ({ ok: false, error });

/** Collapse every run of whitespace (line breaks included) into one space. */
function squash(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function hasDigitAndLetter(s: string): boolean {
  return /\d/.test(s) && /[A-Za-z]/.test(s);
}

/** M-Pesa transaction code: the token right before "Confirmed" (or Swahili "imethibitishwa"). */
function findMpesaCode(text: string): string | null {
  const re = /(?<![A-Za-z0-9])([A-Za-z0-9]{8,12})\s*(?:confirmed|imethibitishwa)/gi;
  for (const m of text.matchAll(re)) {
    if (hasDigitAndLetter(m[1]!)) return m[1]!.toUpperCase();
  }
  return null;
}

/** Airtel transaction id: "Trans. ID: 1440225031704", "TID 149730678579", "Muamala No. MI240406.1141.Q03294". */
function findAirtelCode(text: string): string | null {
  const re =
    /(?<![A-Za-z])(?:Trans(?:action)?\.?\s*ID|TID|Txn\.?\s*ID|Muamala\s*(?:No\.?|Namba)?)\s*[:.]?\s*([A-Za-z0-9]+(?:\.[A-Za-z0-9]+)*)/gi;
  for (const m of text.matchAll(re)) {
    const code = m[1]!;
    if (code.length >= 4 && /\d/.test(code)) return code.toUpperCase();
  }
  return null;
}

/** Words only MTN Mobile Money's texts use. */
const MTN_MARKS =
  /\bY'?ello\b|\bmobile\s+money\s+account\b|\bFinancial\s+Trans(?:action)?\.?\s*Id\b|\bTxId\b|\b(?:Payment|Cash\s+In)\s+received\s+for\b|\bMomo\s+from\s+MTN\b/i;

/** MTN's own id: "Financial Transaction Id: 76662021700", "TxId: 73214484437", Ghana's "Transaction ID: 84157189921". */
function findMtnCode(text: string): string | null {
  const m =
    /\bFinancial\s+Trans(?:action)?\.?\s*Id\s*[:.]?\s*(\d{4,})/i.exec(text) ??
    /\bTxId\s*[:.]?\s*(\d{4,})/i.exec(text) ??
    /\bTrans(?:action)?\.?\s*ID\s*[:.]?\s*([A-Za-z0-9]{4,})/i.exec(text);
  return m ? m[1]!.toUpperCase() : null;
}

/** FNV-1a, 32 bits, as 8 hex digits: a fingerprint of a text, the same wherever it is computed. */
function fingerprint(text: string): string {
  let h = 0x811c9dc5;
  for (const ch of text) {
    h ^= ch.codePointAt(0)!;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).toUpperCase().padStart(8, '0');
}

/**
 * A name for an MTN confirmation that gives no transaction id (Uganda's and
 * Zambia's received texts): its time to the second and a fingerprint of its
 * words, so the same text forwarded again is the same payment (a duplicate)
 * and another payment, even in the same second, is another. Without a time
 * to the second there is nothing to tell two equal payments apart: none.
 */
function mtnCodeFromText(text: string, transactedAt: string | null): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})/.exec(transactedAt ?? '');
  if (!m) return null;
  return `MTN-${m.slice(1).join('')}-${fingerprint(text.toLowerCase())}`;
}

interface FoundAmount {
  cents: number;
  currency: string;
  end: number;
  /** Written next to a transaction phrase (AMOUNT_PATTERNS), not only found as the first amount of the text. */
  transacted: boolean;
}

function findAmount(text: string): FoundAmount | null {
  let best: { index: number; m: RegExpExecArray; cur: number; amt: number; transacted: boolean } | null = null;
  for (const p of AMOUNT_PATTERNS) {
    const m = p.re.exec(text);
    if (m && (best === null || m.index < best.index)) best = { index: m.index, m, cur: p.cur, amt: p.amt, transacted: true };
  }
  if (best === null) {
    const m = ANY_AMOUNT.exec(text);
    if (m) best = { index: m.index, m, cur: 1, amt: 2, transacted: false };
  }
  if (best === null) return null;
  const cents = parseAmountToCents(best.m[best.amt]!);
  const currency = currencyFromMarker(best.m[best.cur]!);
  if (cents === null || currency === null) return null;
  // Where the amount itself ends, so the sender can be looked for right after it.
  const amountText = best.m[best.amt]!;
  const end = best.index + best.m[0].indexOf(amountText) + amountText.length;
  return { cents, currency, end, transacted: best.transacted };
}

/**
 * The transaction's date and time. Day first ("5/6/24" is 5 June 2024), 12-hour
 * time with AM/PM ("10:15 AM", "8.02AM", "3:57 PMKsh40.00") or 24-hour time.
 * A date written after "on" wins over any other date-like text.
 */
function findDateTime(text: string): string | null {
  // MTN: "at 2024-05-10 16:30:51", "on 2026-09-06 12:15"
  const iso = /(?<!\d)(\d{4})-(\d{1,2})-(\d{1,2})(?:[\sT]+(\d{1,2}):(\d{2})(?::(\d{2}))?)?(?!\d)/.exec(text);
  if (iso) {
    const date = isoDate(Number(iso[3]), Number(iso[2]), Number(iso[1]));
    if (date !== null) {
      if (iso[4] === undefined) return eatIso(date, null);
      const time = isoTime(Number(iso[4]), Number(iso[5]), iso[6] ? Number(iso[6]) : 0);
      return time === null ? eatIso(date, null) : eatIso(date, time);
    }
  }
  const core = String.raw`(\d{1,2})/(\d{1,2})/(\d{4}|\d{2})(?!\d)(?:\s*(?:at\s*|saa\s+)?(\d{1,2})[:.](\d{2})(?!\d)(?::(\d{2}))?(?:\s*([AaPp])\.?\s*[Mm])?)?`;
  const m =
    new RegExp(String.raw`\b(?:on|tarehe)\s+${core}`, 'i').exec(text) ?? new RegExp(String.raw`(?<!\d)${core}`, 'i').exec(text);
  if (!m) return null;
  const date = isoDate(Number(m[1]), Number(m[2]), Number(m[3]));
  if (date === null) return null;
  if (m[4] === undefined) return eatIso(date, null);
  const meridiem = m[7] ? (m[7].toUpperCase() === 'P' ? 'PM' : 'AM') : undefined;
  const time = isoTime(Number(m[4]), Number(m[5]), m[6] ? Number(m[6]) : 0, meridiem);
  return eatIso(date, time);
}

/** Phrases that end the payer's name/number or an account reference. */
const FIELD_TERMINATORS: readonly RegExp[] = [
  /\s+(?:on|tarehe)\s+\d{1,2}\/\d{1,2}\//i,
  /[.\s]*\bAccount\s*(?:Number|No\b\.?)/i,
  /[.\s]*\bNew\s+(?:[\w'-]+\s+){0,8}?balance\b/i,
  /[.\s]*\bYour\s+(?:available\s+|new\s+)?bal(?:ance)?\b/i,
  /\.\s*Bal\b/i,
  /[.\s]*\bSalio\b/i,
  /[.\s]*\bTransaction\s+cost\b/i,
  /[.\s]*\bMuamala\b/i,
  // MTN
  /\s+on\s+your\s+mobile\s+money\b/i,
  /\s+(?:at|on)\s+\d{4}-\d{1,2}-\d{1,2}/i,
  /[.\s]*\b(?:Current|Available)\s+Balance\b/i,
  /[.\s]*\bMessage\s+from\s+sender\b/i,
  /[.\s]*\b(?:Financial\s+)?Trans(?:action)?\.?\s*Id\s*:/i,
  // Zambia: "… from NAME. Dial *115# to check your new Bal."
  /[.\s]*\bDial\s*\*/i,
];

/** The text up to the first terminator; failing that, up to the first sentence end. */
function cutField(s: string, extra: readonly RegExp[] = []): string {
  let end = -1;
  for (const re of [...FIELD_TERMINATORS, ...extra]) {
    const m = re.exec(s);
    if (m && (end === -1 || m.index < end)) end = m.index;
  }
  if (end === -1) {
    const dot = /\.\s/.exec(s);
    end = dot ? dot.index : s.length;
  }
  return s.slice(0, end);
}

function stripEdges(s: string): string {
  return s.replace(/^[\s\-–:;,.]+/, '').replace(/[\s\-–:;,.]+$/, '');
}

interface PhoneCandidate {
  canonical: string | null;
  masked?: string;
}

/** A whole token (or run of tokens joined) that is a phone number, possibly masked. */
function asPhone(candidate: string, countryCode: string): PhoneCandidate | null {
  // A masked number may begin with its mask (MTN Rwanda's "*********013"), though not with an x: that is a name.
  if (candidate.length < 9 || candidate.length > 16 || !/^[+\d*•#]/.test(candidate)) return null;
  if (isMaskedPhone(candidate)) return { canonical: null, masked: candidate };
  const canonical = normalizePhone(candidate, countryCode);
  return canonical === null ? null : { canonical };
}

/**
 * Split "JOHN DOE 254712345678", "254729639024 MORRIS M.", "743706731, HANIFAH",
 * "255757360593 - JEREMIAH JAMES ALBERT" or "Person 2 0711 111 111" into name and phone.
 * The phone may span up to four space-separated groups; the longest valid run wins.
 */
function splitNamePhone(segment: string, countryCode: string): { name: string | null; phone: PhoneCandidate | null } {
  const tokens = segment.replace(/[,()]/g, ' ').split(' ').filter((t) => t !== '');
  const clean = (t: string[]) => {
    const name = stripEdges(t.join(' '));
    return name === '' ? null : name;
  };
  const tryRun = (run: string[]) => asPhone(stripEdges(run.join('')), countryCode);

  // Look at both ends. A full number beats a masked reading anywhere: "700000000 Xx" is a
  // number followed by a name, not a number masked with "Xx".
  const best = (fromEnd: boolean) => {
    let full: { k: number; phone: PhoneCandidate } | null = null;
    let masked: { k: number; phone: PhoneCandidate } | null = null;
    for (let k = 1; k <= Math.min(4, tokens.length); k++) {
      const run = fromEnd ? tokens.slice(tokens.length - k) : tokens.slice(0, k);
      const phone = tryRun(run);
      if (phone?.canonical) full = { k, phone };
      else if (phone) masked = { k, phone };
    }
    return { full, masked };
  };
  const end = best(true);
  const start = best(false);
  const choices: Array<[boolean, { k: number; phone: PhoneCandidate } | null]> = [
    [true, end.full],
    [false, start.full],
    [true, end.masked],
    [false, start.masked],
  ];
  for (const [fromEnd, found] of choices) {
    if (found) {
      const rest = fromEnd ? tokens.slice(0, tokens.length - found.k) : tokens.slice(found.k);
      return { name: clean(rest), phone: found.phone };
    }
  }
  return { name: clean(tokens), phone: null };
}

/** The payer as written after the amount: "... received from <payer> on ...", Airtel TZ "Tsh1,000.00, <payer>. Salio ...". */
function findPayer(text: string, afterAmount: number, countryCode: string) {
  const rest = text.slice(afterAmount);
  const lead = /^\s*(?:[^\s]+\s+){0,5}?(?:from|kutoka(?:\s+kwa)?)\s+/i.exec(rest) ?? /^\s*,\s*/.exec(rest);
  if (!lead) return { name: null, phone: null };
  const segment = cutField(rest.slice(lead[0].length));
  return splitNamePhone(segment, countryCode);
}

/** Text after a label ("Account Number", "for account", "in reference to") up to the end of that field. */
function findAfterLabel(text: string, label: RegExp): string | null {
  const m = label.exec(text);
  if (!m) return null;
  const value = stripEdges(cutField(text.slice(m.index + m[0].length)));
  return value === '' ? null : value;
}

/** Balance of the receiving account as stated in the message, or null. */
function findBalance(text: string): string | null {
  const patterns: ReadonlyArray<{ re: RegExp; amt: number }> = [
    { re: new RegExp(`balance\\s+(?:is|was)\\s*:?\\s*${CUR}\\s?${AMT}`, 'i'), amt: 2 },
    { re: new RegExp(`balance\\s+(?:is|was)\\s*:?\\s*${AMT}\\s?${CUR}`, 'i'), amt: 1 },
    { re: new RegExp(`\\bBal\\.?\\s*:?\\s*${CUR}\\s?${AMT}`, 'i'), amt: 2 },
    { re: new RegExp(`\\bSalio\\s+(?:jipya\\s+)?(?:ni\\s+)?${CUR}\\s?${AMT}`, 'i'), amt: 2 },
    // MTN: "Your new balance:2000 RWF", "balance:UGX 1068816.00", "Current Balance: GHS 538.01"
    { re: new RegExp(`balance\\s*:\\s*${CUR}\\s?${AMT}`, 'i'), amt: 2 },
    { re: new RegExp(`balance\\s*:\\s*${AMT}\\s?${CUR}`, 'i'), amt: 1 },
  ];
  for (const p of patterns) {
    const m = p.re.exec(text);
    if (m) {
      const cents = parseAmountToCents(m[p.amt]!);
      if (cents !== null) return formatCents(cents);
    }
  }
  return null;
}

interface Shape {
  kind: PaymentKind;
  /** Whether the SMS was written to the payer (customer-side): then it names no payer and no receiving balance. */
  customerSide: boolean;
  account_reference: string | null;
}

const NOT_A_PAYMENT =
  "Not a payment confirmation: no 'received ... from', 'sent to ... for account' or 'paid to' phrase found";

function mpesaShape(text: string): Shape | Failure {
  if (/\b(?:reversed|reversal)\b/i.test(text)) return fail('Reversal notices are not payments');
  const forAccount = findAfterLabel(text, /\bfor\s+account\s*/i);
  // "Ksh1000.00 sent to X for account Y" and "You have paid Ksh1,200.00 to X for account Y"
  if (/\b(?:sent|paid)\b/i.test(text) && /\bfor\s+account\b/i.test(text)) {
    return { kind: 'paybill', customerSide: true, account_reference: forAccount };
  }
  if (/\bpaid\s+to\b/i.test(text)) return { kind: 'till', customerSide: true, account_reference: null };
  if (/\b(?:received|umepokea)\b/i.test(text)) {
    const accountNumber = findAfterLabel(text, /\bAccount\s*(?:Number|No\b\.?)\s*[:.]?\s*/i);
    if (accountNumber !== null || /\bUtility\s+balance\b/i.test(text)) {
      return { kind: 'paybill', customerSide: false, account_reference: accountNumber };
    }
    if (/\b(?:You\s+have\s+received|received\s+a\s+payment\s+of|umepokea)\b/i.test(text)) {
      return { kind: 'p2p', customerSide: false, account_reference: null };
    }
    return { kind: 'till', customerSide: false, account_reference: null };
  }
  if (/\bsent\s+to\b/i.test(text)) return fail('Outgoing transfer to a person, not a payment received');
  return fail(NOT_A_PAYMENT);
}

function airtelShape(text: string): Shape | Failure {
  if (/\b(?:reversed|reversal)\b/i.test(text)) return fail('Reversal notices are not payments');
  const reference = findAfterLabel(text, /\bin\s+reference\s+to\s*/i);
  if (/\bsent\b/i.test(text) && reference !== null) {
    return { kind: 'paybill', customerSide: true, account_reference: reference };
  }
  if (/\b(?:received|umepokea)\b/i.test(text)) return { kind: 'p2p', customerSide: false, account_reference: null };
  if (/\bsent\b/i.test(text)) return fail('Outgoing transfer to a person, not a payment received');
  return fail(NOT_A_PAYMENT);
}

/**
 * MTN Mobile Money: money received, by a person ("You have received ...") or
 * a merchant ("Payment received for ..."). What the payer wrote with it
 * ("Message from sender", "Reference", "Reason") is the account reference.
 */
function mtnShape(text: string): Shape | Failure {
  // What the payer wrote is theirs: "Message from sender: deposit" does not make a payment a deposit.
  const own = text.replace(/\b(?:Message\s+from\s+sender|Reference|Reason)\s*:.*?(?:\.\s|$)/gi, ' ');
  if (/\b(?:was\s+reversed|reversal)\b/i.test(own)) return fail('Reversal notices are not payments');
  if (/\bCash\s+In\b|\bA\s+(?:bank\s+)?deposit\s+of\b/i.test(own)) {
    return fail('Not a payment confirmation: a deposit into the account, not a payment');
  }
  if (/\bYou\s+have\s+withdrawn\b/i.test(own)) return fail('Not a payment confirmation: a withdrawal');
  if (/\b(?:You\s+have\s+received|received\s+for)\b/i.test(own)) {
    const reference = findAfterLabel(text, /\b(?:Message\s+from\s+sender|Reference|Reason)\s*:\s*/i);
    return {
      kind: /\bPayment\s+received\s+for\b/i.test(text) ? 'till' : 'p2p',
      customerSide: false,
      account_reference: reference === '-' ? null : reference,
    };
  }
  if (/\b(?:transferred\s+to|You\s+have\s+sent|Your\s+payment\s+of|You\s+have\s+paid|Payment\s+(?:made\s+)?for)\b/i.test(own)) {
    return fail('Outgoing payment or transfer, not a payment received');
  }
  return fail(NOT_A_PAYMENT);
}

/**
 * Parse one payment-confirmation SMS (M-Pesa, Airtel Money or MTN Mobile Money). Line breaks, extra
 * spaces and letter case do not matter. Never throws.
 */
export function parseMessage(text: string): ParseResult {
  if (typeof text !== 'string') return fail('Message text must be a string');
  if (text.length > MAX_MESSAGE_LENGTH) return fail(`Message longer than ${MAX_MESSAGE_LENGTH} characters`);
  const t = squash(text);
  if (t === '') return fail('Empty message');

  let provider: Provider;
  let code = findMpesaCode(t);
  if (code !== null) {
    provider = 'mpesa';
  } else if (MTN_MARKS.test(t)) {
    provider = 'mtn';
    code = findMtnCode(t) ?? mtnCodeFromText(t, findDateTime(t));
    if (code === null) return fail('No transaction code found');
  } else {
    code = findAirtelCode(t);
    if (code === null) return fail('No transaction code found');
    provider = 'airtel';
  }

  // MTN's texts of money going out write their amounts in ways no payment's is looked for: their shape says why first.
  const early = provider === 'mtn' ? mtnShape(t) : null;
  if (early !== null && 'ok' in early) return early;

  const amount = findAmount(t);
  if (amount === null) return fail('No amount found');
  if (amount.cents <= 0) return fail('Amount is zero');

  const shape = early ?? (provider === 'mpesa' ? mpesaShape(t) : airtelShape(t));
  if ('ok' in shape) return shape;
  if (!amount.transacted) {
    return fail(
      NEGATIVE_AMOUNT.test(t)
        ? 'Amount is negative'
        : "No amount found next to 'received', 'sent' or 'paid' (the only amount written may be a balance)",
    );
  }

  const countryCode = COUNTRY_CODE_BY_CURRENCY[amount.currency] ?? '254';
  const payer = shape.customerSide ? { name: null, phone: null } : findPayer(t, amount.end, countryCode);

  const payment: ParsedPayment = {
    provider,
    kind: shape.kind,
    transaction_code: code,
    amount: formatCents(amount.cents),
    currency: amount.currency,
    sender_name: payer.name,
    sender_phone: payer.phone?.canonical ?? null,
    transacted_at: findDateTime(t),
    account_reference: shape.account_reference,
    balance: shape.customerSide ? null : findBalance(t),
  };
  if (payer.phone?.masked !== undefined) payment.sender_phone_masked = payer.phone.masked;
  return { ok: true, payment };
}

// ---------------------------------------------------------------------------
// Safaricom Daraja C2B confirmation callback
// ---------------------------------------------------------------------------

function textField(body: Record<string, unknown>, key: string): string | null {
  const v = body[key];
  if (typeof v === 'string') {
    const s = v.trim();
    return s === '' ? null : s;
  }
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return null;
}

/**
 * Parse a Daraja C2B confirmation body:
 * { TransactionType: "Pay Bill", TransID: "RKTQDM7W6S", TransTime: "20191122063845", TransAmount: "10.00",
 *   BusinessShortCode: "600638", BillRefNumber: "invoice008", InvoiceNumber: "", OrgAccountBalance: "",
 *   ThirdPartyTransID: "", MSISDN: "25470****149", FirstName: "John", MiddleName: "", LastName: "Doe" }
 * TransTime is East Africa Time. MSISDN may be a full number, a masked one or (newer APIs) a hash; only a
 * full number becomes sender_phone. Never throws.
 */
export function parseDarajaC2B(body: Record<string, unknown>): ParseResult {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return fail('Daraja body must be a JSON object');
  const code = textField(body, 'TransID');
  if (code === null) return fail('Missing TransID');
  if (!/^[A-Za-z0-9-]{4,40}$/.test(code)) return fail('Invalid TransID');
  const cents = amountToCents(typeof body['TransAmount'] === 'string' ? body['TransAmount'].trim() : body['TransAmount']);
  if (cents === null) return fail('Missing or invalid TransAmount');
  if (cents <= 0) return fail('Amount is zero');

  const msisdn = textField(body, 'MSISDN');
  const phone = msisdn === null ? null : normalizePhone(msisdn);
  const names = ['FirstName', 'MiddleName', 'LastName']
    .map((k) => textField(body, k))
    .filter((s): s is string => s !== null);
  const balanceCents = amountToCents(
    typeof body['OrgAccountBalance'] === 'string' ? body['OrgAccountBalance'].trim() : body['OrgAccountBalance'],
  );

  const payment: ParsedPayment = {
    provider: 'mpesa',
    kind: 'c2b',
    transaction_code: code.toUpperCase(),
    amount: formatCents(cents),
    currency: 'KES',
    sender_name: names.length > 0 ? squash(names.join(' ')) : null,
    sender_phone: phone,
    transacted_at: parseCompactEat(body['TransTime']),
    account_reference: textField(body, 'BillRefNumber'),
    balance: balanceCents === null ? null : formatCents(balanceCents),
    business_short_code: textField(body, 'BusinessShortCode'),
  };
  if (msisdn !== null && isMaskedPhone(msisdn)) payment.sender_phone_masked = msisdn;
  return { ok: true, payment };
}

/** Where a provider's collection body keeps each field: its transaction id, account reference and payer's number. */
interface CollectionFields {
  provider: 'mtn' | 'airtel';
  code: string;
  reference: string;
  msisdn: (body: Record<string, unknown>) => string | null;
}

/**
 * A collection a provider says was paid (MTN's Request to Pay, Airtel's USSD push), once its status is checked: the
 * transaction id as the code, the amount and money, the account reference Kidogo sent (the device's serial number),
 * and the payer's full international number (read without a default country, as the provider writes it).
 */
function collection(body: Record<string, unknown>, f: CollectionFields): ParseResult {
  const code = textField(body, f.code);
  if (code === null) return fail(`Missing ${f.code}`);
  if (!/^[A-Za-z0-9.-]{4,40}$/.test(code)) return fail(`Invalid ${f.code}`);
  const cents = amountToCents(typeof body['amount'] === 'string' ? body['amount'].trim() : body['amount']);
  if (cents === null) return fail('Missing or invalid amount');
  if (cents <= 0) return fail('Amount is zero');
  const currency = textField(body, 'currency');
  if (currency === null || !/^[A-Za-z]{3}$/.test(currency)) return fail('Missing or invalid currency');
  const msisdn = f.msisdn(body);
  return {
    ok: true,
    payment: {
      provider: f.provider,
      kind: 'c2b',
      transaction_code: code.toUpperCase(),
      amount: formatCents(cents),
      currency: currency.toUpperCase(),
      sender_name: null,
      sender_phone: msisdn && /^\d{11,15}$/.test(msisdn) ? msisdn : null,
      transacted_at: null,
      account_reference: textField(body, f.reference),
      balance: null,
    },
  };
}

const isObject = (body: unknown): body is Record<string, unknown> => typeof body === 'object' && body !== null && !Array.isArray(body);

/**
 * Parse an MTN MoMo Request to Pay that MTN says was paid, as its result reads:
 * { financialTransactionId: "76662021700", externalId: "SHS-1001", amount: "15000", currency: "UGX",
 *   payer: { partyIdType: "MSISDN", partyId: "256772123456" }, status: "SUCCESSFUL" }
 * externalId is what Kidogo sent with the request (the device's serial number): the account reference. The
 * financial transaction id is the one MTN's confirmation SMS gives, so the two name the same payment. Never throws.
 */
export function parseMomoCollection(body: Record<string, unknown>): ParseResult {
  if (!isObject(body)) return fail('MTN MoMo body must be a JSON object');
  if (String(body['status'] ?? '').trim().toUpperCase() !== 'SUCCESSFUL') return fail('Not a successful MTN MoMo payment');
  return collection(body, {
    provider: 'mtn',
    code: 'financialTransactionId',
    reference: 'externalId',
    msisdn: (b) => (isObject(b['payer']) ? textField(b['payer'], 'partyId') : null),
  });
}

/**
 * Parse an Airtel Money USSD push that Airtel says was paid (its Transaction Enquiry's TS), as Kidogo hands it to the
 * receiver: { airtel_money_id: "MP240406.1141.Q03294", transaction_id: "KDG…", reference: "SHS-1001", amount: "15000",
 *   currency: "UGX", msisdn: "256752123456", status_code: "TS" }
 * reference is what Kidogo sent with the push (the device's serial number): the account reference. Airtel Money's
 * transaction id is the one its confirmation SMS gives, so the two name the same payment. Never throws.
 */
export function parseAirtelCollection(body: Record<string, unknown>): ParseResult {
  if (!isObject(body)) return fail('Airtel Money body must be a JSON object');
  if (String(body['status_code'] ?? '').trim().toUpperCase() !== 'TS') return fail('Not a successful Airtel Money payment');
  return collection(body, { provider: 'airtel', code: 'airtel_money_id', reference: 'reference', msisdn: (b) => textField(b, 'msisdn') });
}

// ---------------------------------------------------------------------------
// Bodies posted by SMS-forwarding apps (or Daraja itself)
// ---------------------------------------------------------------------------

export type ForwardedMessage =
  | { kind: 'sms'; text: string; from: string | null; received_at: string | null; recipient: string | null }
  | { kind: 'daraja'; body: Record<string, unknown> }
  | { kind: 'momo'; body: Record<string, unknown> }
  | { kind: 'airtel'; body: Record<string, unknown> }
  | { kind: 'invalid'; error: string };

const TEXT_KEYS = ['message', 'text', 'body', 'msg', 'content'] as const;
const FROM_KEYS = ['from', 'sender', 'phone', 'phoneNumber', 'address'] as const;
/** Received times are preferred over sent times when an app posts both. */
const TIME_KEYS = ['received_at', 'receivedStamp', 'timestamp', 'date', 'sentStamp'] as const;
const RECIPIENT_KEYS = ['recipient', 'to'] as const;

function firstText(body: Record<string, unknown>, keys: readonly string[]): string | null {
  for (const k of keys) {
    const v = textField(body, k);
    if (v !== null) return v;
  }
  return null;
}

/**
 * A time as apps send it: epoch milliseconds or seconds (number or digit string)
 * or an ISO 8601 string. Returned as an ISO string in UTC, or null.
 */
export function parseForwardedTime(value: unknown): string | null {
  let ms: number | null = null;
  if (typeof value === 'number' || (typeof value === 'string' && /^\d{9,16}(?:\.\d+)?$/.test(value.trim()))) {
    const n = Number(value);
    if (!Number.isFinite(n) || n <= 0) return null;
    // Seconds until the year 5138; anything bigger is milliseconds.
    ms = n < 1e11 ? n * 1000 : n;
  } else if (typeof value === 'string') {
    const s = value.trim();
    if (!/^\d{4}-\d{2}-\d{2}/.test(s)) return null;
    ms = Date.parse(s);
  }
  if (ms === null || !Number.isFinite(ms)) return null;
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/**
 * Whether an SMS came from a person's phone number rather than from a
 * mobile-money service. M-Pesa and Airtel Money send their confirmations
 * under an alphanumeric sender ID (MPESA, M-PESA, AirtelMoney), which an
 * ordinary phone cannot send as; a confirmation typed on a phone and texted
 * to the business's line arrives from that phone's number. A short numeric
 * code (fewer than six digits) is a service too.
 */
export function isPersonSender(sender: string | null | undefined): boolean {
  const s = sender?.trim() ?? '';
  return /^\+?[\d\s().-]+$/.test(s) && (s.match(/\d/g)?.length ?? 0) >= 6;
}

/**
 * Work out what a POST to the receiver carries. Field names differ between
 * forwarding apps: the text may be in message / text / body / msg / content, the
 * sender in from / sender / phone / phoneNumber / address, the time in
 * received_at / receivedStamp / timestamp / date / sentStamp, the receiving line in
 * recipient / to. A body with TransID and TransAmount is a Daraja C2B callback; one with financialTransactionId,
 * payer and status is an MTN MoMo Request to Pay's result; one with airtel_money_id and status_code is an Airtel
 * Money USSD push's.
 */
export function extractForwardedMessage(body: Record<string, unknown>): ForwardedMessage {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { kind: 'invalid', error: 'Body must be a JSON object' };
  }
  if ('TransID' in body && 'TransAmount' in body) return { kind: 'daraja', body };
  if ('financialTransactionId' in body && 'payer' in body && 'status' in body) return { kind: 'momo', body };
  if ('airtel_money_id' in body && 'status_code' in body) return { kind: 'airtel', body };

  const text = firstText(body, TEXT_KEYS);
  if (text === null) {
    return { kind: 'invalid', error: `No message text found (expected one of: ${TEXT_KEYS.join(', ')})` };
  }
  let receivedAt: string | null = null;
  for (const k of TIME_KEYS) {
    receivedAt = parseForwardedTime(body[k]);
    if (receivedAt !== null) break;
  }
  return {
    kind: 'sms',
    text,
    from: firstText(body, FROM_KEYS),
    received_at: receivedAt,
    recipient: firstText(body, RECIPIENT_KEYS),
  };
}
