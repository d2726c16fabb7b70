import type { OutboxStatus } from '@pathwell/contracts/messaging';

/** One colour per outbound message status, shared by the outbox page and the communication dashboard. */
export const outboxStatusColor: Record<OutboxStatus, string> = {
  stored: 'blue',
  scheduled: 'violet',
  queued: 'cyan',
  sent: 'teal',
  delivered: 'green',
  undelivered: 'orange',
  failed: 'red',
  suppressed: 'gray',
};
