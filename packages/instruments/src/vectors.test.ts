import { describe, expect, it } from 'vitest';
import { isFormCode, scoreForm, type InstrumentAnswers } from './index.js';
import vectors from './vectors-public.json';

interface Vector {
  form: number;
  name: string;
  answers: InstrumentAnswers;
  expected: Record<string, number | null | undefined>;
}

const publicVectors: Vector[] = vectors;

describe('public scoring vectors (scoring reference section 7)', () => {
  for (const vector of publicVectors) {
    it(vector.name, () => {
      expect(isFormCode(vector.form)).toBe(true);
      if (!isFormCode(vector.form)) return;
      const scores = scoreForm(vector.form, vector.answers);
      for (const [key, expected] of Object.entries(vector.expected)) {
        const actual = scores[key];
        if (expected === undefined) continue;
        if (expected === null) {
          expect(actual, key).toBeNull();
        } else {
          expect(actual, key).toBeTypeOf('number');
          expect(Math.abs((actual ?? Number.NaN) - expected), `${key}: ${actual} vs ${expected}`).toBeLessThanOrEqual(0.01);
        }
      }
    });
  }
});
