import { describe, expect, it } from 'vitest';
import { logGamma, meanConfidenceInterval95, regularizedIncompleteBeta, studentTCdf, studentTQuantile } from './statistics';

describe('statistics', () => {
  it('computes ln Γ at known points', () => {
    expect(logGamma(1)).toBeCloseTo(0, 12);
    expect(logGamma(5)).toBeCloseTo(Math.log(24), 12);
    // Γ(1/2) = √π
    expect(logGamma(0.5)).toBeCloseTo(0.5 * Math.log(Math.PI), 12);
  });

  it('computes the regularised incomplete beta at closed forms', () => {
    // I_x(1, 1) = x; I_x(a, 1) = x^a; I_x(1, b) = 1 − (1 − x)^b
    expect(regularizedIncompleteBeta(0.3, 1, 1)).toBeCloseTo(0.3, 12);
    expect(regularizedIncompleteBeta(0.6, 3, 1)).toBeCloseTo(0.216, 12);
    expect(regularizedIncompleteBeta(0.2, 1, 4)).toBeCloseTo(1 - 0.8 ** 4, 12);
    expect(regularizedIncompleteBeta(0, 2, 3)).toBe(0);
    expect(regularizedIncompleteBeta(1, 2, 3)).toBe(1);
  });

  it('gives Student t probabilities: symmetric, and Cauchy at one degree of freedom', () => {
    expect(studentTCdf(0, 7)).toBeCloseTo(0.5, 12);
    expect(studentTCdf(1.5, 4) + studentTCdf(-1.5, 4)).toBeCloseTo(1, 12);
    // df 1 is the Cauchy distribution: F(t) = 1/2 + atan(t)/π
    expect(studentTCdf(2, 1)).toBeCloseTo(0.5 + Math.atan(2) / Math.PI, 12);
  });

  it('matches the published two-sided 95 % t table (t 0.975)', () => {
    // Standard t table (e.g. NIST/SEMATECH e-Handbook of Statistical Methods, 1.3.6.7.2), three decimals.
    const table: [number, number][] = [
      [1, 12.706],
      [2, 4.303],
      [3, 3.182],
      [10, 2.228],
      [30, 2.042],
      [120, 1.98],
    ];
    for (const [df, value] of table) expect(studentTQuantile(0.975, df)).toBeCloseTo(value, 3);
    // Far out it approaches the normal 1.95996…
    expect(studentTQuantile(0.975, 1e6)).toBeCloseTo(1.96, 2);
    expect(studentTQuantile(0.5, 9)).toBeCloseTo(0, 9);
  });

  it('builds the 95 % interval of a mean, none below two values', () => {
    // 40, 50, 60: mean 50, sd 10, 50 ± 4.303 · 10 / √3 = 50 ± 24.84
    const interval = meanConfidenceInterval95(3, 50, 10)!;
    expect(interval.low).toBeCloseTo(25.16, 2);
    expect(interval.high).toBeCloseTo(74.84, 2);
    expect(meanConfidenceInterval95(1, 50, null)).toBeNull();
  });

  it('rejects arguments outside the domain', () => {
    expect(() => studentTQuantile(0.2, 3)).toThrow(RangeError);
    expect(() => studentTQuantile(0.975, 0)).toThrow(RangeError);
  });
});
