import { PathwayList } from '../../features/pathways/pathway-list';

/** /pathways (side menu, all four roles). */
export function Component() {
  return <PathwayList />;
}
