import { describe, expect, it } from 'vitest';
import { countSms, isGsm7 } from './sms-segments';

describe('counting SMS parts (GSM 03.38)', () => {
  it.each([
    ['', 'gsm7', 0, 0],
    ['a'.repeat(160), 'gsm7', 160, 1],
    ['a'.repeat(161), 'gsm7', 161, 2],
    ['a'.repeat(306), 'gsm7', 306, 2],
    ['a'.repeat(307), 'gsm7', 307, 3],
    // Extension-table characters take an escape and the character.
    ['€'.repeat(80), 'gsm7', 160, 1],
    ['€'.repeat(81), 'gsm7', 162, 2],
    // Spanish: ñ, é, ¿ and ¡ are in the GSM alphabet; á is not.
    ['¿Señor Pérez? ¡Hola!', 'gsm7', 20, 1],
    ['á'.repeat(70), 'ucs2', 70, 1],
    ['á'.repeat(71), 'ucs2', 71, 2],
    ['á'.repeat(134), 'ucs2', 134, 2],
    ['á'.repeat(135), 'ucs2', 135, 3],
  ])('%j is %s, %i units, %i parts', (text, encoding, units, segments) => {
    expect(countSms(text)).toMatchObject({ encoding, units, segments });
  });

  it('never splits an escape pair or an emoji across two parts', () => {
    // 152 letters then a €: the escape pair does not fit the first part's last septet.
    expect(countSms(`${'a'.repeat(152)}€${'a'.repeat(152)}`).segments).toBe(3);
    // An emoji is two UTF-16 units and stays whole: 66 + 2 does not fit one 67-unit part.
    expect(countSms(`${'a'.repeat(66)}😀${'a'.repeat(10)}`)).toMatchObject({ encoding: 'ucs2', units: 78, segments: 2 });
  });

  it('tells the alphabets apart', () => {
    expect(isGsm7('Reply YES to book {link}')).toBe(true);
    expect(isGsm7('Responda SÍ')).toBe(false);
  });
});
