/**
 * The SMS that hands a customer the code of free days given when their
 * service ticket is resolved (the time their device was down). Plain ASCII,
 * one SMS part (160 characters) with names and serials of ordinary length.
 */
import { groupToken, replyLanguage, type ReplyLanguage } from './reply.js';

export interface FreeDaysReplyInput {
  /** 'en' (the default), 'sw' (Kiswahili) or 'fr' (French). */
  language?: ReplyLanguage;
  serialNumber: string;
  days: number;
  /** The add-time code as generated ("123456789"). */
  token: string;
  customerName?: string | null;
}

export function formatFreeDaysReply(input: FreeDaysReplyInput): string {
  const first = input.customerName?.trim().split(/\s+/)[0] ?? '';
  const serial = input.serialNumber.trim();
  const code = groupToken(input.token);
  const language = replyLanguage(input.language);
  if (language === 'fr') {
    const hello = first ? `Bonjour ${first}, ` : '';
    const days = input.days === 1 ? '1 jour gratuit' : `${input.days} jours gratuits`;
    return `Kidogo: ${hello}l'appareil ${serial} est repare. Saisissez le code ${code} pour ${days} d'utilisation.`;
  }
  if (language === 'sw') {
    const hello = first ? `Habari ${first}, ` : '';
    return `Kidogo: ${hello}kifaa ${serial} kimerekebishwa. Weka namba ${code} upate siku ${input.days} za matumizi bure.`;
  }
  const hello = first ? `Hi ${first}, ` : '';
  const days = input.days === 1 ? '1 free day' : `${input.days} free days`;
  return `Kidogo: ${hello}device ${serial} is fixed. Enter code ${code} for ${days} of use.`;
}
