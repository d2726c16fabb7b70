import { sql } from 'drizzle-orm';
import type { Database, DatabaseHandle } from '../../db/client';

/** The one NOTIFY channel every server process of a database listens on. */
const EVENTS_CHANNEL = 'pathwell_events';

/**
 * What travels between processes and to browsers: which clinic, what changed, and for whom. Never
 * patient data: a browser that hears an event reads the change through the API, under its own
 * role, clinic and doctor scope.
 */
export interface StaffEvent {
  instanceId: string;
  kind: 'notification' | 'message';
  /** Only these users (a staff message); absent: every signed-in user of the clinic. */
  userIds?: string[];
}

interface Subscriber {
  userId: string;
  instanceIds: readonly string[];
  send: (event: StaffEvent) => void;
}

function isStaffEvent(value: unknown): value is StaffEvent {
  if (!value || typeof value !== 'object') return false;
  const event = value as Partial<StaffEvent>;
  return typeof event.instanceId === 'string' && (event.kind === 'notification' || event.kind === 'message');
}

/**
 * Realtime fan-out (issue #11 §4): a change publishes with pg_notify inside its own transaction, so
 * nothing is heard of a change that rolled back; PostgreSQL delivers it at commit to every process
 * listening (one process on PGlite), and each process passes it to its own open event streams.
 */
export class EventHub {
  private readonly subscribers = new Set<Subscriber>();
  private unlisten: (() => Promise<void>) | null = null;

  constructor(private readonly handle: Pick<DatabaseHandle, 'listen'>) {}

  async start(): Promise<void> {
    this.unlisten = await this.handle.listen(
      EVENTS_CHANNEL,
      (payload) => this.dispatch(payload),
      () => this.catchUp(),
    );
  }

  async stop(): Promise<void> {
    await this.unlisten?.();
    this.unlisten = null;
    this.subscribers.clear();
  }

  /** Heard by every process once the caller's transaction commits. */
  async publish(db: Database, event: StaffEvent): Promise<void> {
    await db.execute(sql`select pg_notify(${EVENTS_CHANNEL}, ${JSON.stringify(event)})`);
  }

  subscribe(userId: string, instanceIds: readonly string[], send: (event: StaffEvent) => void): () => void {
    const subscriber: Subscriber = { userId, instanceIds, send };
    this.subscribers.add(subscriber);
    return () => this.subscribers.delete(subscriber);
  }

  /** After the LISTEN connection came back: what was published meanwhile is lost, so everyone reads again. */
  private catchUp() {
    for (const subscriber of this.subscribers) {
      for (const instanceId of subscriber.instanceIds) {
        subscriber.send({ instanceId, kind: 'notification' });
        subscriber.send({ instanceId, kind: 'message' });
      }
    }
  }

  private dispatch(payload: string) {
    let event: unknown;
    try {
      event = JSON.parse(payload);
    } catch {
      return;
    }
    if (!isStaffEvent(event)) return;
    for (const subscriber of this.subscribers) {
      if (!subscriber.instanceIds.includes(event.instanceId)) continue;
      if (event.userIds && !event.userIds.includes(subscriber.userId)) continue;
      subscriber.send(event);
    }
  }
}
