import { describe, expect, it } from 'vitest';
import { checkMeetingLink, MEETING_LINK_INVALID } from './meeting-link.ts';

describe('checkMeetingLink', () => {
  it.each([
    ['https://meet.google.com/abc-defg-hij', true],
    ['  https://zoom.us/j/123?pwd=x  ', true],
    ['http://meet.example.com/sala', false],
    ['meet.google.com/abc', false],
    ['https://', false],
    ['https://localhost/sala', false],
    ['javascript:alert(1)', false],
    ['', false],
  ])('%s → %s', (input, ok) => {
    const result = checkMeetingLink(input);
    expect(result.ok).toBe(ok);
    if (result.ok) expect(result.link).toBe(input.trim());
    else expect(result.message).toBe(MEETING_LINK_INVALID);
  });
});
