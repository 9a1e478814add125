import { describe, expect, it } from 'vitest';
import { formatSmsPreferenceReply, namedText } from '../src/index.js';

describe('namedText', () => {
  it("begins a text to a customer with the organization's name when it set one", () => {
    expect(namedText('Kidogo: Hi Grace, payment of KES 150.00 received.', 'Jua Solar')).toBe('Jua Solar: Hi Grace, payment of KES 150.00 received.');
    expect(namedText(formatSmsPreferenceReply('stop', 'sw'), 'Mwanga')).toMatch(/^Mwanga: Hutapokea tena vikumbusho/);
  });

  it('leaves the text as written without a name, and a text that does not begin with Kidogo: always', () => {
    expect(namedText('Kidogo: Hi Grace.', null)).toBe('Kidogo: Hi Grace.');
    expect(namedText('Kidogo: Hi Grace.', '')).toBe('Kidogo: Hi Grace.');
    expect(namedText('Kidogo is our software.', 'Jua Solar')).toBe('Kidogo is our software.');
    expect(namedText('Jua Solar: Hi Grace.', 'Jua Solar')).toBe('Jua Solar: Hi Grace.');
  });
});
