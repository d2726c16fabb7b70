import { useEffect, useId, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { SignatureAnswer } from '@pathwell/contracts/forms';

type Props = {
  value: SignatureAnswer | null;
  onChange: (value: SignatureAnswer | null) => void;
  labelledBy: string;
  describedBy?: string;
  invalid: boolean;
};

const CSS_HEIGHT = 180;
// A sharper line than 1x on phones without making the PNG heavy (the answer allows 400,000 characters).
const MAX_SCALE = 2;

function signatureOf(canvas: HTMLCanvasElement): SignatureAnswer {
  return { image: canvas.toDataURL('image/png'), signedAt: new Date().toISOString() };
}

/**
 * Signature capture with pointer events (finger, pen and mouse alike). The answer is the PNG of the
 * box and the time it was signed. Keyboard and switch users type their name instead; it is drawn into
 * the same box, so staff always see one image.
 */
export function SignaturePad({ value, onChange, labelledBy, describedBy, invalid }: Props) {
  const { t, i18n } = useTranslation('patient');
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const drawing = useRef<{ x: number; y: number } | null>(null);
  const inked = useRef(false);
  const [typedName, setTypedName] = useState('');
  const typedId = useId();
  const typedHintId = useId();

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const scale = Math.min(window.devicePixelRatio || 1, MAX_SCALE);
    const width = canvas.clientWidth || 320;
    canvas.width = Math.round(width * scale);
    canvas.height = Math.round(CSS_HEIGHT * scale);
    const context = canvas.getContext('2d');
    if (!context) return;
    context.scale(scale, scale);
    context.lineWidth = 2.5;
    context.lineCap = 'round';
    context.lineJoin = 'round';
    context.strokeStyle = '#111';
    if (value) {
      const image = new Image();
      image.onload = () => context.drawImage(image, 0, 0, width, CSS_HEIGHT);
      image.src = value.image;
      inked.current = true;
    }
    // Drawn once when the box appears; later strokes draw straight onto the canvas.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const point = (event: ReactPointerEvent<HTMLCanvasElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    return { x: event.clientX - box.left, y: event.clientY - box.top };
  };

  const onPointerDown = (event: ReactPointerEvent<HTMLCanvasElement>) => {
    event.preventDefault();
    event.currentTarget.setPointerCapture?.(event.pointerId);
    const start = point(event);
    drawing.current = start;
    const context = event.currentTarget.getContext('2d');
    if (context) {
      context.beginPath();
      context.arc(start.x, start.y, 1.2, 0, Math.PI * 2);
      context.fillStyle = '#111';
      context.fill();
    }
    inked.current = true;
  };

  const onPointerMove = (event: ReactPointerEvent<HTMLCanvasElement>) => {
    const from = drawing.current;
    if (!from) return;
    event.preventDefault();
    const to = point(event);
    const context = event.currentTarget.getContext('2d');
    if (context) {
      context.beginPath();
      context.moveTo(from.x, from.y);
      context.lineTo(to.x, to.y);
      context.stroke();
    }
    drawing.current = to;
  };

  const onPointerEnd = (event: ReactPointerEvent<HTMLCanvasElement>) => {
    if (!drawing.current) return;
    drawing.current = null;
    event.currentTarget.releasePointerCapture?.(event.pointerId);
    if (inked.current) onChange(signatureOf(event.currentTarget));
  };

  const clear = () => {
    const canvas = canvasRef.current;
    const context = canvas?.getContext('2d');
    if (canvas && context) context.clearRect(0, 0, canvas.width, canvas.height);
    inked.current = false;
    onChange(null);
  };

  const signWithTypedName = () => {
    const canvas = canvasRef.current;
    const name = typedName.trim();
    if (!canvas || !name) return;
    const context = canvas.getContext('2d');
    if (context) {
      const width = canvas.clientWidth || 320;
      context.clearRect(0, 0, canvas.width, canvas.height);
      context.fillStyle = '#111';
      context.font = 'italic 32px "Segoe Script", "Brush Script MT", cursive';
      context.textBaseline = 'middle';
      context.fillText(name, 16, CSS_HEIGHT / 2, width - 32);
    }
    inked.current = true;
    onChange(signatureOf(canvas));
  };

  const signedAt = value ? new Date(value.signedAt).toLocaleString(i18n.language === 'es' ? 'es-US' : 'en-US') : null;

  return (
    <div className="pw-signature">
      <p className="pw-hint">{t('signature.draw')}</p>
      <canvas
        ref={canvasRef}
        className="pw-signature-canvas"
        role="img"
        aria-label={t('signature.canvasLabel')}
        aria-invalid={invalid || undefined}
        data-testid="signature-canvas"
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerEnd}
        onPointerCancel={onPointerEnd}
        onPointerLeave={onPointerEnd}
      />
      <div className="pw-signature-row">
        <button type="button" className="pw-button pw-button-secondary" onClick={clear} aria-describedby={labelledBy}>
          {t('signature.clear')}
        </button>
        {signedAt && (
          <span className="pw-hint" aria-live="polite">
            {t('signature.signedAt', { date: signedAt })}
          </span>
        )}
      </div>
      <div className="pw-field">
        <label htmlFor={typedId}>{t('signature.typedLabel')}</label>
        <p className="pw-hint" id={typedHintId}>
          {t('signature.typedHint')}
        </p>
        <input
          id={typedId}
          className="pw-input"
          type="text"
          autoComplete="name"
          maxLength={100}
          value={typedName}
          aria-describedby={[typedHintId, describedBy].filter(Boolean).join(' ')}
          onChange={(event) => setTypedName(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              signWithTypedName();
            }
          }}
        />
        <button type="button" className="pw-button pw-button-secondary" onClick={signWithTypedName} disabled={!typedName.trim()}>
          {t('signature.typedUse')}
        </button>
      </div>
    </div>
  );
}
