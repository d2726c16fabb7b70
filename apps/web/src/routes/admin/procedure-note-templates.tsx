import { ProcedureNoteTemplatesPage } from '../../features/procedure-notes/procedure-note-templates';

export function Component() {
  return <ProcedureNoteTemplatesPage />;
}
