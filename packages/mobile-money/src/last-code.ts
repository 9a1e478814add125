/**
 * A device's last code, as a customer is told it again (the USSD menu's My last code, and CODE by SMS): the code in
 * groups of three, the day it was issued and what it gave. Plain ASCII.
 */
import { shortDate } from './reminder.js';
import { groupToken, replyLanguage, type ReplyLanguage } from './reply.js';

export interface LastCode {
  /** As generated: "123456789". */
  token: string;
  /** The token type: add_time, set_time, activation, unlock, counter_sync. */
  type: string;
  days: number;
  /** The business day it was issued, YYYY-MM-DD. */
  issuedOn: string;
}

interface Phrases {
  none(serial: string): string;
  code(serial: string, token: string, when: string, what: string): string;
  days(n: number): string;
  unlock: string;
}

const PHRASES: Record<ReplyLanguage, Phrases> = {
  en: {
    none: (serial) => `No code has been issued for ${serial} yet.`,
    code: (serial, token, when, what) => `${serial} last code: ${token} (${when}, ${what}).`,
    days: (n) => `${n} day${n === 1 ? '' : 's'}`,
    unlock: 'unlock',
  },
  sw: {
    none: (serial) => `Bado hakuna namba iliyotolewa kwa ${serial}.`,
    code: (serial, token, when, what) => `Namba ya mwisho ya ${serial}: ${token} (${when}, ${what}).`,
    days: (n) => `siku ${n}`,
    unlock: 'kufungua kabisa',
  },
  fr: {
    none: (serial) => `Aucun code pour ${serial} pour le moment.`,
    code: (serial, token, when, what) => `Dernier code de ${serial}: ${token} (${when}, ${what}).`,
    days: (n) => `${n} jour${n === 1 ? '' : 's'}`,
    unlock: 'deblocage',
  },
};

/** "SHS-0042 last code: 123 456 789 (20 Nov, 7 days)." or that none was issued yet. */
export function lastCodeLine(serial: string, code: LastCode | null, language?: ReplyLanguage): string {
  const lang = replyLanguage(language);
  const say = PHRASES[lang];
  if (!code) return say.none(serial);
  const what = code.type === 'unlock' ? say.unlock : say.days(code.days);
  return say.code(serial, groupToken(code.token), shortDate(code.issuedOn, lang), what);
}
