import { useParams } from 'react-router';
import { ConversationThreadPage } from '../../features/user-messages/conversation-thread';

/** /user-messages/conversations/:userId: one conversation (issue #11 §5). */
export function Component() {
  const { userId = '' } = useParams();
  // A new colleague starts from a fresh page state (the composer's draft, what was marked seen).
  return <ConversationThreadPage key={userId} userId={userId} />;
}
