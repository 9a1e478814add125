/** Query keys of the notifications feature; mutations invalidate through these, never retyped arrays. */
export const notificationKeys = {
  all: ['notifications'] as const,
  list: () => [...notificationKeys.all, 'list'] as const,
};
