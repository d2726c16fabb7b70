import { ConversationListPage } from '../../features/user-messages/conversation-list';

/** /user-messages: staff-to-staff conversations (issue #11 §5). */
export function Component() {
  return <ConversationListPage />;
}
