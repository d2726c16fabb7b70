import { TemplateBuilderPage } from '../../features/outreach/templates/template-builder';

/** /codepulls/templates: the code pull template builder (`?id=` edits, `?kind=hotlist` for hot lists). */
export function Component() {
  return <TemplateBuilderPage />;
}
