import { markFactsWired } from './lib/domain-events';
import { recordCampaignReply } from './modules/outreach/campaign-replies';
import { listenForCompletedLinks } from './modules/notifications/notification-listeners';
import { listenForCodedVisits } from './modules/outreach/outreach-listeners';
import { onInboundText } from './modules/patient-contact/inbound-texts.service';
import { listenForPathwayTriggers } from './modules/pathways/pathway-listeners';
import { listenForProcedureNoteChanges } from './modules/procedure-notes/procedure-note-listeners';

/**
 * Who listens to which fact (decision 0068), registered once when the app is built. The composition
 * root is the one place that knows both sides, so no feature imports another's triggers.
 */
export function registerFactListeners(): void {
  listenForPathwayTriggers();
  listenForProcedureNoteChanges();
  listenForCodedVisits();
  listenForCompletedLinks();
  // Texts patients send belong to patient contact; a campaign hears them as replies (decision 0069).
  onInboundText('outreach: campaign replies', recordCampaignReply);
  markFactsWired();
}
