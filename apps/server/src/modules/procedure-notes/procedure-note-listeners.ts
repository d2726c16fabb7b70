import { onFact } from '../../lib/domain-events';
import { carryMedicinesIntoDrafts } from './procedure-note-medicines';

/** Unsigned drafts follow the intervention they describe. */
export function listenForProcedureNoteChanges(): void {
  onFact('interventionMedicinesChanged', 'procedure notes: medicines wording in drafts', (ctx, tx, fact) =>
    carryMedicinesIntoDrafts(tx, ctx.instanceId, fact.interventionId, fact.before, fact.after),
  );
}
