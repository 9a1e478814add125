/**
 * The SMS that reminds a customer, before a device's credit runs out, to pay.
 * Plain ASCII like the payment replies, and one SMS part (160 characters)
 * whenever the names allow it.
 */
import { formatCentsGrouped, parseAmountToCents } from './money.js';
import { replyLanguage, type ReplyLanguage } from './reply.js';

export interface CreditReminderInput {
  /** 'en' (the default), 'sw' (Kiswahili) or 'fr' (French). */
  language?: ReplyLanguage;
  customerName?: string | null;
  serialNumber: string;
  /** The business day the credit runs out on, YYYY-MM-DD. */
  creditEndsOn: string;
  /** How many business days from today that is: 0 today, 1 tomorrow. */
  daysLeft: number;
  /** The plan's price of a day, decimal string; null without a plan. */
  dailyPrice?: string | null;
  currency?: string | null;
}

const MONTHS: Record<ReplyLanguage, readonly string[]> = {
  en: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'],
  sw: ['Jan', 'Feb', 'Mac', 'Apr', 'Mei', 'Jun', 'Jul', 'Ago', 'Sep', 'Okt', 'Nov', 'Des'],
  fr: ['janv', 'fevr', 'mars', 'avr', 'mai', 'juin', 'juil', 'aout', 'sept', 'oct', 'nov', 'dec'],
};

/** "2026-11-27" -> "27 Nov" ("27 Nov" / "27 Des" in Kiswahili, "27 nov" in French); anything else as given. Also the balance replies'. */
export function shortDate(day: string, language: ReplyLanguage): string {
  const m = /^\d{4}-(\d{2})-(\d{2})$/.exec(day);
  const month = m ? MONTHS[language][Number(m[1]) - 1] : undefined;
  return m && month ? `${Number(m[2])} ${month}` : day;
}

interface Phrases {
  ends(serial: string, when: string, firstName: string | null): string;
  today: string;
  tomorrow: string;
  on(date: string): string;
  pay(perDay: string | null, serial: string): string;
}

const ENGLISH: Phrases = {
  ends: (serial, when, name) => `Kidogo: ${name ? `Hi ${name}, the` : 'The'} credit on device ${serial} runs out ${when}.`,
  today: 'today',
  tomorrow: 'tomorrow',
  on: (date) => `on ${date}`,
  pay: (perDay, serial) => `Pay ${perDay ? `${perDay} a day ` : ''}to account ${serial} to keep it on.`,
};

const KISWAHILI: Phrases = {
  ends: (serial, when, name) => `Kidogo: ${name ? `Habari ${name}, salio` : 'Salio'} la kifaa ${serial} litaisha ${when}.`,
  today: 'leo',
  tomorrow: 'kesho',
  on: (date) => `tarehe ${date}`,
  pay: (perDay, serial) => `Lipa ${perDay ? `${perDay} kwa siku ` : ''}kwa akaunti ${serial} ili kiendelee kufanya kazi.`,
};

const FRENCH: Phrases = {
  ends: (serial, when, name) => `Kidogo: ${name ? `Bonjour ${name}, le` : 'Le'} credit de l'appareil ${serial} s'epuise ${when}.`,
  today: "aujourd'hui",
  tomorrow: 'demain',
  on: (date) => `le ${date}`,
  pay: (perDay, serial) => `Payez ${perDay ? `${perDay} par jour ` : ''}au compte ${serial} pour le garder allume.`,
};

const PHRASES: Record<ReplyLanguage, Phrases> = { en: ENGLISH, sw: KISWAHILI, fr: FRENCH };

/** Compose the reminder. Pure; the greeting is dropped when the message would not fit one SMS. */
export function formatCreditReminder(input: CreditReminderInput): string {
  const language = replyLanguage(input.language);
  const say = PHRASES[language];
  const serial = input.serialNumber.trim();
  const when = input.daysLeft <= 0 ? say.today : input.daysLeft === 1 ? say.tomorrow : say.on(shortDate(input.creditEndsOn, language));
  const cents = input.dailyPrice ? parseAmountToCents(input.dailyPrice) : null;
  const perDay = cents !== null && cents > 0 ? `${input.currency?.trim() || 'KES'} ${formatCentsGrouped(cents)}` : null;
  const firstName = input.customerName?.trim().split(/\s+/)[0] || null;
  const compose = (name: string | null) => `${say.ends(serial, when, name)} ${say.pay(perDay, serial)}`;
  const greeted = compose(firstName);
  return greeted.length <= 160 ? greeted : compose(null);
}
