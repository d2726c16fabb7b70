import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useForm } from 'react-hook-form';
import { describe, expect, it, vi } from 'vitest';
import { renderAt } from '../test/render';
import { TemplateActiveSwitch, TemplateEditorForm, TemplateRowActions } from './template-editor';

function Editor({
  error,
  onSave,
  onCancel,
}: {
  error: string | null;
  onSave: (values: { name: string; isActive: boolean }) => void;
  onCancel: () => void;
}) {
  const { register, control, handleSubmit } = useForm({ defaultValues: { name: 'Knee injection', isActive: true } });
  return (
    <TemplateEditorForm
      testId="demo-form"
      error={error}
      onSubmit={handleSubmit(onSave)}
      onCancel={onCancel}
      cancelLabel="Cancel"
      saveLabel="Save"
      saveTestId="demo-save"
      isSubmitting={false}
    >
      <label>
        Name
        <input {...register('name')} />
      </label>
      <TemplateActiveSwitch control={control} label="Active" />
    </TemplateEditorForm>
  );
}

describe('template editor', () => {
  it('is filled and saved from the keyboard', async () => {
    const onSave = vi.fn();
    renderAt(<Editor error={null} onSave={onSave} onCancel={() => undefined} />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('textbox', { name: 'Name' }));
    await user.keyboard(' (left)');
    await user.tab();
    expect(screen.getByRole('switch', { name: 'Active' })).toHaveFocus();
    await user.keyboard(' ');
    expect(screen.getByRole('switch', { name: 'Active' })).not.toBeChecked();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.tab();
    expect(screen.getByTestId('demo-save')).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(onSave).toHaveBeenCalledTimes(1);
    expect(onSave.mock.calls[0]?.[0]).toEqual({ name: 'Knee injection (left)', isActive: false });
  });

  it('shows a failure above the fields and cancels without saving', async () => {
    const onSave = vi.fn();
    const onCancel = vi.fn();
    renderAt(<Editor error="The name is taken." onSave={onSave} onCancel={onCancel} />);
    expect(await screen.findByText('The name is taken.')).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalledTimes(1);
    expect(onSave).not.toHaveBeenCalled();
  });

  it('edits or deletes a row from the keyboard, each button named for its row', async () => {
    const onEdit = vi.fn();
    const onDelete = vi.fn();
    renderAt(
      <TemplateRowActions
        editLabel="Edit Knee injection"
        deleteLabel="Delete Knee injection"
        onEdit={onEdit}
        onDelete={onDelete}
        iconSize={16}
      />,
    );
    await screen.findByRole('button', { name: 'Edit Knee injection' });
    const user = userEvent.setup();
    await user.tab();
    await user.keyboard('{Enter}');
    expect(onEdit).toHaveBeenCalledTimes(1);
    await user.tab();
    expect(screen.getByRole('button', { name: 'Delete Knee injection' })).toHaveFocus();
    await user.keyboard(' ');
    expect(onDelete).toHaveBeenCalledTimes(1);
  });
});
