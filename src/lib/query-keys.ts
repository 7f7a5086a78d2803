/**
 * Query keys more than one feature touches (features do not import each other): the Messenger marks the chat's
 * reply notifications read on the server when the user reads the chat, so it refreshes the bell's key.
 */
export const NOTIFICATIONS_KEY = ['notifications'] as const;
