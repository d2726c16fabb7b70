import { describe, expect, it } from 'vitest';
import type { SignedInContext } from '../context';
import type { Database } from '../db/client';
import { registerFactListeners } from '../domain-listeners';
import { announce, factListeners, markFactsWired, onFact } from './domain-events';

// Listeners here only record what they are given: the context and transaction are passed through untouched.
const ctx = { instanceId: 'clinic' } as SignedInContext;
const tx = { name: 'the publisher transaction' } as unknown as Database;
const fact = { visitRecordId: 'record-1' };

describe('facts between features', () => {
  it('refuses a fact announced before the listeners are registered, so none is lost', async () => {
    await expect(announce(ctx, tx, 'visitRecordSaved', fact)).rejects.toThrow(/before the listeners were registered/);
  });

  it("runs every listener in the publisher's transaction, in the order they were registered", async () => {
    const heard: string[] = [];
    onFact('visitRecordSaved', 'test: first', async (given, on, what) => {
      expect([given, on, what]).toEqual([ctx, tx, fact]);
      heard.push('first');
    });
    onFact('visitRecordSaved', 'test: second', async () => {
      heard.push('second');
    });
    markFactsWired();
    await announce(ctx, tx, 'visitRecordSaved', fact);
    expect(heard).toEqual(['first', 'second']);
  });

  it('replaces a listener registered again under its name (an app built twice hears each fact once)', async () => {
    const heard: string[] = [];
    onFact('visitRecordSaved', 'test: first', async () => {
      heard.push('first again');
    });
    onFact('visitRecordSaved', 'test: second', async () => {
      heard.push('second again');
    });
    await announce(ctx, tx, 'visitRecordSaved', fact);
    expect(heard).toEqual(['first again', 'second again']);
  });

  it("lets a listener's error reach the publisher, whose change then rolls back", async () => {
    onFact('cohortJoined', 'test: failing', async () => {
      throw new Error('listener failed');
    });
    await expect(announce(ctx, tx, 'cohortJoined', { patientId: 'p', studyGroupId: 'g', joinedAt: new Date(0) })).rejects.toThrow(
      'listener failed',
    );
  });
});

describe('who listens to what (decision 0068)', () => {
  it('is registered when the app is built: pathways, procedure notes, outreach and notifications react to facts', () => {
    registerFactListeners();
    expect({
      visitCompleted: factListeners('visitCompleted'),
      procedurePerformed: factListeners('procedurePerformed'),
      cohortJoined: factListeners('cohortJoined').filter((name) => !name.startsWith('test:')),
      visitRecordSaved: factListeners('visitRecordSaved').filter((name) => !name.startsWith('test:')),
      interventionMedicinesChanged: factListeners('interventionMedicinesChanged'),
      patientLinkCompleted: factListeners('patientLinkCompleted'),
    }).toEqual({
      visitCompleted: ['pathways: first-visit pathways'],
      procedurePerformed: ['pathways: procedure pathways'],
      cohortJoined: ['pathways: cohort pathways'],
      visitRecordSaved: ['outreach: coded visits'],
      interventionMedicinesChanged: ['procedure notes: medicines wording in drafts'],
      patientLinkCompleted: ['notifications: forms complete'],
    });
  });
});
