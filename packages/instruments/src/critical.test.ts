import { describe, expect, it } from 'vitest';
import { criticalFindings, formCodes, instruments } from './index.js';

const phq9Answers = (codes: Array<number | null>) => Object.fromEntries(codes.map((code, index) => [`q${index + 1}`, code]));

describe('critical findings', () => {
  it.each([1, 2, 3])('PHQ-9 item 9 answered %i is a finding whatever the total', (code) => {
    const findings = criticalFindings(11, phq9Answers([0, 0, 0, 0, 0, 0, 0, 0, code]));
    expect(findings).toEqual([expect.objectContaining({ key: 'phq9-item9', itemId: 'q9', answer: code })]);
    expect(findings[0]!.source).toContain('Kroenke');
  });

  it('PHQ-9 item 9 answered "Not at all" is none, even with a severe total', () => {
    expect(criticalFindings(11, phq9Answers([3, 3, 3, 3, 3, 3, 3, 3, 0]))).toEqual([]);
  });

  it('an unanswered item 9 raises nothing: no finding from an answer not given', () => {
    expect(criticalFindings(11, phq9Answers([3, 3, 3, 3, 3, 3, 3, 3, null]))).toEqual([]);
    expect(criticalFindings(11, phq9Answers([3, 3, 3]))).toEqual([]);
  });

  it('an answered item 9 on an otherwise unscorable form still raises its finding', () => {
    expect(criticalFindings(11, { q9: 2 })).toHaveLength(1);
  });

  it('PHQ-2 has no item 9 and raises none', () => {
    expect(criticalFindings(10, { q1: 3, q2: 3, q9: 3 })).toEqual([]);
  });

  it('every rule points at a scored item of its instrument, with a threshold inside its codes and a source', () => {
    for (const code of formCodes) {
      const definition = instruments[code];
      for (const rule of definition.criticalItems ?? []) {
        const question = definition.questions.find((item) => item.id === rule.itemId);
        expect(question?.id, `${definition.slug} ${rule.itemId}`).toBe(rule.itemId);
        const values = (question!.options ?? []).map((option) => Number(option.value));
        expect(values).toContain(rule.minimumCode);
        expect(rule.source.length).toBeGreaterThan(20);
        expect(rule.label.es).toBeTruthy();
      }
    }
  });
});
