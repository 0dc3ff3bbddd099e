/**
 * The booking policy the server enforces (public.politica_agendamento's defaults; a database
 * test fails when the two disagree). Screens read the numbers from here, never repeat them.
 * Plain constants, apart from policy.ts's rules, so a page that only quotes them (the legal
 * texts) does not load the date library those rules need.
 */

/** How long a chosen slot stays held for checkout before the guide is generated. */
export const CHECKOUT_HOLD_MINUTES = 15;

/** How long before the start a patient may still cancel a confirmed appointment themselves. */
export const SELF_CANCEL_NOTICE_HOURS = 24;
