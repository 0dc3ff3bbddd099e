import { httpsUrlField } from './fields.ts';

/**
 * The consultation's video link as the sync engine accepts it (sync/outbox/mutations.ts) and
 * the doctor's card checks it (appointments/meeting-link.ts); apart from sync-inputs.ts, whose
 * other schemas the cards' first paint does not need.
 */

/** docs/product-rules.md §5: the consultation's video link. */
export const MEETING_LINK_INVALID = 'Informe um link válido que comece com https://';

/** The consultation's link, as medico_salvar_link accepts it (the form checks the same). */
export const meetingLinkField = httpsUrlField(MEETING_LINK_INVALID);
