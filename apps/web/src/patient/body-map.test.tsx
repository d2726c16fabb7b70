import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { useState } from 'react';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { describe, expect, it, vi } from 'vitest';
import { bodyMapRegions, type BodyMap } from '@pathwell/contracts/body-map';
import enBodyMap from '../locales/en/bodyMap.json';
import esBodyMap from '../locales/es/bodyMap.json';
import { BodyMapInput, BodyMapView } from './body-map';

// The namespace is registered in the patient i18n separately; the test has its own instance.
const i18n = i18next.createInstance();
void i18n.use(initReactI18next).init({
  resources: { en: { bodyMap: enBodyMap }, es: { bodyMap: esBodyMap } },
  lng: 'en',
  fallbackLng: 'en',
  ns: ['bodyMap'],
  defaultNS: 'bodyMap',
  interpolation: { escapeValue: false },
  initAsync: false,
});

function Harness({
  initial = { regions: {} },
  onChange,
  language = 'en',
  previous,
}: {
  initial?: BodyMap;
  onChange: (next: BodyMap) => void;
  language?: 'en' | 'es';
  previous?: BodyMap | null;
}) {
  const [value, setValue] = useState<BodyMap>(initial);
  return (
    <BodyMapInput
      value={value}
      language={language}
      previous={previous}
      onChange={(next) => {
        onChange(next);
        setValue(next);
      }}
    />
  );
}

function renderInput(props: Partial<Parameters<typeof Harness>[0]> = {}) {
  const onChange = vi.fn<(next: BodyMap) => void>();
  const user = userEvent.setup();
  render(
    <I18nextProvider i18n={i18n}>
      <Harness onChange={onChange} {...props} />
    </I18nextProvider>,
  );
  return { onChange, user };
}

const region = (name: string | RegExp) => screen.getByRole('button', { name });

describe('BodyMapInput', () => {
  it('draws every area once as a labelled toggle button, front and back', () => {
    renderInput();
    expect(screen.getByText('Tap where you feel pain, then choose how strong it is (1 mild … 10 worst possible).')).toBeVisible();
    const front = screen.getByRole('group', { name: 'Front' });
    const back = screen.getByRole('group', { name: 'Back' });
    const frontButtons = within(front).getAllByRole('button');
    const backButtons = within(back).getAllByRole('button');
    expect(frontButtons.length + backButtons.length).toBe(bodyMapRegions.length);
    expect(within(back).getByRole('button', { name: 'Lower back' })).toHaveAttribute('aria-pressed', 'false');
    expect(within(front).getByRole('button', { name: 'Left thigh (front)' })).toHaveAttribute('tabindex', '0');
    expect(screen.getByText('No areas marked')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Remove' })).not.toBeInTheDocument();
  });

  it('a tapped area records nothing until a level is chosen in the sheet, then shows that level', async () => {
    const { onChange, user } = renderInput();
    await user.click(region('Lower back'));
    // Issue #24 §1: no implicit 5 — the tap only opens the sheet.
    expect(onChange).not.toHaveBeenCalled();
    expect(region('Lower back')).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByText('No areas marked')).toBeInTheDocument();
    const sheet = screen.getByRole('dialog', { name: 'How strong is the pain in: Lower back?' });
    expect(sheet).toHaveAttribute('aria-modal', 'true');
    expect(sheet).toHaveClass('pw-bm-sheet');
    const levels = within(sheet).getAllByRole('button', { name: /^\d+$/ });
    expect(levels.map((button) => button.textContent)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);
    for (const button of levels) expect(button).toHaveAttribute('aria-pressed', 'false');
    expect(within(sheet).queryByRole('button', { name: 'Remove' })).not.toBeInTheDocument();
    expect(levels[0]).toHaveFocus();

    await user.click(within(sheet).getByRole('button', { name: '8' }));
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(onChange).toHaveBeenLastCalledWith({ regions: { 'lower-back': 8 } });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    const marked = region('Lower back, pain 8 of 10');
    expect(marked).toHaveAttribute('aria-pressed', 'true');
    expect(marked).toHaveTextContent('8');
    expect(marked).toHaveFocus();
    expect(screen.getByText('1 area marked')).toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'Areas you marked' })).getByRole('listitem')).toHaveTextContent(
      'Lower back: 8 of 10',
    );
  });

  it('a second area tapped and left without a level is not saved (Cancel, Escape or a tap outside)', async () => {
    const { onChange, user } = renderInput({ initial: { regions: { neck: 3 } } });
    await user.click(region('Right knee'));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await user.click(region('Left hip'));
    await user.keyboard('{Escape}');
    expect(region('Left hip')).toHaveFocus();
    await user.click(region('Chest'));
    await user.click(document.querySelector('.pw-bm-sheet-backdrop')!);
    expect(onChange).not.toHaveBeenCalled();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByText('1 area marked')).toBeInTheDocument();
    expect(region('Right knee')).toHaveAttribute('aria-pressed', 'false');
  });

  it('changes a marked area’s level in the sheet, keeps the others, and lists them head to feet', async () => {
    const { onChange, user } = renderInput({ initial: { regions: { 'left-lower-leg-back': 6, neck: 3 } } });
    expect(screen.getByText('2 areas marked')).toBeInTheDocument();
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual(['3Neck: 3 of 10', '6Left calf: 6 of 10']);
    await user.click(region('Left calf, pain 6 of 10'));
    const sheet = screen.getByRole('dialog', { name: 'How strong is the pain in: Left calf?' });
    expect(within(sheet).getByRole('button', { name: '6' })).toHaveAttribute('aria-pressed', 'true');
    expect(within(sheet).getByRole('button', { name: '6' })).toHaveFocus();
    await user.click(within(sheet).getByRole('button', { name: 'Keep this level' }));
    expect(onChange).not.toHaveBeenCalled();
    await user.click(region('Left calf, pain 6 of 10'));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: '2' }));
    expect(onChange).toHaveBeenLastCalledWith({ regions: { 'left-lower-leg-back': 2, neck: 3 } });
  });

  it('works from the keyboard: Enter opens the sheet, Tab stays in it, a level marks the area and focus returns', async () => {
    const { onChange, user } = renderInput();
    region('Right knee').focus();
    await user.keyboard('{Enter}');
    expect(onChange).not.toHaveBeenCalled();
    const sheet = screen.getByRole('dialog', { name: 'How strong is the pain in: Right knee?' });
    expect(within(sheet).getByRole('button', { name: '1' })).toHaveFocus();
    await user.tab({ shift: true });
    expect(within(sheet).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.tab();
    expect(within(sheet).getByRole('button', { name: '1' })).toHaveFocus();
    await user.tab();
    await user.tab();
    await user.keyboard(' ');
    expect(onChange).toHaveBeenLastCalledWith({ regions: { 'right-knee': 3 } });
    expect(region('Right knee, pain 3 of 10')).toHaveFocus();
  });

  it('reaches the areas with Tab', async () => {
    const { user } = renderInput();
    await user.tab();
    expect(region('Head')).toHaveFocus();
  });

  it('removes a marked area from its sheet and gives the focus back to it', async () => {
    const { onChange, user } = renderInput({ initial: { regions: { 'lower-back': 4, 'right-hip': 7 } } });
    await user.click(region('Lower back, pain 4 of 10'));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Remove' }));
    expect(onChange).toHaveBeenLastCalledWith({ regions: { 'right-hip': 7 } });
    expect(region('Lower back')).toHaveAttribute('aria-pressed', 'false');
    expect(region('Lower back')).toHaveFocus();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByText('1 area marked')).toBeInTheDocument();
  });

  it('an area chosen from the list opens its sheet too, and is marked only with a level', async () => {
    const { onChange, user } = renderInput();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Or choose an area from a list' }), 'Left wrist and hand');
    expect(onChange).not.toHaveBeenCalled();
    const sheet = screen.getByRole('dialog', { name: 'How strong is the pain in: Left wrist and hand?' });
    await user.click(within(sheet).getByRole('button', { name: '4' }));
    expect(onChange).toHaveBeenLastCalledWith({ regions: { 'left-hand': 4 } });
  });

  it('offers "I have no pain anywhere" only while nothing is marked, and a level replaces it', async () => {
    const { onChange, user } = renderInput();
    const none = screen.getByRole('checkbox', { name: 'I have no pain anywhere' });
    expect(none).not.toBeChecked();
    await user.click(none);
    expect(onChange).toHaveBeenLastCalledWith({ regions: {}, noPain: true });
    expect(screen.getByText('No pain anywhere')).toBeInTheDocument();
    await user.click(region('Neck'));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: '2' }));
    expect(onChange).toHaveBeenLastCalledWith({ regions: { neck: 2 } });
    expect(screen.queryByRole('checkbox', { name: 'I have no pain anywhere' })).not.toBeInTheDocument();
  });

  it('speaks Spanish', async () => {
    const { onChange, user } = renderInput({ language: 'es' });
    expect(
      screen.getByText('Toque donde siente dolor y luego elija qué tan fuerte es (1 leve … 10 el peor posible).'),
    ).toBeVisible();
    expect(screen.getByRole('group', { name: 'De espalda' })).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'No tengo dolor en ninguna parte' })).toBeInTheDocument();
    await user.click(region('Parte baja de la espalda'));
    const sheet = screen.getByRole('dialog', { name: '¿Qué tan fuerte es el dolor en: Parte baja de la espalda?' });
    expect(within(sheet).getByRole('button', { name: 'Cancelar' })).toBeInTheDocument();
    await user.click(within(sheet).getByRole('button', { name: '5' }));
    expect(onChange).toHaveBeenLastCalledWith({ regions: { 'lower-back': 5 } });
    expect(region('Parte baja de la espalda, dolor 5 de 10')).toBeInTheDocument();
    await user.click(region('Parte baja de la espalda, dolor 5 de 10'));
    expect(screen.getByRole('button', { name: 'Quitar' })).toBeInTheDocument();
    expect(screen.getByText('1 zona marcada')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Muslo izquierdo (delante)' })).toBeInTheDocument();
  });

  it('shows the last visit read-only beside the input', () => {
    renderInput({ previous: { regions: { 'lower-back': 6, 'left-upper-leg-back': 4 } } });
    const lastVisit = screen.getByRole('figure', { name: 'Last visit' });
    expect(within(lastVisit).queryAllByRole('button')).toHaveLength(0);
    expect(within(lastVisit).getByText('2 areas marked')).toBeInTheDocument();
    expect(
      within(lastVisit)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['6Lower back: 6 of 10', '4Left thigh (back): 4 of 10']);
    // The current map is still empty: the previous one is only shown.
    expect(region('Lower back')).toHaveAttribute('aria-pressed', 'false');
    expect(lastVisit.querySelector('[data-region="lower-back"] text')?.textContent).toBe('6');
  });

  it('draws the patient’s right on the viewer’s left of the front figure and the right of the back figure', () => {
    renderInput();
    const centreX = (name: string) => {
      const shape = region(name).querySelector('.pw-bm-shape')!;
      const x = Number(shape.getAttribute('x') ?? shape.getAttribute('cx'));
      return shape.getAttribute('transform') ? 120 - x : x;
    };
    expect(centreX('Right shoulder')).toBeLessThan(60);
    expect(centreX('Left shoulder')).toBeGreaterThan(60);
    expect(centreX('Left buttock')).toBeLessThan(60);
    expect(centreX('Right buttock')).toBeGreaterThan(60);
  });
});

describe('BodyMapView', () => {
  it('renders a figure with its caption, the count and the list, without buttons', () => {
    render(
      <I18nextProvider i18n={i18n}>
        <BodyMapView value={{ regions: { 'right-jaw': 9, chest: 2 } }} language="es" title="Mapa del dolor" />
      </I18nextProvider>,
    );
    const figure = screen.getByRole('figure', { name: 'Mapa del dolor' });
    expect(within(figure).queryAllByRole('button')).toHaveLength(0);
    expect(within(figure).getByText('2 zonas marcadas')).toBeInTheDocument();
    expect(
      within(figure)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['9Mandíbula, lado derecho: 9 de 10', '2Pecho: 2 de 10']);
  });

  it('says when nothing is marked', () => {
    render(
      <I18nextProvider i18n={i18n}>
        <BodyMapView value={{ regions: {} }} language="en" title="Pain map" />
      </I18nextProvider>,
    );
    expect(screen.getByText('No areas marked')).toBeInTheDocument();
    expect(screen.getByText('0 areas marked')).toBeInTheDocument();
  });
});
