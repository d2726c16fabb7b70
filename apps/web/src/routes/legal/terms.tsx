import { LegalPageView } from '../../features/legal/legal-page';

export function Component() {
  return <LegalPageView page="terms" />;
}
