import { onFact } from '../../lib/domain-events';
import { syncVisitRecordCodes } from './coded-visits.service';

/** Hotlists and campaign audiences read coded visits: a saved visit record brings its codes in. */
export function listenForCodedVisits(): void {
  onFact('visitRecordSaved', 'outreach: coded visits', (ctx, tx, fact) => syncVisitRecordCodes(tx, ctx.instanceId, fact.visitRecordId));
}
