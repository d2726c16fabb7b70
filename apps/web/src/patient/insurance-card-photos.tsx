import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { INSURANCE_CARD_MAX_BYTES, insuranceCardTypes, type InsuranceCardSide } from '@pathwell/contracts/intake';
import { intakeApi, PatientApiError } from './api';

/** Enough to read a card's small print; a phone's 12-megapixel photo shrinks to a few hundred KB. */
export const PHOTO_MAX_EDGE = 1600;
export const PHOTO_QUALITY = 0.8;

class UnreadablePhoto extends Error {}

type Decoded = { source: CanvasImageSource; width: number; height: number; release: () => void };

async function decode(file: Blob): Promise<Decoded> {
  if (typeof createImageBitmap === 'function') {
    // No options: browsers that know 'from-image' default to it (a portrait photo comes out upright), and
    // older ones refuse it as an unknown value.
    const bitmap = await createImageBitmap(file);
    return { source: bitmap, width: bitmap.width, height: bitmap.height, release: () => bitmap.close() };
  }
  const url = URL.createObjectURL(file);
  const image = new Image();
  try {
    await new Promise<void>((resolve, reject) => {
      image.onload = () => resolve();
      image.onerror = () => reject(new UnreadablePhoto());
      image.src = url;
    });
  } catch (failure) {
    URL.revokeObjectURL(url);
    throw failure;
  }
  return { source: image, width: image.naturalWidth, height: image.naturalHeight, release: () => URL.revokeObjectURL(url) };
}

/** The photo redrawn at most `PHOTO_MAX_EDGE` px on its long side, as JPEG. */
async function shrinkPhoto(file: Blob): Promise<Blob> {
  const decoded = await decode(file);
  try {
    const scale = Math.min(1, PHOTO_MAX_EDGE / Math.max(decoded.width, decoded.height));
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(decoded.width * scale));
    canvas.height = Math.max(1, Math.round(decoded.height * scale));
    const context = canvas.getContext('2d');
    if (!context) throw new UnreadablePhoto();
    // JPEG has no transparency: clear parts of a PNG become white rather than black.
    context.fillStyle = '#fff';
    context.fillRect(0, 0, canvas.width, canvas.height);
    context.drawImage(decoded.source, 0, 0, canvas.width, canvas.height);
    return await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new UnreadablePhoto())), 'image/jpeg', PHOTO_QUALITY),
    );
  } finally {
    decoded.release();
  }
}

/** Shrunk when this browser can draw the photo; else the original, if the server takes it as it is. */
async function photoToSend(file: File): Promise<Blob> {
  try {
    return await shrinkPhoto(file);
  } catch {
    if ((insuranceCardTypes as readonly string[]).includes(file.type) && file.size <= INSURANCE_CARD_MAX_BYTES) return file;
    throw new UnreadablePhoto();
  }
}

export { hasSecondaryInsurance } from './insurance-text';

type GoneStatus = 'completed' | 'expired' | 'revoked' | 'locked';

interface PhotoProps {
  token: string;
  accessToken: string;
  onGone: (status: GoneStatus) => void;
  onSessionEnded: () => void;
}

function CardSidePhoto({ side, saved, ...props }: PhotoProps & { side: InsuranceCardSide; saved: boolean }) {
  const { t } = useTranslation(['intake', 'validation']);
  const id = useId();
  const [hasPhoto, setHasPhoto] = useState(saved);
  const [thumbnail, setThumbnail] = useState<string | null>(null);
  const [busy, setBusy] = useState<'loading' | 'saving' | 'removing' | null>(saved ? 'loading' : null);
  const [notice, setNotice] = useState<'saved' | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const shown = useRef<string | null>(null);
  const sideName = t(`cardPhotos.side.${side}`);

  const show = (blob: Blob | null) => {
    if (shown.current) URL.revokeObjectURL(shown.current);
    shown.current = blob ? URL.createObjectURL(blob) : null;
    setThumbnail(shown.current);
  };

  // After a reload the step shows the photo the server holds.
  useEffect(() => {
    if (!saved) return;
    let active = true;
    intakeApi
      .card(props.token, props.accessToken, side)
      .then((blob) => active && show(blob))
      .catch((failure: unknown) => {
        if (!active) return;
        if (failure instanceof PatientApiError && failure.status === 404) setHasPhoto(false);
        else setProblem('intake:cardPhotos.loadFailed');
      })
      .finally(() => active && setBusy(null));
    return () => {
      active = false;
    };
    // Read once, for the photo saved when the step opened.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  useEffect(
    () => () => {
      if (shown.current) URL.revokeObjectURL(shown.current);
    },
    [],
  );

  /** The answer to a failed call: the link's own states leave the step; the rest is said beside the photo. */
  const explain = (failure: unknown, fallback: string) => {
    if (failure instanceof UnreadablePhoto) return setProblem('intake:cardPhotos.unreadable');
    if (failure instanceof PatientApiError) {
      if (failure.goneStatus) return props.onGone(failure.goneStatus);
      if (failure.status === 401) return props.onSessionEnded();
      if (failure.status === 409) return setProblem('intake:cardPhotos.finished');
      const field = failure.body.fields?.file;
      if (field) return setProblem(`validation:${field}`);
    }
    setProblem(fallback);
  };

  const choose = async (file: File) => {
    setBusy('saving');
    setProblem(null);
    setNotice(null);
    try {
      const photo = await photoToSend(file);
      await intakeApi.saveCard(props.token, props.accessToken, side, photo);
      show(photo);
      setHasPhoto(true);
      setNotice('saved');
    } catch (failure) {
      explain(failure, 'intake:cardPhotos.failed');
    } finally {
      setBusy(null);
    }
  };

  const remove = async () => {
    setBusy('removing');
    setProblem(null);
    setNotice(null);
    try {
      await intakeApi.deleteCard(props.token, props.accessToken, side);
      show(null);
      setHasPhoto(false);
    } catch (failure) {
      explain(failure, 'intake:cardPhotos.removeFailed');
    } finally {
      setBusy(null);
    }
  };

  const face = side.endsWith('Front') ? 'front' : 'back';
  const status = busy ? t(`cardPhotos.${busy}`) : notice ? t('cardPhotos.saved') : '';
  return (
    <div className="pw-card-photo" data-testid={`card-photo-${side}`}>
      <p className="pw-card-photo-face">{t(`cardPhotos.face.${face}`)}</p>
      {thumbnail ? (
        <img className="pw-card-photo-thumb" src={thumbnail} alt={t('cardPhotos.alt', { side: sideName })} />
      ) : hasPhoto && busy !== 'loading' ? (
        <p className="pw-hint">{t('cardPhotos.noPreview')}</p>
      ) : null}
      <input
        id={`${id}-file`}
        className="pw-card-photo-input"
        type="file"
        accept="image/*"
        capture="environment"
        disabled={busy !== null}
        aria-describedby={`${id}-status`}
        onChange={(event) => {
          const file = event.target.files?.[0];
          // Cleared, so that choosing the same photo again is a change too.
          event.target.value = '';
          if (file) void choose(file);
        }}
      />
      <label htmlFor={`${id}-file`} className="pw-button pw-button-secondary pw-card-photo-button">
        {hasPhoto ? t('cardPhotos.retake') : t('cardPhotos.take')}
        <span className="pw-visually-hidden"> ({sideName})</span>
      </label>
      {hasPhoto && (
        <button
          type="button"
          className="pw-button-link pw-card-photo-remove"
          disabled={busy !== null}
          aria-label={t('cardPhotos.removeLabel', { side: sideName })}
          onClick={() => void remove()}
        >
          {t('cardPhotos.remove')}
        </button>
      )}
      <p className="pw-save-state" id={`${id}-status`} role="status" aria-live="polite">
        {status}
      </p>
      {problem && (
        <p className="pw-error" role="alert">
          {t(problem)}
        </p>
      )}
    </div>
  );
}

function CardPhotos({
  card,
  saved,
  ...props
}: PhotoProps & { card: 'primary' | 'secondary'; saved: readonly InsuranceCardSide[] }) {
  const { t } = useTranslation('intake');
  const titleId = useId();
  const sides: InsuranceCardSide[] = card === 'primary' ? ['primaryFront', 'primaryBack'] : ['secondaryFront', 'secondaryBack'];
  return (
    <div className="pw-card-photos" role="group" aria-labelledby={titleId}>
      <p className="pw-card-photos-title" id={titleId}>
        {t(`cardPhotos.title.${card}`)}
      </p>
      <p className="pw-hint">{t('cardPhotos.hint')}</p>
      <div className="pw-card-photos-grid">
        {sides.map((side) => (
          <CardSidePhoto key={side} side={side} saved={saved.includes(side)} {...props} />
        ))}
      </div>
    </div>
  );
}

/**
 * Photos of the insurance cards in the paperwork step (issue #12): front and back of the primary card,
 * and of the secondary one once it is entered (or already has a photo). Each photo is shrunk in the
 * browser and saved at once, apart from the step's answers; none is needed to finish the step.
 */
export function InsuranceCardPhotos({
  saved,
  secondary,
  ...props
}: PhotoProps & { saved: readonly InsuranceCardSide[]; secondary: boolean }) {
  const showSecondary = secondary || saved.some((side) => side.startsWith('secondary'));
  return (
    <>
      <CardPhotos card="primary" saved={saved} {...props} />
      {showSecondary && <CardPhotos card="secondary" saved={saved} {...props} />}
    </>
  );
}
