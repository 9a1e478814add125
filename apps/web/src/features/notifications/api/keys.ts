/** Query keys of the notifications feature; mutations invalidate through these, never retyped arrays. */
export const notificationKeys = {
  all: ['notifications'] as const,
  /** The organization's notices from the platform. */
  list: () => [...notificationKeys.all, 'list'] as const,
  /** The signed-in user's own notifications ("For you"), every page and filter of them. */
  mine: () => [...notificationKeys.all, 'mine'] as const,
  myList: (limit: number) => [...notificationKeys.mine(), { limit }] as const,
};
