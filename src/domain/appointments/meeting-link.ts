/** docs/product-rules.md §5: the consultation's video link; the room opens in the patient's browser. */
export const MEETING_LINK_INVALID = 'Informe um link válido que comece com https://';

export type MeetingLinkCheck = { ok: true; link: string } | { ok: false; message: string };

/**
 * An absolute https URL whose host has a dot (as the server's check on the column demands),
 * trimmed; anything else is refused with a message.
 */
export function checkMeetingLink(input: string): MeetingLinkCheck {
  const value = input.trim();
  if (!value.toLowerCase().startsWith('https://'))
    return { ok: false, message: MEETING_LINK_INVALID };
  try {
    const url = new URL(value);
    if (url.protocol !== 'https:' || !url.hostname.includes('.')) {
      return { ok: false, message: MEETING_LINK_INVALID };
    }
  } catch {
    return { ok: false, message: MEETING_LINK_INVALID };
  }
  return { ok: true, link: value };
}
