import type { ServiceContext, SignedInContext } from '../context';
import type { Database } from '../db/client';
import type { InterventionMedicine } from '../db/schema';

/**
 * Facts one feature announces and others react to (decision 0068). The feature that owns the change
 * names what happened; it does not know who listens. Each fact carries ids and the few values a
 * listener needs to act without reading the publisher's tables back.
 */
interface StaffFacts {
  /** An appointment became Completed (it may or may not be the patient's first visit). */
  visitCompleted: { appointmentId: string; patientId: string; startsAt: Date };
  /** A performed procedure was recorded (a new intervention with an item, or one completed only now). */
  procedurePerformed: { interventionId: string; patientId: string; itemId: string; performedAt: Date };
  /** A patient joined a cohort (study group) they were not in. */
  cohortJoined: { patientId: string; studyGroupId: string; joinedAt: Date };
  /** A visit record (actions, diagnosis and procedure codes) was saved. */
  visitRecordSaved: { visitRecordId: string };
  /** The medicines given during an intervention were changed. */
  interventionMedicinesChanged: {
    interventionId: string;
    before: readonly InterventionMedicine[];
    after: readonly InterventionMedicine[];
  };
}

/** Facts a patient makes true on an open link: no staff user acts, so listeners get the link's context. */
interface PatientFacts {
  /**
   * A patient finished a link: submitted its questionnaire, or completed every step of an intake. The
   * link row is already marked completed in the same transaction.
   */
  patientLinkCompleted: {
    linkId: string;
    instanceId: string;
    patientId: string;
    appointmentId: string | null;
    kind: 'form' | 'intake';
  };
}

type DomainFacts = StaffFacts & PatientFacts;
type FactKind = keyof DomainFacts;
/** Who acts when the fact happens: a signed-in staff user, or a patient on an open link. */
type ContextOf<K extends FactKind> = K extends keyof PatientFacts ? ServiceContext : SignedInContext;

/**
 * A listener runs inside the publisher's transaction: what it writes commits or rolls back with the
 * fact. Work that must outlive a crash or talk to another system enqueues a job here
 * (`ctx.jobs.enqueue(tx, …)`), which commits with the fact as well.
 */
type FactHandler<K extends FactKind> = (ctx: ContextOf<K>, tx: Database, fact: DomainFacts[K]) => Promise<void>;

type AnyHandler = (ctx: never, tx: Database, fact: never) => Promise<void>;

/** Listeners by fact, each under its own name: registering a name twice replaces it (an app built twice in one process). */
const listeners = new Map<FactKind, Map<string, AnyHandler>>();
let wired = false;

/** Registers `handler` for `kind` under `name` ("pathways: first-visit pathways"). */
export function onFact<K extends FactKind>(kind: K, name: string, handler: FactHandler<K>): void {
  let named = listeners.get(kind);
  if (!named) listeners.set(kind, (named = new Map()));
  named.set(name, handler as AnyHandler);
}

/** The composition root says every listener is registered; until then a fact is refused, never lost. */
export function markFactsWired(): void {
  wired = true;
}

/** Who listens to `kind`, in registration order (tests and the architecture map read it). */
export function factListeners(kind: FactKind): string[] {
  return [...(listeners.get(kind)?.keys() ?? [])];
}

/**
 * Announces a fact inside the transaction that made it true: every listener runs now, in registration
 * order, on `tx`. A listener's error rolls the whole change back, as a direct call did.
 */
export async function announce<K extends FactKind>(
  ctx: ContextOf<K>,
  tx: Database,
  kind: K,
  fact: DomainFacts[K],
): Promise<void> {
  if (!wired) throw new Error(`fact "${kind}" announced before the listeners were registered (build the app first)`);
  for (const handler of listeners.get(kind)?.values() ?? []) {
    await (handler as FactHandler<K>)(ctx, tx, fact);
  }
}
