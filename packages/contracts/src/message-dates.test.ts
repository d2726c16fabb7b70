import { describe, expect, it } from 'vitest';
import { messageDate, messageDateTime } from './message-dates';

/** 5:35 PM on November 28, 2026 in Chicago: 23:35 UTC. */
const AT = new Date('2026-11-28T23:35:00Z');
// ICU writes a narrow no-break space before AM/PM in newer releases; compare words, not spaces.
const words = (text: string) => text.replace(/\s+/g, ' ');

describe('dates in messages', () => {
  it('names the month in the patient language, in the clinic time zone', () => {
    expect(words(messageDateTime(AT, 'America/Chicago', 'en'))).toBe('Saturday, November 28, 2026 at 5:35 PM');
    expect(words(messageDateTime(AT, 'America/Chicago', 'es'))).toBe('sábado, 28 de noviembre de 2026, 5:35 p.m.');
    expect(messageDate(AT, 'America/Chicago', 'es')).toBe('28 de noviembre de 2026');
    // Past midnight UTC it is still the 28th at the clinic.
    expect(messageDate(new Date('2026-11-29T03:00:00Z'), 'America/Chicago', 'en')).toBe('November 28, 2026');
  });
});
