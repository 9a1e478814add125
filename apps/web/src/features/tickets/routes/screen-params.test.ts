import { describe, expect, it } from 'vitest';
import { DEFAULT_SCREEN, readTicketsParams, ticketsHref, ticketsSearch, type TicketsScreenParams } from './screen-params';

const read = (search: string) => readTicketsParams(new URLSearchParams(search));

describe('the Service Tickets screen params', () => {
  it('reads what the URL says, and the default for anything else', () => {
    expect(read('')).toEqual(DEFAULT_SCREEN);
    expect(read('status=resolved&serial=%20SHS-0001%20&customer=42&mine=true&page=3&ticket=12')).toEqual({
      status: 'resolved',
      serial: 'SHS-0001',
      customer: 42,
      mine: true,
      page: 3,
      ticket: 12,
    });
    for (const bad of ['status=closed', 'customer=0', 'customer=-4', 'customer=4.5', 'customer=abc', 'ticket=', 'ticket=1e3', 'ticket=99999999999999999999', 'page=0', 'page=x', 'mine=1']) {
      expect(read(bad), bad).toEqual(DEFAULT_SCREEN);
    }
  });

  it('keeps every param through the URL and back, and defaults out of it', () => {
    const screens: TicketsScreenParams[] = [
      DEFAULT_SCREEN,
      { status: 'all', serial: 'SHS-0001', customer: 42, mine: true, page: 2, ticket: 12 },
      { ...DEFAULT_SCREEN, customer: 7 },
      { ...DEFAULT_SCREEN, ticket: 3 },
    ];
    for (const screen of screens) expect(read(ticketsSearch(screen))).toEqual(screen);
    expect(ticketsSearch(DEFAULT_SCREEN)).toBe('');
    expect(ticketsSearch({ status: 'all', serial: 'SHS-0001', customer: 42, mine: true, page: 2, ticket: 12 })).toBe(
      'status=all&serial=SHS-0001&customer=42&mine=true&page=2&ticket=12',
    );
  });

  it('links to the screen with only what differs from the default', () => {
    expect(ticketsHref()).toBe('/tickets');
    expect(ticketsHref({ ticket: 12 })).toBe('/tickets?ticket=12');
    expect(ticketsHref({ customer: 42, status: 'all' })).toBe('/tickets?status=all&customer=42');
    expect(ticketsHref({ serial: 'SHS-0001', status: 'all' })).toBe('/tickets?status=all&serial=SHS-0001');
  });
});
