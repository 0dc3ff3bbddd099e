import * as v from 'valibot';
import { MEETING_LINK_INVALID, meetingLinkField } from '../schemas/meeting-link-field.ts';

export { MEETING_LINK_INVALID };

export type MeetingLinkCheck = { ok: true; link: string } | { ok: false; message: string };

/**
 * An absolute https URL whose host has a dot, at most 2048 characters (medico_salvar_link's
 * rule, the schema the sync engine checks too), trimmed; anything else is refused with a
 * message.
 */
export function checkMeetingLink(input: string): MeetingLinkCheck {
  const parsed = v.safeParse(meetingLinkField, input);
  return parsed.success
    ? { ok: true, link: parsed.output }
    : { ok: false, message: MEETING_LINK_INVALID };
}
