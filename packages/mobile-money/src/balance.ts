/**
 * A customer's balance by SMS: the customer texts BAL (or BALANCE, or SALIO
 * in Kiswahili, or SOLDE in French), optionally with a device's serial number, to the business
 * line, and gets back each device's credit and what is left to pay. Plain
 * ASCII like the payment replies.
 */
import { formatCentsGrouped, parseAmountToCents } from './money.js';
import { shortDate } from './reminder.js';
import { lastCodeLine, type LastCode } from './last-code.js';
import { replyLanguage, type ReplyLanguage } from './reply.js';

/** What a balance request asks for: every device, or the one named. */
export interface BalanceRequest {
  serial: string | null;
}

/** The keyword, then at most one word with a digit in it (a serial number such as SHS-0042). */
const REQUEST = /^\s*(?:BAL|BALANCE|SALIO|SOLDE)(?:\s+([A-Za-z0-9._-]*\d[A-Za-z0-9._-]*))?\s*[.!?]?\s*$/i;

/** A balance request, or null when the text is something else (a payment, anything). */
export function parseBalanceRequest(text: string | null | undefined): BalanceRequest | null {
  if (!text) return null;
  const m = REQUEST.exec(text);
  if (!m) return null;
  const serial = m[1]?.trim() || null;
  return { serial };
}

export interface BalanceDevice {
  serialNumber: string;
  /** The business day the credit runs out on, YYYY-MM-DD; null when the device never had any. */
  creditEndsOn: string | null;
  /** Business days from today to that day: negative once it has run out. */
  daysLeft: number | null;
  paidOff: boolean;
  /** Still to pay off, decimal string; null when the plan has no payoff price. */
  remaining: string | null;
  currency?: string | null;
}

export interface BalanceReplyInput {
  language?: ReplyLanguage;
  customerName?: string | null;
  devices: BalanceDevice[];
  /** The serial the customer named that is none of theirs: said first. */
  unknownSerial?: string | null;
}

/** At most this many devices are told, then how many more there are. */
export const BALANCE_MAX_DEVICES = 3;

interface Phrases {
  hello(name: string | null): string;
  unknown(serial: string): string;
  none: string;
  paidOff: string;
  until(date: string): string;
  today: string;
  since(date: string): string;
  never: string;
  left(amount: string): string;
  more(n: number): string;
}

const ENGLISH: Phrases = {
  hello: (name) => (name ? `Kidogo: Hi ${name}.` : 'Kidogo:'),
  unknown: (serial) => `No device ${serial} on your account.`,
  none: 'No device is on your account.',
  paidOff: 'paid off',
  until: (date) => `credit until ${date}`,
  today: 'credit ends today',
  since: (date) => `no credit since ${date}`,
  never: 'no credit yet',
  left: (amount) => `${amount} left to pay`,
  more: (n) => `+${n} more device${n === 1 ? '' : 's'}.`,
};

const KISWAHILI: Phrases = {
  hello: (name) => (name ? `Kidogo: Habari ${name}.` : 'Kidogo:'),
  unknown: (serial) => `Hakuna kifaa ${serial} kwenye akaunti yako.`,
  none: 'Hakuna kifaa kwenye akaunti yako.',
  paidOff: 'kimelipwa kikamilifu',
  until: (date) => `salio hadi ${date}`,
  today: 'salio linaisha leo',
  since: (date) => `salio liliisha ${date}`,
  never: 'bado hakina salio',
  left: (amount) => `zimebaki ${amount} kulipa`,
  more: (n) => `+vifaa ${n} zaidi.`,
};

const FRENCH: Phrases = {
  hello: (name) => (name ? `Kidogo: Bonjour ${name}.` : 'Kidogo:'),
  unknown: (serial) => `Aucun appareil ${serial} sur votre compte.`,
  none: 'Aucun appareil sur votre compte.',
  paidOff: 'entierement paye',
  until: (date) => `credit jusqu'au ${date}`,
  today: "credit epuise aujourd'hui",
  since: (date) => `sans credit depuis le ${date}`,
  never: 'pas encore de credit',
  left: (amount) => `reste ${amount} a payer`,
  more: (n) => `+${n} autre${n === 1 ? '' : 's'} appareil${n === 1 ? '' : 's'}.`,
};

const PHRASES: Record<ReplyLanguage, Phrases> = { en: ENGLISH, sw: KISWAHILI, fr: FRENCH };

/** One device's line: "SHS-0042: credit until 27 Nov, KES 4,900.00 left to pay." */
export function describeBalance(d: BalanceDevice, language: ReplyLanguage): string {
  const say = PHRASES[language];
  if (d.paidOff) return `${d.serialNumber}: ${say.paidOff}.`;
  let credit: string;
  if (!d.creditEndsOn || d.daysLeft === null) credit = say.never;
  else if (d.daysLeft < 0) credit = say.since(shortDate(d.creditEndsOn, language));
  else if (d.daysLeft === 0) credit = say.today;
  else credit = say.until(shortDate(d.creditEndsOn, language));
  const cents = d.remaining === null ? null : parseAmountToCents(d.remaining);
  const left = cents !== null ? `, ${say.left(`${d.currency?.trim() || 'KES'} ${formatCentsGrouped(cents)}`)}` : '';
  return `${d.serialNumber}: ${credit}${left}.`;
}

/**
 * A reply about the customer's devices: the greeting, a serial named that is none of theirs, then a line per device
 * (up to BALANCE_MAX_DEVICES) and how many more.
 */
function devicesReply<D>(
  input: { language?: ReplyLanguage; customerName?: string | null; unknownSerial?: string | null; devices: D[] },
  line: (d: D, language: ReplyLanguage) => string,
): string {
  const language = replyLanguage(input.language);
  const say = PHRASES[language];
  const firstName = input.customerName?.trim().split(/\s+/)[0] || null;
  const parts = [say.hello(firstName)];
  if (input.unknownSerial) parts.push(say.unknown(input.unknownSerial));
  if (!input.devices.length) parts.push(say.none);
  for (const d of input.devices.slice(0, BALANCE_MAX_DEVICES)) parts.push(line(d, language));
  if (input.devices.length > BALANCE_MAX_DEVICES) parts.push(say.more(input.devices.length - BALANCE_MAX_DEVICES));
  return parts.join(' ');
}

/** Compose the reply. Pure. */
export function formatBalanceReply(input: BalanceReplyInput): string {
  return devicesReply(input, describeBalance);
}

/**
 * A customer's last code by SMS: CODE (or TOKEN, or NAMBA in Kiswahili), optionally with a device's serial number,
 * answered with each device's last code, for the customer who lost the SMS it came in.
 */
const CODE_REQUEST = /^\s*(?:CODE|TOKEN|NAMBA)(?:\s+([A-Za-z0-9._-]*\d[A-Za-z0-9._-]*))?\s*[.!?]?\s*$/i;

/** A last-code request (the serial named, or null for every device), or null when the text is something else. */
export function parseCodeRequest(text: string | null | undefined): BalanceRequest | null {
  if (!text) return null;
  const m = CODE_REQUEST.exec(text);
  return m ? { serial: m[1]?.trim() || null } : null;
}

export interface CodeReplyInput {
  language?: ReplyLanguage;
  customerName?: string | null;
  devices: Array<{ serialNumber: string; code: LastCode | null }>;
  /** The serial the customer named that is none of theirs: said first. */
  unknownSerial?: string | null;
}

/** Compose the reply to CODE: each device's last code, up to BALANCE_MAX_DEVICES, then how many more. Pure. */
export function formatCodeReply(input: CodeReplyInput): string {
  return devicesReply(input, (d, language) => lastCodeLine(d.serialNumber, d.code, language));
}
