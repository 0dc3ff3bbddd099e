/**
 * A call whose link is `disconnected` gets this long to come back by itself (a short loss of
 * packets) before the controller restarts ICE; a `failed` link restarts at once.
 */
export const DISCONNECTED_GRACE_MS = 2500;
