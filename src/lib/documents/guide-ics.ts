/**
 * One appointment as an iCalendar file, with ical-generator (loaded on demand, like the PDF).
 * ical-generator because it folds and escapes lines, writes VALARM and METHOD as RFC 5545 asks,
 * and formats Temporal values in a named zone itself.
 */
import ical, { ICalAlarmType, ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
import { saoPauloVtimezone, type CalendarEvent } from '@/domain/calendar/appointment-event.ts';
import { SAO_PAULO } from '@/domain/time/zone.ts';

export function renderAppointmentIcs(event: CalendarEvent): string {
  const calendar = ical({
    prodId: { company: 'Saude Ja', product: 'Teleconsulta', language: 'PT' },
    method: event.cancelled ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.PUBLISH,
    timezone: { name: SAO_PAULO, generator: () => saoPauloVtimezone() },
  });
  const entry = calendar.createEvent({
    id: event.uid,
    // A cancellation must outrank the booking it withdraws.
    sequence: event.cancelled ? 1 : 0,
    start: event.start,
    end: event.end,
    timezone: SAO_PAULO,
    summary: event.summary,
    description: event.description,
    location: event.location,
    url: event.url,
    status: event.cancelled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
  });
  if (!event.cancelled) {
    entry.createAlarm({
      type: ICalAlarmType.display,
      trigger: event.alarmMinutesBefore * 60,
      description: event.reminder,
    });
  }
  return calendar.toString();
}
