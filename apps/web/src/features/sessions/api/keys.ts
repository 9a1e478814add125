/** Query keys of the signed-in user's own sessions (Settings → Signed-In Devices). */
export const sessionKeys = {
  all: ['sessions'] as const,
  list: () => [...sessionKeys.all, 'list'] as const,
};
