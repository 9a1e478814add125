/** Query keys of Find: one entry per search term. */
export const findKeys = {
  all: ['find'] as const,
  term: (q: string) => [...findKeys.all, { q }] as const,
};
