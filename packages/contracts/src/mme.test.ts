import { describe, expect, it } from 'vitest';
import {
  calculateMme,
  cdcMmeFactors,
  medicineUseSchema,
  mmeRequestSchema,
  roundMme,
  transdermalUnitWrong,
  type MmeInputLine,
} from './mme';

const opioid = (name: keyof typeof cdcMmeFactors, strength: number, unitsPerDose: number, dosesPerDay: number, unit = 'mg') => ({
  strength,
  unit,
  isOpioid: true,
  mmeConversionFactor: cdcMmeFactors[name],
  unitsPerDose,
  dosesPerDay,
});

describe('CDC 2022 conversion factors', () => {
  it('are the published table', () => {
    expect(cdcMmeFactors).toEqual({
      codeine: 0.15,
      fentanylTransdermal: 2.4,
      hydrocodone: 1,
      hydromorphone: 5,
      methadone: 4.7,
      morphine: 1,
      oxycodone: 1.5,
      oxymorphone: 3,
      tapentadol: 0.4,
      tramadol: 0.2,
    });
    // Not in the 2022 table: buprenorphine (partial agonist); dihydrocodeine (only in older sources).
    expect(Object.keys(cdcMmeFactors)).not.toContain('buprenorphine');
    expect(Object.keys(cdcMmeFactors)).not.toContain('dihydrocodeine');
  });
});

describe('daily MME of one medicine', () => {
  // strength × units per dose × doses per day × factor, the patch as mcg/h × factor.
  it.each([
    // The table's own footnote examples.
    ['hydrocodone 5 mg four times a day (guideline example)', opioid('hydrocodone', 5, 1, 4), 20],
    ['oxycodone ER 10 mg twice a day (guideline example)', opioid('oxycodone', 10, 1, 2), 30],
    // Worked from the published factors.
    ['oxycodone 10 mg every 6 hours', opioid('oxycodone', 10, 1, 4), 60],
    ['hydrocodone 10 mg four times a day', opioid('hydrocodone', 10, 1, 4), 40],
    ['fentanyl patch 25 mcg/h', opioid('fentanylTransdermal', 25, 1, 1, 'mcg/h'), 60],
    ['two fentanyl 50 mcg/h patches', opioid('fentanylTransdermal', 50, 2, 1, 'mcg/h'), 240],
    ['tramadol 50 mg four times a day', opioid('tramadol', 50, 1, 4), 40],
    ['codeine 30 mg four times a day', opioid('codeine', 30, 1, 4), 18],
    ['hydromorphone 2 mg four times a day', opioid('hydromorphone', 2, 1, 4), 40],
    ['morphine ER 15 mg twice a day', opioid('morphine', 15, 1, 2), 30],
    ['oxymorphone 10 mg twice a day', opioid('oxymorphone', 10, 1, 2), 60],
    ['tapentadol 50 mg four times a day', opioid('tapentadol', 50, 1, 4), 80],
    ['methadone 10 mg twice a day', opioid('methadone', 10, 1, 2), 94],
    ['two oxycodone 5 mg tablets three times a day', opioid('oxycodone', 5, 2, 3), 45],
    ['half a hydromorphone 4 mg tablet every 8 hours', opioid('hydromorphone', 4, 0.5, 3), 30],
  ])('%s', (_label, line, expected) => {
    const result = calculateMme([line]);
    expect(result.lines[0]?.dailyMme).toBe(expected);
    expect(result.totalMme).toBe(expected);
  });

  it('does not use doses per day for a patch (changed every 72 hours)', () => {
    expect(calculateMme([opioid('fentanylTransdermal', 25, 1, 0.33, 'mcg/h')]).totalMme).toBe(60);
    expect(calculateMme([opioid('fentanylTransdermal', 25, 1, 1, 'mcg/h')]).lines[0]?.note).toBe('patch');
  });

  it('counts nothing for a non-opioid, a missing factor or a missing strength, and says why', () => {
    const result = calculateMme([
      { strength: 300, unit: 'mg', isOpioid: false, unitsPerDose: 1, dosesPerDay: 3 },
      { strength: 10, unit: 'mg', isOpioid: true, mmeConversionFactor: null, unitsPerDose: 1, dosesPerDay: 4 },
      { isOpioid: true, mmeConversionFactor: 1.5, unitsPerDose: 1, dosesPerDay: 4 },
    ]);
    expect(result.lines).toEqual([
      { dailyMme: null, note: 'notOpioid' },
      { dailyMme: null, note: 'factorMissing' },
      { dailyMme: null, note: 'strengthMissing' },
    ]);
    expect(result.totalMme).toBe(0);
  });
});

describe('patches and opioids the table leaves out (issue #24)', () => {
  it('counts 25 mcg/h at 2.4 per mcg/h = 60 MME/day and flags it at 50 (CDC 2022 table)', () => {
    const result = calculateMme([{ ...opioid('fentanylTransdermal', 25, 1, 0.33, 'mcg/h'), route: 'transdermal' }]);
    expect(result.lines[0]).toEqual({ dailyMme: 60, note: 'patch' });
    expect(result.flags.atOrAbove50).toBe(true);
  });

  it('does not count a patch typed in mcg (it came out as 25 × 0.33 × 2.4 = 19.8, a third of the dose)', () => {
    const typedInMcg = { ...opioid('fentanylTransdermal', 25, 1, 0.33, 'mcg'), route: 'transdermal' };
    expect(calculateMme([typedInMcg]).lines[0]).toEqual({ dailyMme: null, note: 'transdermalUnit' });
    expect(transdermalUnitWrong({ ...typedInMcg, isOpioid: true })).toBe(true);
    // A fentanyl entry without a route is taken for the patch, the table's only fentanyl.
    expect(transdermalUnitWrong({ name: 'Fentanyl 25 mcg', unit: 'mcg', isOpioid: true })).toBe(true);
    expect(transdermalUnitWrong({ name: 'Fentanyl patch', unit: 'mcg/h', route: 'transdermal', isOpioid: true })).toBe(false);
    expect(transdermalUnitWrong({ name: 'Oxycodone 10 mg', unit: 'mg', route: 'oral', isOpioid: true })).toBe(false);
  });

  it('shows buprenorphine as not converted, whatever factor was typed, and never as 0', () => {
    const typed = (factor: number) => ({
      name: 'Buprenorphine 5 mcg/h patch',
      strength: 5,
      unit: 'mcg/h',
      route: 'transdermal',
      isOpioid: true,
      mmeConversionFactor: factor,
      unitsPerDose: 1,
      dosesPerDay: 1,
    });
    expect(calculateMme([typed(0)]).lines[0]).toEqual({ dailyMme: null, note: 'notConverted' });
    expect(calculateMme([typed(12.6)]).lines[0]).toEqual({ dailyMme: null, note: 'notConverted' });
    const marked = { ...opioid('oxycodone', 5, 1, 1), mmeConversionFactor: null, mmeNotConverted: true };
    expect(calculateMme([marked]).lines[0]).toEqual({ dailyMme: null, note: 'notConverted' });
  });
});

describe('total and flags', () => {
  const benzo: MmeInputLine = { strength: 0.5, unit: 'mg', isBenzodiazepine: true, unitsPerDose: 1, dosesPerDay: 2 };

  it('adds the lines: oxycodone 10 mg q6h + fentanyl 25 mcg/h = 120', () => {
    const result = calculateMme([opioid('oxycodone', 10, 1, 4), opioid('fentanylTransdermal', 25, 1, 1, 'mcg/h')]);
    expect(result.totalMme).toBe(120);
    expect(result.flags).toEqual({ atOrAbove50: true, atOrAbove90: true, withBenzodiazepine: false });
  });

  it.each([
    [49.9, false, false],
    [50, true, false],
    [89.9, true, false],
    [90, true, true],
  ])('%s MME/day: ≥50 %s, ≥90 %s', (total, at50, at90) => {
    const { flags } = calculateMme([
      { strength: total, unit: 'mg', isOpioid: true, mmeConversionFactor: 1, unitsPerDose: 1, dosesPerDay: 1 },
    ]);
    expect(flags.atOrAbove50).toBe(at50);
    expect(flags.atOrAbove90).toBe(at90);
  });

  it('flags at the threshold even when floating point lands just under it', () => {
    const lines = [
      opioid('methadone', 2, 0.5, 4), // 18.8
      { ...opioid('methadone', 2, 1, 6), mmeConversionFactor: 2.4 }, // 28.799999999999997
      opioid('codeine', 2, 2, 4), // 2.4
    ];
    expect(18.8 + 2 * 6 * 2.4 + 2 * 2 * 4 * 0.15).toBeLessThan(50);
    const result = calculateMme(lines);
    expect(result.totalMme).toBe(50);
    expect(result.flags.atOrAbove50).toBe(true);
  });

  it('flags an opioid with a benzodiazepine, not a benzodiazepine alone', () => {
    expect(calculateMme([opioid('tramadol', 50, 1, 2), benzo]).flags.withBenzodiazepine).toBe(true);
    expect(calculateMme([benzo]).flags.withBenzodiazepine).toBe(false);
    expect(calculateMme([]).flags).toEqual({ atOrAbove50: false, atOrAbove90: false, withBenzodiazepine: false });
  });

  it('rounds to one decimal, half away from zero', () => {
    expect(roundMme(22.5)).toBe(22.5);
    expect(roundMme(7.25)).toBe(7.3);
    expect(roundMme(5.999999999)).toBe(6);
    // codeine 15 mg three times a day: 6.75 MME
    expect(calculateMme([opioid('codeine', 15, 1, 3)]).totalMme).toBe(6.8);
  });
});

describe('input schemas', () => {
  it('refuses zero, too many and too fine amounts', () => {
    const issues = (value: unknown) =>
      medicineUseSchema.safeParse(value).error?.issues.map((issue) => [issue.path.join('.'), issue.message]);
    expect(issues({ unitsPerDose: 0, dosesPerDay: 25 })).toEqual([
      ['unitsPerDose', 'numberOutOfRange'],
      ['dosesPerDay', 'numberOutOfRange'],
    ]);
    expect(issues({ unitsPerDose: 0.0001, dosesPerDay: 1.005 })).toEqual([
      ['unitsPerDose', 'numberInvalid'],
      ['dosesPerDay', 'numberInvalid'],
    ]);
    expect(issues({ unitsPerDose: '1', dosesPerDay: 4 })).toEqual([['unitsPerDose', 'numberInvalid']]);
    expect(issues({ unitsPerDose: 0.5, dosesPerDay: 0.33 })).toBeUndefined();
  });

  it('takes a what-if list or none', () => {
    const patientId = '0b7f7f9e-4f4c-4d2c-9a57-3f0c8a1e2b3c';
    expect(mmeRequestSchema.safeParse({ patientId }).success).toBe(true);
    expect(mmeRequestSchema.safeParse({ patientId, medicines: [] }).success).toBe(true);
    expect(
      mmeRequestSchema.safeParse({ patientId, medicines: [{ medicineId: 'x', unitsPerDose: 1, dosesPerDay: 1 }] }).success,
    ).toBe(false);
  });
});
