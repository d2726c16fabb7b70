import { onFact } from '../../lib/domain-events';
import { startFirstVisitPathways, startTriggeredPathways } from './pathway-triggers';

/** What starts a pathway (decision 0041): facts other features announce, never a call into this module. */
export function listenForPathwayTriggers(): void {
  onFact('visitCompleted', 'pathways: first-visit pathways', (ctx, tx, fact) =>
    startFirstVisitPathways(ctx, tx, { id: fact.appointmentId, patientId: fact.patientId, startsAt: fact.startsAt }),
  );
  onFact('procedurePerformed', 'pathways: procedure pathways', (ctx, tx, fact) =>
    startTriggeredPathways(ctx, tx, {
      kind: 'procedure',
      patientId: fact.patientId,
      triggerId: fact.itemId,
      anchorAt: fact.performedAt,
      interventionId: fact.interventionId,
    }),
  );
  onFact('cohortJoined', 'pathways: cohort pathways', (ctx, tx, fact) =>
    startTriggeredPathways(ctx, tx, { kind: 'cohort', patientId: fact.patientId, triggerId: fact.studyGroupId, anchorAt: fact.joinedAt }),
  );
}
