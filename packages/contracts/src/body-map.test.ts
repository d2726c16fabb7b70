import { describe, expect, it } from 'vitest';
import {
  bodyMapRegionIds,
  bodyMapRegions,
  bodyMapSchema,
  bodyMapViews,
  PAIN_LEVEL_MAX,
  PAIN_LEVEL_MIN,
  regionLabel,
  widespreadCount,
} from './body-map';

const issuesOf = (input: unknown) => {
  const result = bodyMapSchema.safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => ({ path: issue.path, message: issue.message }));
};

describe('the body map regions', () => {
  it('has 35 areas with unique kebab-case ids on the two views', () => {
    expect(bodyMapRegions).toHaveLength(35);
    expect(new Set(bodyMapRegionIds).size).toBe(bodyMapRegionIds.length);
    expect(bodyMapRegionIds).toEqual(bodyMapRegions.map((region) => region.id));
    for (const region of bodyMapRegions) {
      expect(region.id).toMatch(/^[a-z]+(-[a-z]+)*$/);
      expect(region.id.length).toBeLessThanOrEqual(40);
      expect(bodyMapViews).toContain(region.view);
    }
    expect(bodyMapViews.every((view) => bodyMapRegions.some((region) => region.view === view))).toBe(true);
  });

  it('gives every area an English and a Spanish label, unique within each language', () => {
    for (const language of ['en', 'es'] as const) {
      const labels = bodyMapRegions.map((region) => region.label[language]);
      expect(labels.every((label) => label.trim().length > 0)).toBe(true);
      expect(new Set(labels).size).toBe(labels.length);
    }
  });

  it('names the side of every paired area in its id and labels (the patient’s side)', () => {
    for (const region of bodyMapRegions) {
      if (region.side === 'center') {
        expect(region.id).not.toMatch(/^(left|right)-/);
        continue;
      }
      expect(region.id.startsWith(`${region.side}-`)).toBe(true);
      expect(region.label.en.startsWith(region.side === 'left' ? 'Left ' : 'Right ')).toBe(true);
      expect(region.label.es).toMatch(region.side === 'left' ? /izquierd[oa]s?/ : /derech[oa]s?/);
      const twin = region.id.replace(/^(left|right)-/, region.side === 'left' ? 'right-' : 'left-');
      expect(bodyMapRegionIds).toContain(twin);
    }
  });

  it('has the lower back and left and right leg areas', () => {
    expect(bodyMapRegionIds).toContain('lower-back');
    expect(bodyMapRegionIds.filter((id) => id.startsWith('left-') && id.includes('leg')).length).toBeGreaterThan(0);
    expect(bodyMapRegionIds.filter((id) => id.startsWith('right-') && id.includes('leg')).length).toBeGreaterThan(0);
    expect(regionLabel('lower-back', 'en')).toBe('Lower back');
    expect(regionLabel('lower-back', 'es')).toBe('Parte baja de la espalda');
    expect(regionLabel('left-upper-leg', 'en')).toBe('Left thigh (front)');
    expect(regionLabel('constructor', 'en')).toBe('constructor');
  });
});

describe('bodyMapSchema', () => {
  it('accepts an empty map and a map of known areas with levels 1 to 10', () => {
    expect(bodyMapSchema.parse({ regions: {} })).toEqual({ regions: {} });
    const map = { regions: { 'lower-back': 8, 'left-upper-leg-back': PAIN_LEVEL_MIN, neck: PAIN_LEVEL_MAX } };
    expect(bodyMapSchema.parse(map)).toEqual(map);
    const everything = { regions: Object.fromEntries(bodyMapRegionIds.map((id) => [id, 5])) };
    expect(bodyMapSchema.safeParse(everything).success).toBe(true);
  });

  it('rejects an unknown area at its own path', () => {
    expect(issuesOf({ regions: { 'lower-back': 3, tail: 4 } })).toEqual([{ path: ['regions', 'tail'], message: 'invalid' }]);
    expect(issuesOf({ regions: { __proto__: 4 } })).toEqual([]);
    expect(issuesOf({ regions: JSON.parse('{"constructor": 4}') })).toEqual([
      { path: ['regions', 'constructor'], message: 'invalid' },
    ]);
  });

  it('answers one issue, not one per key, for more keys than there are areas', () => {
    const many = Object.fromEntries(
      [...bodyMapRegionIds, ...Array.from({ length: 500 }, (_, i) => `x${i}`)].map((id) => [id, 5]),
    );
    expect(issuesOf({ regions: many })).toEqual([{ path: ['regions'], message: 'invalid' }]);
  });

  it('rejects levels 0, 11, fractions and text', () => {
    for (const level of [0, 11, 4.5, '5', null]) {
      expect(issuesOf({ regions: { 'lower-back': level } }), String(level)).toEqual([
        { path: ['regions', 'lower-back'], message: 'invalid' },
      ]);
    }
  });

  it('rejects a key longer than 40 characters and a missing regions object', () => {
    expect(issuesOf({ regions: { ['x'.repeat(41)]: 5 } })[0]?.message).toBe('invalid');
    expect(bodyMapSchema.safeParse({}).success).toBe(false);
    expect(bodyMapSchema.safeParse({ regions: [] }).success).toBe(false);
  });
});

describe('widespreadCount', () => {
  it('counts the marked areas', () => {
    expect(widespreadCount({ regions: {} })).toBe(0);
    expect(widespreadCount({ regions: { 'lower-back': 8, 'left-upper-leg': 3, 'right-calf': 2 } })).toBe(2);
    expect(widespreadCount({ regions: { 'lower-back': 8, 'left-upper-leg': 3, 'right-lower-leg-back': 2 } })).toBe(3);
  });
});
