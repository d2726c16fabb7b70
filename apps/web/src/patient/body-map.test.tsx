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

  it('marks a tapped area with level 5, then sets its level to 8', async () => {
    const { onChange, user } = renderInput();
    await user.click(region('Lower back'));
    expect(onChange).toHaveBeenLastCalledWith({ regions: { 'lower-back': 5 } });
    const marked = region('Lower back, pain 5 of 10');
    expect(marked).toHaveAttribute('aria-pressed', 'true');
    expect(marked).toHaveTextContent('5');
    expect(screen.getByText('1 area marked')).toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'Areas you marked' })).getByRole('listitem')).toHaveTextContent(
      'Lower back: 5 of 10',
    );

    const levels = screen.getByRole('group', { name: 'How strong is the pain in: Lower back?' });
    expect(within(levels).getByRole('button', { name: '5' })).toHaveAttribute('aria-pressed', 'true');
    await user.click(within(levels).getByRole('button', { name: '8' }));
    expect(onChange).toHaveBeenLastCalledWith({ regions: { 'lower-back': 8 } });
    expect(within(levels).getByRole('button', { name: '8' })).toHaveAttribute('aria-pressed', 'true');
    expect(region('Lower back, pain 8 of 10')).toHaveTextContent('8');
    expect(screen.getByRole('listitem')).toHaveTextContent('Lower back: 8 of 10');
  });

  it('selects a marked area for its level, keeps the others, and lists them head to feet', async () => {
    const { onChange, user } = renderInput({ initial: { regions: { 'left-lower-leg-back': 6, neck: 3 } } });
    expect(screen.getByText('2 areas marked')).toBeInTheDocument();
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual(['3Neck: 3 of 10', '6Left calf: 6 of 10']);
    await user.click(region('Left calf, pain 6 of 10'));
    expect(onChange).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: '2' }));
    expect(onChange).toHaveBeenLastCalledWith({ regions: { 'left-lower-leg-back': 2, neck: 3 } });
  });

  it('toggles an area with Enter and Space from the keyboard', async () => {
    const { onChange, user } = renderInput();
    region('Right knee').focus();
    await user.keyboard('{Enter}');
    expect(onChange).toHaveBeenLastCalledWith({ regions: { 'right-knee': 5 } });
    expect(region('Right knee, pain 5 of 10')).toHaveFocus();
    expect(region('Right knee, pain 5 of 10')).toHaveAttribute('aria-pressed', 'true');
    await user.keyboard('{Enter}');
    expect(onChange).toHaveBeenLastCalledWith({ regions: {} });
    expect(region('Right knee')).toHaveAttribute('aria-pressed', 'false');
    await user.keyboard(' ');
    expect(onChange).toHaveBeenLastCalledWith({ regions: { 'right-knee': 5 } });
  });

  it('reaches the areas with Tab', async () => {
    const { user } = renderInput();
    await user.tab();
    expect(region('Head')).toHaveFocus();
  });

  it('removes the selected area and gives the focus back to it', async () => {
    const { onChange, user } = renderInput({ initial: { regions: { 'lower-back': 4, 'right-hip': 7 } } });
    await user.click(region('Lower back, pain 4 of 10'));
    await user.click(screen.getByRole('button', { name: 'Remove' }));
    expect(onChange).toHaveBeenLastCalledWith({ regions: { 'right-hip': 7 } });
    expect(region('Lower back')).toHaveAttribute('aria-pressed', 'false');
    expect(region('Lower back')).toHaveFocus();
    expect(screen.queryByRole('button', { name: 'Remove' })).not.toBeInTheDocument();
    expect(screen.getByText('1 area marked')).toBeInTheDocument();
  });

  it('marks an area chosen from the list', async () => {
    const { onChange, user } = renderInput();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Or choose an area from a list' }), 'Left wrist and hand');
    expect(onChange).toHaveBeenLastCalledWith({ regions: { 'left-hand': 5 } });
    expect(screen.getByRole('group', { name: 'How strong is the pain in: Left wrist and hand?' })).toBeInTheDocument();
  });

  it('speaks Spanish', async () => {
    const { onChange, user } = renderInput({ language: 'es' });
    expect(
      screen.getByText('Toque donde siente dolor y luego elija qué tan fuerte es (1 leve … 10 el peor posible).'),
    ).toBeVisible();
    expect(screen.getByRole('group', { name: 'De espalda' })).toBeInTheDocument();
    await user.click(region('Parte baja de la espalda'));
    expect(onChange).toHaveBeenLastCalledWith({ regions: { 'lower-back': 5 } });
    expect(region('Parte baja de la espalda, dolor 5 de 10')).toBeInTheDocument();
    expect(screen.getByRole('group', { name: '¿Qué tan fuerte es el dolor en: Parte baja de la espalda?' })).toBeInTheDocument();
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
