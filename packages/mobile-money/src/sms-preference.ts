/**
 * A customer's say over the texts they get: STOP (or UNSUBSCRIBE, or ACHA in
 * Kiswahili, or ARRET in French) from their phone stops every text nobody asked for (payment
 * reminders, texts from staff, texts to a Collections band); START (or
 * ANZA) brings them back. What the customer asks for still comes: the code
 * for a payment they make, the answer to BAL. Plain ASCII like the payment
 * replies, each in one SMS part.
 */
import { replyLanguage, type ReplyLanguage } from './reply.js';

/** 'stop': no more texts nobody asked for; 'start': they may come again. */
export type SmsPreference = 'stop' | 'start';

/** The words of each, as the whole text (any case, an optional full stop or exclamation mark). */
export const SMS_PREFERENCE_WORDS: Record<SmsPreference, readonly string[]> = {
  stop: ['STOP', 'STOP ALL', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'ACHA', 'SITISHA', 'ARRET', 'ARRETER'],
  start: ['START', 'UNSTOP', 'SUBSCRIBE', 'ANZA', 'REPRENDRE'],
};

const WORDS = new Map<string, SmsPreference>(
  (Object.entries(SMS_PREFERENCE_WORDS) as [SmsPreference, readonly string[]][]).flatMap(([kind, words]) => words.map((w) => [w, kind] as const)),
);

/** STOP or START, or null when the text is anything else (a payment, BAL, a question). */
export function parseSmsPreference(text: string | null | undefined): SmsPreference | null {
  if (!text) return null;
  const word = text
    .trim()
    .replace(/[.!]+$/, '')
    .trim()
    .replace(/\s+/g, ' ')
    .toUpperCase();
  return WORDS.get(word) ?? null;
}

const REPLIES: Record<ReplyLanguage, Record<SmsPreference, string>> = {
  en: {
    stop: 'Kidogo: You will get no more reminders or other texts from us. Payment codes and balance replies still come. Text START to get them again.',
    start: 'Kidogo: You will get reminders and other texts from us again. Text STOP to stop them.',
  },
  sw: {
    stop: 'Kidogo: Hutapokea tena vikumbusho wala ujumbe mwingine kutoka kwetu. Namba za malipo na majibu ya salio bado zitakuja. Tuma ANZA kuzipata tena.',
    start: 'Kidogo: Utapokea tena vikumbusho na ujumbe mwingine kutoka kwetu. Tuma ACHA kuzisitisha.',
  },
  fr: {
    stop: "Kidogo: Plus de rappels ni d'autres messages de notre part. Les codes de paiement et les soldes arrivent toujours. Envoyez START pour les recevoir a nouveau.",
    start: 'Kidogo: Vous recevrez a nouveau nos rappels et autres messages. Envoyez STOP pour les arreter.',
  },
};

/** The one text that confirms it (sent even after STOP: it is the answer to the customer's own text). Pure. */
export function formatSmsPreferenceReply(preference: SmsPreference, language: ReplyLanguage = 'en'): string {
  return REPLIES[replyLanguage(language)][preference];
}
