import './body-map.css';
import { useEffect, useId, useRef, useState, type CSSProperties, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  bodyMapRegions,
  PAIN_LEVEL_MAX,
  PAIN_LEVEL_MIN,
  widespreadCount,
  type BodyMap,
  type BodyMapRegion,
  type BodyMapView as View,
} from '@pathwell/contracts/body-map';

/**
 * Pain body map (decision 0031): two figures, front and back, drawn in one 120 × 240 box each. Every
 * area of `bodyMapRegions` is a shape and, in the input, a toggle button; a marked area is filled with
 * the colour of its level and shows the number. Plain React and CSS, for the patient bundle.
 */

type Language = 'en' | 'es';

const WIDTH = 120;
const HEIGHT = 240;
/** The figures' box: the body spans x 21.5–98.5, so the sides are cropped to draw it larger. */
const VIEW_X = 14;
const VIEW_WIDTH = WIDTH - 2 * VIEW_X;
const LEVELS = Array.from({ length: PAIN_LEVEL_MAX - PAIN_LEVEL_MIN + 1 }, (_, index) => PAIN_LEVEL_MIN + index);

type Shape =
  | { kind: 'rect'; x: number; y: number; width: number; height: number; radius: number }
  | { kind: 'ellipse'; cx: number; cy: number; rx: number; ry: number };

/**
 * Each part drawn on the viewer's left half (paired parts) or across the middle (centre parts); the
 * other side is the mirror image. The front figure faces the viewer, so the patient's right is on the
 * viewer's left; the back figure is seen from behind, so the patient's left is on the viewer's left.
 */
const rect = (x: number, y: number, width: number, height: number, radius: number): Shape => ({
  kind: 'rect',
  x,
  y,
  width,
  height,
  radius,
});
const ellipse = (cx: number, cy: number, rx: number, ry: number): Shape => ({ kind: 'ellipse', cx, cy, rx, ry });

const parts: Record<string, Shape> = {
  head: ellipse(60, 19, 12, 15),
  jaw: ellipse(52.5, 28.5, 6, 5),
  neck: rect(53, 32, 14, 13, 3),
  shoulder: ellipse(37, 50, 9, 7),
  chest: rect(44, 44, 32, 29, 5),
  'upper-back': rect(44, 44, 32, 33, 5),
  'upper-arm': rect(27, 56, 11, 28, 5),
  elbow: ellipse(31, 89, 6, 5.5),
  abdomen: rect(44, 73, 32, 27, 4),
  'lower-back': rect(44, 77, 32, 25, 4),
  'lower-arm': rect(24, 94, 11, 27, 5),
  hand: ellipse(28, 130, 6.5, 9),
  hip: rect(40, 99, 10, 20, 5),
  pelvis: rect(50, 100, 20, 18, 4),
  buttock: rect(42, 102, 17.5, 22, 8),
  'upper-leg': rect(44, 118, 15, 46, 6),
  'upper-leg-back': rect(44, 124, 15, 40, 6),
  knee: ellipse(51.5, 170, 7, 6.5),
  'lower-leg': rect(46, 176, 12, 42, 5),
  'lower-leg-back': rect(46, 176, 12, 42, 5),
  foot: ellipse(51.5, 226, 8, 8),
};

/** Parts of the outline that are not areas of the view they are drawn on (grey, not selectable). */
const outlineOnly: Record<View, { part: string; paired: boolean }[]> = {
  front: [{ part: 'neck', paired: false }],
  back: [
    { part: 'head', paired: false },
    ...['shoulder', 'upper-arm', 'elbow', 'lower-arm', 'hand', 'knee', 'foot'].map((part) => ({ part, paired: true })),
  ],
};

function partOf(region: BodyMapRegion): string {
  return region.side === 'center' ? region.id : region.id.slice(region.side.length + 1);
}

/** Whether the area is drawn mirrored (on the viewer's right). */
function mirrored(region: BodyMapRegion): boolean {
  if (region.side === 'center') return false;
  return region.view === 'front' ? region.side === 'left' : region.side === 'right';
}

function centreOf(shape: Shape, mirror: boolean): { x: number; y: number } {
  const x = shape.kind === 'rect' ? shape.x + shape.width / 2 : shape.cx;
  const y = shape.kind === 'rect' ? shape.y + shape.height / 2 : shape.cy;
  return { x: mirror ? WIDTH - x : x, y };
}

function ShapeElement({ shape, mirror, className, fill }: { shape: Shape; mirror: boolean; className: string; fill?: string }) {
  const transform = mirror ? `translate(${WIDTH} 0) scale(-1 1)` : undefined;
  return shape.kind === 'rect' ? (
    <rect
      className={className}
      x={shape.x}
      y={shape.y}
      width={shape.width}
      height={shape.height}
      rx={shape.radius}
      transform={transform}
      fill={fill}
    />
  ) : (
    <ellipse className={className} cx={shape.cx} cy={shape.cy} rx={shape.rx} ry={shape.ry} transform={transform} fill={fill} />
  );
}

/** Fill per level, light yellow (1) to dark red (10); the number is always written on top. */
const levelColours = [
  '#ffffcc',
  '#ffeda0',
  '#fed976',
  '#feb24c',
  '#fd8d3c',
  '#fc4e2a',
  '#e31a1c',
  '#bd0026',
  '#800026',
  '#4d0019',
];

function levelColour(level: number): string {
  return levelColours[Math.min(Math.max(Math.round(level), PAIN_LEVEL_MIN), PAIN_LEVEL_MAX) - 1]!;
}

/** Text on the level colour: dark on the light half, white on the dark half (contrast 4.5:1 or more). */
function levelTextColour(level: number): string {
  return level <= 6 ? '#111827' : '#ffffff';
}

function levelOf(map: BodyMap | null | undefined, id: string): number | undefined {
  return map && Object.hasOwn(map.regions, id) ? map.regions[id] : undefined;
}

type FigureProps = {
  view: View;
  value: BodyMap;
  language: Language;
  /** Present in the input only: the areas become buttons that open the level sheet. */
  interactive?: {
    selected: string | null;
    onActivate: (id: string) => void;
    register: (id: string, element: SVGGElement | null) => void;
  };
};

function Figure({ view, value, language, interactive }: FigureProps) {
  const { t } = useTranslation('bodyMap', { lng: language });
  const captionId = useId();
  const hintId = useId();
  const regions = bodyMapRegions.filter((region) => region.view === view);
  const onKeyDown = (id: string) => (event: KeyboardEvent<SVGGElement>) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      interactive?.onActivate(id);
    }
  };
  // The patient's right is on the viewer's left on the front figure, and on the viewer's right behind.
  const [leftLetter, rightLetter] = view === 'front' ? [t('rightShort'), t('leftShort')] : [t('leftShort'), t('rightShort')];

  return (
    <div className="pw-bm-figure">
      <p className="pw-bm-figure-caption" id={captionId}>
        {t(view)}
      </p>
      {interactive && (
        <p className="pw-bm-figure-hint" id={hintId}>
          {t(view === 'front' ? 'frontHint' : 'backHint')}
        </p>
      )}
      <svg
        className="pw-bm-svg"
        viewBox={`${VIEW_X} 0 ${VIEW_WIDTH} ${HEIGHT}`}
        {...(interactive
          ? { role: 'group', 'aria-labelledby': captionId, 'aria-describedby': hintId }
          : { 'aria-hidden': true, focusable: false })}
      >
        <text className="pw-bm-side" x={VIEW_X + 2} y={12} aria-hidden="true">
          {leftLetter}
        </text>
        <text className="pw-bm-side" x={WIDTH - VIEW_X - 2} y={12} textAnchor="end" aria-hidden="true">
          {rightLetter}
        </text>
        {outlineOnly[view].flatMap(({ part, paired }) =>
          (paired ? [false, true] : [false]).map((mirror) => (
            <ShapeElement key={`${part}-${mirror}`} shape={parts[part]!} mirror={mirror} className="pw-bm-outline" />
          )),
        )}
        {regions.map((region) => {
          const shape = parts[partOf(region)]!;
          const mirror = mirrored(region);
          const level = levelOf(value, region.id);
          const marked = level !== undefined;
          const label = region.label[language];
          const centre = centreOf(shape, mirror);
          const selected = interactive?.selected === region.id;
          const className = ['pw-bm-region', marked ? 'pw-bm-marked' : '', selected ? 'pw-bm-selected' : '']
            .filter(Boolean)
            .join(' ');
          const content: ReactNode = (
            <>
              <ShapeElement
                shape={shape}
                mirror={mirror}
                className="pw-bm-shape"
                fill={marked ? levelColour(level) : '#ffffff'}
              />
              {marked && (
                <text
                  className="pw-bm-number"
                  x={centre.x}
                  y={centre.y}
                  textAnchor="middle"
                  dominantBaseline="central"
                  fill={levelTextColour(level)}
                  aria-hidden="true"
                >
                  {level}
                </text>
              )}
            </>
          );
          if (!interactive) {
            return (
              <g key={region.id} className={className} data-region={region.id}>
                {content}
              </g>
            );
          }
          return (
            <g
              key={region.id}
              ref={(element) => interactive.register(region.id, element)}
              className={className}
              data-region={region.id}
              role="button"
              tabIndex={0}
              aria-haspopup="dialog"
              aria-pressed={marked}
              aria-label={marked ? t('regionMarked', { region: label, level }) : label}
              onClick={() => interactive.onActivate(region.id)}
              onKeyDown={onKeyDown(region.id)}
            >
              {content}
            </g>
          );
        })}
      </svg>
    </div>
  );
}

/** The marked areas in head-to-feet order, with their level: what a screen reader and staff read. */
function MarkedList({ value, language, labelledBy }: { value: BodyMap; language: Language; labelledBy: string }) {
  const { t } = useTranslation('bodyMap', { lng: language });
  const marked = bodyMapRegions.flatMap((region) => {
    const level = levelOf(value, region.id);
    return level === undefined ? [] : [{ region, level }];
  });
  if (marked.length === 0) return <p className="pw-bm-none">{t(value.noPain ? 'noPainAnywhere' : 'noneMarked')}</p>;
  return (
    <ul className="pw-bm-list" aria-labelledby={labelledBy}>
      {marked.map(({ region, level }) => (
        <li key={region.id} className="pw-bm-list-item">
          <span
            className="pw-bm-swatch"
            style={{ background: levelColour(level), color: levelTextColour(level) }}
            aria-hidden="true"
          >
            {level}
          </span>
          <span>{t('listItem', { region: region.label[language], level })}</span>
        </li>
      ))}
    </ul>
  );
}

function ReadOnlyMap({
  value,
  language,
  title,
  compact,
}: {
  value: BodyMap;
  language: Language;
  title: string;
  compact?: boolean;
}) {
  const { t } = useTranslation('bodyMap', { lng: language });
  const titleId = useId();
  return (
    <figure className={compact ? 'pw-bm pw-bm-view pw-bm-compact' : 'pw-bm pw-bm-view'} aria-labelledby={titleId}>
      <figcaption className="pw-bm-title" id={titleId}>
        {title}
      </figcaption>
      <div className="pw-bm-figures">
        <Figure view="front" value={value} language={language} />
        <Figure view="back" value={value} language={language} />
      </div>
      <p className="pw-bm-count">{t('count', { count: widespreadCount(value) })}</p>
      <MarkedList value={value} language={language} labelledBy={titleId} />
    </figure>
  );
}

/** Read-only body map (patient summary, staff screens): both figures, the count and the list. */
export function BodyMapView({ value, language, title }: { value: BodyMap; language: Language; title: string }) {
  return <ReadOnlyMap value={value} language={language} title={title} />;
}

/**
 * The 1–10 choice for one area, as a sheet along the bottom of the screen (issue #24 §1): on a phone
 * it opens where the thumb is, whatever part of the figure was tapped. Nothing is recorded until a
 * level is chosen; closing it (Cancel, Escape, a tap outside) leaves the area as it was.
 */
function LevelSheet({
  region,
  level,
  language,
  onChoose,
  onRemove,
  onClose,
}: {
  region: BodyMapRegion;
  level: number | undefined;
  language: Language;
  onChoose: (level: number) => void;
  onRemove: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('bodyMap', { lng: language });
  const titleId = useId();
  const hintId = useId();
  const sheet = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const first =
      sheet.current?.querySelector<HTMLButtonElement>('[aria-pressed="true"]') ?? sheet.current?.querySelector('button');
    first?.focus();
  }, []);
  // A modal sheet keeps the keyboard inside it until it closes.
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      onClose();
      return;
    }
    if (event.key !== 'Tab') return;
    const buttons = Array.from(sheet.current?.querySelectorAll<HTMLButtonElement>('button') ?? []);
    const first = buttons[0];
    const last = buttons[buttons.length - 1];
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last?.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first?.focus();
    }
  };
  return (
    <>
      <div className="pw-bm-sheet-backdrop" aria-hidden="true" onClick={onClose} />
      <div
        ref={sheet}
        className="pw-bm-sheet"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={hintId}
        data-testid="body-map-sheet"
        onKeyDown={onKeyDown}
      >
        <p className="pw-bm-level-legend" id={titleId}>
          {t('levelFor', { region: region.label[language] })}
        </p>
        <p className="pw-bm-anchors" id={hintId}>
          <span>{t('levelMild')}</span>
          <span>{t('levelWorst')}</span>
        </p>
        <div className="pw-bm-level-buttons">
          {LEVELS.map((candidate) => (
            <button
              key={candidate}
              type="button"
              className="pw-bm-level-button"
              aria-pressed={level === candidate}
              style={{ '--pw-bm-level-colour': levelColour(candidate) } as CSSProperties}
              onClick={() => onChoose(candidate)}
            >
              {candidate}
            </button>
          ))}
        </div>
        <div className="pw-bm-sheet-actions">
          {level !== undefined && (
            <button type="button" className="pw-bm-remove" onClick={onRemove}>
              {t('remove')}
            </button>
          )}
          <button type="button" className="pw-bm-remove" onClick={onClose}>
            {t(level === undefined ? 'cancel' : 'keep')}
          </button>
        </div>
      </div>
    </>
  );
}

/**
 * The patient's input. Activating an area (tap, click, Enter or Space, or the list) opens the level
 * sheet for it; only a chosen level marks it (decision 0061). An empty map is an answer only with
 * "I have no pain anywhere" ticked, which is offered while no area is marked.
 */
export function BodyMapInput({
  value,
  onChange,
  language,
  previous,
  error,
}: {
  value: BodyMap;
  onChange: (next: BodyMap) => void;
  language: Language;
  previous?: BodyMap | null;
  /** A validation message key for the whole map (nothing marked, or areas beside "no pain"). */
  error?: string;
}) {
  const { t } = useTranslation('bodyMap', { lng: language });
  const { t: tv } = useTranslation('validation', { lng: language });
  const [open, setOpen] = useState<string | null>(null);
  const regionElements = useRef(new Map<string, SVGGElement>());
  const listTitleId = useId();
  const pickerId = useId();
  const errorId = useId();

  const openRegion = open === null ? undefined : bodyMapRegions.find((region) => region.id === open);
  const close = (focusRegion = true) => {
    const id = open;
    setOpen(null);
    // Back to the area the sheet was for, so keyboard and screen-reader users keep their place.
    if (focusRegion && id !== null) regionElements.current.get(id)?.focus();
  };
  const choose = (level: number) => {
    if (open === null) return;
    onChange({ regions: { ...value.regions, [open]: level } });
    close();
  };
  const remove = () => {
    if (open === null) return;
    onChange({ regions: Object.fromEntries(Object.entries(value.regions).filter(([key]) => key !== open)) });
    close();
  };
  const interactive = {
    selected: open,
    onActivate: (id: string) => setOpen(id),
    register: (id: string, element: SVGGElement | null) => {
      if (element) regionElements.current.set(id, element);
      else regionElements.current.delete(id);
    },
  };
  const count = widespreadCount(value);

  return (
    <div className="pw-bm pw-bm-input">
      <p className="pw-bm-instructions">{t('instructions')}</p>
      <div className="pw-bm-figures">
        <Figure view="front" value={value} language={language} interactive={interactive} />
        <Figure view="back" value={value} language={language} interactive={interactive} />
      </div>

      <div className="pw-bm-picker">
        <label htmlFor={pickerId}>{t('addFromList')}</label>
        <select
          id={pickerId}
          className="pw-bm-select"
          value=""
          onChange={(event) => {
            if (event.target.value) setOpen(event.target.value);
          }}
        >
          <option value="">{t('choose')}</option>
          {(['front', 'back'] as const).map((view) => (
            <optgroup key={view} label={t(view === 'front' ? 'frontAreas' : 'backAreas')}>
              {bodyMapRegions
                .filter((region) => region.view === view)
                .map((region) => (
                  <option key={region.id} value={region.id}>
                    {region.label[language]}
                  </option>
                ))}
            </optgroup>
          ))}
        </select>
      </div>

      {count === 0 && (
        <label className="pw-choice pw-bm-no-pain">
          <input
            type="checkbox"
            checked={Boolean(value.noPain)}
            aria-describedby={error ? errorId : undefined}
            onChange={(event) => onChange(event.target.checked ? { regions: {}, noPain: true } : { regions: {} })}
          />
          <span>{t('noPainAnywhereChoice')}</span>
        </label>
      )}
      {error && (
        <p className="pw-error" id={errorId}>
          {tv(error)}
        </p>
      )}

      <div className="pw-bm-summary">
        <p className="pw-bm-summary-title" id={listTitleId}>
          {t('marked')}
        </p>
        <p className="pw-bm-count" aria-live="polite">
          {t('count', { count })}
        </p>
        <MarkedList value={value} language={language} labelledBy={listTitleId} />
      </div>

      {previous && <ReadOnlyMap value={previous} language={language} title={t('lastVisit')} compact />}

      {openRegion && (
        <LevelSheet
          key={openRegion.id}
          region={openRegion}
          level={levelOf(value, openRegion.id)}
          language={language}
          onChoose={choose}
          onRemove={remove}
          onClose={() => close()}
        />
      )}
    </div>
  );
}
