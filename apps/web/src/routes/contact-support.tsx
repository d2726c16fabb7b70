import { ContactSupport } from '../features/communications/contact-support';

export function Component() {
  return <ContactSupport />;
}
