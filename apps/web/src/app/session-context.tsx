import { createContext, useContext } from 'react';
import type { MenuContext } from '@pathwell/contracts/menu';
import type { SessionContext } from '@pathwell/contracts/session';

export const SessionReactContext = createContext<SessionContext | null>(null);

/** The signed-in session; only pages inside the shell may call it. */
export function useSession(): SessionContext {
  const session = useContext(SessionReactContext);
  if (!session) throw new Error('useSession needs a signed-in page inside the shell');
  return session;
}

export function menuContextOf(session: SessionContext): MenuContext {
  return {
    role: session.user.role,
    isParent: session.user.isParent,
    isChild: session.user.isChild,
    allClinicsView: session.allClinics,
    flags: session.flags,
  };
}
