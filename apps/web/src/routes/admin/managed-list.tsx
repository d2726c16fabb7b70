import { useLocation } from 'react-router';
import { findManagedListByAdminPath } from '@pathwell/contracts/managed-lists';
import { NotFoundPage } from '../../app/error-pages/error-pages';
import { ManagedListPage } from '../../features/managed-lists/managed-list-page';

/** Every managed-list page of section 2 Admin: the path picks the list from the catalogue. */
export function Component() {
  const { pathname } = useLocation();
  const list = findManagedListByAdminPath(pathname);
  if (!list) return <NotFoundPage fullPage={false} />;
  return <ManagedListPage key={list.listType} list={list} />;
}
