/**
 * A short two-note chime as a WAV file, built here so the speaker test needs no download and
 * plays through an <audio> element (whose output device `setSinkId` can choose).
 */
export function testToneUrl(): string {
  const rate = 22050;
  const seconds = 1.2;
  const count = Math.floor(rate * seconds);
  const buffer = new ArrayBuffer(44 + count * 2);
  const view = new DataView(buffer);
  const text = (offset: number, s: string) => {
    for (let i = 0; i < s.length; i++) view.setUint8(offset + i, s.charCodeAt(i));
  };
  text(0, 'RIFF');
  view.setUint32(4, 36 + count * 2, true);
  text(8, 'WAVE');
  text(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, rate, true);
  view.setUint32(28, rate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  text(36, 'data');
  view.setUint32(40, count * 2, true);
  for (let i = 0; i < count; i++) {
    const t = i / rate;
    const frequency = t < seconds / 2 ? 660 : 880;
    const local = t % (seconds / 2);
    const envelope = Math.min(1, local * 40) * Math.exp(-local * 4);
    view.setInt16(44 + i * 2, Math.sin(2 * Math.PI * frequency * t) * envelope * 0.5 * 32767, true);
  }
  return URL.createObjectURL(new Blob([buffer], { type: 'audio/wav' }));
}

type SinkElement = HTMLMediaElement & { setSinkId?: (id: string) => Promise<void> };

/** Whether this browser lets a page choose the speaker (Chrome and Edge do; Safari, Firefox on phones don't). */
export function canChooseSpeaker(): boolean {
  return typeof (HTMLMediaElement.prototype as SinkElement).setSinkId === 'function';
}

/** Sends an element's sound to the chosen speaker, where the browser allows it. */
export async function routeToSpeaker(
  element: HTMLMediaElement,
  deviceId: string | null,
): Promise<void> {
  const el = element as SinkElement;
  if (!deviceId || typeof el.setSinkId !== 'function') return;
  await el.setSinkId(deviceId).catch(() => undefined);
}
