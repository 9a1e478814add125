import type { TokenLogQuery } from './types';

/** Query keys of the tokens feature; generating a token invalidates `all`. */
export const tokenKeys = {
  all: ['tokens'] as const,
  logs: (q: TokenLogQuery) => [...tokenKeys.all, 'logs', q] as const,
  devices: (query: string) => [...tokenKeys.all, 'devices', query] as const,
};
