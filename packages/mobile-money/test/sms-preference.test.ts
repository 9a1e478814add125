import { describe, expect, it } from 'vitest';
import { formatSmsPreferenceReply, parseBalanceRequest, parseMessage, parseSmsPreference, SMS_PREFERENCE_WORDS } from '../src/index.js';

describe('parseSmsPreference', () => {
  it('reads STOP and START and their other words, in any case and spacing', () => {
    expect(parseSmsPreference('STOP')).toBe('stop');
    expect(parseSmsPreference(' stop. ')).toBe('stop');
    expect(parseSmsPreference('Stop  all!')).toBe('stop');
    expect(parseSmsPreference('unsubscribe')).toBe('stop');
    expect(parseSmsPreference('Acha')).toBe('stop');
    expect(parseSmsPreference('START')).toBe('start');
    expect(parseSmsPreference('anza')).toBe('start');
    for (const [kind, words] of Object.entries(SMS_PREFERENCE_WORDS)) for (const w of words) expect(parseSmsPreference(w.toLowerCase())).toBe(kind);
  });

  it('leaves a sentence, a payment and BAL alone', () => {
    for (const text of [null, '', 'stop calling me', 'please stop', 'STOP SHS-0042', 'start my lamp', 'BAL', 'QK12AB34CD Confirmed. Ksh100.00 received', 'STOP?']) {
      expect(parseSmsPreference(text)).toBeNull();
    }
  });

  it('never takes a word that is a payment or a balance request', () => {
    for (const words of Object.values(SMS_PREFERENCE_WORDS)) {
      for (const w of words) {
        expect(parseBalanceRequest(w)).toBeNull();
        expect(parseMessage(w).ok).toBe(false);
      }
    }
  });
});

describe('formatSmsPreferenceReply', () => {
  it('confirms in English, Kiswahili and French, in one SMS, saying how to undo it', () => {
    expect(formatSmsPreferenceReply('stop')).toMatch(/^Kidogo: You will get no more reminders .* Text START to get them again\.$/);
    expect(formatSmsPreferenceReply('start', 'en')).toBe('Kidogo: You will get reminders and other texts from us again. Text STOP to stop them.');
    expect(formatSmsPreferenceReply('stop', 'sw')).toMatch(/Tuma ANZA/);
    expect(formatSmsPreferenceReply('start', 'sw')).toMatch(/Tuma ACHA/);
    expect(formatSmsPreferenceReply('stop', 'fr')).toMatch(/Envoyez START pour les recevoir a nouveau\.$/);
    expect(formatSmsPreferenceReply('start', 'fr')).toMatch(/Envoyez STOP pour les arreter\.$/);
    for (const p of ['stop', 'start'] as const) {
      for (const l of ['en', 'sw', 'fr'] as const) {
        const text = formatSmsPreferenceReply(p, l);
        expect(text.length).toBeLessThanOrEqual(160);
        expect(text).toMatch(/^[\x20-\x7e]+$/);
      }
    }
  });
});
